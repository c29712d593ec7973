#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <numeric>
#include <set>
#include <thread>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/rng.hpp"
#include "brec/core/run_context.hpp"
#include "brec/core/bytes.hpp"
#include "brec/core/text.hpp"
#include "brec/core/types.hpp"

namespace brec {
namespace {

TEST(Rng, EngineAndMixerMatchTheirReferenceValues) {
    // The C++ standard fixes the 10000th output of mt19937_64 with the default seed 5489.
    Rng rng(5489);
    std::uint64_t x = 0;
    for (int i = 0; i < 10000; ++i) x = rng.next();
    EXPECT_EQ(x, 9981545732273789042ULL);
    // First output of Vigna's SplitMix64 with state 0.
    EXPECT_EQ(splitmix64(0), 0xE220A8397B1DCDAFULL);
    // Streams of one seed differ from each other and from other seeds.
    std::set<std::uint64_t> seeds;
    for (std::uint64_t s = 0; s < 4; ++s)
        for (std::uint64_t id = 0; id < 100; ++id) seeds.insert(stream_seed(s, id));
    EXPECT_EQ(seeds.size(), 400u);
}

TEST(Rng, BoundedIntegersAreInRangeAndUniform) {
    Rng rng(1);
    const std::uint64_t bound = 7;
    std::vector<int> counts(bound, 0);
    const int draws = 70000;
    for (int i = 0; i < draws; ++i) {
        const auto v = rng.below(bound);
        ASSERT_LT(v, bound);
        ++counts[v];
    }
    // Chi-square with 6 degrees of freedom; 22.46 is its 0.999 quantile.
    double chi2 = 0;
    for (int c : counts) chi2 += (c - draws / 7.0) * (c - draws / 7.0) / (draws / 7.0);
    EXPECT_LT(chi2, 22.46);
    EXPECT_EQ(Rng(9).below(1), 0u);
    // A huge bound exercises the rejection branch.
    for (int i = 0; i < 100; ++i) ASSERT_LT(rng.below((1ULL << 63) + 12345), (1ULL << 63) + 12345);
}

TEST(Rng, UniformNormalAndPermutations) {
    Rng rng(2);
    double sum = 0, sum2 = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
        const double u = rng.uniform();
        ASSERT_GE(u, 0.0);
        ASSERT_LT(u, 1.0);
        const double z = rng.normal();
        sum += z;
        sum2 += z * z;
    }
    EXPECT_NEAR(sum / n, 0.0, 0.01);
    EXPECT_NEAR(sum2 / n, 1.0, 0.02);
    for (std::uint32_t size : {0u, 1u, 2u, 50u}) {
        auto p = rng.permutation(size);
        std::sort(p.begin(), p.end());
        std::vector<std::uint32_t> id(size);
        std::iota(id.begin(), id.end(), 0u);
        EXPECT_EQ(p, id);
    }
    // Same seed, same sequence; every position of a 3-element shuffle is reached.
    EXPECT_EQ(Rng(42).permutation(20), Rng(42).permutation(20));
    std::set<std::vector<int>> seen;
    for (int i = 0; i < 600; ++i) {
        std::vector<int> v{0, 1, 2};
        rng.shuffle(v);
        seen.insert(v);
    }
    EXPECT_EQ(seen.size(), 6u);
}

TEST(Parallel, EveryIndexOnceAndResultsIndependentOfThreads) {
    for (int threads : {1, 2, 3, 8}) {
        std::vector<std::atomic<int>> hits(1000);
        std::vector<std::uint64_t> out(1000);
        parallel_for(hits.size(), threads, [&](std::size_t i) {
            ++hits[i];
            out[i] = Rng(stream_seed(7, i)).next();
        });
        for (auto& h : hits) ASSERT_EQ(h.load(), 1);
        std::vector<std::uint64_t> ref(1000);
        for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = Rng(stream_seed(7, i)).next();
        EXPECT_EQ(out, ref) << threads;
    }
    parallel_for(0, 4, [](std::size_t) { FAIL(); });
}

TEST(Parallel, FirstExceptionIsRethrownOnTheCaller) {
    for (int threads : {1, 4}) {
        try {
            parallel_for(100, threads, [](std::size_t i) {
                if (i == 37) throw InvalidArgument("task 37 failed");
            });
            FAIL() << "no exception";
        } catch (const InvalidArgument& e) {
            EXPECT_STREQ(e.what(), "task 37 failed");
        }
    }
}

TEST(Errors, ParseErrorFormatsSourceLineColumn) {
    const ParseError a("data.tsv", 41, "expected 4 columns", 6);
    EXPECT_STREQ(a.what(), "data.tsv:41:7: expected 4 columns");
    EXPECT_EQ(a.line(), 41);
    EXPECT_EQ(a.column(), 6);
    EXPECT_EQ(a.source(), "data.tsv");
    EXPECT_EQ(a.problem(), "expected 4 columns");
    EXPECT_STREQ(ParseError("x.npy", 0, "bad magic").what(), "x.npy: bad magic");
    EXPECT_STREQ(ParseError("x", 3, "p").what(), "x:3: p");
    // Every brec error is a std::runtime_error.
    const std::runtime_error& base = a;
    EXPECT_NE(std::string(base.what()).find("data.tsv"), std::string::npos);
    EXPECT_THROW(throw ResourceLimit("big"), Error);
#if defined(BREC_EXPENSIVE_CHECKS) || !defined(NDEBUG)
    EXPECT_THROW(BREC_ASSERT(1 + 1 == 3), Error);
#else
    EXPECT_NO_THROW(BREC_ASSERT(1 + 1 == 3));
#endif
    EXPECT_NO_THROW(BREC_ASSERT(1 + 1 == 2));
}

TEST(RunContext, ThreadsLogsProgressTimersAndCancel) {
    RunContext ctx;
    EXPECT_EQ(ctx.threads(), 1);
    EXPECT_EQ(ctx.set_threads(0).threads(), 1);
    EXPECT_EQ(ctx.set_threads(6).threads(), 6);
    std::vector<std::string> logs;
    ctx.set_log([&](LogLevel, const std::string& m) { logs.push_back(m); }, LogLevel::warn);
    ctx.info("hidden");
    ctx.debug("hidden");
    ctx.warn("shown");
    EXPECT_EQ(logs, std::vector<std::string>{"shown"});
    std::vector<std::size_t> done;
    ctx.progress("no sink yet", 1, 2);
    ctx.set_progress([&](const Progress& p) { done.push_back(p.done); });
    ctx.progress("task", 3, 10);
    EXPECT_EQ(done, std::vector<std::size_t>{3});
    {
        auto s = ctx.timers().scope("step");
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ctx.timers().add("step", 1.0);
    EXPECT_GT(ctx.timers().totals().at("step"), 1.004);
    EXPECT_FALSE(ctx.cancelled());
    EXPECT_NO_THROW(ctx.throw_if_cancelled());
    ctx.cancel();
    EXPECT_TRUE(ctx.cancelled());
    EXPECT_THROW(ctx.throw_if_cancelled(), Cancelled);
}

TEST(RunContext, CancelFromAnotherThreadStopsAParallelLoop) {
    RunContext ctx;
    std::atomic<std::size_t> started{0};
    std::thread canceller([&] {
        while (started.load() < 3) std::this_thread::yield();
        ctx.cancel();
    });
    try {
        parallel_for(1000000, 2, [&](std::size_t) {
            ctx.throw_if_cancelled();
            ++started;
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        });
        ADD_FAILURE() << "the loop ran to its end";
    } catch (const Cancelled& e) {
        EXPECT_STREQ(e.what(), "cancelled");
    }
    canceller.join();
    EXPECT_LT(started.load(), 1000000u);
}

TEST(Span, ViewsVectorsWithoutCopying) {
    const std::vector<int> v{4, 5, 6};
    const Span<const int> s(v);
    EXPECT_EQ(s.size(), 3u);
    EXPECT_EQ(s.data(), v.data());
    EXPECT_EQ(s[2], 6);
    EXPECT_EQ(std::accumulate(s.begin(), s.end(), 0), 15);
    EXPECT_TRUE(Span<const int>().empty());
    EXPECT_EQ(kNoVertex, 0xFFFFFFFFu);
}

TEST(Text, TablesAndDurations) {
    TextTable t({"category", "pairs"});
    t.add_row({"basic", "60"});
    t.add_rule();
    t.add_row({"total", "400", "ignored"});
    EXPECT_EQ(t.str(),
              "category  pairs\n"
              "---------------\n"
              "basic        60\n"
              "---------------\n"
              "total       400\n");
    EXPECT_EQ(format_seconds(0.4213), "0.42s");
    EXPECT_EQ(format_fixed(2.345, 1), "2.3");
    EXPECT_EQ(format_fixed(7.0, 0), "7");
    EXPECT_EQ(format_fixed(1234.5678, 2), "1234.57");
    EXPECT_EQ(format_seconds(12.34), "12.3s");
    EXPECT_EQ(format_seconds(245), "4m05s");
    EXPECT_EQ(format_seconds(7620), "2h07m");
}

TEST(Text, ByteSizesParseInBinaryUnitsAndPrintBack) {
    EXPECT_EQ(parse_byte_size("4096"), 4096u);
    EXPECT_EQ(parse_byte_size("512M"), 512ull << 20);
    EXPECT_EQ(parse_byte_size("8G"), 8ull << 30);
    EXPECT_EQ(parse_byte_size("8gb"), 8ull << 30);
    EXPECT_EQ(parse_byte_size(" 1.5GiB "), 3ull << 29);
    EXPECT_EQ(parse_byte_size("2T"), 2ull << 40);
    EXPECT_EQ(parse_byte_size("3k"), 3072u);
    EXPECT_EQ(parse_byte_size("100B"), 100u);
    for (const char* bad : {"", "0", "0.2", "G", "12X", "-5G", "1.2.3G", "8 G B", "8Gi", "8iB", "1e3", "9999999T"})
        EXPECT_THROW(parse_byte_size(bad), InvalidArgument) << bad;
    try {
        parse_byte_size("12X");
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("'12X'"), std::string::npos) << e.what();
    }
    EXPECT_EQ(format_bytes(900), "900 B");
    EXPECT_EQ(format_bytes(12 * 1024), "12.0 KiB");
    EXPECT_EQ(format_bytes(512ull << 20), "512.0 MiB");
    EXPECT_EQ(format_bytes(static_cast<std::uint64_t>(41.2 * (1ull << 30))), "41.2 GiB");
    EXPECT_EQ(format_bytes(parse_byte_size("24G")), "24.0 GiB");
}

TEST(Text, XmlEscapeCoversMarkupCharactersOnly) {
    EXPECT_EQ(xml_escape("a<b> & \"c\" 'd'"), "a&lt;b&gt; &amp; &quot;c&quot; 'd'");
    EXPECT_EQ(xml_escape("srg(16,6,2,2) n=16"), "srg(16,6,2,2) n=16");
    EXPECT_EQ(xml_escape(""), "");
}

}  // namespace
}  // namespace brec
