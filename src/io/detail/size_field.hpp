#pragma once
// The size field N(n) of a graph6 / sparse6 record (nauty's formats.txt): one byte 63 + n for
// n < 63; 126 and three bytes of 6 bits for n < 2^18; 126, 126 and six bytes for n < 2^36. Shared
// by the graph6 reader (which turns a failure into a positioned error) and the .npy reader (which
// sizes records without parsing them).

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace brec::detail {

struct SizeField {
    std::uint64_t n = 0;
    std::size_t length = 0;  ///< bytes of the field; 0 when it cannot be read
    std::size_t bad = 0;     ///< length 0: offset of the first missing (>= size) or invalid byte
};

/// Decodes the size field that starts at `at`; bytes are checked in order, so `bad` is the first
/// offset that is missing or outside 63..126.
inline SizeField decode_size_field(std::string_view s, std::size_t at) {
    SizeField f;
    auto value = [&](std::size_t k, std::uint64_t& v) {
        if (k >= s.size()) return false;
        const unsigned char c = static_cast<unsigned char>(s[k]);
        if (c < 63 || c > 126) return false;
        v = c - 63u;
        return true;
    };
    std::uint64_t first = 0;
    if (!value(at, first)) {
        f.bad = at;
        return f;
    }
    if (first < 63) {
        f.n = first;
        f.length = 1;
        return f;
    }
    const bool eight = at + 1 < s.size() && static_cast<unsigned char>(s[at + 1]) == 126;
    const std::size_t from = eight ? at + 2 : at + 1, to = eight ? at + 8 : at + 4;
    for (std::size_t k = from; k < to; ++k) {
        std::uint64_t v = 0;
        if (!value(k, v)) {
            f.bad = k;
            f.n = 0;
            return f;
        }
        f.n = (f.n << 6) | v;
    }
    f.length = to - at;
    return f;
}

}  // namespace brec::detail
