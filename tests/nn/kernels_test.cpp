// nn_kernels::batched_matmul and nn_kernels::conv2d: forward and gradients against torch::matmul and
// torch::conv2d on random shapes (n = 1, non-square, several batch dimensions, non-contiguous
// operands), the fallback where the BLAS path does not apply, and results that do not depend on the
// number of threads.
#include <gtest/gtest.h>

#include <ATen/Parallel.h>

#include "nn/kernels.hpp"

namespace brec {
namespace {

struct Shape {
    std::vector<std::int64_t> batch;
    std::int64_t n, k, m;
};

std::vector<std::int64_t> dims(const Shape& s, std::int64_t r, std::int64_t c) {
    auto d = s.batch;
    d.push_back(r);
    d.push_back(c);
    return d;
}

/// Forward and both gradients (for a random upstream gradient) of f(a, b).
template <class F>
std::vector<torch::Tensor> run(F f, const torch::Tensor& a0, const torch::Tensor& b0, const torch::Tensor& up) {
    auto a = a0.detach().clone().requires_grad_(true), b = b0.detach().clone().requires_grad_(true);
    auto c = f(a, b);
    (c * up).sum().backward();
    return {c.detach(), a.grad(), b.grad()};
}

void expect_close(const torch::Tensor& x, const torch::Tensor& y, const std::string& what) {
    ASSERT_EQ(x.sizes(), y.sizes()) << what;
    EXPECT_TRUE(torch::allclose(x, y, 1e-5, 1e-5)) << what << ": max |diff| " << (x - y).abs().max().item<double>();
}

/// batched_matmul applies to a, b and gives torch::matmul's product and gradients (upstream `up`).
void expect_matches_torch_matmul(const torch::Tensor& a, const torch::Tensor& b, const torch::Tensor& up) {
    ASSERT_TRUE(nn_kernels::batched_matmul_applies(a, b));
    const auto mine = run(nn_kernels::batched_matmul, a, b, up);
    const auto ref = run([](const torch::Tensor& x, const torch::Tensor& y) { return torch::matmul(x, y); }, a, b, up);
    expect_close(mine[0], ref[0], "product");
    expect_close(mine[1], ref[1], "gradient of a");
    expect_close(mine[2], ref[2], "gradient of b");
    EXPECT_GT(mine[0].abs().sum().item<double>(), 0.0);
}

class BatchedMatmul : public ::testing::TestWithParam<Shape> {};

TEST_P(BatchedMatmul, MatchesTorchMatmulForwardAndBackward) {
    ASSERT_TRUE(nn_kernels::blas_available());
    const Shape s = GetParam();
    torch::manual_seed(11);
    const auto a = torch::randn(dims(s, s.n, s.k)), b = torch::randn(dims(s, s.k, s.m));
    expect_matches_torch_matmul(a, b, torch::randn(dims(s, s.n, s.m)));
}

TEST_P(BatchedMatmul, NonContiguousOperands) {
    const Shape s = GetParam();
    torch::manual_seed(12);
    // a as the transpose of a [.., k, n] tensor, b as every other column of a [.., k, 2m] one.
    const auto a = torch::randn(dims(s, s.k, s.n)).transpose(-1, -2);
    const auto b = torch::randn(dims(s, s.k, 2 * s.m)).slice(-1, 0, 2 * s.m, 2);
    ASSERT_FALSE(a.is_contiguous() && s.n > 1 && s.k > 1);
    ASSERT_FALSE(b.is_contiguous());
    expect_matches_torch_matmul(a, b, torch::randn(dims(s, s.n, s.m)));
}

INSTANTIATE_TEST_SUITE_P(Shapes, BatchedMatmul,
                         ::testing::Values(Shape{{3}, 4, 5, 6}, Shape{{2, 3}, 1, 1, 1}, Shape{{32, 4}, 10, 10, 10},
                                           Shape{{5}, 7, 1, 3}, Shape{{2, 1, 3}, 2, 9, 4}, Shape{{1}, 1, 6, 1},
                                           Shape{{4, 2}, 17, 3, 1}));

TEST(BatchedMatmulNode, OneAutogradNodeOfItsOwn) {
    auto a = torch::randn({6, 5, 5}).requires_grad_(true);
    const auto c = nn_kernels::batched_matmul(a, torch::randn({6, 5, 5}));
    ASSERT_TRUE(c.grad_fn());
    const std::string name = c.grad_fn()->name();
    EXPECT_NE(name.find("BatchedMatmulFn"), std::string::npos) << name;
}

TEST(BatchedMatmulNode, FallsBackToTorchMatmulWhereTheBlasPathDoesNotApply) {
    torch::manual_seed(13);
    struct Case {
        torch::Tensor a, b;
        const char* what;
    };
    const std::vector<Case> cases = {
        {torch::randn({4, 5}), torch::randn({5, 3}), "2-D"},
        {torch::randn({5}), torch::randn({2, 5, 3}), "1-D times batch"},
        {torch::randn({2, 4, 5}), torch::randn({5}), "batch times 1-D"},
        {torch::randn({1, 4, 5}), torch::randn({3, 5, 2}), "broadcast batch"},
        {torch::randn({3, 4, 5}), torch::randn({5, 2}), "batch times 2-D"},
        {torch::randn({2, 3, 4}, torch::kDouble), torch::randn({2, 4, 2}, torch::kDouble), "float64"},
        {torch::randn({2, 3, 0}), torch::randn({2, 0, 2}), "empty inner dimension"},
        {torch::randn({0, 3, 4}), torch::randn({0, 4, 2}), "empty batch"},
    };
    for (const auto& c : cases) {
        EXPECT_FALSE(nn_kernels::batched_matmul_applies(c.a, c.b)) << c.what;
        const auto mine = nn_kernels::batched_matmul(c.a, c.b), ref = torch::matmul(c.a, c.b);
        EXPECT_EQ(mine.sizes(), ref.sizes()) << c.what;
        EXPECT_TRUE(torch::equal(mine, ref)) << c.what;
    }
    EXPECT_THROW(nn_kernels::batched_matmul(torch::randn({2, 3, 4}), torch::randn({2, 5, 2})), c10::Error);
}

TEST(BatchedMatmulNode, ResultsDoNotDependOnTheThreadCount) {
    torch::manual_seed(14);
    const auto a = torch::randn({64, 9, 11}), b = torch::randn({64, 11, 7}), up = torch::randn({64, 9, 7});
    const int before = at::get_num_threads();
    at::set_num_threads(1);
    const auto one = run(nn_kernels::batched_matmul, a, b, up);
    at::set_num_threads(2);
    const auto two = run(nn_kernels::batched_matmul, a, b, up);
    at::set_num_threads(before);
    for (std::size_t i = 0; i < one.size(); ++i) EXPECT_TRUE(torch::equal(one[i], two[i])) << i;
}

/// y = conv2d(x, w, bias) with stride 1, no padding, one group, and the gradients of x, w, bias.
template <class F>
std::vector<torch::Tensor> run_conv(F f, const torch::Tensor& x0, const torch::Tensor& w0, const torch::Tensor& b0,
                                    const torch::Tensor& up) {
    auto x = x0.detach().clone().requires_grad_(true), w = w0.detach().clone().requires_grad_(true);
    auto b = b0.defined() ? b0.detach().clone().requires_grad_(true) : torch::Tensor();
    auto y = f(x, w, b);
    (y * up).sum().backward();
    return {y.detach(), x.grad(), w.grad(), b.defined() ? b.grad() : torch::Tensor()};
}

TEST(Conv1x1, MatchesTorchConv2dForwardAndBackward) {
    ASSERT_TRUE(nn_kernels::blas_available());
    torch::manual_seed(15);
    struct Case {
        std::int64_t b, c, o, h, w;
        bool bias, strided;
    };
    for (const Case& k :
         {Case{4, 3, 5, 6, 6, true, false}, Case{1, 1, 1, 1, 1, true, false}, Case{3, 32, 32, 10, 10, true, true},
          Case{2, 7, 2, 5, 3, false, false}, Case{5, 2, 9, 4, 4, false, true}}) {
        SCOPED_TRACE(std::to_string(k.b) + "x" + std::to_string(k.c) + "->" + std::to_string(k.o));
        // strided: x as a channel slice of a wider tensor (not contiguous)
        const auto x = k.strided ? torch::randn({k.b, 2 * k.c, k.h, k.w}).slice(1, 0, 2 * k.c, 2)
                                 : torch::randn({k.b, k.c, k.h, k.w});
        const auto w = torch::randn({k.o, k.c, 1, 1}), bias = k.bias ? torch::randn({k.o}) : torch::Tensor();
        const auto up = torch::randn({k.b, k.o, k.h, k.w});
        const std::vector<std::int64_t> one{1, 1}, zero{0, 0};
        ASSERT_TRUE(nn_kernels::conv2d_1x1_applies(x, w, bias, one, zero, 1));
        const auto mine =
            run_conv([&](const torch::Tensor& a, const torch::Tensor& b,
                         const torch::Tensor& c) { return nn_kernels::conv2d(a, b, c, one, zero, one, 1); },
                     x, w, bias, up);
        const auto ref = run_conv([&](const torch::Tensor& a, const torch::Tensor& b,
                                      const torch::Tensor& c) { return torch::conv2d(a, b, c, one, zero, one, 1); },
                                  x, w, bias, up);
        expect_close(mine[0], ref[0], "output");
        expect_close(mine[1], ref[1], "gradient of x");
        expect_close(mine[2], ref[2], "gradient of w");
        if (k.bias) expect_close(mine[3], ref[3], "gradient of the bias");
        EXPECT_GT(mine[0].abs().sum().item<double>(), 0.0);
    }
}

TEST(Conv1x1, FallsBackToTorchConv2dForOtherConvolutions) {
    torch::manual_seed(16);
    const auto x = torch::randn({2, 3, 6, 6});
    const std::vector<std::int64_t> one{1, 1}, two{2, 2}, zero{0, 0};
    struct Case {
        torch::Tensor x, w;
        std::vector<std::int64_t> stride, padding;
        std::int64_t groups;
        const char* what;
    };
    const std::vector<Case> cases = {
        {x, torch::randn({4, 3, 3, 3}), one, zero, 1, "3x3 kernel"},
        {x, torch::randn({4, 3, 1, 1}), two, zero, 1, "stride 2"},
        {x, torch::randn({4, 3, 1, 1}), one, one, 1, "padding 1"},
        {x, torch::randn({3, 1, 1, 1}), one, zero, 3, "3 groups"},
        {x.to(torch::kDouble), torch::randn({4, 3, 1, 1}, torch::kDouble), one, zero, 1, "float64"},
    };
    for (const auto& c : cases) {
        const auto bias = torch::randn({c.w.size(0)}, c.w.options());
        EXPECT_FALSE(nn_kernels::conv2d_1x1_applies(c.x, c.w, bias, c.stride, c.padding, c.groups)) << c.what;
        const auto mine = nn_kernels::conv2d(c.x, c.w, bias, c.stride, c.padding, one, c.groups);
        const auto ref = torch::conv2d(c.x, c.w, bias, c.stride, c.padding, one, c.groups);
        EXPECT_TRUE(torch::equal(mine, ref)) << c.what;
    }
}

TEST(Conv1x1, ResultsDoNotDependOnTheThreadCount) {
    torch::manual_seed(17);
    const auto x = torch::randn({16, 8, 9, 9}), w = torch::randn({6, 8, 1, 1}), bias = torch::randn({6});
    const auto up = torch::randn({16, 6, 9, 9});
    const std::vector<std::int64_t> one{1, 1}, zero{0, 0};
    const auto f = [&](const torch::Tensor& a, const torch::Tensor& b, const torch::Tensor& c) {
        return nn_kernels::conv2d(a, b, c, one, zero, one, 1);
    };
    const int before = at::get_num_threads();
    at::set_num_threads(1);
    const auto one_thread = run_conv(f, x, w, bias, up);
    at::set_num_threads(2);
    const auto two_threads = run_conv(f, x, w, bias, up);
    at::set_num_threads(before);
    for (std::size_t i = 0; i < one_thread.size(); ++i) EXPECT_TRUE(torch::equal(one_thread[i], two_threads[i])) << i;
}

}  // namespace
}  // namespace brec
