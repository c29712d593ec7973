// Set2Set's attention readout (nn/softmax_readout): the fused CPU function against LibTorch's
// operators in double precision (output and both gradients), values worked out by hand (equal
// rows, one row, a dominant row, an empty group), NaN and thread counts.
#include <gtest/gtest.h>

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "brec/nn/batch.hpp"
#include "brec/nn/softmax_readout.hpp"

namespace brec {
namespace {

/// Rows spread over `sizes.size()` groups of the given sizes, in a shuffled row order (a group's
/// rows are not contiguous).
nn::Grouping shuffled_grouping(const std::vector<std::int64_t>& sizes, std::uint64_t seed) {
    std::vector<std::int64_t> owner;
    for (std::size_t g = 0; g < sizes.size(); ++g) owner.insert(owner.end(), sizes[g], static_cast<std::int64_t>(g));
    const auto n = static_cast<std::int64_t>(owner.size());
    const auto order = torch::randperm(n, at::detail::createCPUGenerator(seed));
    auto index = torch::empty({n}, torch::kLong);
    for (std::int64_t i = 0; i < n; ++i) index[i] = owner[static_cast<std::size_t>(order[i].item<std::int64_t>())];
    return nn::make_grouping(index, static_cast<std::int64_t>(sizes.size()));
}

struct Inputs {
    torch::Tensor x, query;
};

Inputs converted(const Inputs& in, torch::ScalarType type) {
    const auto f = [type](const torch::Tensor& t) { return t.detach().to(type).requires_grad_(true); };
    return {f(in.x), f(in.query)};
}

/// The readout and the gradients of x and the query for the loss Σ r ⊙ weights.
std::vector<torch::Tensor> run(const Inputs& in, const nn::Grouping& g, const torch::Tensor& weights, bool fused) {
    const auto r = nn::softmax_readout(in.x, in.query, g, fused);
    (r * weights.to(r.scalar_type())).sum().backward();
    return {r.detach().to(torch::kDouble), in.x.grad().to(torch::kDouble), in.query.grad().to(torch::kDouble)};
}

double max_error(const torch::Tensor& a, const torch::Tensor& reference) {
    return (a - reference).abs().max().item<double>() / reference.abs().max().item<double>();
}

TEST(SoftmaxReadout, MatchesTheOperatorsInDoubleAsCloseAsTheirFloat) {
    // δ-2-LGNN's shape (width 16, thousands of tuples per graph) and an odd width with groups of
    // one row and an empty one; attention logits of a few units, so the weights spread.
    for (const std::int64_t width : {16, 5}) {
        const std::vector<std::int64_t> sizes =
            width == 16 ? std::vector<std::int64_t>{5476, 5476, 3000} : std::vector<std::int64_t>{1, 40, 0, 700};
        const auto g = shuffled_grouping(sizes, 3 + width);
        auto gen = at::detail::createCPUGenerator(7 + width);
        const Inputs in{torch::randn({g.index.numel(), width}, gen),
                        torch::randn({g.groups, width}, gen) * (3.0 / std::sqrt(static_cast<double>(width)))};
        const auto weights = torch::randn({g.groups, width}, gen);
        const auto reference = run(converted(in, torch::kDouble), g, weights, false);
        const auto fused = run(converted(in, torch::kFloat), g, weights, true);
        const auto operators = run(converted(in, torch::kFloat), g, weights, false);
        const char* names[] = {"output", "x", "query"};
        for (std::size_t i = 0; i < reference.size(); ++i) {
            SCOPED_TRACE(std::string(names[i]) + " at width " + std::to_string(width));
            const double fused_error = max_error(fused[i], reference[i]);
            const double float_error = max_error(operators[i], reference[i]);
            EXPECT_GT(fused_error, 0.0);  // float, not double: the comparison can fail
            EXPECT_LE(fused_error, std::max(4 * float_error, 1e-6)) << "the operators in float: " << float_error;
        }
    }
}

TEST(SoftmaxReadout, ValuesWorkedOutByHand) {
    // Group 0: three equal rows → weights 1/3 each, r = the row. Group 1: one row → r = the row.
    // Group 2: logits 0 and 1000 → all weight on the second row (the shift keeps exp finite).
    // Group 3: no rows → 0.
    const auto x =
        torch::tensor({1.0f, 2.0f, 1.0f, 2.0f, 1.0f, 2.0f, -3.0f, 0.5f, 0.0f, 7.0f, 1.0f, 4.0f}).view({6, 2});
    const auto index = torch::tensor({0, 0, 0, 1, 2, 2}, torch::kLong);
    const auto g = nn::make_grouping(index, 4);
    const auto q = torch::tensor({0.3f, -0.2f, 1.0f, 1.0f, 1000.0f, 0.0f, 1.0f, 1.0f}).view({4, 2});
    const auto r = nn::softmax_readout(x, q, g);
    const std::vector<float> expected{1.0f, 2.0f, -3.0f, 0.5f, 1.0f, 4.0f, 0.0f, 0.0f};
    for (std::int64_t i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(r.view({-1})[i].item<float>(), expected[i]) << i;
}

TEST(SoftmaxReadout, GradientOfEqualRowsSplitsEvenlyAndTheQueryGetsNone) {
    // Equal rows: the softmax is flat whatever the query, so dr reaches each row as dr / count and
    // the query's gradient is 0 (Σ de_i x_i with Σ de_i = 0 and equal x_i).
    const auto x = torch::tensor({1.0f, -2.0f}).repeat({4, 1}).requires_grad_(true);
    const auto g = nn::make_grouping(torch::zeros({4}, torch::kLong), 1);
    const auto q = torch::tensor({{0.7f, 0.1f}}).requires_grad_(true);
    const auto dr = torch::tensor({{2.0f, 8.0f}});
    (nn::softmax_readout(x, q, g) * dr).sum().backward();
    for (std::int64_t i = 0; i < 4; ++i) {
        EXPECT_FLOAT_EQ(x.grad()[i][0].item<float>(), 0.5f);
        EXPECT_FLOAT_EQ(x.grad()[i][1].item<float>(), 2.0f);
    }
    EXPECT_NEAR(q.grad().abs().max().item<float>(), 0.0f, 1e-6f);
}

TEST(SoftmaxReadout, TheDenominatorRoundsInRowOrderAsTheOperatorsDo) {
    // One row of weight e⁰ = 1 and eight of e⁻¹⁷ ≈ 4.1·10⁻⁸, less than half an ulp of 1: summed in
    // float after the 1 each vanishes, summed before it they add some 3·10⁻⁷. The readout of the
    // two row orders then differs in its last bits, with the operators and fused alike; a sum in
    // double would give both orders the same bits, and every relabeling of a small graph the same
    // embedding (the reference protocol's covariance exactly 0).
    const auto g = nn::make_grouping(torch::zeros({9}, torch::kLong), 1);
    const auto q = torch::ones({1, 1});
    auto big_first = torch::full({9, 1}, -17.0f);
    big_first[0][0] = 0.0f;
    auto big_last = torch::full({9, 1}, -17.0f);
    big_last[8][0] = 0.0f;
    for (const bool fused : {true, false}) {
        SCOPED_TRACE(fused ? "fused" : "operators");
        const auto a = nn::softmax_readout(big_first, q, g, fused), b = nn::softmax_readout(big_last, q, g, fused);
        EXPECT_FALSE(torch::equal(a, b));
        EXPECT_NEAR(a.item<float>(), b.item<float>(), 1e-6 * std::abs(a.item<float>()));
    }
}

TEST(SoftmaxReadout, ANaNSpoilsOnlyItsGroup) {
    const auto g = shuffled_grouping({30, 30}, 1);
    auto gen = at::detail::createCPUGenerator(2);
    auto x = torch::randn({60, 8}, gen);
    const auto members = g.members.accessor<std::int64_t, 1>();
    x[members[5]][3].fill_(std::numeric_limits<float>::quiet_NaN());  // a row of group 0
    const auto r = nn::softmax_readout(x, torch::randn({2, 8}, gen), g);
    EXPECT_TRUE(torch::isnan(r[0]).all().item<bool>());
    EXPECT_TRUE(torch::isfinite(r[1]).all().item<bool>());
}

TEST(SoftmaxReadout, TheSameBitsOnOneAndTwoThreads) {
    const auto g = shuffled_grouping({900, 1200, 15, 2000}, 4);
    auto gen = at::detail::createCPUGenerator(5);
    const Inputs in{torch::randn({g.index.numel(), 16}, gen), torch::randn({g.groups, 16}, gen)};
    const auto weights = torch::randn({g.groups, 16}, gen);
    const int threads = at::get_num_threads();
    at::set_num_threads(1);
    const auto one = run(converted(in, torch::kFloat), g, weights, true);
    at::set_num_threads(2);
    const auto two = run(converted(in, torch::kFloat), g, weights, true);
    at::set_num_threads(threads);
    for (std::size_t i = 0; i < one.size(); ++i) EXPECT_TRUE(torch::equal(one[i], two[i])) << i;
}

}  // namespace
}  // namespace brec
