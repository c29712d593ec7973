#pragma once
// CPU kernels for PPGN's two hot operations, as LibTorch autograd functions (private to nn), and
// the same BLAS machinery for batched small products and 1x1 convolutions in the layout of torch's
// matmul and conv2d (what a user's TorchScript module calls; nn/models/torchscript.cpp).
//
// PPGN keeps its activations channel-major, [C, B, n, n], so that
//  * a 1x1 convolution is ONE matrix product W[out, C] · X[C, B·n²] (no broadcasting), and
//  * the per-channel matrix product multiplies C·B contiguous n×n matrices.
// torch 1.13's CPU bmm loops over the batch calling a multi-threaded BLAS per small matrix, which
// is an order of magnitude below the BLAS peak; these kernels call the process's BLAS `sgemm_`
// (found at run time: Debian's LibTorch already loads libblas.so.3, usually OpenBLAS) single-
// threaded per block and parallelise over blocks with at::parallel_for. Column chunks and the
// order of partial sums are fixed, so results do not depend on the thread count.
// Where no sgemm_ is found, or tensors live on another device, the same maths runs as torch ops.

#include <torch/torch.h>

namespace brec::nn_kernels {

/// Whether the BLAS kernels can run in this process (sgemm_ resolved). First call sets the
/// BLAS library's own threading to 1 (OpenBLAS), as the kernels parallelise themselves.
bool blas_available();

/// y[out, P] = w[:, :C1] · x1[C1, P] + w[:, C1:] · x2[C2, P] + bias (x2 may be undefined, then
/// w is [out, C1]). All float32, contiguous. `use_blas` = false gives the torch-op version.
/// Complexity: O(out · (C1 + C2) · P).
torch::Tensor pointwise(const torch::Tensor& w, const torch::Tensor& bias, const torch::Tensor& x1,
                        const torch::Tensor& x2, bool use_blas);

/// PPGN's product branch: h = relu(w · x + bias) for w [2·out, C], bias [2·out], x [C, B·n²]
/// (channel-major), split into two stacks of M = out·B n×n matrices; returns c [M, n, n] with
/// c[i] = h[i] · h[M + i]. One autograd node on the BLAS path. Complexity: O(out·C·B·n² + M n³).
torch::Tensor mlp_product(const torch::Tensor& w, const torch::Tensor& bias, const torch::Tensor& x, std::int64_t n,
                          bool use_blas);

/// PPGN's diag/off-diag max pooling of channel-major x [C, B, n, n] -> [B, 2C]: the maximum of
/// every diagonal, then of every off-diagonal part (the reference's masked maximum; for n = 1 its
/// value x − |max + max(−x)|). Complexity: O(C B n²).
torch::Tensor diag_offdiag_max(const torch::Tensor& x, bool use_blas);

/// Whether batched_matmul takes its BLAS path for a and b: float32 CPU tensors (strided) of the
/// same dimension >= 3 with equal batch dimensions [..., n, k] × [..., k, m], none empty, and
/// sgemm_ available.
bool batched_matmul_applies(const torch::Tensor& a, const torch::Tensor& b);

/// torch::matmul(a, b) as one autograd node of small products: where batched_matmul_applies, one
/// single-threaded sgemm per batch entry (inputs made contiguous), in parallel over the batch, and
/// backward the two batched products grad_a = g · bᵀ, grad_b = aᵀ · g (not differentiable twice);
/// results do not depend on the thread count. Anywhere else (other devices or dtypes,
/// broadcast batch dimensions, 1-D or 2-D operands) torch::matmul itself.
/// Complexity: O(batch · n · k · m).
torch::Tensor batched_matmul(const torch::Tensor& a, const torch::Tensor& b);

/// Whether conv2d takes its BLAS path: a 1x1 kernel w [O, C, 1, 1] on x [B, C, H, W] with stride 1,
/// no padding and one group (any dilation), bias absent or [O], all float32 CPU, none empty.
bool conv2d_1x1_applies(const torch::Tensor& x, const torch::Tensor& w, const c10::optional<torch::Tensor>& bias,
                        c10::IntArrayRef stride, c10::IntArrayRef padding, std::int64_t groups);

/// torch::conv2d(x, w, bias, stride, padding, dilation, groups); where conv2d_1x1_applies one
/// autograd node with one single-threaded sgemm per image (y[b] = w · x[b] + bias, x[b] as [C, H·W]),
/// in parallel over the images, and a backward whose sums over images run in a fixed order
/// (results do not depend on the thread count; not differentiable twice).
/// Complexity: O(B · O · C · H · W).
torch::Tensor conv2d(const torch::Tensor& x, const torch::Tensor& w, const c10::optional<torch::Tensor>& bias,
                     c10::IntArrayRef stride, c10::IntArrayRef padding, c10::IntArrayRef dilation, std::int64_t groups);

}  // namespace brec::nn_kernels
