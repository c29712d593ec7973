#include <gtest/gtest.h>

#include <cmath>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/stats/hotelling.hpp"
#include "brec/stats/tests.hpp"

namespace brec {
namespace {

TEST(RpcThreshold, BrecValueAndFQuantiles) {
    EXPECT_NEAR(rpc_threshold(32, 16, 0.05), 72.34, 0.005);
    // (q-1) d/(q-d) F_{d,q-d}(1-α) with F quantiles from SciPy (scipy.stats.f.ppf): qf(0.95, 4, 6) = 4.533677,
    // qf(0.99, 8, 24) = 3.362867, qf(0.95, 1, 9) = 5.117355.
    EXPECT_NEAR(rpc_threshold(10, 4, 0.05), 9.0 * 4 / 6 * 4.533677, 1e-4);
    EXPECT_NEAR(rpc_threshold(32, 8, 0.01), 31.0 * 8 / 24 * 3.362867, 1e-4);
    EXPECT_NEAR(rpc_threshold(10, 1, 0.05), 9.0 * 1 / 9 * 5.117355, 1e-5);
    EXPECT_THROW(rpc_threshold(16, 16, 0.05), InvalidArgument);
    EXPECT_THROW(rpc_threshold(32, 16, 1.5), InvalidArgument);
}

TEST(Hotelling, MatchesDirectComputationOnSmallSample) {
    Eigen::MatrixXd x(5, 2), y(5, 2);
    x << 1.0, 2.0, 2.5, 0.5, 3.0, 1.5, 0.5, 2.5, 2.0, 2.0;
    y << 0.0, 1.0, 1.0, 1.0, 1.5, 0.0, 0.0, 2.0, 0.5, 1.5;
    // Direct: D, mean, covariance with divisor q-1, inverse (full rank), q * m' S^-1 m.
    const Eigen::MatrixXd d = x - y;
    const Eigen::Vector2d m = d.colwise().mean();
    Eigen::Matrix2d s = Eigen::Matrix2d::Zero();
    for (int i = 0; i < 5; ++i) {
        const Eigen::Vector2d c = d.row(i).transpose() - m;
        s += c * c.transpose();
    }
    s /= 4.0;
    const double expected = 5.0 * m.dot(s.inverse() * m);
    const auto r = hotelling_t2_paired(x, y);
    EXPECT_NEAR(r.t2, expected, 1e-9 * expected);
    EXPECT_EQ(r.rank, 2);
    EXPECT_NEAR(hotelling_t2_paired(x, y, T2Form::reference).t2, expected / 5.0, 1e-9 * expected);
}

TEST(Hotelling, InvariantUnderInvertibleLinearMaps) {
    Rng rng(9);
    Eigen::MatrixXd x(32, 4), y(32, 4), a(4, 4);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 4; ++j) {
            x(i, j) = rng.normal() + 0.3 * j;
            y(i, j) = rng.normal();
        }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) a(i, j) = rng.normal() + (i == j ? 3.0 : 0.0);
    const double t = hotelling_t2_paired(x, y).t2;
    const double ta = hotelling_t2_paired(x * a, y * a).t2;
    EXPECT_GT(t, 0.0);
    EXPECT_NEAR(t, ta, 1e-8 * t);
}

TEST(Hotelling, RankDeficientSamplesNeitherCrashNorDistinguish) {
    Eigen::MatrixXd x = Eigen::MatrixXd::Constant(32, 16, 0.25);
    const auto same = hotelling_t2_paired(x, x);
    EXPECT_EQ(same.rank, 0);
    EXPECT_EQ(same.t2, 0.0);
    const double thr = rpc_threshold(32, 16, 0.05);
    const auto decision = rpc_decide(same.t2, same.t2, thr);
    EXPECT_FALSE(decision.distinguished);
    EXPECT_TRUE(decision.reliable);
    // Rank one: all differences along one direction with some spread.
    Eigen::MatrixXd y = x;
    for (int i = 0; i < 32; ++i) y(i, 0) -= 1.0 + 0.01 * i;
    const auto r1 = hotelling_t2_paired(x, y);
    EXPECT_EQ(r1.rank, 1);
    EXPECT_TRUE(std::isfinite(r1.t2));
    EXPECT_THROW(hotelling_t2_paired(x, Eigen::MatrixXd(3, 16)), InvalidArgument);
}

