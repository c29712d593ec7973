#pragma once
// Shared by the fuzz targets: every input must either parse or throw a brec::Error; anything else
// (a crash, a sanitizer report, another exception type) is a bug that libFuzzer reports.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

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

}  // namespace brec::fuzz
