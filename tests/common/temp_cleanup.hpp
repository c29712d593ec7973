#pragma once
// Test programs remove the temp files they made (named brec_..._<pid>... in the test temp
// directory) when they end, so repeated runs do not fill /tmp.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace brec::testing {

class TempFileCleanup : public ::testing::Environment {
public:
    void TearDown() override {
        namespace fs = std::filesystem;
        const std::string pid = std::to_string(::getpid());
        std::error_code ec;
        for (fs::directory_iterator it(::testing::TempDir(), ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (name.rfind("brec_", 0) == 0 && ours(name, pid)) fs::remove_all(it->path(), ec);
        }
    }

private:
    /// True when `_<pid>` appears in name followed by '_', '.' or the end.
    static bool ours(const std::string& name, const std::string& pid) {
        const std::string key = "_" + pid;
        for (auto at = name.find(key); at != std::string::npos; at = name.find(key, at + 1)) {
            const auto next = at + key.size();
            if (next == name.size() || name[next] == '_' || name[next] == '.') return true;
        }
        return false;
    }
};

/// Registered once per test program by the first translation unit that includes this header.
inline ::testing::Environment* const temp_file_cleanup = ::testing::AddGlobalTestEnvironment(new TempFileCleanup);

}  // namespace brec::testing
