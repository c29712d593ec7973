// Ctrl-C and SIGTERM during a pair command: the run stops soon, exits 128 + signal with one line on
// stderr, leaves its results file with whole records only, and --resume completes it with the
// records an uninterrupted run gives.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "brec/io/files.hpp"
#include "cli/cli_util.hpp"

namespace {

using clitest::temp_path;

/// A running `brec` process started without a shell, so that signals reach brec itself.
class Running {
public:
    Running(const std::vector<std::string>& args, const std::string& err_file) : args_(args) {
        // Everything the child needs is prepared before fork(): the child only calls
        // async-signal-safe functions.
        args_.insert(args_.begin(), BREC_BINARY);
        std::vector<char*> argv;
        for (auto& a : args_) argv.push_back(a.data());
        argv.push_back(nullptr);
        pid_ = fork();
        if (pid_ == 0) {
            const int out = open("/dev/null", O_WRONLY);
            const int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(out, STDOUT_FILENO);
            dup2(err, STDERR_FILENO);
            execv(argv[0], argv.data());
            _exit(127);
        }
    }
    void signal(int sig) const { kill(pid_, sig); }
    /// Waits for the exit; the exit code, or -1 when the process was killed by a signal.
    int wait() const {
        int status = 0;
        waitpid(pid_, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

private:
    std::vector<std::string> args_;
    pid_t pid_ = -1;
};

/// Lines of `path`, each required to be one whole JSON object.
std::vector<nlohmann::json> whole_records(const std::string& path) {
    std::vector<nlohmann::json> out;
    if (!brec::file_exists(path)) return out;
    const std::string text = brec::read_text_file(path);
    EXPECT_TRUE(text.empty() || text.back() == '\n') << "a torn last line";
    for (const auto& line : brec::split_lines(text)) {
        const auto j = nlohmann::json::parse(line, nullptr, false);
        EXPECT_TRUE(j.is_object()) << "not a whole record: " << line;
        if (j.is_object()) out.push_back(j);
    }
    return out;
}

/// The parts of a certify record that do not depend on timing.
std::map<int, std::string> levels_by_id(const std::vector<nlohmann::json>& records) {
    std::map<int, std::string> out;
    for (const auto& j : records) {
        if (!j.contains("id")) continue;
        std::string steps;
        for (const auto& s : j["steps"])
            steps += std::to_string(s["rounds"].get<int>()) + (s["distinguished"] ? "d " : " ");
        out[j["id"].get<int>()] = j["level"].get<std::string>() + " " + steps;
    }
    return out;
}

bool wait_for_lines(const std::string& path, std::size_t lines, double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        if (brec::file_exists(path)) {
            const std::string text = brec::read_text_file(path);
            if (static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) >= lines) return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

// Four CFI pairs that only 3-FWL separates (n = 80 to 84), about 0.6 s each.
const char* kPairs = "320,321,325,326";

TEST(Interrupt, SigintKeepsWholeRecordsAndResumeCompletesTheRun) {
    const std::string out = temp_path("interrupted.jsonl"), err = temp_path("interrupted.err");
    std::remove(out.c_str());
    Running run({"certify", "--pairs", kPairs, "--quiet", "--out", out}, err);
    wait_for_lines(out, 1, 5.0);
    run.signal(SIGINT);
    ASSERT_EQ(run.wait(), 130) << brec::read_text_file(err);
    const std::string message = brec::read_text_file(err);
    const auto kept = whole_records(out);
    EXPECT_LT(kept.size(), 4u) << "the run was not interrupted";
    EXPECT_EQ(message, "brec: interrupted; " + std::to_string(kept.size()) + " results kept in " + out +
                           ", rerun with --resume\n");

    const clitest::Result resumed =
        clitest::brec(std::string("certify --quiet --json --resume --pairs ") + kPairs + " --out " + out);
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    const auto all = whole_records(out);
    EXPECT_EQ(all.size(), 4u) << "each pair once";
    const clitest::Result fresh = clitest::brec(std::string("certify --quiet --json --pairs ") + kPairs);
    ASSERT_EQ(fresh.code, 0) << fresh.err;
    std::vector<nlohmann::json> printed;
    for (const auto& line : brec::split_lines(fresh.out)) printed.push_back(nlohmann::json::parse(line));
    const auto want = levels_by_id(printed);
    EXPECT_EQ(want.size(), 4u);
    EXPECT_EQ(levels_by_id(all), want);
    std::remove(out.c_str());
    std::remove(err.c_str());
}

TEST(Interrupt, SigtermStopsALongComparisonWithinIt) {
    // Pair 341 (n = 154): its 3-FWL comparison on every tuple (--no-orbits: the orbits of the
    // automorphism group would make it fast) alone takes seconds; cancellation is checked inside
    // it, so the run ends long before the pair would.
    const std::string out = temp_path("term.jsonl"), err = temp_path("term.err");
    std::remove(out.c_str());
    Running run({"wl", "--method", "3fwl", "--no-orbits", "--pairs", "341", "--quiet", "--out", out}, err);
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    const auto start = std::chrono::steady_clock::now();
    run.signal(SIGTERM);
    EXPECT_EQ(run.wait(), 128 + SIGTERM) << brec::read_text_file(err);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
    EXPECT_TRUE(whole_records(out).empty()) << "the pair in progress is dropped, not written half";
    EXPECT_NE(brec::read_text_file(err).find("brec: interrupted; 0 results kept in " + out), std::string::npos);
    std::remove(out.c_str());
    std::remove(err.c_str());
}

TEST(Interrupt, SigintStopsGenerateWithoutLeavingItsDirectory) {
    // 20 strongly regular pairs take about 12 s; the generator checks for cancellation as it goes.
    const std::string dir = temp_path("interrupted_generate"), err = temp_path("generate.err");
    std::filesystem::remove_all(dir);
    Running run({"generate", "--out", dir, "--seed", "1", "--category", "strongly_regular", "--pairs", "20", "--quiet"},
                err);
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    const auto start = std::chrono::steady_clock::now();
    run.signal(SIGINT);
    EXPECT_EQ(run.wait(), 130) << brec::read_text_file(err);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
    EXPECT_EQ(brec::read_text_file(err), "brec: interrupted\n");
    EXPECT_FALSE(std::filesystem::exists(dir)) << "the directory it created is removed, nothing half-written";
    std::remove(err.c_str());
}

TEST(Interrupt, EvalKeepsWholeRecordsAndResumeGivesTheUninterruptedRecords) {
    const std::string bin = BREC_BINARY;
    if (!brec::file_exists(bin.substr(0, bin.rfind('/')) + "/brec-eval")) GTEST_SKIP() << "built without LibTorch";
    // GIN trains every pair for 20 epochs (threshold 0: no early stop), about 0.1 s a pair.
    const std::string flags = " --model gin --pairs 0-29 --jobs 2 --loss-threshold 0 --quiet";
    const std::string out = temp_path("eval_interrupted.jsonl"), err = temp_path("eval_interrupted.err");
    const std::string fresh_out = temp_path("eval_fresh.jsonl");
    std::remove(out.c_str());
    std::remove(fresh_out.c_str());
    Running run(
        {"eval", "--model", "gin", "--pairs", "0-29", "--jobs", "2", "--loss-threshold", "0", "--quiet", "--out", out},
        err);
    wait_for_lines(out, 2, 20.0);
    run.signal(SIGINT);
    ASSERT_EQ(run.wait(), 130) << brec::read_text_file(err);
    const auto kept = whole_records(out);
    EXPECT_LT(kept.size(), 30u) << "the run was not interrupted";
    EXPECT_NE(brec::read_text_file(err).find("brec: interrupted; " + std::to_string(kept.size()) + " results kept in "),
              std::string::npos)
        << brec::read_text_file(err);

    const clitest::Result resumed = clitest::brec("eval" + flags + " --resume --out " + out);
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    const clitest::Result fresh = clitest::brec("eval" + flags + " --out " + fresh_out);
    ASSERT_EQ(fresh.code, 0) << fresh.err;
    // Everything but the timings: the same pairs, each once, with bitwise the same T² values.
    auto decisions = [](const std::vector<nlohmann::json>& records) {
        std::map<int, std::string> m;
        for (const auto& j : records) m[j["id"].get<int>()] = j["protocols"].dump() + j["losses"].dump();
        return m;
    };
    const auto all = whole_records(out);
    EXPECT_EQ(all.size(), 30u) << "each pair once";
    EXPECT_EQ(decisions(all), decisions(whole_records(fresh_out)));
    for (const auto& f : {out, err, fresh_out, out + ".summary.json", fresh_out + ".summary.json"})
        std::remove(f.c_str());
}

}  // namespace
