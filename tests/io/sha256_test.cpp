// SHA-256 by libcrypto: the test vectors published with FIPS 180-2 (appendix B), the same digests
// from files (one read and several 1 MiB chunks), and an unreadable file.
#include "brec/io/sha256.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "brec/core/error.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::fresh_temp_file;
using testing::temp_path;

constexpr const char* kMillionA = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";

TEST(Sha256, PublishedVectors) {
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), kMillionA);
}

TEST(Sha256, FilesInChunks) {
    const std::string small = fresh_temp_file("sha256", "abc"), million = fresh_temp_file("sha256", "million"),
                      large = fresh_temp_file("sha256", "large");
    std::ofstream(small, std::ios::binary) << "abc";
    std::ofstream(million, std::ios::binary) << std::string(1000000, 'a');
    // Three and a half chunks of the file reader, with a byte of every value.
    std::string bytes;
    for (int i = 0; i < 3670016; ++i) bytes += static_cast<char>((i * 7 + i / 256) & 255);
    std::ofstream(large, std::ios::binary) << bytes;
    EXPECT_EQ(sha256_file(small), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_file(million), kMillionA);
    EXPECT_EQ(sha256_file(large), sha256_hex(bytes));
    EXPECT_THROW(sha256_file(temp_path("sha256", "missing")), IoError);
}

}  // namespace
}  // namespace brec
