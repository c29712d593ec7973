// KC-SetGNN ((k, c)(<=)-SetGNN): embeddings of vertex sets of up to k vertices whose induced
// subgraph has at most c components, initialised by a GNN on each set's induced subgraph and
// refined by message passing between sets of consecutive sizes along inclusion.
//
// As the BREC study runs it (KCSetGNN/test_BREC.py with train/configs/BREC.yaml: k = 3, c = 2,
// stacked sets of sizes 1..3, zero_init, 4 "Parallel" bipartite layers, 2 inner GINE layers,
// hidden 64, add pooling, no dropout):
// * sets: see brec/graph/ksets.hpp. Every MLP below is Linear layers without bias, each followed by
//   BatchNorm1d (affine off, momentum 1) and ReLU, unless said otherwise; every BatchNorm of the
//   model is of that kind;
// * input: one learned row (the node embedding of the constant feature 1) on every vertex, one
//   learned row e (the edge embedding of feature 0) on every edge;
// * initial set embeddings: for every set whose induced subgraph is connected, 2 GINE layers on
//   that subgraph: z ← z + ReLU(BN(MLP₂((1 + ε) z + Σ_j ReLU(z_j + W e + b)))), where MLP₂ is
//   Linear-BN-ReLU-Linear (no biases), ε trainable (0 at start) and W e + b a per-layer Linear of
//   the edge row; then an MLP of one layer; the sum over the set's vertices divided by the set
//   size. Sets with 2 components start at zero. Then + Emb(size) + Emb(#components) (width h,
//   N(0, 1)) and an MLP of one layer;
// * 4 layers X ← X + Layer(X) over all sets at once (the "Parallel" layer), with
//   D(Z)[S] = Σ over the sets T ⊃ S one larger of Z[T] and U(Z)[T] = Σ over the sets S ⊂ T one
//   smaller of Z[S]: R = D(X) on sets of size 1-2; Y = MLP₂(X) (with final BN and ReLU, BN over all
//   sets); L = U(Y) on sets of size 2-3; R' = U(MLP₂(R)) on sets of size 2-3; then with
//   P_i = ReLU(BN(Linear_i(·))) (h → h/2, with bias): x = P₁(X); r = P₂(R) on sizes 1-2 and x on
//   size 3; l = P₃(L) on sizes 2-3 and x on size 1; r' = P₄(R') on sizes 2-3 and x on size 1;
//   Layer(X) = MLP(2h → 2h → h)([x, r, l, r']);
// * readout per graph and set size: [max over the sets, Σ X · σ(W_g [Emb₁₆(size), Emb₁₆(#comp)])]
//   (the two 16-wide embeddings start at zero, W_g without bias), an MLP of one layer (2h → h);
//   the three sizes concatenated (3h), Linear(3h, h)-BN-ReLU-Linear(h, d) (the last with bias, no
//   output BatchNorm).
// Linear layers have PyTorch's default initialisation, from the model's generator.
//
// Released code: GraphPKU/BREC @966b5ed (branch Release), KCSetGNN/test_BREC.py, KCSetGNN/core/model/
// (setgnn.py, model_utils/elements.py, model_utils/pyg_gnn_wrapper.py).
//
// Deviations that change no output: the released encoders hold 10 tables of 20 or 60 rows, of
// which these graphs read one row per value (node feature 1, edge feature 0, set sizes 1-3,
// component counts 1-2); only those rows are parameters here (Adam's updates are element-wise).
// Modules built but never called (the positional encoder, the last BatchNorm of MLPs whose last
// layer has no activation) are left out. One deviation that can change results: the released
// GINE wrapper's reset_parameters does not reset its edge Linear, so in test_BREC.py that Linear
// carries its trained weights from one pair to the next; here each pair starts from fresh weights.
//
// @inproceedings{zhao2022practical, title={A Practical, Progressively-Expressive GNN},
//   author={Zhao, Lingxiao and H{\"a}rtel, Louis and Shah, Neil and Akoglu, Leman},
//   booktitle={NeurIPS}, year={2022}}

#include "brec/core/error.hpp"
#include "brec/nn/batch.hpp"
#include "brec/graph/ksets.hpp"
#include "brec/nn/layers.hpp"
#include "nn/models/builtin.hpp"
#include "nn/models/shared.hpp"

