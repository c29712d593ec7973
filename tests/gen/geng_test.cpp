// Streaming nauty's geng through a pipe: counts against the known enumerations (OEIS A000088,
// A001349, A002851), res/mod splits, early stop, and the documented error when geng is missing.
#include "brec/gen/geng.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "brec/core/error.hpp"
#include "brec/iso/iso.hpp"

namespace brec {
namespace {

GengQuery query(VertexId n, bool connected, int dmin = -1, int dmax = -1) {
    GengQuery q;
    q.n = n;
    q.connected = connected;
    q.min_degree = dmin;
    q.max_degree = dmax;
    return q;
}

/// Sets an environment variable for the lifetime of the guard and restores the old value.
class EnvGuard {
public:
    EnvGuard(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        if (value)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ~EnvGuard() {
        if (had_)
            ::setenv(name_.c_str(), old_.c_str(), 1);
        else
            ::unsetenv(name_.c_str());
    }
    EnvGuard(const EnvGuard&) = delete;
    EnvGuard& operator=(const EnvGuard&) = delete;

private:
    std::string name_, old_;
    bool had_ = false;
};

TEST(Geng, CountsMatchTheKnownEnumerations) {
    const auto count = [](const GengQuery& q) { return stream_geng(q, [](std::string_view) { return true; }); };
    EXPECT_EQ(count(query(5, false)), 34u);  // all graphs on 5 vertices
    EXPECT_EQ(count(query(5, true)), 21u);   // connected
    EXPECT_EQ(count(query(7, true)), 853u);
    EXPECT_EQ(count(query(8, true, 3, 3)), 5u);  // connected cubic graphs on 8 vertices
    EXPECT_EQ(count(query(10, true, 3, 3)), 19u);
    EXPECT_EQ(count(query(10, true, 4, 4)), 59u);  // connected 4-regular (A006820)
}

TEST(Geng, GraphsAreParsedAndPairwiseNonIsomorphic) {
    const auto graphs = geng_graphs(query(6, true));
    ASSERT_EQ(graphs.size(), 112u);
    std::set<std::string> certs;
    for (const Graph& g : graphs) {
        EXPECT_EQ(g.n(), 6u);
        certs.insert(canonical_certificate(g).bytes);
    }
    EXPECT_EQ(certs.size(), 112u);
}

TEST(Geng, ResModSplitsPartitionTheOutput) {
    std::multiset<std::string> parts;
    for (int r = 0; r < 3; ++r) {
        GengQuery q = query(7, true);
        q.res = r;
        q.mod = 3;
        for (const Graph& g : geng_graphs(q)) parts.insert(canonical_certificate(g).bytes);
    }
    EXPECT_EQ(parts.size(), 853u);
    EXPECT_EQ(std::set<std::string>(parts.begin(), parts.end()).size(), 853u);
}

TEST(Geng, StopsEarlyWhenTheVisitorSaysSo) {
    std::size_t seen = 0;
    const auto n = stream_geng(query(9, true), [&](std::string_view) { return ++seen < 5; });
    EXPECT_EQ(n, 5u);
    EXPECT_EQ(seen, 5u);
}

/// Processes whose parent is this process, zombies included (read from /proc).
std::size_t child_processes() {
    std::size_t n = 0;
    const long me = static_cast<long>(::getpid());
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::FILE* f = std::fopen((e.path() / "stat").c_str(), "r");
        if (!f) continue;  // the process ended meanwhile
        char buf[1024];
        const std::size_t len = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        const std::string stat(buf, len);
        // "pid (comm) state ppid ...": comm may contain spaces, so parse after the last ')'.
        const std::size_t close = stat.rfind(')');
        if (close == std::string::npos) continue;
        char state = 0;
        long ppid = 0;
        if (std::sscanf(stat.c_str() + close + 1, " %c %ld", &state, &ppid) == 2 && ppid == me) ++n;
    }
    return n;
}

TEST(Geng, AnEarlyStopEndsGengAtOnce) {
    // All 11,716,571 connected graphs on 10 vertices take geng seconds to write; stopping after
    // 1000 must not wait for (or read) the rest, and must leave no child behind.
    const std::size_t before = child_processes();
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t seen = 0;
    const auto n = stream_geng(query(10, true), [&](std::string_view) { return ++seen < 1000; });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(n, 1000u);
    EXPECT_LT(seconds, 2.0);
    EXPECT_EQ(child_processes(), before) << "geng left running or unreaped";
}

TEST(Geng, AnExceptionFromTheVisitorStopsAndReapsGeng) {
    struct Stop {};
    const std::size_t before = child_processes();
    std::size_t seen = 0;
    EXPECT_THROW(stream_geng(query(10, true),
                             [&](std::string_view) {
                                 if (++seen == 1000) throw Stop{};
                                 return true;
                             }),
                 Stop);
    EXPECT_EQ(seen, 1000u);
    EXPECT_EQ(child_processes(), before) << "geng left running or unreaped";
    // The pipe is closed too: the process has as many open descriptors as before a run.
    const auto fds = [] {
        std::size_t k = 0;
        for (auto it = std::filesystem::directory_iterator("/proc/self/fd");
             it != std::filesystem::directory_iterator(); ++it)
            ++k;
        return k;
    };
    const std::size_t open_before = fds();
    seen = 0;
    EXPECT_THROW(stream_geng(query(10, true),
                             [&](std::string_view) {
                                 if (++seen == 10) throw Stop{};
                                 return true;
                             }),
                 Stop);
    EXPECT_EQ(fds(), open_before);
}

TEST(Geng, CommandLine) {
    GengQuery q = query(10, true, 3, 4);
    q.res = 1;
    q.mod = 4;
    EXPECT_EQ(q.command("/x/geng"), "'/x/geng' -q -c -d3 -D4 10 1/4");
    EXPECT_EQ(query(5, false).command("g"), "'g' -q 5");
}

TEST(Geng, BadQueriesAreRejected) {
    EXPECT_THROW(stream_geng(query(33, true), [](std::string_view) { return true; }), InvalidArgument);
    GengQuery q = query(5, true);
    q.res = 2;
    q.mod = 2;
    EXPECT_THROW(stream_geng(q, [](std::string_view) { return true; }), InvalidArgument);
}

TEST(Geng, MissingGengIsAnUnsupportedErrorThatSaysWhatToInstall) {
    {
        EnvGuard path("PATH", "/nonexistent-dir");
        EnvGuard env("BREC_GENG", nullptr);
        try {
            stream_geng(query(5, true), [](std::string_view) { return true; });
            FAIL();
        } catch (const Unsupported& e) {
            EXPECT_NE(std::string(e.what()).find("install the Debian package 'nauty'"), std::string::npos) << e.what();
        }
    }
    {
        EnvGuard env("BREC_GENG", "/nonexistent/geng");
        try {
            find_geng();
            FAIL();
        } catch (const Unsupported& e) {
            EXPECT_NE(std::string(e.what()).find("BREC_GENG=/nonexistent/geng"), std::string::npos) << e.what();
        }
    }
    EXPECT_FALSE(find_geng().empty());  // restored
}

}  // namespace
}  // namespace brec
