#pragma once
// Statistics for reporting results across seeds: confidence intervals, paired tests,
// multiple-comparison correction, Friedman test and Nemenyi critical difference.
//
// @article{demsar2006statistical, title={Statistical comparisons of classifiers over multiple data
//   sets}, author={Dem{\v{s}}ar, Janez}, journal={JMLR}, volume={7}, pages={1--30}, year={2006}}

#include <cstdint>
#include <vector>

namespace brec {

/// The sample mean (0 for no values).
double sample_mean(const std::vector<double>& v);
/// The sample standard deviation, with n − 1 in the denominator (0 for fewer than two values).
double sample_sd(const std::vector<double>& v);

struct Interval {
    double mean = 0.0;
    double half_width = 0.0;  ///< mean ± half_width; 0 with fewer than 2 values
    double lower() const { return mean - half_width; }
    double upper() const { return mean + half_width; }
};

/// Student-t interval: h = t_{S-1, 1-α/2} · s / √S.
Interval t_interval(const std::vector<double>& values, double alpha = 0.05);
/// Percentile bootstrap of the mean (B resamples, seeded); half_width = (upper − lower) / 2 and
/// mean = the sample mean. Deterministic for a seed.
Interval bootstrap_interval(const std::vector<double>& values, std::uint64_t seed, int resamples = 10000,
                            double alpha = 0.05);

struct TestResult {
    double statistic = 0.0;
    double p_value = 1.0;
    int n = 0;  ///< pairs used (Wilcoxon: after dropping zeros)
    bool exact = false;
};

/// Two-sided paired t-test on x − y. All-zero differences give p = 1.
TestResult paired_t_test(const std::vector<double>& x, const std::vector<double>& y);
/// Two-sided Wilcoxon signed-rank test on x − y: zeros dropped, tied |d| get average ranks.
/// Exact null distribution (by dynamic programming over doubled ranks, valid with ties) for
/// n <= exact_limit (default 50); above it the normal approximation with tie and continuity
/// corrections. The statistic is W+ (sum of positive ranks).
TestResult wilcoxon_signed_rank(const std::vector<double>& x, const std::vector<double>& y, int exact_limit = 50);
/// Holm–Bonferroni adjusted p-values, in the input order.
std::vector<double> holm_adjust(const std::vector<double>& p);
/// Cohen's d_z = mean(d) / sd(d) of the paired differences (0 when sd = 0 and mean = 0).
double cohens_dz(const std::vector<double>& x, const std::vector<double>& y);

/// Ranks of each row's values (1 = best; ties averaged); `higher_is_better` per row.
std::vector<std::vector<double>> rank_rows(const std::vector<std::vector<double>>& scores,
                                           const std::vector<bool>& higher_is_better);

struct FriedmanResult {
    std::vector<double> mean_ranks;  ///< per model
    double chi2 = 0.0;               ///< χ²_F = 12N/(k(k+1)) · [Σ r̄_i² − k(k+1)²/4] (Demšar 2006)
    double p_value = 1.0;            ///< upper tail of χ²_{k−1} at chi2
    /// χ²_F divided by the tie correction 1 − Σ(t³ − t) / (N k (k² − 1)) over the tie groups of
    /// every task (the form of R's friedman.test); equals chi2 when no task has tied scores.
    double chi2_ties = 0.0;
    double p_value_ties = 1.0;
    int models = 0;  ///< k
    int tasks = 0;   ///< N
};
/// Friedman test on N tasks × k models (scores[task][model]). Throws InvalidArgument for no
/// tasks, fewer than 2 models or ragged rows. Complexity O(N k log k).
FriedmanResult friedman_test(const std::vector<std::vector<double>>& scores, const std::vector<bool>& higher_is_better);

/// CDF of the studentised range of k standard normals with infinite degrees of freedom:
/// P(R <= q) = k ∫ φ(z) [Φ(z) − Φ(z − q)]^(k−1) dz (Boost.Math Gauss–Kronrod quadrature).
double studentized_range_cdf(double q, int k);
/// Its upper-α quantile (root of cdf = 1 − α, Boost.Math TOMS 748).
double studentized_range_quantile(double alpha, int k);
struct Nemenyi {
    double q_alpha = 0.0;  ///< studentised-range quantile / √2 (Demšar's q_α)
    double cd = 0.0;       ///< critical difference q_α · sqrt(k (k + 1) / (6 N))
};
/// Nemenyi's q_α and critical difference for k models over N tasks (one quantile solve).
Nemenyi nemenyi(int k, int n, double alpha = 0.05);
/// nemenyi(k, n, alpha).cd
double nemenyi_cd(int k, int n, double alpha = 0.05);

}  // namespace brec
