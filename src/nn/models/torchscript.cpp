// The user's own model: a module saved with torch.jit.script(model).save(FILE), trained and judged
// like a built-in model under the name "torchscript:FILE".
//
// Interface and fresh weights per pair: those of every user's module (brec/nn/user_model.hpp):
// every model is a deep copy of the loaded module whose parameters are drawn again from the pair's
// generator (ModelRandom::init) by brec's rule.
// The module's own reset_parameters() is not called: TorchScript compiles only forward and what it
// calls (nn.Linear.reset_parameters is not in a scripted module), and torch.nn.init draws from
// LibTorch's process-global generator, which parallel pairs share, so results would depend on
// scheduling.
//
// Random operations inside forward (dropout, rand, bernoulli, ...) can only draw from LibTorch's
// global generator. For a module that has them, brec seeds that generator from the pair's stream
// before every forward pass and holds a process-wide lock during the pass, so results stay
// reproducible and independent of --jobs (parallel pairs of such a module take turns).
//
// Matrix products and 1x1 convolutions: LibTorch 1.13's CPU matmul/bmm on a batch of small matrices
// (PPGN's [B, C, n, n]) runs one multi-threaded BLAS call per matrix through a select per batch
// entry, and cost a PPGN-like module about half of its training time; its mkldnn convolution, a
// 1x1 kernel on n×n images, was most of the rest. When a module is loaded, forward's calls of
// submodules and functions are inlined into forward's own graph (in place: every deep copy shares
// the module's class and so this graph) and each aten::matmul / aten::bmm / aten::conv2d node
// becomes brec::matmul / brec::bmm / brec::conv2d, operators registered below that run
// nn_kernels::batched_matmul and nn_kernels::conv2d (single-threaded sgemm per matrix or image, in
// parallel over the batch, one autograd node) and fall back to torch's own operation wherever those
// do not apply (CUDA, other dtypes, broadcasting, 1-D or 2-D operands, kernels other than 1x1 with
// stride 1, no padding and one group).

#include "nn/models/torchscript.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/library.h>
#include <torch/script.h>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/core/text.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/graph/graph.hpp"
#include "brec/nn/batch.hpp"
#include "brec/nn/layers.hpp"
#include "brec/nn/user_model.hpp"
#include "nn/kernels.hpp"
#include "nn/models/builtin.hpp"

