#include "brec/io/sha256.hpp"

#include <openssl/evp.h>

#include <fstream>
#include <memory>
#include <vector>

#include "brec/core/error.hpp"

namespace brec {

namespace {

/// An EVP digest context for SHA-256, freed on every path out.
class Sha256 {
public:
    Sha256() : ctx_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
        if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1)
            throw Error("libcrypto could not start a SHA-256 digest");
    }
    void update(const char* data, std::size_t size) {
        if (size > 0 && EVP_DigestUpdate(ctx_.get(), data, size) != 1) throw Error("libcrypto SHA-256 update failed");
    }
    std::string hex() {
        unsigned char digest[EVP_MAX_MD_SIZE];
        unsigned int length = 0;
        if (EVP_DigestFinal_ex(ctx_.get(), digest, &length) != 1) throw Error("libcrypto SHA-256 final failed");
        static constexpr char kDigits[] = "0123456789abcdef";
        std::string out;
        for (unsigned int i = 0; i < length; ++i) {
            out += kDigits[digest[i] >> 4];
            out += kDigits[digest[i] & 15];
        }
        return out;
    }

private:
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx_;
};

}  // namespace

std::string sha256_hex(std::string_view bytes) {
    Sha256 sha;
    sha.update(bytes.data(), bytes.size());
    return sha.hex();
}

std::string sha256_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError("cannot read " + path);
    Sha256 sha;
    std::vector<char> buffer(1 << 20);
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        sha.update(buffer.data(), static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) throw IoError("error reading " + path);
    return sha.hex();
}

}  // namespace brec
