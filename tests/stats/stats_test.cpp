#include <gtest/gtest.h>

#include <cmath>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/stats/hotelling.hpp"
#include "brec/stats/tests.hpp"

namespace brec {
namespace {

TEST(SampleMoments, KnownValues) {
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum to 32, sample variance 32 / 7.
    const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};
    EXPECT_DOUBLE_EQ(sample_mean(v), 5.0);
    EXPECT_NEAR(sample_sd(v), std::sqrt(32.0 / 7.0), 1e-12);
    EXPECT_EQ(sample_mean({}), 0.0);
    EXPECT_EQ(sample_sd({3.5}), 0.0);
}

TEST(RpcThreshold, BrecValueAndFQuantiles) {
    EXPECT_NEAR(rpc_threshold(32, 16, 0.05), 72.34, 0.005);
    // (q-1) d/(q-d) F_{d,q-d}(1-α) with F quantiles from SciPy (scipy.stats.f.ppf): qf(0.95, 4, 6)
    // = 4.533677, qf(0.99, 8, 24) = 3.362867, qf(0.95, 1, 9) = 5.117355.
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
    // The range of two standard normals is |Z1 - Z2| = sqrt(2) |N(0,1)|: P(R <= q) = 2 Phi(q / sqrt
    // 2) - 1, so the 0.05 quantile is sqrt(2) * 1.959963985.
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
            noisy(i, j) = x(i, j) + 1e-7 * rng.normal();          // float rounding only
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

// ---------------------------------------------------------------------------------------------
// Values from independent sources. Where a value is not printed in a publication it was computed
// with tests/stats/reference_values.py (pure Python + mpmath 1.3, 30 digits: regularised incomplete
// beta for F and t, mpmath's normal CDF, explicit enumeration for Wilcoxon), never with brec.

namespace brec {
namespace {

TEST(RpcThreshold, OtherQAndDAgainstIndependentFQuantiles) {
    // (q, d, α, F_{d,q-d}(1-α)) from reference_values.py; the first three also agree with printed
    // F tables (F_{0.95}(4,6) = 4.53, F_{0.99}(8,24) = 3.36, F_{0.95}(1,9) = 5.12).
    struct Case {
        int q, d;
        double alpha, f;
    };
    const Case cases[] = {{32, 16, 0.05, 2.33348362747},  {64, 16, 0.05, 1.85916701285}, {32, 4, 0.05, 2.71407580415},
                          {128, 32, 0.05, 1.56404849692}, {20, 19, 0.05, 247.686053919}, {10, 4, 0.05, 4.53367695028},
                          {32, 8, 0.01, 3.36286711995}};
    for (const auto& c : cases) {
        const double expected = (c.q - 1.0) * c.d / (c.q - c.d) * c.f;
        EXPECT_NEAR(rpc_threshold(c.q, c.d, c.alpha), expected, 1e-9 * expected) << "q=" << c.q << " d=" << c.d;
    }
    EXPECT_NEAR(rpc_threshold(32, 16, 0.05), 72.3379924515, 1e-8);
    EXPECT_THROW(rpc_threshold(32, 0, 0.05), InvalidArgument);
    EXPECT_THROW(rpc_threshold(32, 16, 0.0), InvalidArgument);
}

TEST(Hotelling, OneDimensionIsTheSquaredPairedT) {
    // With d = 1, T² = q d̄² / s² = t². R: t.test(sleep$extra[1:10], sleep$extra[11:20], paired =
    // TRUE) gives t = -4.0621, so T² = 16.500.
    const std::vector<double> a = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
    const std::vector<double> b = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};
    Eigen::MatrixXd x(10, 1), y(10, 1);
    for (int i = 0; i < 10; ++i) x(i, 0) = a[static_cast<std::size_t>(i)], y(i, 0) = b[static_cast<std::size_t>(i)];
    const auto r = hotelling_t2_paired(x, y);
    EXPECT_NEAR(r.t2, 4.0621277 * 4.0621277, 1e-5);
    EXPECT_EQ(r.rank, 1);
    EXPECT_DOUBLE_EQ(r.condition, 1.0);
    EXPECT_EQ(r.samples, 10);
    EXPECT_EQ(r.dimension, 1);
}

TEST(Hotelling, RankAndConditionOfAHandMadeCovariance) {
    // Differences (±1, 0) and (0, ±2) in turn: S = diag(2/3, 8/3) for q = 4 (divisor q − 1), so
    // rank 2 and condition (8/3) / (2/3) = 4; d̄ = 0 gives T² = 0.
    Eigen::MatrixXd x(4, 2), y = Eigen::MatrixXd::Zero(4, 2);
    x << 1, 0, -1, 0, 0, 2, 0, -2;
    const auto r = hotelling_t2_paired(x, y);
    EXPECT_EQ(r.rank, 2);
    EXPECT_NEAR(r.condition, 4.0, 1e-12);
    EXPECT_NEAR(r.t2, 0.0, 1e-12);
    // Shift every difference by (0.5, 0.5): T² = 4 · (0.25 / (2/3) + 0.25 / (8/3)) = 1.875.
    y.array() -= 0.5;
    EXPECT_NEAR(hotelling_t2_paired(x, y).t2, 1.875, 1e-12);
}

TEST(Hotelling, RankDeficientCovarianceUsesOnlyItsRange) {
    // d = 4, but the differences vary only in the first two coordinates; coordinates 2 and 3 carry
    // a constant offset (a direction with zero variance). The pseudo-inverse ignores that
    // direction, so T² equals the two-dimensional statistic, stays finite and the rank is reported
    // as 2.
    Eigen::MatrixXd x(6, 4), y = Eigen::MatrixXd::Zero(6, 4);
    x << 0.3, 1.0, 5, -2,   //
        1.1, -0.4, 5, -2,   //
        -0.2, 0.6, 5, -2,   //
        0.9, 0.2, 5, -2,    //
        0.4, 1.3, 5, -2,    //
        -0.5, -0.1, 5, -2;  //
    const auto full = hotelling_t2_paired(x, y);
    const auto two = hotelling_t2_paired(x.leftCols(2), y.leftCols(2));
    EXPECT_EQ(full.rank, 2);
    EXPECT_TRUE(std::isfinite(full.t2));
    EXPECT_NEAR(full.t2, two.t2, 1e-9 * two.t2);
    EXPECT_NEAR(full.condition, two.condition, 1e-9 * two.condition);
    // Constant non-zero differences: S = 0 (rank 0), S⁺ = 0, T² = 0; no crash, no "distinguished".
    const Eigen::MatrixXd c = Eigen::MatrixXd::Constant(32, 16, 1.0);
    const auto zero_cov = hotelling_t2_paired(c, Eigen::MatrixXd::Zero(32, 16));
    EXPECT_EQ(zero_cov.rank, 0);
    EXPECT_EQ(zero_cov.t2, 0.0);
    EXPECT_TRUE(std::isinf(zero_cov.condition));
    EXPECT_FALSE(rpc_decide(zero_cov.t2, zero_cov.t2, rpc_threshold(32, 16, 0.05)).distinguished);
    // Fewer samples than dimensions (q = 8 < d = 16): S has rank at most q − 1 = 7.
    Rng rng(5);
    Eigen::MatrixXd u(8, 16), v(8, 16);
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 16; ++j) u(i, j) = rng.normal(), v(i, j) = rng.normal();
    const auto thin = hotelling_t2_paired(u, v);
    EXPECT_EQ(thin.rank, 7);
    EXPECT_TRUE(std::isfinite(thin.t2));
    EXPECT_THROW(hotelling_t2_paired(Eigen::MatrixXd(1, 3), Eigen::MatrixXd(1, 3)), InvalidArgument);
}

TEST(PairedTests, StudentTOnHollanderWolfeData) {
    // R: t.test(x, y, paired = TRUE) on the ?wilcox.test depression data: t = 3.0354, df = 8,
    // p-value = 0.01618.
    const std::vector<double> x = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
    const std::vector<double> y = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
    const auto r = paired_t_test(x, y);
    EXPECT_NEAR(r.statistic, 3.0354, 1e-4);
    EXPECT_NEAR(r.p_value, 0.01618, 1e-5);
    EXPECT_EQ(r.n, 9);
    EXPECT_THROW(paired_t_test({1, 2}, {1}), InvalidArgument);
}

TEST(PairedTests, WilcoxonExactNullMatchesTheTable) {
    // n = 10 without ties: P(W+ <= 8) = 25 / 1024 (25 subsets of {1..10} sum to at most 8), so the
    // two-sided exact p is 50 / 1024 = 0.04883 (tables of the signed-rank test: critical value 8 at
    // α = 0.05 two-sided for n = 10; R's wilcox.test(..., exact = TRUE) gives p-value = 0.04883).
    // Differences with |d| ranks 1..10, positive ranks {1, 7}: W+ = 8.
    std::vector<double> x(10), y(10, 0.0);
    for (int i = 0; i < 10; ++i) x[static_cast<std::size_t>(i)] = (i == 0 || i == 6) ? (i + 1) : -(i + 1.0);
    const auto r = wilcoxon_signed_rank(x, y);
    EXPECT_TRUE(r.exact);
    EXPECT_DOUBLE_EQ(r.statistic, 8.0);
    EXPECT_NEAR(r.p_value, 50.0 / 1024.0, 1e-15);
    // W+ = 9 (positive ranks {2, 7}): 8 more subsets sum to exactly 9, P(W+ <= 9) = 33 / 1024.
    x[0] = -1, x[1] = 2;
    EXPECT_NEAR(wilcoxon_signed_rank(x, y).p_value, 66.0 / 1024.0, 1e-15);
    // All differences zero: nothing to test.
    const auto none = wilcoxon_signed_rank({1, 2, 3}, {1, 2, 3});
    EXPECT_EQ(none.n, 0);
    EXPECT_DOUBLE_EQ(none.p_value, 1.0);
}

/// 60 differences ((37 i mod 23) − 8, i = 1..60): two zeros, many ties.
std::vector<double> tied_differences() {
    std::vector<double> d;
    for (int i = 1; i <= 60; ++i) d.push_back(static_cast<double>((i * 37) % 23 - 8));
    return d;
}

TEST(PairedTests, WilcoxonNormalApproximationAboveTheExactLimit) {
    // 58 non-zero differences > the documented exact limit of 50: normal approximation with tie
    // and continuity corrections (R's wilcox.test(d, exact = FALSE, correct = TRUE) formula,
    // evaluated in reference_values.py): V = 1267, p = 0.0014485868.
    const auto d = tied_differences();
    const std::vector<double> zero(d.size(), 0.0);
    const auto r = wilcoxon_signed_rank(d, zero);
    EXPECT_FALSE(r.exact);
    EXPECT_EQ(r.n, 58);
    EXPECT_DOUBLE_EQ(r.statistic, 1267.0);
    EXPECT_NEAR(r.p_value, 0.0014485868, 1e-9);
    // With a higher limit the exact null conditional on the tied ranks is used: 2^58 sign patterns
    // enumerated with exact fractions in reference_values.py give p = 0.001146854697044411. The
    // normal approximation is 26 % too large this far in the tail.
    const auto e = wilcoxon_signed_rank(d, zero, /*exact_limit=*/60);
    EXPECT_TRUE(e.exact);
    EXPECT_NEAR(e.p_value, 0.001146854697044411, 1e-13);
}

TEST(PairedTests, WilcoxonSwitchesToTheApproximationAtTheDocumentedN) {
    // Default exact_limit = 50: 50 non-zero differences are exact, 51 are not.
    std::vector<double> d(51), zero(51, 0.0);
    for (int i = 0; i < 51; ++i) d[static_cast<std::size_t>(i)] = (i % 3 == 0 ? -1.0 : 1.0) * (i + 1);
    EXPECT_FALSE(wilcoxon_signed_rank(d, zero).exact);
    const std::vector<double> d50(d.begin(), d.begin() + 50), zero50(50, 0.0);
    const auto exact = wilcoxon_signed_rank(d50, zero50);
    EXPECT_TRUE(exact.exact);
    // Without ties the approximation at n = 50 is close to the exact value.
    EXPECT_NEAR(wilcoxon_signed_rank(d50, zero50, 49).p_value, exact.p_value, 2e-3);
}

TEST(MultipleComparisons, HolmMatchesRPAdjust) {
    // R: p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "holm") = 0.05 0.08 0.09 0.09 0.09 (monotone).
    const auto a = holm_adjust({0.01, 0.02, 0.03, 0.04, 0.05});
    const double expected[] = {0.05, 0.08, 0.09, 0.09, 0.09};
    for (std::size_t i = 0; i < 5; ++i) EXPECT_NEAR(a[i], expected[i], 1e-12) << i;
    // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02 (input order kept).
    EXPECT_NEAR(holm_adjust({0.01, 0.04, 0.03, 0.005})[3], 0.02, 1e-12);
    EXPECT_TRUE(holm_adjust({}).empty());
    EXPECT_DOUBLE_EQ(holm_adjust({0.3})[0], 0.3);
}

TEST(Intervals, BootstrapIsSeededAndConsistent) {
    const std::vector<double> v = {0.6113, 0.5871, 0.6642, 0.7019, 0.5934, 0.6457, 0.6251, 0.6838};
    const auto a = bootstrap_interval(v, 7), b = bootstrap_interval(v, 7), c = bootstrap_interval(v, 8);
    EXPECT_EQ(a.half_width, b.half_width);  // same seed, same interval, bit for bit
    EXPECT_NE(a.half_width, c.half_width);  // another seed, other resamples
    EXPECT_NEAR(a.half_width, c.half_width, 0.2 * a.half_width);
    // Two values {0, 1}: the resampled means are 0, 1/2, 1 with probabilities 1/4, 1/2, 1/4, so the
    // 2.5 % and 97.5 % percentiles are 0 and 1 and the half-width is 1/2.
    EXPECT_DOUBLE_EQ(bootstrap_interval({0.0, 1.0}, 3).half_width, 0.5);
    // Large n: the percentile interval approaches the normal one, z_{0.975} · s · sqrt((n−1)/n) /
    // √n.
    Rng rng(11);
    std::vector<double> big(400);
    for (double& x : big) x = rng.normal();
    double m = 0, ss = 0;
    for (double x : big) m += x / 400;
    for (double x : big) ss += (x - m) * (x - m);
    const double normal_h = 1.959964 * std::sqrt(ss / 400) / std::sqrt(400.0);
    EXPECT_NEAR(bootstrap_interval(big, 1).half_width, normal_h, 0.05 * normal_h);
    EXPECT_EQ(bootstrap_interval({2.0}, 1).half_width, 0.0);
}

TEST(Friedman, RoundingTimesExampleOfR) {
    // R's ?friedman.test example (Hollander & Wolfe 1973, p. 140): 22 players x 3 methods of
    // rounding first base; R prints Friedman chi-squared = 11.143, df = 2, p-value = 0.003805.
    // R corrects for ties; Demšar's formula (2006, chi2) does not: chi2 = chi2_ties · C with
    // C = 1 − Σ(t³ − t) / (N k (k² − 1)) = 1 − 24 / 528 (four rows hold one tied pair each).
    const std::vector<std::vector<double>> times = {
        {5.40, 5.50, 5.55}, {5.85, 5.70, 5.75}, {5.20, 5.60, 5.50}, {5.55, 5.50, 5.40}, {5.90, 5.85, 5.70},
        {5.45, 5.55, 5.60}, {5.40, 5.40, 5.35}, {5.45, 5.50, 5.35}, {5.25, 5.15, 5.00}, {5.85, 5.80, 5.70},
        {5.25, 5.20, 5.10}, {5.65, 5.55, 5.45}, {5.60, 5.35, 5.45}, {5.05, 5.00, 4.95}, {5.50, 5.50, 5.40},
        {5.45, 5.55, 5.50}, {5.55, 5.55, 5.35}, {5.45, 5.50, 5.55}, {5.50, 5.45, 5.25}, {5.65, 5.60, 5.40},
        {5.70, 5.65, 5.55}, {6.30, 6.30, 6.25}};
    const auto f = friedman_test(times, std::vector<bool>(times.size(), false));  // shorter time is better
    EXPECT_EQ(f.tasks, 22);
    EXPECT_EQ(f.models, 3);
    EXPECT_NEAR(f.chi2_ties, 11.143, 5e-4);
    EXPECT_NEAR(f.p_value_ties, 0.003805, 5e-7);
    EXPECT_NEAR(f.chi2, 11.142857142857 * (1.0 - 24.0 / 528.0), 1e-9);
    // Rank sums 53, 47, 32 over the 22 rows (R: colSums of the row ranks).
    EXPECT_NEAR(f.mean_ranks[0] * 22, 53.0, 1e-9);
    EXPECT_NEAR(f.mean_ranks[1] * 22, 47.0, 1e-9);
    EXPECT_NEAR(f.mean_ranks[2] * 22, 32.0, 1e-9);
    // Ranking direction does not change the statistic, only the ranks.
    const auto g = friedman_test(times, std::vector<bool>(times.size(), true));
    EXPECT_NEAR(g.chi2, f.chi2, 1e-9);
    EXPECT_NEAR(g.mean_ranks[2], 4.0 - f.mean_ranks[2], 1e-12);
    EXPECT_THROW(friedman_test({}, {}), InvalidArgument);
    EXPECT_THROW(friedman_test({{1, 2}, {1}}, {}), InvalidArgument);
    EXPECT_THROW(friedman_test({{1}, {2}}, {}), InvalidArgument);
}

TEST(Friedman, DemsarWorkedExampleFromMeanRanks) {
    // Demšar (2006), worked example of the Friedman test: four classifiers on N = 14 data sets with
    // mean ranks 3.143, 2.000, 2.893 and 1.964 give χ²_F = 9.28. The statistic depends on the rank
    // sums only (44, 28, 40.5, 27.5), so any table with those sums must reproduce it; the rows
    // below are rank patterns (lower is better) with ties, including one fully tied row.
    const std::vector<std::vector<double>> ranks = {
        {4, 3, 2, 1},     {1, 2, 3, 4}, {4, 1, 2, 3},     {4, 1, 3, 2},     {4, 2, 3, 1},
        {1, 2.5, 4, 2.5}, {3, 2, 4, 1}, {2.5, 2.5, 4, 1}, {4, 3, 1.5, 1.5}, {2.5, 2.5, 2.5, 2.5},
        {4, 2.5, 1, 2.5}, {3, 2, 4, 1}, {4, 1, 2.5, 2.5}, {3, 1, 4, 2}};
    const auto f = friedman_test(ranks, std::vector<bool>(ranks.size(), false));
    EXPECT_NEAR(f.mean_ranks[0], 3.143, 5e-4);
    EXPECT_NEAR(f.mean_ranks[1], 2.000, 5e-4);
    EXPECT_NEAR(f.mean_ranks[2], 2.893, 5e-4);
    EXPECT_NEAR(f.mean_ranks[3], 1.964, 5e-4);
    EXPECT_NEAR(f.chi2, 9.28, 5e-3);
    // Demšar's Nemenyi CD for k = 4, N = 14 at α = 0.05 is 1.25 (same section).
    EXPECT_NEAR(nemenyi_cd(4, 14, 0.05), 1.25, 5e-3);
}

TEST(Nemenyi, StudentizedRangeMatchesDemsarTableAtAlpha10) {
    // Demšar (2006), Table 5(b): q_0.10 for k = 2..10.
    const double table[] = {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920};
    for (int k = 2; k <= 10; ++k)
        EXPECT_NEAR(studentized_range_quantile(0.10, k) / std::sqrt(2.0), table[k - 2], 6e-4) << "k=" << k;
    // Unrounded: 2.56903 for k = 4 at α = 0.05 (reference_values.py), so CD(4, 10) = 1.48323.
    EXPECT_NEAR(nemenyi_cd(4, 10, 0.05), 1.4832312, 1e-5);
    // CD shrinks like 1/√N.
    EXPECT_NEAR(nemenyi_cd(4, 40, 0.05), nemenyi_cd(4, 10, 0.05) / 2, 1e-12);
    EXPECT_THROW(nemenyi_cd(4, 0, 0.05), InvalidArgument);
    EXPECT_THROW(studentized_range_quantile(1.5, 4), InvalidArgument);
}

TEST(Rpc, TheTwoProtocolsDecideEqualityDifferently) {
    const double thr = rpc_threshold(32, 16, 0.05);
    // 9e-6 relative apart: different for Hotelling's rule (1e-6 relative), equal for torch.isclose
    // (atol 1e-6 + rtol 1e-5 · |reliability| = 0.001 here).
    EXPECT_TRUE(rpc_decide(100.0, 100.0009, thr).distinguished);
    EXPECT_FALSE(rpc_decide_reference(100.0, 100.0009, thr).distinguished);
    EXPECT_TRUE(rpc_decide_reference(100.0, 100.002, thr).distinguished);
    EXPECT_FALSE(rpc_decide_reference(100.0, 100.002, thr).reliable);
    EXPECT_TRUE(rpc_decide_reference(100.0, 1.0, thr).reliable);
}

TEST(Rpc, ReferenceInverseVariantsAgreeOnAWellConditionedCovariance) {
    Rng rng(8);
    Eigen::MatrixXd x(12, 3), y(12, 3);
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 3; ++j) {
            x(i, j) = rng.normal();
            y(i, j) = x(i, j) + 0.3 + rng.normal();
        }
    const double pinv = brec_reference_t2(x, y, T2Inverse::pinv);
    // Without the factor q: Hotelling's T² / q.
    EXPECT_NEAR(pinv, hotelling_t2_paired(x, y).t2 / 12.0, 1e-9 * pinv);
    EXPECT_NEAR(brec_reference_t2(x, y, T2Inverse::regularised_inverse), pinv, 1e-6 * pinv);
    EXPECT_NEAR(brec_reference_t2(x, y, T2Inverse::solve_or_ridge), pinv, 1e-9 * pinv);
    EXPECT_NEAR(brec_reference_t2(x, y, T2Inverse::solve_or_pinv), pinv, 1e-9 * pinv);
    // A singular covariance (the third coordinate differs by a constant): the pseudo-inverse
    // ignores that direction; the ridge of the SSWL+ script turns it into a huge statistic.
    for (int i = 0; i < 12; ++i) y(i, 2) = x(i, 2) + 0.5;
    const double singular_pinv = brec_reference_t2(x, y, T2Inverse::pinv);
    EXPECT_NEAR(brec_reference_t2(x, y, T2Inverse::solve_or_pinv), singular_pinv, 1e-9 * singular_pinv);
    EXPECT_GT(brec_reference_t2(x, y, T2Inverse::solve_or_ridge), 1e4 * singular_pinv);
    EXPECT_GT(brec_reference_t2(x, y, T2Inverse::regularised_inverse), 1e6 * singular_pinv);
}

TEST(Rpc, BothProtocolsFromEmbeddingsAndRapcThresholds) {
    Rng rng(5);
    Eigen::MatrixXd test(64, 16), rel(64, 16);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 16; ++j) {
            test(2 * i, j) = rng.normal();
            test(2 * i + 1, j) = test(2 * i, j) + 0.2 + 0.1 * rng.normal();
            rel(2 * i, j) = rel(2 * i + 1, j) = rng.normal();
        }
    RpcSettings s;
    const RpcProtocols p = rpc_from_embeddings(test, rel, s);
    EXPECT_TRUE(p.hotelling.distinguished && p.hotelling.reliable);
    EXPECT_TRUE(p.brec_reference.distinguished && p.brec_reference.reliable);
    EXPECT_NEAR(p.brec_reference.threshold, 72.34, 0.01);
    // The reference statistic has no factor q and no noise floor.
    EXPECT_NEAR(p.brec_reference.t2_test, paired_rows_t2(test, 0.0) / 32.0, 1e-9 * p.brec_reference.t2_test);
    // A script's own threshold (DropGNN kept 5.0) applies to the reference protocol only.
    s.reference_threshold = 5.0;
    const RpcProtocols q = rpc_from_embeddings(test, rel, s);
    EXPECT_EQ(q.brec_reference.threshold, 5.0);
    EXPECT_NEAR(q.hotelling.threshold, 72.34, 0.01);
    // RAPC: each protocol's threshold is the largest T² of its groups, in its own statistic.
    const RpcProtocols r = rpc_from_embeddings(test, rel, s, {test, rel});
    EXPECT_DOUBLE_EQ(r.hotelling.threshold, paired_rows_t2(test, s.relative_noise));
    EXPECT_DOUBLE_EQ(r.brec_reference.threshold, paired_rows_reference_t2(test, T2Inverse::pinv));
    EXPECT_FALSE(r.hotelling.distinguished);  // T²_test does not exceed a threshold equal to it
    EXPECT_THROW(rpc_from_embeddings(test, rel.topRows(62), s), InvalidArgument);
}

}  // namespace
}  // namespace brec
