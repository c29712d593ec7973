// Random graph models: sizes, determinism under a seed, and edge densities within a few standard
// deviations of their expectation.
#include "brec/gen/random.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "brec/core/error.hpp"

namespace brec {
namespace {

/// |observed - expected| in units of the binomial standard deviation.
double z_score(double observed, double trials, double p) {
    const double sd = std::sqrt(trials * p * (1 - p));
    return std::fabs(observed - trials * p) / sd;
}

TEST(ErdosRenyi, SizeDensityAndDeterminism) {
    Rng rng(1);
    const Graph g = erdos_renyi(200, 0.1, rng);
    EXPECT_EQ(g.n(), 200u);
    const double pairs = 200.0 * 199 / 2;
    EXPECT_LT(z_score(static_cast<double>(g.m()), pairs, 0.1), 5.0) << g.m();
    Rng a(99), b(99), c(100);
    const Graph ga = erdos_renyi(60, 0.3, a), gb = erdos_renyi(60, 0.3, b), gc = erdos_renyi(60, 0.3, c);
    EXPECT_EQ(ga.edges(), gb.edges());
    EXPECT_NE(ga.edges(), gc.edges());
}

TEST(ErdosRenyi, ExtremeProbabilitiesAndBadInput) {
    Rng rng(2);
    EXPECT_EQ(erdos_renyi(30, 0.0, rng).m(), 0u);
    EXPECT_EQ(erdos_renyi(30, 1.0, rng).m(), 30u * 29 / 2);
    EXPECT_EQ(erdos_renyi(0, 0.5, rng).n(), 0u);
    EXPECT_EQ(erdos_renyi(1, 0.5, rng).m(), 0u);
    for (double p : {-0.1, 1.5, std::nan("")}) {
        try {
            erdos_renyi(10, p, rng);
            FAIL() << p;
        } catch (const InvalidArgument& e) {
            EXPECT_NE(std::string(e.what()).find("p must be in [0, 1]"), std::string::npos) << e.what();
        }
    }
}

TEST(StochasticBlockModel, BlockDensitiesAndLabels) {
    Rng rng(3);
    const std::vector<VertexId> sizes = {60, 40};
    const std::vector<std::vector<double>> probs = {{0.5, 0.05}, {0.05, 0.3}};
    const Graph g = stochastic_block_model(sizes, probs, rng, true);
    ASSERT_EQ(g.n(), 100u);
    double in0 = 0, in1 = 0, across = 0;
    for (const auto& [u, v] : g.edges()) {
        const bool bu = u >= 60, bv = v >= 60;
        (bu != bv ? across : bu ? in1 : in0) += 1;
    }
    EXPECT_LT(z_score(in0, 60.0 * 59 / 2, 0.5), 5.0) << in0;
    EXPECT_LT(z_score(in1, 40.0 * 39 / 2, 0.3), 5.0) << in1;
    EXPECT_LT(z_score(across, 60.0 * 40, 0.05), 5.0) << across;
    ASSERT_TRUE(g.has_node_labels());
    EXPECT_EQ(g.node_label(0), 0);
    EXPECT_EQ(g.node_label(59), 0);
    EXPECT_EQ(g.node_label(60), 1);
    EXPECT_FALSE(stochastic_block_model(sizes, probs, rng).has_node_labels());
    Rng a(8), b(8);
    EXPECT_EQ(stochastic_block_model(sizes, probs, a).edges(), stochastic_block_model(sizes, probs, b).edges());
}

TEST(StochasticBlockModel, RejectsMalformedProbabilityMatrices) {
    Rng rng(4);
    EXPECT_THROW(stochastic_block_model({5, 5}, {{0.5, 0.1}}, rng), InvalidArgument);
    EXPECT_THROW(stochastic_block_model({5, 5}, {{0.5, 0.1}, {0.1}}, rng), InvalidArgument);
    EXPECT_THROW(stochastic_block_model({5, 5}, {{0.5, 0.1}, {0.2, 0.5}}, rng),
                 InvalidArgument);  // asymmetric
    EXPECT_THROW(stochastic_block_model({5, 5}, {{0.5, 1.1}, {1.1, 0.5}}, rng), InvalidArgument);
}

}  // namespace
}  // namespace brec