namespace brec::models {
namespace {

torch::Tensor brec_bmm(const torch::Tensor& a, const torch::Tensor& b) {
    if (a.dim() == 3 && nn_kernels::batched_matmul_applies(a, b)) return nn_kernels::batched_matmul(a, b);
    return torch::bmm(a, b);  // bmm's own checks and errors (it does not broadcast)
}

}  // namespace

// The operators the matrix products and convolutions of a loaded module's forward are rewritten to (one definition
// per process, through LibTorch's operator registry; composite kernels, so autograd records the
// nodes of batched_matmul or of the fallback).
TORCH_LIBRARY(brec, m) {
    m.def("matmul(Tensor a, Tensor b) -> Tensor", &nn_kernels::batched_matmul);
    m.def("bmm(Tensor a, Tensor b) -> Tensor", &brec_bmm);
    m.def(
        "conv2d(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, int groups) "
        "-> Tensor",
        &nn_kernels::conv2d);
}

namespace {

/// Replaces aten::matmul, aten::bmm and aten::conv2d nodes (their default overloads) in `block` and
/// its sub-blocks by brec's operators of the same name on the same inputs; returns how many.
int replace_products(torch::jit::Block* block) {
    int count = 0;
    for (auto it = block->nodes().begin(); it != block->nodes().end(); ++it) {
        torch::jit::Node* node = *it;
        for (torch::jit::Block* sub : node->blocks()) count += replace_products(sub);
        const std::string kind = node->kind().toQualString();
        if (kind != "aten::matmul" && kind != "aten::bmm" && kind != "aten::conv2d") continue;
        const c10::FunctionSchema* schema = node->maybeSchema();
        if (schema == nullptr || !schema->overload_name().empty() || node->outputs().size() != 1) continue;
        torch::jit::Graph* graph = node->owningGraph();
        torch::jit::WithInsertPoint guard(node);
        const std::vector<torch::jit::NamedValue> inputs(node->inputs().begin(), node->inputs().end());
        torch::jit::Value* out =
            graph->insert(c10::Symbol::fromQualString("brec::" + kind.substr(6)), inputs, {}, node->sourceRange());
        out->setType(node->output()->type());
        node->output()->replaceAllUsesWith(out);
        it.destroyCurrent();
        ++count;
    }
    return count;
}

/// Operations that draw random numbers (from LibTorch's global generator inside TorchScript).
bool is_random_op(const std::string& kind) {
    static const char* const kRandom[] = {"aten::dropout",
                                          "aten::dropout_",
                                          "aten::feature_dropout",
                                          "aten::feature_dropout_",
                                          "aten::alpha_dropout",
                                          "aten::alpha_dropout_",
                                          "aten::feature_alpha_dropout",
                                          "aten::bernoulli",
                                          "aten::bernoulli_",
                                          "aten::rand",
                                          "aten::rand_like",
                                          "aten::randn",
                                          "aten::randn_like",
                                          "aten::randint",
                                          "aten::randint_like",
                                          "aten::randperm",
                                          "aten::normal",
                                          "aten::normal_",
                                          "aten::uniform_",
                                          "aten::multinomial",
                                          "aten::rrelu",
                                          "aten::rrelu_",
                                          "aten::rrelu_with_noise",
                                          "aten::poisson",
                                          "aten::exponential_",
                                          "aten::geometric_",
                                          "aten::cauchy_",
                                          "aten::log_normal_",
                                          "aten::random_",
                                          "aten::native_dropout"};
    return std::find(std::begin(kRandom), std::end(kRandom), kind) != std::end(kRandom);
}

/// The first random operation in a graph and its sub-blocks, or "".
std::string find_random_op(torch::jit::Block* block) {
    for (torch::jit::Node* node : block->nodes()) {
        const std::string kind = node->kind().toQualString();
        if (is_random_op(kind)) return kind;
        for (torch::jit::Block* sub : node->blocks())
            if (auto k = find_random_op(sub); !k.empty()) return k;
    }
    return "";
}

/// A loaded module and what was learned about it when it was loaded.
struct LoadedModule {
    std::string path;
    torch::jit::Module module;
    std::string random_op;   ///< the first random operation of forward, "" when deterministic
    int rewritten = 0;       ///< operations of forward rewritten to brec's (rewrite_products)
    std::uint64_t hash = 0;  ///< FNV-1a of the file's bytes
};

std::string prefix(const std::string& path) { return "torchscript module " + path + ": "; }

/// Checks forward's signature: (self, Tensor, Tensor, Tensor, int) -> Tensor.
void check_signature(const LoadedModule& m) {
    const auto method = m.module.find_method("forward");
    if (!method)
        throw InvalidArgument(prefix(m.path) +
                              "has no forward method (expected forward(x, edge_index, batch, num_graphs))");
    const c10::FunctionSchema& schema = method->function().getSchema();
    const auto& args = schema.arguments();
    const std::size_t given = args.empty() ? 0 : args.size() - 1;  // without self
    std::string names;
    for (std::size_t i = 1; i < args.size(); ++i) names += (i > 1 ? ", " : "") + args[i].name();
    if (given != 4)
        throw InvalidArgument(
            prefix(m.path) + "forward takes " + std::to_string(given) + " arguments (" + names +
            "); expected 4: forward(x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor");
    const char* expected[] = {"Tensor", "Tensor", "Tensor", "int"};
    for (std::size_t i = 0; i < 4; ++i) {
        const std::string type = args[i + 1].type()->str();
        const bool ok = i < 3 ? type == "Tensor" || type == "Tensor?" : type == "int";
        if (!ok)
            throw InvalidArgument(
                prefix(m.path) + "forward's argument " + std::to_string(i + 1) + " '" + args[i + 1].name() + "' is " +
                type + "; expected " + expected[i] +
                " (forward(x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor)");
    }
    const auto& returns = schema.returns();
    if (returns.size() != 1 || returns[0].type()->str() != "Tensor")
        throw InvalidArgument(
            prefix(m.path) + "forward returns " +
            (returns.size() == 1 ? returns[0].type()->str() : std::to_string(returns.size()) + " values") +
            "; expected one Tensor [num_graphs, d]");
}

std::shared_ptr<const LoadedModule> load_module(const std::string& path) {
    // With profiling off, TorchScript runs its simple executor: the scripted graph op by op, with
    // autograd as in eager mode, like brec's own models. The default profiling executor profiles
    // and re-specialises the graph for input shapes, and every pair and batch range of brec brings
    // new shapes: GIN-like modules on Basic pairs trained 1.2-1.5x slower per epoch with it (runs of
    // 20 and 2 epochs, best of 4); the legacy optimising executor was no faster than the simple one. The
    // setting is LibTorch's and process-wide; only TorchScript reads it, and brec's built-in
    // models are not TorchScript.
    torch::jit::getProfilingMode() = false;
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw IoError("cannot open " + path + " (a TorchScript module saved with torch.jit.script(model).save(...))");
    std::ostringstream bytes;
    bytes << file.rdbuf();
    auto m = std::make_shared<LoadedModule>();
    m->path = path;
    m->hash = fnv1a(bytes.str());  // the bytes loaded are the bytes hashed
    try {
        std::istringstream in(bytes.str());
        m->module = torch::jit::load(in, torch::kCPU);
    } catch (const std::exception& e) {
        throw InvalidArgument(path + " is not a TorchScript module saved with torch.jit.script(model).save(...): " +
                              nn::one_line_error(e));
    }
    check_signature(*m);
    try {
        auto graph = m->module.get_method("forward").graph()->copy();
        torch::jit::Inline(*graph);
    } catch (const c10::Error&) {
        return m;  // a graph that cannot be inlined: treated as deterministic, run as saved
    }
    m->rewritten = rewrite_products(m->module);  // inlines as the copy did
    m->random_op = find_random_op(m->module.get_method("forward").graph()->block());
    return m;
}

/// The model: a deep copy of the loaded module, its parameters registered with this module so the
/// trainer's optimiser sees them (the tensors are shared, not copied).
class TorchScriptModel : public GraphEmbedder {
public:
    TorchScriptModel(std::shared_ptr<const LoadedModule> source, const ModelConfig& c, ModelRandom& random)
        : source_(std::move(source)), config_(c), run_(random.run) {
        nn::check_input_features(c);
        {
            torch::NoGradGuard no_grad;  // a deep copy of leaves, not a recorded clone
            module_ = source_->module.deepcopy();
        }
        nn::NamedTensors parameters, buffers;
        for (const auto& p : module_.named_parameters(/*recurse=*/true)) parameters.emplace_back(p.name, p.value);
        for (const auto& b : module_.named_buffers(/*recurse=*/true)) buffers.emplace_back(b.name, b.value);
        nn::reinitialise_parameters(parameters, buffers, random.init);
        int k = 0;
        for (const auto& p : module_.named_parameters(/*recurse=*/true)) {
            torch::Tensor t = p.value;
            const bool grad = source_param_requires_grad(p.name);
            std::string name = p.name;
            std::replace(name.begin(), name.end(), '.', '_');
            register_parameter(name + "_" + std::to_string(k++), t, grad);
        }
        module_.train(is_training());
    }

