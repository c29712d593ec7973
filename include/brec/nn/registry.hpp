#pragma once
// The model registry: every model brec can train, by name, with the settings the BREC study used
// for it, its expressiveness bound, the pairs the study ran it on and the counts it published.
//
// Each model lives in one file, src/nn/models/NAME.cpp, which defines `ModelEntry NAME_model()`;
// the built-in list (BREC_BUILTIN_MODELS in src/nn/models/builtin.hpp) names each model once.
// Static libraries drop self-registering objects, so the list is explicit.
//
// @article{wang2023towards, title={Towards Better Evaluation of GNN Expressiveness with BREC
//   Dataset}, author={Wang, Yanbo and Zhang, Muhan}, journal={arXiv:2304.07702}, year={2023}}

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "brec/nn/model.hpp"
#include "brec/stats/hotelling.hpp"

namespace brec {

/// Training and architecture settings of a model (the BREC study's best, per model). Set by name:
/// Hyper().with_layers(4).with_hidden(32)..., never by position.
struct Hyper {
    int radius = 0;  ///< see ModelConfig::radius; 0 = not used
    int layers = 4;
    int hidden = 32;
    double lr = 1e-4;
    double weight_decay = 1e-4;
    int batch = 32;  ///< graphs per batch (pairs × 2)
    int epochs = 20;
    double loss_threshold = 0.2;  ///< early stop when the epoch loss falls below it (strictly)

