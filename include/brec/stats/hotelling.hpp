#pragma once
// Hotelling's T² for paired embedding samples and the RPC / RAPC decisions of BREC (SPEC §5).
//
// @article{wang2023towards, title={Towards Better Evaluation of GNN Expressiveness with BREC
//   Dataset}, author={Wang, Yanbo and Zhang, Muhan}, journal={arXiv:2304.07702}, year={2023}}

#include <vector>

#include <Eigen/Dense>

namespace brec {

struct HotellingResult {
    double t2 = 0.0;         ///< q · d̄ᵀ S⁺ d̄
    int rank = 0;            ///< numerical rank of S
    double condition = 0.0;  ///< ratio of largest to smallest non-zero singular value of S (inf if rank 0)
    int samples = 0;         ///< q
    int dimension = 0;       ///< d
};

/// How T² is scaled. Hotelling's statistic is q · d̄ᵀ S⁺ d̄ (SPEC §5, `standard`). The BREC
/// reference code (test_BREC.py, T2_calculation) returns d̄ᵀ S⁺ d̄ without the factor q and
/// compares it with the same threshold, which makes its test q times more conservative;
/// `reference` reproduces the published decisions.
enum class T2Form { standard, reference };

/// T² of the paired samples: X and Y are q × d (row i of X is paired with row i of Y), D = X − Y,
/// S = sample covariance of D (divisor q − 1), S⁺ its Moore–Penrose pseudo-inverse computed like
/// torch.linalg.pinv on float32 input: singular values at or below rtol · σ_max count as zero, with
/// rtol = d · 2^-23 (max(m, n) · float32 epsilon). Complexity O(q d² + d³).
/// `noise_variance` > 0 adds that variance to the diagonal of S before the pseudo-inverse: the
/// known variance of floating-point noise in the embeddings. Without it, differences that are pure
/// rounding (relabelings of one graph through a float32 model) give a Hotelling-distributed T²
/// that fails the reliability check at rate α; with it they give T² ≈ 0, while a consistent
/// difference far above the noise (d̄ ≫ noise, S ≈ 0) still gives a huge T², as it should.
/// rank and condition describe S itself.
/// Throws InvalidArgument when shapes differ or q < 2.
HotellingResult hotelling_t2_paired(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y,
                                    T2Form form = T2Form::standard, double noise_variance = 0.0);

/// RPC threshold (q−1)·d/(q−d) · F_{d,q−d}(1−α). q = 32, d = 16, α = 0.05 gives 72.34.
/// Throws InvalidArgument unless q > d >= 1 and 0 < α < 1.
double rpc_threshold(int q, int d, double alpha);

struct RpcDecision {
    double t2_test = 0.0;
    double t2_reliability = 0.0;
    double threshold = 0.0;
    bool distinguished = false;  ///< T²_test > threshold and not within eps of T²_reliability
    bool reliable = false;       ///< T²_reliability < threshold
};

/// The RPC decision rule of SPEC §5.
RpcDecision rpc_decide(double t2_test, double t2_reliability, double threshold, double eps = 1e-6);

/// RAPC's adaptive threshold: the largest T² over the 2p reliability groups (p groups of 2q
/// relabelings for each graph of the pair, T² from the q differences between the two halves of
/// each group). Its false-positive rate is at most 1 / 2^(2p). Throws InvalidArgument if empty.
double rapc_threshold(const std::vector<double>& group_t2);

}  // namespace brec
