#include "brec/gen/count_dataset.hpp"

#include <gtest/gtest.h>

#include <string>

#include "brec/core/error.hpp"
#include "brec/io/graph6.hpp"

namespace brec {
namespace {

TEST(CountDataset, SameGraphsAndSplitForAnyThreadCount) {
    RunContext one, two;
    two.set_threads(2);
    const CountDatasetOptions opt = CountDatasetOptions().set_kind("sbm").set_seed(11).set_graphs(200);
    const CountDataset a = generate_count_dataset(opt, one), b = generate_count_dataset(opt, two);
    ASSERT_EQ(a.graphs.size(), 200u);
    for (std::size_t i = 0; i < a.graphs.size(); ++i) {
        ASSERT_EQ(a.graphs[i], b.graphs[i]) << i;
        EXPECT_EQ(a.graphs[i].n(), 30u);
        // Labels are exact counts of the stored graph.
        ASSERT_EQ(a.counts[i], count_patterns(a.graphs[i]).total) << i;
    }
    EXPECT_EQ(a.split, b.split);
    std::size_t sizes[3] = {0, 0, 0};
    for (Split s : a.split) ++sizes[static_cast<int>(s)];
    EXPECT_EQ(sizes[0], 60u);
    EXPECT_EQ(sizes[1], 40u);
    EXPECT_EQ(sizes[2], 100u);
    // Graph i depends on (seed, i) only: a larger dataset starts with the same graphs.
    const CountDataset c = generate_count_dataset(CountDatasetOptions(opt).set_graphs(250), one);
    for (std::size_t i = 0; i < a.graphs.size(); ++i) ASSERT_EQ(to_graph6(a.graphs[i]), to_graph6(c.graphs[i]));
}

TEST(CountDataset, ErKindsHaveTenVerticesAndTheirDensity) {
    RunContext ctx;
    for (const auto& [kind, p] : {std::pair<std::string, double>{"er", 0.4}, {"er-ood", 0.8}}) {
        const CountDataset d = generate_count_dataset(CountDatasetOptions().set_kind(kind).set_graphs(400), ctx);
        double edges = 0;
        for (const Graph& g : d.graphs) {
            EXPECT_EQ(g.n(), 10u);
            edges += static_cast<double>(g.m());
        }
        EXPECT_NEAR(edges / 400.0, 45.0 * p, 1.0) << kind;
    }
}

TEST(CountDataset, BadOptionsAreRejected) {
    RunContext ctx;
    try {
        generate_count_dataset(CountDatasetOptions().set_kind("ba"), ctx);
        FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown dataset kind 'ba'"), std::string::npos);
    }
    EXPECT_THROW(generate_count_dataset(CountDatasetOptions().set_graphs(0), ctx), InvalidArgument);
    CountDatasetOptions split;
    split.train_fraction = 0.8;
    split.validation_fraction = 0.5;
    EXPECT_THROW(generate_count_dataset(split, ctx), InvalidArgument);
}

}  // namespace
}  // namespace brec