    void train(bool on) override {
        torch::nn::Module::train(on);
        module_.train(on);
    }

    using torch::nn::Module::to;
    void to(torch::Device device, bool non_blocking) override {
        // The parameters registered here are the module's own tensors: moving the module moves
        // them (in place, as torch::nn::Module::to does), buffers included.
        module_.to(device, non_blocking);
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const nn::UserInputs& in = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return nn::make_user_inputs(batches_.graphs(), s, e, config_, batches_.device());
        });
        torch::Tensor out;
        try {
            // Random operations draw from the global generator: seed it from this model's stream (a
            // fresh seed per pass), and let no other such pass draw meanwhile.
            std::unique_lock<std::mutex> lock;
            if (!source_->random_op.empty())
                lock = nn::seed_global_generator(batches_.device(), stream_seed(run_.current_seed(), ++passes_));
            const c10::IValue value =
                module_.forward({in.x, in.edge_index, in.batch, static_cast<std::int64_t>(in.graphs)});
            if (!value.isTensor())
                throw InvalidArgument(prefix(source_->path) + "forward returned " + value.tagKind() + ", not a Tensor");
            out = value.toTensor();
        } catch (const Error&) {
            throw;
        } catch (const std::exception& e) {
            throw InvalidArgument(prefix(source_->path) + "forward failed on " + std::to_string(in.graphs) +
                                  " graphs: " + nn::one_line_error(e));
        }
        return nn::checked_user_output(out, in.graphs, config_.out_dim, prefix(source_->path));
    }

private:
    bool source_param_requires_grad(const std::string& name) const {
        for (const auto& p : source_->module.named_parameters(/*recurse=*/true))
            if (p.name == name) return p.value.requires_grad();
        return true;
    }

