#include "brec/stats/tests.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <numeric>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"

namespace brec {

double sample_mean(const std::vector<double>& v) {
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double sample_sd(const std::vector<double>& v) {
    if (v.size() < 2) return 0.0;
    const double m = sample_mean(v);
    double ss = 0.0;
    for (double x : v) ss += (x - m) * (x - m);
    return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

namespace {

std::vector<double> differences(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size())
        throw InvalidArgument("paired test: " + std::to_string(x.size()) + " vs " + std::to_string(y.size()) +
                              " values");
    std::vector<double> d(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) d[i] = x[i] - y[i];
    return d;
}

/// Average ranks (1-based) of values, ascending.
std::vector<double> average_ranks(const std::vector<double>& v) {
    std::vector<std::size_t> idx(v.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < idx.size();) {
        std::size_t j = i;
        while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
        const double avg = (static_cast<double>(i + 1) + static_cast<double>(j + 1)) / 2.0;
        for (std::size_t k = i; k <= j; ++k) r[idx[k]] = avg;
        i = j + 1;
    }
    return r;
}

/// Σ (t³ − t) over the groups of t equal values: the tie term of rank-test variances.
double tie_term(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    double sum = 0.0;
    for (std::size_t i = 0; i < values.size();) {
        std::size_t j = i;
        while (j + 1 < values.size() && values[j + 1] == values[i]) ++j;
        const double t = static_cast<double>(j - i + 1);
        sum += t * t * t - t;
        i = j + 1;
    }
    return sum;
}

}  // namespace

Interval t_interval(const std::vector<double>& values, double alpha) {
    Interval r;
    r.mean = sample_mean(values);
    if (values.size() < 2) return r;
    const boost::math::students_t t(static_cast<double>(values.size() - 1));
    r.half_width =
        boost::math::quantile(t, 1.0 - alpha / 2.0) * sample_sd(values) / std::sqrt(static_cast<double>(values.size()));
    return r;
}

Interval bootstrap_interval(const std::vector<double>& values, std::uint64_t seed, int resamples, double alpha) {
    Interval r;
    r.mean = sample_mean(values);
    if (values.size() < 2) return r;
    Rng rng(seed);
    std::vector<double> means(static_cast<std::size_t>(resamples));
    for (auto& m : means) {
        double s = 0.0;
        for (std::size_t i = 0; i < values.size(); ++i) s += values[rng.below(values.size())];
        m = s / static_cast<double>(values.size());
    }
    std::sort(means.begin(), means.end());
    auto pct = [&](double p) {
        const double pos = p * static_cast<double>(means.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const auto hi = std::min(lo + 1, means.size() - 1);
        return means[lo] + (pos - static_cast<double>(lo)) * (means[hi] - means[lo]);
    };
    r.half_width = (pct(1.0 - alpha / 2.0) - pct(alpha / 2.0)) / 2.0;
    return r;
}

TestResult paired_t_test(const std::vector<double>& x, const std::vector<double>& y) {
    const auto d = differences(x, y);
    TestResult r;
    r.n = static_cast<int>(d.size());
    r.exact = true;
    if (d.size() < 2) return r;
    const double m = sample_mean(d), s = sample_sd(d);
    if (s == 0.0) {
        r.statistic = m == 0.0 ? 0.0 : std::copysign(INFINITY, m);
        r.p_value = m == 0.0 ? 1.0 : 0.0;
        return r;
    }
    r.statistic = m / (s / std::sqrt(static_cast<double>(d.size())));
    const boost::math::students_t t(static_cast<double>(d.size() - 1));
    r.p_value = std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(t, std::abs(r.statistic))));
    return r;
}

TestResult wilcoxon_signed_rank(const std::vector<double>& x, const std::vector<double>& y, int exact_limit) {
    std::vector<double> d;
    for (double v : differences(x, y))
        if (v != 0.0) d.push_back(v);
    TestResult r;
    r.n = static_cast<int>(d.size());
    if (d.empty()) return r;
    std::vector<double> absd(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) absd[i] = std::abs(d[i]);
    const auto ranks = average_ranks(absd);
    double w_plus = 0.0;
    for (std::size_t i = 0; i < d.size(); ++i)
        if (d[i] > 0) w_plus += ranks[i];
    r.statistic = w_plus;
    const double n = static_cast<double>(d.size());
    if (r.n <= exact_limit) {
        // Exact null: each rank enters W+ with probability 1/2. Doubled ranks are integers even
        // with ties (averages of integers are multiples of 1/2).
        std::vector<int> twice(d.size());
        int total = 0;
        for (std::size_t i = 0; i < d.size(); ++i) {
            twice[i] = static_cast<int>(std::lround(2 * ranks[i]));
            total += twice[i];
        }
        std::vector<double> dist(static_cast<std::size_t>(total) + 1, 0.0);
        dist[0] = 1.0;
        int reach = 0;
        for (int t : twice) {
            for (int s = reach; s >= 0; --s)
                if (dist[s] != 0.0) dist[s + t] += dist[s];
            reach += t;
        }
        const double count = std::pow(2.0, n);
        const int w = static_cast<int>(std::lround(2 * w_plus));
        double lower = 0.0, upper = 0.0;
        for (int s = 0; s <= total; ++s) {
            if (s <= w) lower += dist[s];
            if (s >= w) upper += dist[s];
        }
        r.p_value = std::min(1.0, 2.0 * std::min(lower, upper) / count);
        r.exact = true;
        return r;
    }
    // Normal approximation with tie correction and continuity correction.
    const double mean = n * (n + 1) / 4.0;
    const double var = n * (n + 1) * (2 * n + 1) / 24.0 - tie_term(absd) / 48.0;
    const double z = (std::abs(w_plus - mean) - 0.5) / std::sqrt(var);
    const boost::math::normal normal;
    r.p_value = std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(normal, std::max(z, 0.0))));
    return r;
}