TEST(Rpc, DecisionRule) {
    const double thr = 72.34;
    EXPECT_TRUE(rpc_decide(100.0, 1.0, thr).distinguished);
    EXPECT_FALSE(rpc_decide(50.0, 1.0, thr).distinguished);
    EXPECT_FALSE(rpc_decide(100.0, 100.0 + 1e-7, thr).distinguished);  // within 1e-6 of reliability
    EXPECT_FALSE(rpc_decide(100.0, 90.0, thr).reliable);
    EXPECT_TRUE(rpc_decide(100.0, 90.0, thr).distinguished);  // counted only if reliable
    EXPECT_DOUBLE_EQ(rapc_threshold({3.0, 9.0, 4.0}), 9.0);
    EXPECT_THROW(rapc_threshold({}), InvalidArgument);
}

// R: t.test(extra ~ group, data = sleep, paired = TRUE): t = -4.0621, df = 9, p = 0.002833.
const std::vector<double> kSleep1 = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
const std::vector<double> kSleep2 = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};

TEST(PairedTests, StudentTOnSleepData) {
    const auto r = paired_t_test(kSleep1, kSleep2);
    EXPECT_NEAR(r.statistic, -4.0621, 1e-4);
    EXPECT_NEAR(r.p_value, 0.002833, 1e-6);
    EXPECT_NEAR(cohens_dz(kSleep1, kSleep2), -1.2845, 1e-4);
    EXPECT_DOUBLE_EQ(paired_t_test({1, 2, 3}, {1, 2, 3}).p_value, 1.0);
}

TEST(PairedTests, WilcoxonExactAndApproximate) {
    // R's ?wilcox.test example (Hollander & Wolfe): paired, V = 40, one-sided p = 0.01953,
    // so two-sided exact p = 0.03906.
    const std::vector<double> x = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
    const std::vector<double> y = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
    const auto e = wilcoxon_signed_rank(x, y);
    EXPECT_TRUE(e.exact);
    EXPECT_DOUBLE_EQ(e.statistic, 40.0);
    EXPECT_NEAR(e.p_value, 0.0390625, 1e-7);
    // Sleep data with a zero and a tie: R uses the normal approximation with tie and continuity
    // corrections: V = 0, p = 0.009091.
    const auto a = wilcoxon_signed_rank(kSleep1, kSleep2, /*exact_limit=*/0);
    EXPECT_FALSE(a.exact);
    EXPECT_EQ(a.n, 9);
    EXPECT_DOUBLE_EQ(a.statistic, 0.0);
    EXPECT_NEAR(a.p_value, 0.009091, 1e-5);
    // Exact with ties: all 9 non-zero differences negative -> p = 2 / 2^9.
    EXPECT_NEAR(wilcoxon_signed_rank(kSleep1, kSleep2).p_value, 2.0 / 512.0, 1e-12);
}

TEST(MultipleComparisons, HolmOnKnownVector) {
    const auto adj = holm_adjust({0.01, 0.04, 0.03, 0.005});
    ASSERT_EQ(adj.size(), 4u);
    EXPECT_NEAR(adj[0], 0.03, 1e-12);
    EXPECT_NEAR(adj[1], 0.06, 1e-12);
    EXPECT_NEAR(adj[2], 0.06, 1e-12);
    EXPECT_NEAR(adj[3], 0.02, 1e-12);
    EXPECT_DOUBLE_EQ(holm_adjust({0.9, 0.8})[0], 1.0);
}

