#include "brec/nn/user_model.hpp"

#include <cmath>
#include <map>
#include <memory>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/nn/batch.hpp"
#include "brec/nn/layers.hpp"

namespace brec::nn {
namespace {

/// fan_in of a weight with two or more dimensions, as torch.nn.init computes it.
std::int64_t fan_in(const torch::Tensor& w) {
    std::int64_t f = w.size(1);
    for (std::int64_t d = 2; d < w.dim(); ++d) f *= w.size(d);
    return f;
}

/// The last component of a dotted name, and everything before it with its dot.
std::pair<std::string, std::string> split_name(const std::string& name) {
    const auto dot = name.rfind('.');
    if (dot == std::string::npos) return {"", name};
    return {name.substr(0, dot + 1), name.substr(dot + 1)};
}

}  // namespace

void check_input_features(const ModelConfig& c) {
    if (c.input_features != "ones" && c.input_features != "degree" && c.input_features != "label")
        throw InvalidArgument("unknown input features '" + c.input_features + "' (expected ones, degree or label)");
    if (c.input_features == "label" && c.label_classes < 1)
        throw InvalidArgument("one-hot label features need the number of label classes (>= 1)");
}

UserInputs make_user_inputs(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                            const ModelConfig& config, torch::Device device) {
    const SparseBatch b = make_sparse_batch(graphs, begin, end, torch::kCPU);
    UserInputs in;
    in.graphs = b.graphs;
    in.edge_index = torch::stack({b.src, b.dst}).to(device);
    in.batch = b.graph_of.to(device);
    auto ptr = torch::zeros({b.graphs + 1}, torch::kLong);
    auto* p = ptr.data_ptr<std::int64_t>();
    for (std::size_t i = begin; i < end; ++i) p[i - begin + 1] = p[i - begin] + graphs[i].n();
    in.ptr = ptr.to(device);
    if (config.input_features == "ones") {
        in.x = torch::ones({b.nodes, 1}, torch::TensorOptions().device(device));
        return in;
    }
    const std::int64_t width = config.input_features == "degree" ? 1 : config.label_classes;
    auto x = torch::zeros({b.nodes, width});
    auto* xp = x.data_ptr<float>();
    std::int64_t v = 0;
    for (std::size_t i = begin; i < end; ++i)
        for (VertexId u = 0; u < graphs[i].n(); ++u, ++v) {
            if (config.input_features == "degree") {
                xp[v] = static_cast<float>(graphs[i].degree(u));
                continue;
            }
            const auto label = static_cast<std::int64_t>(graphs[i].node_label(u));
            if (label >= width)
                throw InvalidArgument("node label " + std::to_string(label) + " outside the " + std::to_string(width) +
                                      " label classes of the one-hot input features");
            xp[v * width + label] = 1.0f;
        }
    in.x = x.to(device);
    return in;
}

torch::Tensor checked_user_output(const torch::Tensor& out, std::int64_t graphs, int out_dim,
                                  const std::string& where) {
    if (!out.defined()) throw InvalidArgument(where + "forward returned an undefined tensor");
    if (out.dim() != 2 || out.size(0) != graphs || out.size(1) != out_dim) {
        std::string shape;
        for (std::int64_t i = 0; i < out.dim(); ++i) shape += (i ? ", " : "") + std::to_string(out.size(i));
        throw InvalidArgument(where + "forward returned shape [" + shape + "] for " + std::to_string(graphs) +
                              " graphs; expected [" + std::to_string(graphs) + ", " + std::to_string(out_dim) +
                              "] (num_graphs × output dimension)");
    }
    if (!out.is_floating_point())
        throw InvalidArgument(where + "forward returned " + std::string(c10::toString(out.scalar_type())) +
                              " values; expected floating point");
    return out.scalar_type() == torch::kFloat ? out : out.to(torch::kFloat);
}

void reinitialise_parameters(const NamedTensors& parameters, const NamedTensors& buffers, torch::Generator& gen) {
    std::map<std::string, torch::Tensor> by_name(parameters.begin(), parameters.end());
    torch::NoGradGuard no_grad;
    for (const auto& [name, tensor] : parameters) {
        torch::Tensor t = tensor;
        const auto [owner, leaf] = split_name(name);
        const auto uniform = [&](std::int64_t fan) {
            if (fan > 0) uniform_init(t, 1.0 / std::sqrt(static_cast<double>(fan)), gen);
        };
        if (t.dim() >= 2) {
            uniform(fan_in(t));
        } else if (t.dim() == 1 && leaf == "bias") {
            const auto w = by_name.find(owner + "weight");
            if (w != by_name.end() && w->second.dim() >= 2)
                uniform(fan_in(w->second));
            else if (w != by_name.end() && w->second.dim() == 1)
                t.zero_();
        } else if (t.dim() == 1 && leaf == "weight") {
            t.fill_(1.0);
        }
    }
    for (const auto& [name, tensor] : buffers) {
        torch::Tensor t = tensor;
        const std::string leaf = split_name(name).second;
        if (leaf == "running_mean" || leaf == "num_batches_tracked")
            t.zero_();
        else if (leaf == "running_var")
            t.fill_(1.0);
    }
}

void probe_user_model(const ModelFactory& make, const ModelConfig& c, const std::string& where) {
    ModelRandom random = make_model_random(0, torch::kCPU);
    const std::shared_ptr<GraphEmbedder> model = make(c, random);
    GraphBuilder star(4);
    star.add_edge(0, 1);
    star.add_edge(0, 2);
    star.add_edge(0, 3);
    std::vector<Graph> graphs{make_cycle(4), star.build(), make_path(4), make_cycle(4)};
    if (c.input_features == "label")
        for (auto& g : graphs) {
            GraphBuilder b(g.n());
            for (const Edge& e : g.edges()) b.add_edge(e.first, e.second);
            b.set_node_labels(std::vector<Label>(g.n(), 0));
            g = b.build();
        }
    model->set_graphs(graphs, torch::kCPU);
    for (bool training : {true, false}) {
        model->train(training);
        torch::Tensor out;
        {
            std::unique_ptr<torch::NoGradGuard> no_grad(training ? nullptr : new torch::NoGradGuard);
            out = model->forward_range(0, graphs.size());
        }
        if (!torch::isfinite(out).all().item<bool>())
            throw InvalidArgument(where + "forward returned NaN or infinite values on 4 small graphs (" +
                                  std::string(training ? "training" : "eval") + " mode)");
        bool trainable = false;
        for (const auto& p : model->parameters()) trainable = trainable || p.requires_grad();
        if (training && trainable) {
            if (!out.requires_grad())
                throw InvalidArgument(where +
                                      "forward's output does not depend on the module's parameters (no gradient)");
            try {
                out.pow(2).sum().backward();
            } catch (const Error&) {
                throw;
            } catch (const std::exception& e) {
                throw InvalidArgument(where + "the backward pass failed: " + one_line_error(e));
            }
        }
    }
}

std::unique_lock<std::mutex> seed_global_generator(torch::Device device, std::uint64_t seed) {
    static std::mutex passes;  // one per process, as the generator it guards
    std::unique_lock<std::mutex> lock(passes);
    torch::Generator global = at::globalContext().defaultGenerator(device);
    std::lock_guard<std::mutex> g(global.mutex());
    global.set_current_seed(seed);
    return lock;
}

std::string one_line_error(const std::exception& e, std::size_t limit) {
    const auto* c = dynamic_cast<const c10::Error*>(&e);
    const std::string text = c ? c->what_without_backtrace() : e.what();
    std::string out;
    for (char ch : text) {
        const bool space = ch == '\n' || ch == '\r' || ch == '\t' || ch == ' ';
        if (space && (out.empty() || out.back() == ' ')) continue;
        out.push_back(space ? ' ' : ch);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out.size() > limit ? out.substr(0, limit) + " ..." : out;
}

}  // namespace brec::nn
