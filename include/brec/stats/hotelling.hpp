#pragma once
// Hotelling's T² for paired embedding samples and the RPC / RAPC decisions of BREC, under both
// protocols: Hotelling's statistic as the BREC paper defines it, and what the released BREC code
// computes.
//
// Released code: GraphPKU/BREC @966b5ed (branch Release), T2_calculation and the RPC decision in
// each model folder's test_BREC*.py; the same in brec/evaluator.py of branch pypi @81f299b.
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

/// How T² is scaled. Hotelling's statistic is q · d̄ᵀ S⁺ d̄ (`standard`). The BREC
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
HotellingResult hotelling_t2_paired(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y, T2Form form = T2Form::standard,
                                    double noise_variance = 0.0);

/// How a released BREC script inverts the covariance S in its T² (none multiplies by q).
enum class T2Inverse {
    pinv,                 ///< torch.linalg.pinv with its float32 cutoff (most models)
    regularised_inverse,  ///< |d̄ᵀ (S + 1e-8·I)⁻¹ d̄| (the DS-GNN, DSS-GNN and SUN scripts)
    solve_or_ridge,       ///< |d̄ᵀ S⁻¹ d̄| by a linear solve; S + 1e-6·I when S is singular (SSWL+)
    solve_or_pinv,        ///< |d̄ᵀ S⁻¹ d̄| by a linear solve; the pseudo-inverse when S is singular (Graphormer)
};

/// T² as the released BREC code computes it (the `brec_reference` protocol): d̄ᵀ S⁻ d̄ without the
/// factor q and without a noise floor, S⁻ as `inverse` says. These values produced the published
/// BREC counts; compared with the threshold of Hotelling's T² they make a test q times stricter.
/// Throws InvalidArgument when shapes differ or q < 2. Complexity O(q d² + d³).
double brec_reference_t2(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y, T2Inverse inverse = T2Inverse::pinv);

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

/// The RPC decision with Hotelling's T²: distinguished iff T²_test > threshold and T²_test differs
/// from T²_reliability by more than `relative_eps` of the larger of the two (equal statistics
/// mean the model gives the pair what it gives one graph); reliable iff T²_reliability < threshold.
RpcDecision rpc_decide(double t2_test, double t2_reliability, double threshold, double relative_eps = 1e-6);

/// The decision of the released BREC code: as rpc_decide, but T²_test equals T²_reliability when
/// torch.isclose says so: |T²_test − T²_reliability| <= 1e-6 + 1e-5·|T²_reliability|.
RpcDecision rpc_decide_reference(double t2_test, double t2_reliability, double threshold);

/// What decides a pair under both protocols besides the embeddings.
struct RpcSettings {
    double alpha = 0.05;
    /// Hotelling protocol: differences between paired embeddings smaller than this, relative to
    /// the largest embedding entry (scale = max(1, max |entry|)), are float32 rounding and carry no
    /// information: (relative_noise · scale)² is added to S's diagonal (hotelling_t2_paired's
    /// noise_variance). 0 = the plain pseudo-inverse.
    double relative_noise = 1e-5;
    T2Inverse reference_inverse = T2Inverse::pinv;  ///< the reference protocol's inverse
    /// The reference protocol's threshold; 0 = the F threshold for (q, d, alpha).
    double reference_threshold = 0.0;
};

/// One pair's decision under both protocols.
struct RpcProtocols {
    RpcDecision hotelling;
    RpcDecision brec_reference;
};

/// Hotelling's T² (with the factor q and the noise floor) of consecutive rows of a 2q × d matrix:
/// row 2i is paired with row 2i + 1. Throws InvalidArgument for an odd number of rows.
double paired_rows_t2(const Eigen::MatrixXd& embeddings, double relative_noise);
/// The reference protocol's T² of consecutive rows (no factor q, no noise floor).
double paired_rows_reference_t2(const Eigen::MatrixXd& embeddings, T2Inverse inverse);

/// Both protocols' decisions from embeddings already computed: `test` holds f(G₁), f(H₁), f(G₂),
/// ...; `reliability` 2q embeddings of relabelings of one graph, paired consecutively (both
/// 2q × d). The thresholds use q = rows / 2 and d = cols. With RAPC `groups` (2q × d each, the
/// two halves of a group of relabelings of one graph interleaved), each protocol's threshold is
/// the largest T² over the groups in that protocol's statistic. Throws InvalidArgument on shape
/// mismatch.
RpcProtocols rpc_from_embeddings(const Eigen::MatrixXd& test, const Eigen::MatrixXd& reliability,
                                 const RpcSettings& settings, const std::vector<Eigen::MatrixXd>& rapc_groups = {});

/// RAPC's adaptive threshold: the largest T² over the 2p reliability groups (p groups of 2q
/// relabelings for each graph of the pair, T² from the q differences between the two halves of
/// each group). Its false-positive rate is at most 1 / 2^(2p). Throws InvalidArgument if empty.
double rapc_threshold(const std::vector<double>& group_t2);

}  // namespace brec