TEST(Intervals, StudentAndBootstrap) {
    // mean 3, sd sqrt(2.5), n 5: h = qt(0.975, 4) * sd / sqrt(5) = 2.776445 * 0.7071068.
    const auto t = t_interval({1, 2, 3, 4, 5});
    EXPECT_DOUBLE_EQ(t.mean, 3.0);
    EXPECT_NEAR(t.half_width, 2.776445 * 0.7071068, 1e-5);
    const auto b1 = bootstrap_interval({1, 2, 3, 4, 5}, 42), b2 = bootstrap_interval({1, 2, 3, 4, 5}, 42);
    EXPECT_DOUBLE_EQ(b1.half_width, b2.half_width);  // seeded
    EXPECT_GT(b1.half_width, 0.5);
    EXPECT_LT(b1.half_width, t.half_width);  // the percentile bootstrap is narrower for n = 5
    EXPECT_EQ(t_interval({7}).half_width, 0.0);
}

TEST(Friedman, RanksAndStatistic) {
    // Model 0 always best, model 2 always worst: mean ranks 1, 2, 3; chi2 = 8 on 2 df, p = e^-4.
    const std::vector<std::vector<double>> s = {{0.9, 0.5, 0.1}, {0.8, 0.6, 0.2}, {0.7, 0.4, 0.3}, {0.95, 0.9, 0.0}};
    const auto f = friedman_test(s, {});
    EXPECT_EQ(f.mean_ranks, (std::vector<double>{1, 2, 3}));
    EXPECT_NEAR(f.chi2, 8.0, 1e-12);
    EXPECT_NEAR(f.p_value, std::exp(-4.0), 1e-10);
    // Lower is better flips the ranks; ties are averaged.
    const auto r = rank_rows({{1.0, 1.0, 3.0}}, {false});
    EXPECT_EQ(r[0], (std::vector<double>{1.5, 1.5, 3.0}));
}

TEST(Nemenyi, StudentizedRangeMatchesDemsarTable) {
    // Demšar (2006), Table 5(a): q_0.05 for k = 2..10.
    const double table[] = {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164};
    for (int k = 2; k <= 10; ++k)
        EXPECT_NEAR(studentized_range_quantile(0.05, k) / std::sqrt(2.0), table[k - 2], 1.5e-3) << "k=" << k;
    EXPECT_NEAR(nemenyi_cd(4, 10, 0.05), 1.48, 0.005);
    EXPECT_NEAR(studentized_range_cdf(3.633, 4), 0.95, 1e-3);
}

TEST(Nemenyi, StudentizedRangeOfTwoNormalsHasClosedForm) {
    // The range of two standard normals is |Z1 - Z2| = sqrt(2) |N(0,1)|: P(R <= q) = 2 Phi(q / sqrt 2) - 1,
    // so the 0.05 quantile is sqrt(2) * 1.959963985.
    for (double q : {0.5, 1.0, 2.0, 2.771808, 4.0})
        EXPECT_NEAR(studentized_range_cdf(q, 2), std::erf(q / 2.0), 1e-9) << "q=" << q;
    EXPECT_NEAR(studentized_range_quantile(0.05, 2), std::sqrt(2.0) * 1.959963985, 1e-7);
    EXPECT_NEAR(studentized_range_quantile(0.01, 2), std::sqrt(2.0) * 2.575829304, 1e-7);
    EXPECT_THROW(studentized_range_cdf(1.0, 1), InvalidArgument);
}

}  // namespace
}  // namespace brec

namespace brec {
namespace {

TEST(Hotelling, NoiseVarianceSeparatesRoundingFromConsistentDifferences) {
    Rng rng(4);
    Eigen::MatrixXd x(32, 16), noisy(32, 16), shifted(32, 16);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 16; ++j) {
            x(i, j) = rng.normal();
            noisy(i, j) = x(i, j) + 1e-7 * rng.normal();  // float rounding only
            shifted(i, j) = x(i, j) + 0.5 + 1e-7 * rng.normal();  // a consistent difference
        }
    const double noise = 1e-5 * 1e-5;
    const double thr = rpc_threshold(32, 16, 0.05);
    // Without a noise model, rounding alone yields a Hotelling-distributed statistic.
    EXPECT_GT(hotelling_t2_paired(x, noisy).t2, 1.0);
    EXPECT_LT(hotelling_t2_paired(x, noisy, T2Form::standard, noise).t2, 1.0);
    EXPECT_GT(hotelling_t2_paired(x, shifted, T2Form::standard, noise).t2, 1e6 * thr);
}

}  // namespace
}  // namespace brec
