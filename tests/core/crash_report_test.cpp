// The crash report every test program carries (tests/common/crash_report.cpp): a child process
// that takes a fatal signal writes the signal and a backtrace naming its frames, and still dies of
// that signal.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <initializer_list>
#include <string>
#include <utility>

namespace brec {

/// Outside the anonymous namespace: only functions with external linkage are in the dynamic
/// symbol table, where the backtrace finds names. Not a tail call, so that its frame stays.
__attribute__((noinline)) int crash_in_a_named_function(int sig) { return raise(sig) + 1; }

namespace {

/// Runs crash_in_a_named_function(sig) in a child; its stderr and wait status.
std::pair<std::string, int> crash_child(int sig) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return {"", -1};
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(pipe_fds[1], STDERR_FILENO);
        close(pipe_fds[0]);
        crash_in_a_named_function(sig);
        _exit(0);  // not reached
    }
    close(pipe_fds[1]);
    std::string out;
    char buffer[4096];
    for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<size_t>(n));
    close(pipe_fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return {out, status};
}

TEST(CrashReport, AFatalSignalWritesABacktraceAndStillKills) {
    for (int sig : {SIGSEGV, SIGABRT}) {
        const auto [err, status] = crash_child(sig);
        ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
        EXPECT_EQ(WTERMSIG(status), sig);
        EXPECT_NE(err.find("killed by signal " + std::to_string(sig) + " "), std::string::npos) << err;
        // The frame of the function that crashed, by its (mangled) name.
        EXPECT_NE(err.find("crash_in_a_named_function"), std::string::npos) << err;
    }
}

}  // namespace
}  // namespace brec
