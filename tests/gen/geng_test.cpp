// Streaming nauty's geng through a pipe: counts against the known enumerations (OEIS A000088,
// A001349, A002851), res/mod splits, early stop, and the documented error when geng is missing.
#include "brec/gen/geng.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
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
    const auto count = [](const GengQuery& q) {
        return stream_geng(q, [](std::string_view) { return true; });
    };
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

TEST(Geng, CommandLine) {
    GengQuery q = query(10, true, 3, 4);
    q.res = 1;
    q.mod = 4;
    EXPECT_EQ(q.command("/x/geng"), "'/x/geng' -q -c -d3 -D4 10 1/4");
    EXPECT_EQ(query(5, false).command("g"), "'g' -q 5");
}

TEST(Geng, BadQueriesAreRejected) {
    EXPECT_THROW(stream_geng(query(33, true), [](std::string_view) { return true; }),
                 InvalidArgument);
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
            EXPECT_NE(std::string(e.what()).find("install the Debian package 'nauty'"),
                      std::string::npos)
                << e.what();
        }
    }
    {
        EnvGuard env("BREC_GENG", "/nonexistent/geng");
        try {
            find_geng();
            FAIL();
        } catch (const Unsupported& e) {
            EXPECT_NE(std::string(e.what()).find("BREC_GENG=/nonexistent/geng"), std::string::npos)
                << e.what();
        }
    }
    EXPECT_FALSE(find_geng().empty());  // restored
}

}  // namespace
}  // namespace brec