namespace brec::models {
namespace {

constexpr int kInnerLayers = 2;          ///< GINE layers inside every connected set
constexpr std::int64_t kLevels = 3;      ///< set sizes 1, 2, 3 (k = 3, stacked)
constexpr std::int64_t kGateWidth = 16;  ///< width of the size and component encodings of the gate

/// Linear layers [w0 → w1 → …]: each without bias and followed by BatchNorm (affine off, momentum
/// 1) and ReLU, except that with `plain_last` the last Linear has neither (and has a bias when
/// `last_bias`).
struct KcMlpImpl : torch::nn::Module {
    KcMlpImpl(const std::vector<std::int64_t>& widths, bool plain_last, bool last_bias, torch::Generator& gen)
        : plain_last(plain_last) {
        for (std::size_t i = 0; i + 1 < widths.size(); ++i) {
            const bool last = i + 2 == widths.size();
            const std::string k = std::to_string(i);
            linears.push_back(register_module(
                "lin" + k,
                nn::Linear(widths[i], widths[i + 1], gen, nn::Init::torch_default, last && plain_last && last_bias)));
            if (!(last && plain_last))
                norms.push_back(register_module("bn" + k, nn::batch_norm(widths[i + 1], false, 1.0)));
        }
    }
    torch::Tensor forward(torch::Tensor x) {
        for (std::size_t i = 0; i < linears.size(); ++i) {
            x = linears[i]->forward(x);
            if (i < norms.size()) x = torch::relu(norms[i]->forward(x));
        }
        return x;
    }
    bool plain_last;
    std::vector<nn::Linear> linears;
    std::vector<torch::nn::BatchNorm1d> norms;
};
TORCH_MODULE(KcMlp);

/// All sets of a range of graphs. Rows are level-major: the 1-sets of every graph, then the 2-sets
/// of every graph, then the 3-sets ("level" = size − 1), graph by graph inside a level.
struct KcBatch {
    std::int64_t graphs = 0, n0 = 0, n1 = 0, n2 = 0;
    std::int64_t copies = 0;      ///< vertices of all connected sets together
    nn::Adjacency copy_arcs;      ///< both directions of every edge inside every connected set
    nn::Grouping copy_set;        ///< copies → set rows (N groups; sets with 2 components have none)
    torch::Tensor inverse_size;   ///< [N, 1] float: 1 / set size
    torch::Tensor level, comp;    ///< [N] int64: size − 1, components − 1
    torch::Tensor pair_sub[2];    ///< [n1]: the 1-subsets of each 2-set (rows of level 0)
    torch::Tensor triple_sub[3];  ///< [n2]: the 2-subsets of each 3-set (indices within level 1)
    torch::Tensor readout_index;  ///< [N]: graph · 3 + level
    nn::Grouping readout;         ///< the same as a grouping
};

KcBatch make_kc_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end, torch::Device device) {
    std::vector<KSets> sets;
    KcBatch b;
    b.graphs = static_cast<std::int64_t>(end - begin);
    for (std::size_t i = begin; i < end; ++i) {
        sets.push_back(k_sets(graphs[i]));
        b.n0 += sets.back().n;
        b.n1 += sets.back().pairs();
        b.n2 += sets.back().triples();
    }
    if (b.n2 == 0)
        throw InvalidArgument("kc_setgnn: a batch of graphs without any 3 vertices spanning an edge has no 3-sets");
    const std::int64_t rows = b.n0 + b.n1 + b.n2;
    std::vector<std::int64_t> copy_node, copy_set, arc_src, arc_dst, level(rows), comp(rows), readout(rows);
    std::vector<std::int64_t> pair_sub[2], triple_sub[3];
    std::vector<float> inverse_size(rows);
    std::int64_t node0 = 0, pair0 = 0, triple0 = 0;
    // A connected set's vertices as copies, with the arcs of its induced edges.
    const auto add_copies = [&](const Graph& g, std::int64_t node_offset, std::int64_t row, const std::int64_t* v,
                                int size) {
        const std::int64_t first = static_cast<std::int64_t>(copy_node.size());
        for (int i = 0; i < size; ++i) {
            copy_node.push_back(node_offset + v[i]);
            copy_set.push_back(row);
        }
        for (int i = 0; i < size; ++i)
            for (int j = 0; j < size; ++j)
                if (i != j && g.has_edge(static_cast<VertexId>(v[i]), static_cast<VertexId>(v[j]))) {
                    arc_src.push_back(first + i);
                    arc_dst.push_back(first + j);
                }
    };
    for (std::size_t gi = 0; gi < sets.size(); ++gi) {
        const KSets& s = sets[gi];
        const Graph& g = graphs[begin + gi];
        const auto graph = static_cast<std::int64_t>(gi);
        for (std::int64_t v = 0; v < s.n; ++v) {
            const std::int64_t row = node0 + v;
            level[row] = 0;
            comp[row] = 0;
            inverse_size[row] = 1.0f;
            readout[row] = graph * kLevels;
            add_copies(g, node0, row, &v, 1);
        }
        for (std::int64_t p = 0; p < s.pairs(); ++p) {
            const std::int64_t row = b.n0 + pair0 + p;
            level[row] = 1;
            comp[row] = s.pair_components[p] - 1;
            inverse_size[row] = 0.5f;
            readout[row] = graph * kLevels + 1;
            for (int i = 0; i < 2; ++i) pair_sub[i].push_back(node0 + s.pair_vertices[2 * p + i]);
            if (s.pair_components[p] == 1) add_copies(g, node0, row, &s.pair_vertices[2 * p], 2);
        }
        for (std::int64_t t = 0; t < s.triples(); ++t) {
            const std::int64_t row = b.n0 + b.n1 + triple0 + t;
            level[row] = 2;
            comp[row] = s.triple_components[t] - 1;
            inverse_size[row] = 1.0f / 3.0f;
            readout[row] = graph * kLevels + 2;
            for (int i = 0; i < 3; ++i) triple_sub[i].push_back(pair0 + s.triple_pairs[3 * t + i]);
            if (s.triple_components[t] == 1) add_copies(g, node0, row, &s.triple_vertices[3 * t], 3);
        }
        node0 += s.n;
        pair0 += s.pairs();
        triple0 += s.triples();
    }
    const auto i64 = torch::TensorOptions().dtype(torch::kInt64);
    const auto vec = [&](std::vector<std::int64_t>& v) {
        return torch::from_blob(v.data(), {static_cast<std::int64_t>(v.size())}, i64).clone().to(device);
    };
    b.copies = static_cast<std::int64_t>(copy_node.size());
    b.copy_arcs = nn::make_adjacency(vec(arc_src), vec(arc_dst), b.copies);
    b.copy_set = nn::make_grouping(vec(copy_set), rows);
    b.inverse_size = torch::from_blob(inverse_size.data(), {rows, 1}, torch::kFloat).clone().to(device);
    b.level = vec(level);
    b.comp = vec(comp);
    for (int i = 0; i < 2; ++i) b.pair_sub[i] = vec(pair_sub[i]);
    for (int i = 0; i < 3; ++i) b.triple_sub[i] = vec(triple_sub[i]);
    b.readout_index = vec(readout);
    b.readout = nn::make_grouping(b.readout_index, b.graphs * kLevels);
    return b;
}

/// D(Z1, Z2): for every set of size 1 and 2, the sum of Z over its supersets one larger; Z1, Z2 the
/// rows of the 2-sets and 3-sets. [n0 + n1, width].
torch::Tensor sum_down(const torch::Tensor& z1, const torch::Tensor& z2, const KcBatch& b) {
    const auto to0 = nn::scatter_sum(z1, b.pair_sub[0], b.n0) + nn::scatter_sum(z1, b.pair_sub[1], b.n0);
    const auto to1 = nn::scatter_sum(z2, b.triple_sub[0], b.n1) + nn::scatter_sum(z2, b.triple_sub[1], b.n1) +
                     nn::scatter_sum(z2, b.triple_sub[2], b.n1);
    return torch::cat({to0, to1});
}

/// U(Z0, Z1): for every set of size 2 and 3, the sum of Z over its subsets one smaller; Z0, Z1 the
/// rows of the 1-sets and 2-sets. [n1 + n2, width].
torch::Tensor sum_up(const torch::Tensor& z0, const torch::Tensor& z1, const KcBatch& b) {
    const auto to1 = nn::gather_rows(z0, b.pair_sub[0]) + nn::gather_rows(z0, b.pair_sub[1]);
    const auto to2 = nn::gather_rows(z1, b.triple_sub[0]) + nn::gather_rows(z1, b.triple_sub[1]) +
                     nn::gather_rows(z1, b.triple_sub[2]);
    return torch::cat({to1, to2});
}

/// ReLU(BN(Linear(h → h/2))), the Linear with a bias.
struct HalfImpl : torch::nn::Module {
    HalfImpl(std::int64_t h, torch::Generator& gen) {
        lin = register_module("lin", nn::Linear(h, h / 2, gen));
        norm = register_module("bn", nn::batch_norm(h / 2, false, 1.0));
    }
    torch::Tensor forward(const torch::Tensor& x) { return torch::relu(norm->forward(lin->forward(x))); }
    nn::Linear lin{nullptr};
    torch::nn::BatchNorm1d norm{nullptr};
};
TORCH_MODULE(Half);

/// The "Parallel" bipartite layer (see the file comment); returns the update of X.
struct ParallelLayerImpl : torch::nn::Module {
    ParallelLayerImpl(std::int64_t h, torch::Generator& gen) {
        nn1 = register_module("nn1", KcMlp(std::vector<std::int64_t>{h, h, h}, false, false, gen));
        nn2 = register_module("nn2", KcMlp(std::vector<std::int64_t>{h, h, h}, false, false, gen));
        for (int i = 0; i < 4; ++i) half.push_back(register_module("linear" + std::to_string(i + 1), Half(h, gen)));
        out = register_module("nn_out", KcMlp(std::vector<std::int64_t>{2 * h, 2 * h, h}, false, false, gen));
    }
    torch::Tensor forward(const torch::Tensor& x, const KcBatch& b) {
        const auto right =
            sum_down(x.narrow(0, b.n0, b.n1), x.narrow(0, b.n0 + b.n1, b.n2), b);  // sizes 1-2: Σ over supersets
        const auto y = nn1->forward(x);
        const auto left = sum_up(y.narrow(0, 0, b.n0), y.narrow(0, b.n0, b.n1), b);  // sizes 2-3
        const auto right2 = nn2->forward(right);
        const auto right_left = sum_up(right2.narrow(0, 0, b.n0), right2.narrow(0, b.n0, b.n1), b);  // sizes 2-3
        const auto own = half[0]->forward(x);
        const auto own_first = own.narrow(0, 0, b.n0), own_last = own.narrow(0, b.n0 + b.n1, b.n2);
        const auto r = torch::cat({half[1]->forward(right), own_last});
        const auto l = torch::cat({own_first, half[2]->forward(left)});
        const auto rl = torch::cat({own_first, half[3]->forward(right_left)});
        return out->forward(torch::cat({own, r, l, rl}, 1));
    }
    KcMlp nn1{nullptr}, nn2{nullptr}, out{nullptr};
    std::vector<Half> half;
};
TORCH_MODULE(ParallelLayer);

/// One GINE layer inside the connected sets: MLP₂((1 + ε) z + Σ_j ReLU(z_j + W e + b)).
struct SetGineImpl : torch::nn::Module {
    SetGineImpl(std::int64_t h, torch::Generator& gen) {
        edge_linear = register_module("edge_linear", nn::Linear(h, h, gen));
        mlp = register_module("mlp", KcMlp(std::vector<std::int64_t>{h, h, h}, true, false, gen));
        eps = register_parameter("eps", torch::zeros({1}));
    }
    torch::Tensor forward(const torch::Tensor& z, const torch::Tensor& edge, const nn::Adjacency& arcs) {
        const auto e = edge_linear->forward(edge);  // [1, h]: every edge has the same feature
        return mlp->forward((1 + eps) * z + nn::neighbour_sum(torch::relu(z + e), arcs));
    }
    nn::Linear edge_linear{nullptr};
    KcMlp mlp{nullptr};
    torch::Tensor eps;
};
TORCH_MODULE(SetGine);

class KcSetGnn : public GraphEmbedder {
public:
    KcSetGnn(const ModelConfig& c, ModelRandom& random) {
        if (c.hidden < 2 || c.hidden % 2 != 0)
            throw InvalidArgument("kc_setgnn: the hidden width must be even (its bipartite layers halve it), got " +
                                  std::to_string(c.hidden));
        const std::int64_t h = c.hidden;
        auto& gen = random.init;
        input_ = register_parameter("input", torch::empty({1, h}));
        edge_ = register_parameter("edge", torch::empty({1, h}));
        nn::normal_init(input_, 1.0, gen);
        nn::normal_init(edge_, 1.0, gen);
        for (int i = 0; i < kInnerLayers; ++i) {
            inner_.push_back(register_module("inner" + std::to_string(i), SetGine(h, gen)));
            inner_norms_.push_back(register_module("inner_bn" + std::to_string(i), nn::batch_norm(h, false, 1.0)));
        }
        inner_out_ = register_module("inner_out", KcMlp(std::vector<std::int64_t>{h, h}, false, false, gen));
        size_emb_ = register_module("size_emb", nn::Embedding(kLevels, h, gen));
        comp_emb_ = register_module("components_emb", nn::Embedding(2, h, gen));
        set_out_ = register_module("set_out", KcMlp(std::vector<std::int64_t>{h, h}, false, false, gen));
        for (int l = 0; l < c.layers; ++l)
            layers_.push_back(register_module("bipartite" + std::to_string(l), ParallelLayer(h, gen)));
        gate_size_ = register_parameter("gate_size_emb", torch::zeros({kLevels, kGateWidth}));
        gate_comp_ = register_parameter("gate_components_emb", torch::zeros({2, kGateWidth}));
        gate_ =
            register_module("gate", nn::Linear(2 * kGateWidth, h, gen, nn::Init::torch_default, /*with_bias=*/false));
        decoder0_ = register_module("decoder0", KcMlp(std::vector<std::int64_t>{2 * h, h}, false, false, gen));
        decoder_ =
            register_module("decoder", KcMlp(std::vector<std::int64_t>{kLevels * h, h, c.out_dim}, true, true, gen));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const KcBatch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return make_kc_batch(batches_.graphs(), s, e, batches_.device());
        });
        // Initial colours: the inner GINE on every connected set (all copies start from the input row).
        auto z = input_.expand({b.copies, input_.size(1)});
        for (std::size_t i = 0; i < inner_.size(); ++i)
            z = z + torch::relu(inner_norms_[i]->forward(inner_[i]->forward(z, edge_, b.copy_arcs)));
        z = inner_out_->forward(z);
        auto x =
            nn::group_sum(z, b.copy_set) * b.inverse_size + size_emb_->forward(b.level) + comp_emb_->forward(b.comp);
        x = set_out_->forward(x);
        for (auto& layer : layers_) x = x + layer->forward(x, b);