    Hyper with_radius(int v) const { return with(&Hyper::radius, v); }
    Hyper with_layers(int v) const { return with(&Hyper::layers, v); }
    Hyper with_hidden(int v) const { return with(&Hyper::hidden, v); }
    Hyper with_lr(double v) const { return with(&Hyper::lr, v); }
    Hyper with_weight_decay(double v) const { return with(&Hyper::weight_decay, v); }
    Hyper with_batch(int v) const { return with(&Hyper::batch, v); }
    Hyper with_epochs(int v) const { return with(&Hyper::epochs, v); }
    Hyper with_loss_threshold(double v) const { return with(&Hyper::loss_threshold, v); }

private:
    template <typename T>
    Hyper with(T Hyper::*field, T v) const {
        Hyper h = *this;
        h.*field = v;
        return h;
    }
};

/// A row of Table 2 of the BREC paper: pairs distinguished per group (Basic 60, Regular 140,
/// Extension 100, CFI 100). Negative = the paper has no row for the model.
struct PaperRow {
    int basic = -1, regular = -1, extension = -1, cfi = -1;
    bool known() const { return basic >= 0; }
    int total() const { return known() ? basic + regular + extension + cfi : -1; }
};

/// The model as a subgraph-counting regressor (Head::regression), as Campi et al. ("Expressivity of
/// GNNs through the lens of adversarial robustness", ICML 2023 workshop) trained it.
struct CountingSpec {
    bool regressor = false;           ///< brec trains it as a counting regressor (`brec attack`)
    std::string default_loss = "l1";  ///< its training loss by default: "l1" or "lc" (L1 / (y + 1))
    /// Its subgraphs reach as deep as the counted pattern's diameter (ModelConfig::radius).
    bool radius_is_pattern_diameter = false;
    /// The test L1 error on triangle counts the paper published (Table 3, SBM); negative: none.
    double paper_triangle_l1 = -1.0;
};

/// Everything brec knows about a model besides its code.
struct ModelSpec {
    std::string name;      ///< the --model name
    std::string family;    ///< one line: what the model is
    std::string citation;  ///< short form, e.g. "Xu et al., ICLR 2019"
    /// The WL level bounding the model's power, as a hardness level key ("1wl", "2fwl", "3fwl"),
    /// or "" when no such bound is proven. Pairs at or below it are within the model's theory.
    std::string bound;
    std::string bound_note;  ///< the bound in words, e.g. "= 3-WL (2-FWL)"
    /// The model's tight bound: the WL-type test exactly as powerful as its design at its default
    /// settings, as a `brec wl --method` name (e.g. "gswl:6"); "" when no test bounds the design
    /// (OSAN with enough samples). Wang & Zhang, "An Empirical Study of Realized GNN
    /// Expressiveness" (ICML 2024), set each model's tight bound beside what it realized.
    std::string tight_bound;
    /// The tight bound in words: the test, its paper, and what of the model's design it mirrors.
    std::string tight_note;
    Hyper defaults;
    /// Pair ids the BREC study ran the model on ("" = all 400); pairs not run count as failures
    /// in the paper's Table 2.
    std::string paper_subset;
    PaperRow paper;  ///< the model's Table 2 row
    /// How the model's released script (its folder's test_BREC*.py in GraphPKU/BREC @966b5ed, branch
    /// Release) inverts the covariance (the reference protocol reproduces it).
    T2Inverse reference_inverse = T2Inverse::pinv;
    /// The RPC threshold of the model's released script under the reference protocol; 0 = the F
    /// threshold (72.34 for q = 32, d = 16). DropGNN's script kept an older 5.0.
    double reference_threshold = 0.0;
    /// Outputs are random at inference (DropGNN): the reliability group measures that randomness,
    /// and training never stops early on a loss threshold of 0.
    bool random_at_inference = false;
    CountingSpec counting;  ///< as a counting regressor
    /// A user's module (16 hex digits; "" for built-in models, which is how a user's module is
    /// told apart): for TorchScript the FNV-1a of the file, for a Python module a hash of its
    /// class source, repr and parameter shapes. Part of the settings id, so that resuming never
    /// mixes two modules.
    std::string module_hash;
    /// A user's module whose forward has random operations: the first one (e.g. "aten::dropout").
    std::string random_op;
};

using ModelFactory = std::function<std::shared_ptr<GraphEmbedder>(const ModelConfig&, ModelRandom&)>;

/// The bytes a model's tensors take at their peak while it trains on one batch: `graphs` are the
/// graphs of one forward and backward pass (one forward_range call), `config` the architecture.
/// It counts the activations kept for the backward pass, the gradients alive at the start of it,
/// the batch's index structures, the parameters and the optimiser state. `brec eval --max-memory`
/// skips a pair whose estimate exceeds the limit instead of running out of memory.
using MemoryEstimate = std::function<std::uint64_t(const std::vector<Graph>& graphs, const ModelConfig& config)>;

struct ModelEntry {
    ModelSpec spec;
    ModelFactory make;
    /// Empty: no estimate (the model's memory is never checked).
    MemoryEstimate estimate_bytes = {};
    /// A user's module: the probe check_model runs before any pair (nn::probe_user_model); empty
    /// for built-in models.
    std::function<void(const ModelConfig&)> check = {};
};

/// The model-name prefix of a user's TorchScript module: "torchscript:FILE" names the module saved
/// in FILE with torch.jit.script(model).save(FILE). Its interface:
///   forward(x: Tensor[N, F] float32, edge_index: Tensor[2, E] int64 (both directions of every edge,
///           row 0 sources, row 1 targets), batch: Tensor[N] int64 (graph of each node, 0..B−1),
///           num_graphs: int) -> Tensor[B, d]
/// Its hyperparameters default to GIN's row; its parameters are drawn again per pair from the pair's
/// generator (src/nn/models/torchscript.cpp documents the rule).
inline constexpr const char* kTorchScriptPrefix = "torchscript:";
/// Whether `name` names a user's TorchScript module.
bool is_torchscript_model(const std::string& name);

/// The built-in models in registry order.
const std::vector<ModelEntry>& model_registry();
/// Their names, in registry order.
std::vector<std::string> model_names();
/// The entry of a model. Throws InvalidArgument naming the available models for an unknown name.
/// "torchscript:FILE" loads
/// and checks the module once per process (IoError for a missing file, InvalidArgument for a file
/// that is not TorchScript or whose forward does not have the interface).
const ModelEntry& find_model(const std::string& name);

/// A fresh model: architecture from `config` (Head::regression: one output, no output norm),
/// parameters from `random.init`. Throws InvalidArgument for an unknown model or non-positive sizes.
std::shared_ptr<GraphEmbedder> make_model(const std::string& name, const ModelConfig& config, ModelRandom& random);
/// The same for an entry that is not in the registry (a user's Python module).
std::shared_ptr<GraphEmbedder> make_model(const ModelEntry& entry, const ModelConfig& config, ModelRandom& random);

/// Checks before any pair runs that the model works with `config`: for a user's TorchScript module a
/// probe on four tiny graphs (training mode with a backward pass, then eval mode) that throws
/// InvalidArgument naming what is wrong (output shape, NaN, no gradient, a failing forward);
/// nothing for built-in models.
void check_model(const std::string& name, const ModelConfig& config);
/// The same for an entry: runs its `check` when it has one.
void check_model(const ModelEntry& entry, const ModelConfig& config);

/// The registry as an aligned text table (name, defaults, bound, paper row), then the BREC-study
/// models not available yet.
std::string describe_models();

}  // namespace brec
