#pragma once
// SHA-256 (FIPS 180-4) of bytes and files, by OpenSSL's libcrypto: what a board's provenance
// manifest records of its dataset, so that results of different data are never merged unnoticed.

#include <string>
#include <string_view>

namespace brec {

/// The SHA-256 of `bytes` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

/// The SHA-256 of a file's bytes, read in chunks. Throws IoError naming the file when it cannot be
/// read.
std::string sha256_file(const std::string& path);

}  // namespace brec
