// The fused GRU cell (nn/fused_gru) against torch::gru_cell in double precision: output and every
// gradient, its σ and tanh against the C library's in ulp, saturation, NaN and thread counts.
#include <gtest/gtest.h>

#include <ATen/Parallel.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "brec/nn/fused_gru.hpp"

namespace brec {
namespace {

struct Cell {
    torch::Tensor input, hidden, w_ih, w_hh, b_ih, b_hh;
    std::vector<torch::Tensor> all() const { return {input, hidden, w_ih, w_hh, b_ih, b_hh}; }
};

/// A random cell: rows x width inputs and states, gates spread over σ's and tanh's whole range.
Cell random_cell(std::int64_t rows, std::int64_t width, std::uint64_t seed) {
    auto gen = at::detail::createCPUGenerator(seed);
    Cell c;
    c.input = torch::randn({rows, width}, gen) * 2;
    c.hidden = torch::randn({rows, width}, gen);
    c.w_ih = torch::randn({3 * width, width}, gen) / std::sqrt(static_cast<double>(width));
    c.w_hh = torch::randn({3 * width, width}, gen) / std::sqrt(static_cast<double>(width));
    c.b_ih = torch::randn({3 * width}, gen) * 0.5;
    c.b_hh = torch::randn({3 * width}, gen) * 0.5;
    return c;
}

Cell converted(const Cell& c, torch::ScalarType type) {
    const auto f = [type](const torch::Tensor& t) { return t.detach().to(type).requires_grad_(true); };
    return {f(c.input), f(c.hidden), f(c.w_ih), f(c.w_hh), f(c.b_ih), f(c.b_hh)};
}

/// The output and the gradients of every tensor of `c` for the loss Σ y ⊙ weights.
std::vector<torch::Tensor> run(const Cell& c, const torch::Tensor& weights, bool fused) {
    const auto y = nn::gru_cell(c.input, c.hidden, c.w_ih, c.w_hh, c.b_ih, c.b_hh, fused);
    (y * weights.to(y.scalar_type())).sum().backward();
    std::vector<torch::Tensor> out{y.detach().to(torch::kDouble)};
    for (const auto& t : c.all()) out.push_back(t.grad().to(torch::kDouble));
    return out;
}

double max_error(const torch::Tensor& a, const torch::Tensor& reference) {
    return (a - reference).abs().max().item<double>() / reference.abs().max().item<double>();
}

TEST(FusedGruCell, MatchesTorchGruCellInDoubleAsCloseAsLibTorchsFloat) {
    // Width 13 leaves a partial vector of 5; 700 rows make several tasks of the thread pool.
    for (const std::int64_t width : {32, 13}) {
        const Cell cell = random_cell(700, width, 5 + width);
        const auto weights = torch::randn({700, width}, at::detail::createCPUGenerator(9));
        const auto reference = run(converted(cell, torch::kDouble), weights, false);
        const auto fused = run(converted(cell, torch::kFloat), weights, true);
        const auto libtorch = run(converted(cell, torch::kFloat), weights, false);
        const char* names[] = {"output", "input", "hidden", "w_ih", "w_hh", "b_ih", "b_hh"};
        for (std::size_t i = 0; i < reference.size(); ++i) {
            SCOPED_TRACE(std::string(names[i]) + " at width " + std::to_string(width));
            const double fused_error = max_error(fused[i], reference[i]);
            const double float_error = max_error(libtorch[i], reference[i]);
            EXPECT_GT(fused_error, 0.0);  // float, not double: the comparison can fail
            EXPECT_LE(fused_error, std::max(4 * float_error, 1e-6)) << "LibTorch's float: " << float_error;
        }
    }
}

/// 2^23 units in the last place of a float of magnitude |exact| (its spacing), in double.
double ulps(float value, double exact) {
    const double spacing = std::ldexp(1.0, std::ilogb(static_cast<float>(exact)) - 23);
    return std::abs(static_cast<double>(value) - exact) / spacing;
}

TEST(FusedGruCell, SigmoidAndTanhWithinTwoUlpOfTheCLibrarysInDouble) {
    // Routing x through an identity block of W_ih to one gate, with the others at 0, makes the
    // output σ(x) (z gate, h = 1, n = tanh 0 = 0) or tanh(x) / 2 (n gate, h = 0, z = σ(0) = 1/2)
    // exactly: the products by 1 and 0 and the halving are exact.
    std::vector<float> xs;
    for (float x = -30.0f; x <= 30.0f; x += 0.0137f) xs.push_back(x);
    for (float x = 1e-8f; x < 1.0f; x *= 1.37f) xs.insert(xs.end(), {x, -x});
    const auto n = static_cast<std::int64_t>(xs.size());
    const auto x = torch::tensor(xs).view({n, 1});
    const auto zero = torch::zeros({3});
    const auto as_gate = [](int gate) { return torch::zeros({3, 1}).index_put_({gate, 0}, 1.0f); };
    const auto sigma = nn::gru_cell(x, torch::ones({n, 1}), as_gate(1), torch::zeros({3, 1}), zero, zero);
    const auto half_tanh = nn::gru_cell(x, torch::zeros({n, 1}), as_gate(2), torch::zeros({3, 1}), zero, zero);
    double worst_sigma = 0, worst_tanh = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        const double v = xs[static_cast<std::size_t>(i)];
        worst_sigma = std::max(worst_sigma, ulps(sigma[i][0].item<float>(), 1.0 / (1.0 + std::exp(-v))));
        worst_tanh = std::max(worst_tanh, ulps(2 * half_tanh[i][0].item<float>(), std::tanh(v)));
    }
    EXPECT_LE(worst_sigma, 2.0);
    EXPECT_LE(worst_tanh, 2.0);
}

TEST(FusedGruCell, SaturatesAsTheLimitsAndKeepsNaNInItsRow) {
    const auto x =
        torch::tensor({-200.0f, -89.0f, 89.0f, 200.0f, std::numeric_limits<float>::quiet_NaN()}).view({5, 1});
    const auto zero = torch::zeros({3});
    const auto gate = [](int g) { return torch::zeros({3, 1}).index_put_({g, 0}, 1.0f); };
    const auto sigma = nn::gru_cell(x, torch::ones({5, 1}), gate(1), torch::zeros({3, 1}), zero, zero);
    const auto half_tanh = nn::gru_cell(x, torch::zeros({5, 1}), gate(2), torch::zeros({3, 1}), zero, zero);
    const std::vector<float> sigma_limits{0.0f, 0.0f, 1.0f, 1.0f}, tanh_limits{-0.5f, -0.5f, 0.5f, 0.5f};
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(sigma[i][0].item<float>(), sigma_limits[i], 1e-30) << "x = " << x[i][0].item<float>();
        EXPECT_EQ(half_tanh[i][0].item<float>(), tanh_limits[i]) << "x = " << x[i][0].item<float>();
    }
    EXPECT_TRUE(std::isnan(sigma[4][0].item<float>()));
    EXPECT_TRUE(std::isnan(half_tanh[4][0].item<float>()));
}

