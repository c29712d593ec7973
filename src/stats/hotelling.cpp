#include "brec/stats/hotelling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/fisher_f.hpp>

#include "brec/core/error.hpp"

namespace brec {

HotellingResult hotelling_t2_paired(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y, T2Form form, double noise_variance) {
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
    if (d < 1 || q <= d) throw InvalidArgument("RPC threshold needs q > d >= 1 (got q = " + std::to_string(q) + ", d = " + std::to_string(d) + ")");
    if (!(alpha > 0 && alpha < 1)) throw InvalidArgument("alpha must lie in (0, 1)");
    const boost::math::fisher_f_distribution<double> f(d, q - d);
    const double quantile = boost::math::quantile(f, 1.0 - alpha);
    return static_cast<double>(q - 1) * d / static_cast<double>(q - d) * quantile;
}

RpcDecision rpc_decide(double t2_test, double t2_reliability, double threshold, double eps) {
    RpcDecision r;
    r.t2_test = t2_test;
    r.t2_reliability = t2_reliability;
    r.threshold = threshold;
    r.distinguished = t2_test > threshold && !(std::abs(t2_test - t2_reliability) <= eps);
    r.reliable = t2_reliability < threshold;
    return r;
}

double rapc_threshold(const std::vector<double>& group_t2) {
    if (group_t2.empty()) throw InvalidArgument("rapc_threshold: no reliability groups");
    return *std::max_element(group_t2.begin(), group_t2.end());
}

}  // namespace brec
