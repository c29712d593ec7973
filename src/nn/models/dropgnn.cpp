// DropGNN: R parallel runs of a GIN in which every vertex's input is zeroed with probability
// p = 2 / (1 + n) per run (the vertex still sends and receives messages), averaged over the runs.
// The drops are drawn in training and at inference alike, so its embeddings are random: the
// registry marks it random_at_inference.
//
// As the BREC study runs it (DropGNN/test_BREC.py with test_BREC_search.py's settings:
// --augmentation dropout --num_runs 100 --num_layers 10 --hidden_units 16):
//   * input x = 1 per vertex and run, zeroed where dropped; p from the pair's vertex count n
//     (here each graph's own n: both graphs of a BREC pair have the same);
//   * 10 GINConv layers, ε = 0 fixed: MLP(x_v + Σ_{u ∈ N(v)} x_u) with MLP = Linear(in, h) →
//     BatchNorm1d(h) → ReLU → Linear(h, h), then BatchNorm1d(h) and ReLU; the runs are disjoint
//     copies of the batch, normalised together;
//   * readout: for each layer l = 0..L (0 = the input after the drops) the mean over the runs,
//     sum-pooled per graph, Linear_l(→ d); the sum over the layers; no output normalisation.
// Parameters are PyTorch's defaults; the drops come from the model's run generator.
// On the CPU each GIN layer with its BatchNorm and ReLU is one fused kernel (nn/fused_gin.hpp): the
// 100 runs make [100·N, 16] activations, on which LibTorch's twenty-odd operators per layer, each a
// pass over memory, cost twice as much. The kernel also takes each layer's mean over the runs, so
// that the readout's gradient joins the next layer's in its backward pass (the same bits as the
// mean after the layer). ModelConfig::kernel "torch" (as the cost estimate counts operators) keeps
// LibTorch's modules.
//
// @inproceedings{papp2021dropgnn, title={DropGNN: Random Dropouts Increase the Expressiveness of
//   Graph Neural Networks}, author={Papp, P{\'a}l Andr{\'a}s and Martinkus, Karolis and Faber, Lukas
//   and Wattenhofer, Roger}, booktitle={NeurIPS}, year={2021}}

#include "brec/nn/batch.hpp"
#include "brec/nn/fused_gin.hpp"
#include "brec/nn/layers.hpp"
#include "nn/models/builtin.hpp"

namespace brec::models {
namespace {

constexpr std::int64_t kRuns = 100;

/// Graphs [begin, end) repeated kRuns times: run r's copy of vertex v is row r·N + v.
struct RunsBatch {
    nn::Adjacency arcs;      ///< over kRuns · N rows
    torch::Tensor keep_p;    ///< [N] float: 1 − p of each vertex's graph
    nn::Grouping by_graph;   ///< the N vertices to graphs
    std::int64_t nodes = 0;  ///< N
};

RunsBatch make_runs_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end, torch::Device device) {
    const nn::SparseBatch b = nn::make_sparse_batch(graphs, begin, end, torch::kCPU);
    const std::int64_t arcs = b.src.size(0);
    const auto shift = torch::arange(kRuns, torch::kLong).repeat_interleave(arcs) * b.nodes;
    RunsBatch r;
    r.nodes = b.nodes;
    r.arcs = nn::make_adjacency((b.src.repeat({kRuns}) + shift).to(device), (b.dst.repeat({kRuns}) + shift).to(device),
                                kRuns * b.nodes);
    std::vector<float> keep;
    for (std::size_t i = begin; i < end; ++i)
        keep.insert(keep.end(), graphs[i].n(), 1.0f - 2.0f / (1.0f + static_cast<float>(graphs[i].n())));
    r.keep_p = torch::tensor(keep).to(device);
    r.by_graph = nn::make_grouping(b.graph_of.to(device), b.graphs);
    return r;
}

class DropGnn : public GraphEmbedder {
public:
    DropGnn(const ModelConfig& c, ModelRandom& random) : run_(random.run), fused_(c.kernel != "torch") {
        auto& gen = random.init;
        std::int64_t in = 1;
        for (int l = 0; l < c.layers; ++l) {
            const std::string k = std::to_string(l);
            convs_.push_back(register_module("conv" + k, nn::BnMlp(in, c.hidden, c.hidden, gen)));
            norms_.push_back(register_module("bn" + k, nn::batch_norm(c.hidden)));
            in = c.hidden;
        }
        for (int l = 0; l <= c.layers; ++l)
            heads_.push_back(
                register_module("readout" + std::to_string(l), nn::Linear(l == 0 ? 1 : c.hidden, c.out_dim, gen)));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const RunsBatch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return make_runs_batch(batches_.graphs(), s, e, batches_.device());
        });
        // Row r·N + v is 0 where run r drops v (probability p = 1 − keep_p[v]), else 1.
        auto x = torch::bernoulli(b.keep_p.unsqueeze(0).expand({kRuns, b.nodes}).contiguous(), run_)
                     .reshape({kRuns * b.nodes, 1})
                     .to(parameters().front().scalar_type());  // a no-op in float
        const auto pool = [&](const torch::Tensor& mean, std::size_t l) {
            return heads_[l]->forward(nn::group_sum(mean, b.by_graph));
        };
        auto out = pool(x.view({kRuns, b.nodes, 1}).mean(0), 0);
        for (std::size_t l = 0; l < convs_.size(); ++l) {
            // The layer's output and its mean over the runs (on the fused path, one autograd node).
            auto [y, mean] = nn::gin_bn_layer_and_mean(x, b.arcs, convs_[l], norms_[l], kRuns, fused_);
            x = y;
            out = out + pool(mean, l + 1);
        }
        return out;
    }

private:
    torch::Generator run_;
    bool fused_;  ///< the fused CPU layer (ModelConfig::kernel not "torch")
    std::vector<nn::BnMlp> convs_;
    std::vector<torch::nn::BatchNorm1d> norms_;
    std::vector<nn::Linear> heads_;
    nn::RangeCache<RunsBatch> batches_;
};

}  // namespace

ModelEntry dropgnn_model() {
    ModelSpec s;
    s.name = "dropgnn";
    s.family = "DropGNN: 100 runs of GIN with random vertex drops, averaged (random at inference)";
    s.citation = "Papp et al., NeurIPS 2021";
    // Random drops let it separate graphs 1-WL cannot; its power is probabilistic, with no WL bound.
    s.bound = "";
    s.bound_note = "beyond 1-WL with high probability (random drops); no WL bound";
    s.tight_bound = "drop1";
    s.tight_note =
        "1-WL over the one-node-deleted subgraphs (Papp et al. 2021); the model zeroes a dropped vertex's input, which "
        "is node marking (m1)";
    s.defaults = Hyper()
                     .with_radius(0)
                     .with_layers(10)
                     .with_hidden(16)
                     .with_lr(1e-4)
                     .with_weight_decay(1e-5)
                     .with_batch(16)
                     .with_epochs(100)
                     .with_loss_threshold(0.0);
    s.paper = {52, 41, 82, 2};
    s.reference_threshold = 5.0;
    s.random_at_inference = true;
    return {s, [](const ModelConfig& c, ModelRandom& r) { return std::make_shared<DropGnn>(c, r); }};
}

}  // namespace brec::models
