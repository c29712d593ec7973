#pragma once
// Small helpers shared by the test suites.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "brec/core/error.hpp"
#include "common/temp_cleanup.hpp"

namespace brec::testing {

/// The message of the brec::Error that f() throws, or "" when it throws none.
template <typename F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

/// A path in the test temp directory, unique per process and tag; nothing is created there.
inline std::string temp_path(const std::string& tag, const std::string& name) {
    return ::testing::TempDir() + "brec_" + tag + "_" + std::to_string(::getpid()) + "_" + name;
}

/// As temp_path, with any file left there by an earlier run removed.
inline std::string fresh_temp_file(const std::string& tag, const std::string& name) {
    const std::string p = temp_path(tag, name);
    std::remove(p.c_str());
    return p;
}

}  // namespace brec::testing
