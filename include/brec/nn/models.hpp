#pragma once
// GNN models in LibTorch and their registry. A model embeds a list of graphs, prepared once as
// tensors, into d-dimensional vectors; `--model NAME` picks one by name.
//
// @inproceedings{xu2019powerful, title={How Powerful are Graph Neural Networks?},
//   author={Xu, Keyulu and Hu, Weihua and Leskovec, Jure and Jegelka, Stefanie}, booktitle={ICLR}, year={2019}}
// @inproceedings{maron2019provably, title={Provably Powerful Graph Networks}, author={Maron, Haggai
//   and Ben-Hamu, Heli and Serviansky, Hadar and Lipman, Yaron}, booktitle={NeurIPS}, year={2019}}

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "brec/graph/graph.hpp"

namespace brec {

/// The BREC study's best settings of a model (SPEC §5 table).
struct ModelSpec {
    std::string name;
    std::string family;
    int radius = 0;   ///< subgraph radius (0 = not used)
    int layers = 4;
    int hidden = 32;
    double lr = 1e-4;
    double weight_decay = 1e-4;
    int batch = 32;
    int epochs = 20;
    double loss_threshold = 0.2;
    bool implemented = false;  ///< has a LibTorch implementation in this build
};

/// Every model of the SPEC table (implemented or not), in table order.
const std::vector<ModelSpec>& model_specs();
/// The spec of a model by name; throws InvalidArgument naming the implemented models.
const ModelSpec& find_model_spec(const std::string& name);

/// A model that embeds graphs. Graphs are converted to tensors once (set_graphs); forward_range
/// embeds graphs [begin, end) as one batch and returns [end - begin, out_dim].
class GraphEmbedderImpl : public torch::nn::Module {
public:
    virtual void set_graphs(const std::vector<Graph>& graphs, torch::Device device) = 0;
    virtual torch::Tensor forward_range(std::size_t begin, std::size_t end) = 0;
};

struct EmbedderOptions {
    int layers = 4;
    int hidden = 32;
    int out_dim = 16;
    /// PPGN's CPU kernels: "auto" (BLAS kernels when sgemm_ is found), "blas", or "torch"
    /// (torch ops only; what CUDA tensors always use).
    std::string kernel = "auto";
    /// BatchNorm1d on the output (the reference model). With it, a batch of consecutive (G, H)
    /// pairs is centred so that f(G) = −f(H) for every pair the model separates at all, and the
    /// cosine loss is 0 from the first step; false (an ablation) shows the loss actually training.
    bool output_norm = true;
};

/// Creates a fresh model (parameters initialised from torch's global generator, so call
/// torch::manual_seed first). Throws InvalidArgument for unknown or unimplemented models.
std::shared_ptr<GraphEmbedderImpl> make_embedder(const std::string& name, const EmbedderOptions& opt);

/// Process-wide tuning of the C allocator for LibTorch's large CPU tensors (glibc; a no-op
/// elsewhere): blocks up to 32 MiB come from the heap instead of a fresh mmap() each, and freed
/// heap memory is kept for reuse instead of being returned to the system at once. Without it every
/// training step faults its activations in again: 40 % of a PPGN forward pass at n = 63 went to
/// the kernel zeroing pages, and the pass ran 2x slower. Call once before the first model runs
/// (`brec eval` does); peak memory is unchanged, freed memory is simply not handed back early.
void tune_cpu_allocator();

/// Parses "auto", "cpu", "cuda", "cuda:1"; "auto" = CUDA when available. Throws InvalidArgument.
torch::Device parse_device(const std::string& text);

}  // namespace brec