TEST(FusedGruCell, TheSameBitsOnOneAndTwoThreads) {
    const Cell cell = random_cell(3000, 32, 3);
    const auto weights = torch::randn({3000, 32}, at::detail::createCPUGenerator(4));
    const int threads = at::get_num_threads();
    at::set_num_threads(1);
    const auto one = run(converted(cell, torch::kFloat), weights, true);
    at::set_num_threads(2);
    const auto two = run(converted(cell, torch::kFloat), weights, true);
    at::set_num_threads(threads);
    for (std::size_t i = 0; i < one.size(); ++i) EXPECT_TRUE(torch::equal(one[i], two[i])) << i;
}

TEST(FusedGruCell, InferenceGivesTheBitsOfTheTrainingOutputAndBuildsNoGraph) {
    const Cell cell = converted(random_cell(300, 13, 11), torch::kFloat);
    const auto trained = nn::gru_cell(cell.input, cell.hidden, cell.w_ih, cell.w_hh, cell.b_ih, cell.b_hh);
    ASSERT_TRUE(trained.requires_grad());
    torch::NoGradGuard no_grad;
    const auto inferred = nn::gru_cell(cell.input, cell.hidden, cell.w_ih, cell.w_hh, cell.b_ih, cell.b_hh);
    EXPECT_FALSE(inferred.requires_grad());
    EXPECT_TRUE(torch::equal(inferred, trained.detach()));
}

TEST(FusedGruCell, BiasesBroadcastOrFailAsInTorchGruCell) {
    // linear (so torch::gru_cell) broadcasts a one-element bias over the 3H gates; the fused cell
    // must give the same values, and refuse a bias that does not broadcast as LibTorch does.
    const Cell c = random_cell(40, 16, 21);
    const auto b_ih = torch::full({1}, 0.3f), b_hh = torch::full({1}, -0.2f);
    const auto fused = nn::gru_cell(c.input, c.hidden, c.w_ih, c.w_hh, b_ih, b_hh);
    const auto torch_cell = torch::gru_cell(c.input, c.hidden, c.w_ih, c.w_hh, b_ih, b_hh);
    EXPECT_LT((fused - torch_cell).abs().max().item<float>(), 1e-6f);
    const auto wrong = torch::zeros({5});
    EXPECT_THROW(torch::gru_cell(c.input, c.hidden, c.w_ih, c.w_hh, wrong, c.b_hh), c10::Error);
    EXPECT_THROW(nn::gru_cell(c.input, c.hidden, c.w_ih, c.w_hh, wrong, c.b_hh), c10::Error);
}

}  // namespace
}  // namespace brec
