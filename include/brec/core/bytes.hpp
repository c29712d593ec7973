#pragma once
// Memory sizes as people write and read them: "8G", "512M", "41.2 GiB".

#include <cstdint>
#include <string>

namespace brec {

/// A memory size from text: a number (decimals allowed) with an optional binary unit K, M, G or T
/// (1K = 1024 bytes), which may be followed by "B" or "iB", case-insensitive: "8G", "512M",
/// "1.5GiB", "4096". Throws InvalidArgument naming the text unless it is a positive size of at
/// most 2^63 bytes.
std::uint64_t parse_byte_size(const std::string& text);

/// A memory size for people, in binary units: "900 B", "12.0 KiB", "41.2 GiB".
std::string format_bytes(std::uint64_t bytes);

}  // namespace brec
