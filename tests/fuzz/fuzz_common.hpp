#pragma once
// Shared by the fuzz targets: every input must either parse or throw a brec::Error; anything else
// (a crash, a sanitizer report, another exception type) is a bug that libFuzzer reports.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include "brec/core/error.hpp"

namespace brec::fuzz {

/// Aborts (so libFuzzer records the input) when a round-trip property fails.
inline void check(bool ok, const char* what) {
    if (!ok) {
        __builtin_printf("property violated: %s\n", what);
        std::abort();
    }
}

/// Runs `f`, tolerating brec errors (malformed input is expected) and nothing else.
template <typename F>
void run(F&& f) {
    try {
        f();
    } catch (const brec::Error&) {
    }
}

inline std::string text(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

/// `s` cut at NUL bytes into at most `parts` pieces (the last one keeps any further NULs): how a
/// target that reads several files takes them from one input.
inline std::vector<std::string> split(const std::string& s, std::size_t parts) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t z = out.size() + 1 == parts ? std::string::npos : s.find('\0', start);
        out.push_back(s.substr(start, z == std::string::npos ? std::string::npos : z - start));
        if (z == std::string::npos) return out;
        start = z + 1;
    }
}

/// A scratch directory of this process (made once) for targets whose reader takes paths: in
/// memory (/dev/shm) where there is one, since these targets write files on every input.
inline const std::string& scratch_dir() {
    static const std::string dir = [] {
        for (const char* base : {"/dev/shm", "/tmp"}) {
            std::string tmpl = std::string(base) + "/brec_fuzz_XXXXXX";
            if (::mkdtemp(tmpl.data())) return tmpl;
        }
        return std::string("/tmp");
    }();
    return dir;
}

/// Writes `bytes` to `path`, replacing the file.
inline void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// The vertex count a record declares (its size field, after the optional headers and ':'), or 0
/// when there is none to read: the reader reports those.
inline std::uint64_t declared_vertices(std::string_view s) {
    std::size_t i = 0;
    for (const char* header : {">>graph6<<", ">>sparse6<<"})
        if (s.substr(i, std::char_traits<char>::length(header)) == header) i += std::char_traits<char>::length(header);
    if (i < s.size() && s[i] == ':') ++i;
    const auto byte = [&](std::size_t k) -> std::uint64_t {
        const auto c = k < s.size() ? static_cast<unsigned char>(s[k]) : 0u;
        return c >= 63 && c <= 126 ? c - 63u : 0u;
    };
    if (byte(i) < 63) return byte(i);
    const bool eight = byte(i + 1) == 63;
    std::uint64_t n = 0;
    for (std::size_t k = eight ? i + 2 : i + 1; k < (eight ? i + 8 : i + 4); ++k) n = (n << 6) | byte(k);
    return n;
}

/// Whether a graph6/sparse6 record starting anywhere in `text` declares more than `bound` vertices:
/// the targets whose files embed such records (pair TSV, .npy) skip those inputs, as the graph6
/// target does, so that one iteration builds at most `bound` vertices per record.
inline bool declares_more_than(std::string_view text, std::uint64_t bound) {
    for (std::size_t i = 0; i < text.size(); ++i)
        if (declared_vertices(text.substr(i)) > bound) return true;
    return false;
}

}  // namespace brec::fuzz