std::vector<double> holm_adjust(const std::vector<double>& p) {
    const std::size_t m = p.size();
    std::vector<std::size_t> idx(m);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
    std::vector<double> out(m);
    double running = 0.0;
    for (std::size_t r = 0; r < m; ++r) {
        running = std::max(running, static_cast<double>(m - r) * p[idx[r]]);
        out[idx[r]] = std::min(1.0, running);
    }
    return out;
}

double cohens_dz(const std::vector<double>& x, const std::vector<double>& y) {
    const auto d = differences(x, y);
    const double m = sample_mean(d), s = sample_sd(d);
    if (s == 0.0) return m == 0.0 ? 0.0 : std::copysign(INFINITY, m);
    return m / s;
}

std::vector<std::vector<double>> rank_rows(const std::vector<std::vector<double>>& scores,
                                           const std::vector<bool>& higher_is_better) {
    std::vector<std::vector<double>> out;
    for (std::size_t t = 0; t < scores.size(); ++t) {
        std::vector<double> v = scores[t];
        if (higher_is_better.empty() || higher_is_better[t])
            for (double& x : v) x = -x;
        out.push_back(average_ranks(v));
    }
    return out;
}

FriedmanResult friedman_test(const std::vector<std::vector<double>>& scores,
                             const std::vector<bool>& higher_is_better) {
    FriedmanResult r;
    r.tasks = static_cast<int>(scores.size());
    if (scores.empty()) throw InvalidArgument("Friedman test: no tasks");
    r.models = static_cast<int>(scores[0].size());
    for (const auto& row : scores)
        if (static_cast<int>(row.size()) != r.models)
            throw InvalidArgument("Friedman test: every task needs a score for every model");
    if (r.models < 2) throw InvalidArgument("Friedman test: need at least 2 models");
    const auto ranks = rank_rows(scores, higher_is_better);
    r.mean_ranks.assign(static_cast<std::size_t>(r.models), 0.0);
    for (const auto& row : ranks)
        for (int j = 0; j < r.models; ++j)
            r.mean_ranks[static_cast<std::size_t>(j)] += row[static_cast<std::size_t>(j)] / r.tasks;
    const double k = r.models, n = r.tasks;
    double sum_sq = 0.0;
    for (double x : r.mean_ranks) sum_sq += x * x;
    r.chi2 = 12.0 * n / (k * (k + 1)) * (sum_sq - k * (k + 1) * (k + 1) / 4.0);
    const boost::math::chi_squared chi(k - 1);
    r.p_value = boost::math::cdf(boost::math::complement(chi, std::max(r.chi2, 0.0)));
    // Tie correction: every group of t equal ranks in a task lowers the rank variance by t³ − t.
    double ties = 0.0;
    for (const auto& row : ranks) ties += tie_term(row);
    const double correction = 1.0 - ties / (n * k * (k * k - 1));
    // Every task entirely tied leaves no variance: no evidence against the null.
    r.chi2_ties = correction > 0 ? r.chi2 / correction : 0.0;
    r.p_value_ties = boost::math::cdf(boost::math::complement(chi, std::max(r.chi2_ties, 0.0)));
    return r;
}

double studentized_range_cdf(double q, int k) {
    if (k < 2) throw InvalidArgument("studentised range needs k >= 2");
    if (q <= 0) return 0.0;
    const boost::math::normal normal;
    auto integrand = [&](double z) {
        const double inner = boost::math::cdf(normal, z) - boost::math::cdf(normal, z - q);
        return boost::math::pdf(normal, z) * std::pow(inner, k - 1);
    };
    // φ(z) < 1e-17 outside [-9, 9]; the bracket [Φ(z) − Φ(z − q)] vanishes there as well for z > 9
    // + q.
    const double integral =
        boost::math::quadrature::gauss_kronrod<double, 31>::integrate(integrand, -9.0, 9.0 + q, 8, 1e-11);
    return std::min(1.0, k * integral);
}

double studentized_range_quantile(double alpha, int k) {
    if (!(alpha > 0 && alpha < 1)) throw InvalidArgument("alpha must lie in (0, 1)");
    auto f = [&](double q) { return studentized_range_cdf(q, k) - (1.0 - alpha); };
    std::uintmax_t iterations = 200;
    const auto root =
        boost::math::tools::toms748_solve(f, 1e-3, 20.0, boost::math::tools::eps_tolerance<double>(40), iterations);
    return (root.first + root.second) / 2.0;
}

Nemenyi nemenyi(int k, int n, double alpha) {
    if (n < 1) throw InvalidArgument("Nemenyi CD needs at least one task");
    Nemenyi r;
    r.q_alpha = studentized_range_quantile(alpha, k) / std::sqrt(2.0);
    r.cd = r.q_alpha * std::sqrt(static_cast<double>(k) * (k + 1) / (6.0 * n));
    return r;
}

double nemenyi_cd(int k, int n, double alpha) { return nemenyi(k, n, alpha).cd; }

}  // namespace brec
