// SUN (Subgraph Union Network): a node-based subgraph GNN whose layer updates each copy x^k_v (node
// v in the subgraph rooted at k) from the root copies x^v_v and x^k_k, the copy itself, its
// neighbours in the subgraph, the mean of v's copies over all subgraphs on the original edges, and
// the readout of subgraph k; root copies have their own set of these functions.
//
// As the BREC study runs it (SUN/test_BREC_sun.py via test_BREC_search_sun.py: policy
// ego_nets_plus, 6 hops, originalgin, 9 layers, width 32; no transpose, no residual, BatchNorm on,
// MLPs, sum readout of subgraphs, no dropout): subgraphs keep all n nodes and only the edges of the
// root's 6-hop ball; input [is root, is not root, 1]. With MLP = Linear-BN-ReLU-Linear, GIN = GINConv
// with ε = 0 fixed and such an MLP, and BN = BatchNorm1d:
//   non-root copies: MLP_vv(x^v_v) + MLP_kk(x^k_k) + MLP_kv(x^k_v) + BN(GIN(x)^k_v, over non-root
//     copies only) + BN(GIN_sum(mean of copies, original edges))_v + MLP_readout(Σ_w x^k_w);
//   root copies: MLP_vv'(x^v_v) + BN(GIN'(x)^v_v) + BN(GIN_sum'(mean of copies, original edges))_v
//     + MLP_readout'(Σ_w x^v_w);
// then ReLU. GIN and GIN' run over all copies (their inner BatchNorm sees every copy), and so does
// MLP_kv. Readout: mean over each subgraph, mean over the subgraphs, Linear(h, 2h), ReLU,
// Linear(2h, d); no BatchNorm on the output. BatchNorm layers have PyTorch's defaults; parameters
// as PyTorch's defaults, from the model's generator. GIN and GIN' share their input (x plus the
// neighbour sum), as do GIN_sum and GIN_sum', which is computed once for each pair.
//
// Released code: GraphPKU/BREC @966b5ed (branch Release), SUN/test_BREC_sun.py and SUN/models.py (SUNnetwork).
//
// Deviation: the released script builds the first layer for in_dim = 1 against the 3-column input
// [is root, is not root, 1]; the first layer here takes the 3 columns.
//
// @inproceedings{frasca2022understanding, title={Understanding and Extending Subgraph GNNs by
//   Rethinking Their Symmetries}, author={Frasca, Fabrizio and Bevilacqua, Beatrice and Bronstein,
//   Michael M. and Maron, Haggai}, booktitle={NeurIPS}, year={2022}}

#include "brec/nn/batch.hpp"
#include "brec/nn/layers.hpp"
#include "nn/models/builtin.hpp"
#include "nn/models/shared.hpp"

namespace brec::models {
namespace {

/// The ego_nets_plus subgraphs of a range with the index tensors of SUN's two kinds of copies.
struct SunBatch {
    EgoEdgesBatch ego;
    torch::Tensor non_root;           ///< [C − S] copies that are not their subgraph's root
    torch::Tensor non_root_node;      ///< [C − S] their original node (= the subgraph it roots)
    torch::Tensor non_root_subgraph;  ///< [C − S] their subgraph
    torch::Tensor order;              ///< [C] position of each copy in cat(roots, non-roots)
};

SunBatch make_sun_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end, std::uint32_t radius,
                        torch::Device device) {
    SunBatch b;
    b.ego = make_ego_edges_batch(graphs, begin, end, radius, device);
    const nn::SubgraphBatch& sub = b.ego.sub;
    b.non_root = sub.copy_distance.ne(0).nonzero().flatten();
    b.non_root_node = sub.copy_node.index_select(0, b.non_root);
    b.non_root_subgraph = sub.copy_subgraph.index_select(0, b.non_root);
    const auto stacked = torch::cat({sub.root_copy, b.non_root});
    b.order = torch::empty_like(stacked).scatter_(0, stacked, torch::arange(sub.copies, stacked.options()));
    return b;
}

struct SunLayerImpl : torch::nn::Module {
    SunLayerImpl(std::int64_t in, std::int64_t h, torch::Generator& gen) {
        const auto mlp = [&](const std::string& name) { return register_module(name, nn::BnMlp(in, h, h, gen)); };
        const auto bn = [&](const std::string& name) { return register_module(name, nn::batch_norm(h)); };
        gnn = mlp("gnn");
        gnn_root = mlp("gnn_root");
        gnn_sum = mlp("gnn_sum");
        gnn_root_sum = mlp("gnn_root_sum");
        bn_gnn = bn("bn");
        bn_root = bn("bn_root");
        bn_sum = bn("bn_sum");
        bn_root_sum = bn("bn_root_sum");
        u_readout = mlp("u_readout");
        u_readout_root = mlp("u_readout_root");
        u_vv = mlp("u_vv");
        u_kk = mlp("u_kk");
        u_kv = mlp("u_kv");
        u_vv_root = mlp("u_vv_root");
    }

