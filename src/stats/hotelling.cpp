#include "brec/stats/hotelling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/fisher_f.hpp>

#include "brec/core/error.hpp"

namespace brec {

HotellingResult hotelling_t2_paired(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y, T2Form form,
                                    double noise_variance) {
    if (x.rows() != y.rows() || x.cols() != y.cols())
        throw InvalidArgument("hotelling_t2_paired: X is " + std::to_string(x.rows()) + "x" + std::to_string(x.cols()) +
                              " but Y is " + std::to_string(y.rows()) + "x" + std::to_string(y.cols()));
    const Eigen::Index q = x.rows(), d = x.cols();
    if (q < 2 || d < 1) throw InvalidArgument("hotelling_t2_paired: need at least 2 paired samples of dimension >= 1");
    const Eigen::MatrixXd diff = x - y;
    const Eigen::VectorXd mean = diff.colwise().mean().transpose();
    const Eigen::MatrixXd centred = diff.rowwise() - mean.transpose();
    const Eigen::MatrixXd cov = (centred.transpose() * centred) / static_cast<double>(q - 1);
    // Pseudo-inverse through the symmetric eigendecomposition (S is symmetric PSD, so its singular
    // values are the absolute eigenvalues).
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(cov);
    const Eigen::VectorXd values = eig.eigenvalues();
    const double sigma_max = values.cwiseAbs().maxCoeff();
    const double rtol = static_cast<double>(d) * std::ldexp(1.0, -23);
    const double cutoff = rtol * sigma_max;
    HotellingResult r;
    r.samples = static_cast<int>(q);
    r.dimension = static_cast<int>(d);
    double sigma_min = std::numeric_limits<double>::infinity();
    Eigen::VectorXd inv = Eigen::VectorXd::Zero(d);
    for (Eigen::Index i = 0; i < d; ++i) {
        const double s = std::abs(values(i));
        if (sigma_max > 0 && s > cutoff) {
            ++r.rank;
            sigma_min = std::min(sigma_min, s);
        }
        if (noise_variance > 0) {
            inv(i) = 1.0 / (std::max(values(i), 0.0) + noise_variance);
        } else if (sigma_max > 0 && s > cutoff) {
            inv(i) = 1.0 / values(i);
        }
    }
    r.condition = r.rank > 0 ? sigma_max / sigma_min : std::numeric_limits<double>::infinity();
    const Eigen::VectorXd projected = eig.eigenvectors().transpose() * mean;
    double quad = 0.0;
    for (Eigen::Index i = 0; i < d; ++i) quad += inv(i) * projected(i) * projected(i);
    r.t2 = (form == T2Form::standard ? static_cast<double>(q) : 1.0) * quad;
    return r;
}

double rpc_threshold(int q, int d, double alpha) {
    if (d < 1 || q <= d)
        throw InvalidArgument("RPC threshold needs q > d >= 1 (got q = " + std::to_string(q) +
                              ", d = " + std::to_string(d) + ")");
    if (!(alpha > 0 && alpha < 1)) throw InvalidArgument("alpha must lie in (0, 1)");
    const boost::math::fisher_f_distribution<double> f(d, q - d);
    const double quantile = boost::math::quantile(f, 1.0 - alpha);
    return static_cast<double>(q - 1) * d / static_cast<double>(q - d) * quantile;
}

namespace {

RpcDecision decide(double t2_test, double t2_reliability, double threshold, bool equal) {
    RpcDecision r;
    r.t2_test = t2_test;
    r.t2_reliability = t2_reliability;
    r.threshold = threshold;
    r.distinguished = t2_test > threshold && !equal;
    r.reliable = t2_reliability < threshold;
    return r;
}

}  // namespace

RpcDecision rpc_decide(double t2_test, double t2_reliability, double threshold, double relative_eps) {
    const double scale = std::max(std::abs(t2_test), std::abs(t2_reliability));
    return decide(t2_test, t2_reliability, threshold, std::abs(t2_test - t2_reliability) <= relative_eps * scale);
}

RpcDecision rpc_decide_reference(double t2_test, double t2_reliability, double threshold) {
    // torch.isclose(input, other, rtol=1e-5, atol=1e-6): |input − other| <= atol + rtol·|other|.
    return decide(t2_test, t2_reliability, threshold,
                  std::abs(t2_test - t2_reliability) <= 1e-6 + 1e-5 * std::abs(t2_reliability));
}

double brec_reference_t2(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y, T2Inverse inverse) {
    if (inverse == T2Inverse::pinv) return hotelling_t2_paired(x, y, T2Form::reference, 0.0).t2;
    if (x.rows() != y.rows() || x.cols() != y.cols() || x.rows() < 2)
        throw InvalidArgument("brec_reference_t2: need two q x d samples of the same shape, q >= 2");
    const Eigen::MatrixXd diff = x - y;
    const Eigen::VectorXd mean = diff.colwise().mean().transpose();
    const Eigen::MatrixXd centred = diff.rowwise() - mean.transpose();
    Eigen::MatrixXd cov = (centred.transpose() * centred) / static_cast<double>(x.rows() - 1);
    const Eigen::Index d = cov.rows();
    if (inverse == T2Inverse::regularised_inverse) {
        cov += 1e-8 * Eigen::MatrixXd::Identity(d, d);
        return std::abs(mean.dot(cov.partialPivLu().solve(mean)));
    }
    // torch.linalg.solve fails on an exactly singular matrix; the scripts then regularise S
    // (SSWL+) or fall back to the pseudo-inverse (Graphormer).
    Eigen::FullPivLU<Eigen::MatrixXd> lu(cov);
    if (lu.isInvertible()) return std::abs(mean.dot(lu.solve(mean)));
    if (inverse == T2Inverse::solve_or_pinv) return hotelling_t2_paired(x, y, T2Form::reference, 0.0).t2;
    cov += 1e-6 * Eigen::MatrixXd::Identity(d, d);
    return std::abs(mean.dot(cov.fullPivLu().solve(mean)));
}

namespace {

void split_rows(const Eigen::MatrixXd& emb, Eigen::MatrixXd& x, Eigen::MatrixXd& y) {
    if (emb.rows() % 2)
        throw InvalidArgument("paired embeddings: odd number of rows (" + std::to_string(emb.rows()) + ")");
    const Eigen::Index q = emb.rows() / 2;
    x.resize(q, emb.cols());
    y.resize(q, emb.cols());
    for (Eigen::Index i = 0; i < q; ++i) {
        x.row(i) = emb.row(2 * i);
        y.row(i) = emb.row(2 * i + 1);
    }
}

}  // namespace

double paired_rows_t2(const Eigen::MatrixXd& emb, double relative_noise) {
    Eigen::MatrixXd x, y;
    split_rows(emb, x, y);
    const double scale = std::max({1.0, x.cwiseAbs().maxCoeff(), y.cwiseAbs().maxCoeff()});
    const double noise = relative_noise * scale;
    return hotelling_t2_paired(x, y, T2Form::standard, noise * noise).t2;
}

double paired_rows_reference_t2(const Eigen::MatrixXd& emb, T2Inverse inverse) {
    Eigen::MatrixXd x, y;
    split_rows(emb, x, y);
    return brec_reference_t2(x, y, inverse);
}

RpcProtocols rpc_from_embeddings(const Eigen::MatrixXd& test, const Eigen::MatrixXd& reliability,
                                 const RpcSettings& settings, const std::vector<Eigen::MatrixXd>& rapc_groups) {
    if (test.rows() != reliability.rows() || test.cols() != reliability.cols())
        throw InvalidArgument("the test group is " + std::to_string(test.rows()) + "x" + std::to_string(test.cols()) +
                              " but the reliability group " + std::to_string(reliability.rows()) + "x" +
                              std::to_string(reliability.cols()));
    for (const auto& g : rapc_groups)
        if (g.rows() != test.rows() || g.cols() != test.cols())
            throw InvalidArgument("a RAPC group differs in shape from the test group");
    const int q = static_cast<int>(test.rows() / 2), d = static_cast<int>(test.cols());
    const double f_threshold = rpc_threshold(q, d, settings.alpha);
    double hotelling_threshold = f_threshold;
    double reference_threshold = settings.reference_threshold > 0 ? settings.reference_threshold : f_threshold;
    if (!rapc_groups.empty()) {
        std::vector<double> h, r;
        for (const auto& g : rapc_groups) {
            h.push_back(paired_rows_t2(g, settings.relative_noise));
            r.push_back(paired_rows_reference_t2(g, settings.reference_inverse));
        }
        hotelling_threshold = rapc_threshold(h);
        reference_threshold = rapc_threshold(r);
    }
    RpcProtocols out;
    out.hotelling = rpc_decide(paired_rows_t2(test, settings.relative_noise),
                               paired_rows_t2(reliability, settings.relative_noise), hotelling_threshold);
    out.brec_reference =
        rpc_decide_reference(paired_rows_reference_t2(test, settings.reference_inverse),
                             paired_rows_reference_t2(reliability, settings.reference_inverse), reference_threshold);
    return out;
}

double rapc_threshold(const std::vector<double>& group_t2) {
    if (group_t2.empty()) throw InvalidArgument("rapc_threshold: no reliability groups");
    return *std::max_element(group_t2.begin(), group_t2.end());
}

}  // namespace brec
