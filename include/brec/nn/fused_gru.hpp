#pragma once
// A GRU cell (Cho et al., 2014) as torch::gru_cell computes it, its gates fused on the CPU:
//   r = σ(x W_irᵀ + b_ir + h W_hrᵀ + b_hr),  z = σ(x W_izᵀ + b_iz + h W_hzᵀ + b_hz),
//   n = tanh(x W_inᵀ + b_in + r ⊙ (h W_hnᵀ + b_hn)),  h' = n + z ⊙ (h − n).
// LibTorch runs the gates as some ten operators over column slices of the two [rows, 3H] products,
// each a pass over memory; here the products are LibTorch's (the same bits) and the gates are one
// pass forward and one back.

#include <torch/torch.h>

namespace brec::nn {

/// torch::gru_cell(input, hidden, w_ih, w_hh, b_ih, b_hh). With `fused`, for 2-D float tensors on
/// the CPU: the two gate products by LibTorch's addmm, then the gates as one autograd function.
/// Its exp, σ and tanh are its own (within 2 ulp of the exact values; LibTorch's are others), so
/// the values agree with torch::gru_cell within float rounding, not bit for bit; each row is
/// computed alone, so the bits do not depend on the thread count (but on the CPU: with AVX2 and FMA
/// the polynomials use fused multiply-adds, without them separate products, which round otherwise).
/// Without a graph to build (no grad mode, or no input requiring grad) nothing is saved for a
/// backward pass. A NaN stays NaN. `fused` false, other types or devices: torch::gru_cell itself
/// (LibTorch operators only, which count_ops sees).
torch::Tensor gru_cell(const torch::Tensor& input, const torch::Tensor& hidden, const torch::Tensor& w_ih,
                       const torch::Tensor& w_hh, const torch::Tensor& b_ih, const torch::Tensor& b_hh,
                       bool fused = true);

}  // namespace brec::nn