    torch::Tensor forward(const torch::Tensor& x, const SunBatch& b) {
        const nn::SubgraphBatch& sub = b.ego.sub;
        const auto readout = nn::group_sum(x, sub.by_subgraph);                  // [S]
        const auto node_mean = nn::group_mean(x, sub.by_node);                   // [N]
        const auto root = nn::gather_rows(x, sub.root_copy);                     // [S] = x^v_v
        const auto inside = x + nn::neighbour_sum(x, sub.copy_arcs);             // GIN input [C]
        const auto across = node_mean + nn::neighbour_sum(node_mean, sub.arcs);  // GIN_sum input [N]

        // Non-root copies x^k_v: terms per node v (subgraph v's root and the cross-subgraph GIN),
        // per subgraph k (its root and its readout) and per copy.
        const auto per_node = u_vv->forward(root) + bn_sum->forward(gnn_sum->forward(across));
        const auto per_subgraph = u_kk->forward(root) + u_readout->forward(readout);
        const auto per_copy = nn::gather_rows(u_kv->forward(x), b.non_root) +
                              bn_gnn->forward(nn::gather_rows(gnn->forward(inside), b.non_root));
        const auto non_root =
            per_copy + nn::gather_rows(per_node, b.non_root_node) + nn::gather_rows(per_subgraph, b.non_root_subgraph);
        // Root copies x^v_v (subgraph v is rooted at node v, so per-node and per-subgraph rows align).
        const auto roots = u_vv_root->forward(root) +
                           bn_root->forward(nn::gather_rows(gnn_root->forward(inside), sub.root_copy)) +
                           bn_root_sum->forward(gnn_root_sum->forward(across)) + u_readout_root->forward(readout);
        return torch::relu(nn::gather_rows(torch::cat({roots, non_root}), b.order));
    }

    nn::BnMlp gnn{nullptr}, gnn_root{nullptr}, gnn_sum{nullptr}, gnn_root_sum{nullptr};
    torch::nn::BatchNorm1d bn_gnn{nullptr}, bn_root{nullptr}, bn_sum{nullptr}, bn_root_sum{nullptr};
    nn::BnMlp u_readout{nullptr}, u_readout_root{nullptr}, u_vv{nullptr}, u_kk{nullptr}, u_kv{nullptr},
        u_vv_root{nullptr};
};
TORCH_MODULE(SunLayer);

class Sun : public GraphEmbedder {
public:
    Sun(const ModelConfig& c, ModelRandom& random) : radius_(ego_radius(c, "sun")) {
        for (int i = 0; i < c.layers; ++i)
            layers_.push_back(
                register_module("layer" + std::to_string(i), SunLayer(i == 0 ? 3 : c.hidden, c.hidden, random.init)));
        final1_ = register_module("final1", nn::Linear(c.hidden, 2 * c.hidden, random.init));
        final2_ = register_module("final2", nn::Linear(2 * c.hidden, c.out_dim, random.init));
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const SunBatch& b = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return make_sun_batch(batches_.graphs(), s, e, radius_, batches_.device());
        });
        const nn::SubgraphBatch& sub = b.ego.sub;
        auto x = b.ego.input;
        for (auto& layer : layers_) x = layer->forward(x, b);
        const auto graph = nn::group_mean(nn::group_mean(x, sub.by_subgraph), sub.by_graph);
        return final2_->forward(torch::relu(final1_->forward(graph)));
    }

private:
    std::uint32_t radius_;
    std::vector<SunLayer> layers_;
    nn::Linear final1_{nullptr}, final2_{nullptr};
    nn::RangeCache<SunBatch> batches_;
};

}  // namespace

ModelEntry sun_model() {
    ModelSpec s;
    s.name = "sun";
    s.family = "Subgraph Union Network: ego-net subgraphs, root/non-root updates from x_vv, x_kk, x_kv, readouts";
    s.citation = "Frasca et al., NeurIPS 2022";
    s.bound = kNodeSubgraphBound;
    s.bound_note = kNodeSubgraphBoundNote;
    s.tight_bound = "gswl:6";
    s.tight_note = "GSWL on ego_nets_plus subgraphs of radius 6 (Zhang et al. 2023)";
    s.defaults = Hyper()
                     .with_radius(6)
                     .with_layers(9)
                     .with_hidden(32)
                     .with_lr(1e-4)
                     .with_weight_decay(1e-4)
                     .with_batch(32)
                     .with_epochs(20)
                     .with_loss_threshold(0.01);
    s.paper_subset = kBrec3WlSubset;
    s.paper = {60, 50, 100, 13};
    s.reference_inverse = T2Inverse::regularised_inverse;
    return {s, [](const ModelConfig& c, ModelRandom& r) { return std::make_shared<Sun>(c, r); }};
}

}  // namespace brec::models