        const auto kc = torch::cat({nn::gather_rows(gate_size_, b.level), nn::gather_rows(gate_comp_, b.comp)}, 1);
        const auto gated = x * torch::sigmoid(gate_->forward(kc));
        const auto groups = b.graphs * kLevels;
        const auto pooled =
            torch::cat({nn::scatter_max(x, b.readout_index, groups), nn::group_sum(gated, b.readout)}, 1);
        const auto per_level = decoder0_->forward(pooled).reshape({b.graphs, -1});  // [G, 3h]
        return decoder_->forward(per_level);
    }

private:
    torch::Tensor input_, edge_, gate_size_, gate_comp_;
    std::vector<SetGine> inner_;
    std::vector<torch::nn::BatchNorm1d> inner_norms_;
    KcMlp inner_out_{nullptr}, set_out_{nullptr}, decoder0_{nullptr}, decoder_{nullptr};
    nn::Embedding size_emb_{nullptr}, comp_emb_{nullptr};
    std::vector<ParallelLayer> layers_;
    nn::Linear gate_{nullptr};
    nn::RangeCache<KcBatch> batches_;
};

}  // namespace

ModelEntry kc_setgnn_model() {
    ModelSpec s;
    s.name = "kc_setgnn";
    s.family =
        "KC-SetGNN (k=3, c=2): sets of <= 3 vertices with <= 2 components, GINE-initialised, bipartite set "
        "message passing";
    s.citation = "Zhao et al., NeurIPS 2022";
    s.bound = "2fwl";
    s.bound_note = "<= 3-WL (2-FWL): (3,2)(<=)-SetWL is bounded by 3-WL (Zhao et al. 2022)";
    s.tight_bound = "setwl:3:2";
    s.tight_note = "(3,2)(<=)-SetWL (Zhao et al. 2022)";
    s.defaults = Hyper()
                     .with_radius(0)
                     .with_layers(4)
                     .with_hidden(64)
                     .with_lr(1e-4)
                     .with_weight_decay(1e-4)
                     .with_batch(16)
                     .with_epochs(15)
                     .with_loss_threshold(0.3);
    s.paper_subset = kBrec3WlSubset;
    s.paper = {60, 50, 100, 1};
    return {s, [](const ModelConfig& c, ModelRandom& r) { return std::make_shared<KcSetGnn>(c, r); }};
}

}  // namespace brec::models