    std::shared_ptr<const LoadedModule> source_;
    ModelConfig config_;
    torch::Generator run_;
    std::uint64_t passes_ = 0;
    torch::jit::Module module_;
    nn::RangeCache<nn::UserInputs> batches_;
};

}  // namespace

namespace {

/// Modules loaded in this process, by path (loading compiles TorchScript: once per process).
struct LoadedEntry {
    ModelEntry entry;
    std::shared_ptr<const LoadedModule> source;
};

const LoadedEntry& loaded_entry(const std::string& path) {
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<LoadedEntry>> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = loaded.find(path); it != loaded.end()) return *it->second;
    if (path.empty()) throw InvalidArgument("torchscript: needs a file, e.g. torchscript:my_gnn.pt");
    std::shared_ptr<const LoadedModule> source = load_module(path);
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(source->hash));
    auto loaded_module = std::make_unique<LoadedEntry>();
    loaded_module->source = source;
    ModelSpec& s = loaded_module->entry.spec;
    s.name = std::string(kTorchScriptPrefix) + path;
    s.family = "user's TorchScript module " + path;
    s.citation = "";
    s.bound = "";
    s.bound_note = "unknown (a user's module)";
    s.defaults = gin_model().spec.defaults;
    s.module_hash = hash;
    s.random_op = source->random_op;
    loaded_module->entry.make = [source](const ModelConfig& c, ModelRandom& r) {
        return std::make_shared<TorchScriptModel>(source, c, r);
    };
    loaded_module->entry.check = [make = loaded_module->entry.make, path](const ModelConfig& c) {
        nn::probe_user_model(make, c, prefix(path));
    };
    return *loaded.emplace(path, std::move(loaded_module)).first->second;
}

}  // namespace

const ModelEntry& torchscript_model(const std::string& path) { return loaded_entry(path).entry; }

int torchscript_rewritten(const std::string& path) { return loaded_entry(path).source->rewritten; }

int rewrite_products(torch::jit::Module& module) {
    torch::jit::GraphFunction& forward = torch::jit::toGraphFunction(module.get_method("forward").function());
    const std::shared_ptr<torch::jit::Graph> graph = forward.graph();
    torch::jit::Inline(*graph);
    const int count = replace_products(graph->block());
    forward.clear_optimized_graphs();  // none was built yet (nothing ran); in case one was
    return count;
}

}  // namespace brec::models
