#include "brec/nn/edge_sampling.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "brec/core/error.hpp"

namespace brec::nn {

UndirectedEdges undirected_edges(const SparseBatch& b) {
    const auto src = b.src.to(torch::kCPU).contiguous(), dst = b.dst.to(torch::kCPU).contiguous();
    const auto owner = b.graph_of.to(torch::kCPU).contiguous();
    const std::int64_t arcs = src.size(0);
    const auto* s = src.data_ptr<std::int64_t>();
    const auto* d = dst.data_ptr<std::int64_t>();
    const auto* o = owner.data_ptr<std::int64_t>();
    // Nodes are numbered graph by graph, so sorting (min, max) of the batch numbering sorts the edges
    // graph by graph and, inside a graph, by (u, v).
    std::vector<std::pair<std::int64_t, std::int64_t>> keys(static_cast<std::size_t>(arcs));
    for (std::int64_t a = 0; a < arcs; ++a) keys[a] = {std::min(s[a], d[a]), std::max(s[a], d[a])};
    auto sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    if (2 * sorted.size() != static_cast<std::size_t>(arcs))
        throw InvalidArgument("undirected_edges: the arcs are not the two directions of simple edges");

    UndirectedEdges e;
    e.graphs = b.graphs;
    e.edges = static_cast<std::int64_t>(sorted.size());
    e.edge_of_arc = torch::empty({arcs}, torch::kLong);
    auto* of = e.edge_of_arc.data_ptr<std::int64_t>();
    auto arc_graph = torch::empty({arcs}, torch::kLong);
    auto* ag = arc_graph.data_ptr<std::int64_t>();
    for (std::int64_t a = 0; a < arcs; ++a) {
        of[a] = std::lower_bound(sorted.begin(), sorted.end(), keys[a]) - sorted.begin();
        ag[a] = o[s[a]];
    }
    e.edge_ptr.assign(static_cast<std::size_t>(b.graphs) + 1, 0);
    for (const auto& k : sorted) ++e.edge_ptr[static_cast<std::size_t>(o[k.first]) + 1];
    for (std::size_t g = 0; g + 1 < e.edge_ptr.size(); ++g) e.edge_ptr[g + 1] += e.edge_ptr[g];
    const auto device = b.src.device();
    e.arc_graph = arc_graph.to(device);
    e.arcs_per_graph = torch::bincount(arc_graph, {}, b.graphs).to(torch::kFloat).to(device);
    return e;
}

namespace {

torch::Tensor keep_mask(const torch::Tensor& scores, const torch::Tensor& edge_of_arc,
                        const std::vector<std::int64_t>& edge_ptr) {
    const std::int64_t arcs = scores.size(0), columns = scores.size(1);
    const std::int64_t edges = edge_ptr.back();
    // Each edge's score is the sum of its two arcs' float scores, exact in double.
    const auto per_edge = torch::zeros({edges, columns}, torch::kDouble)
                              .index_add_(0, edge_of_arc, scores.detach().to(torch::kCPU, torch::kDouble));
    const auto* sc = per_edge.data_ptr<double>();
    std::vector<char> deleted(static_cast<std::size_t>(edges * columns), 0);
    for (std::size_t g = 0; g + 1 < edge_ptr.size(); ++g) {
        if (edge_ptr[g] == edge_ptr[g + 1]) continue;
        for (std::int64_t c = 0; c < columns; ++c) {
            std::int64_t lowest = edge_ptr[g];
            for (std::int64_t k = edge_ptr[g] + 1; k < edge_ptr[g + 1]; ++k)
                if (sc[k * columns + c] <= sc[lowest * columns + c]) lowest = k;  // ties: the last one
            deleted[static_cast<std::size_t>(lowest * columns + c)] = 1;
        }
    }
    auto mask = torch::ones({arcs, columns}, torch::kFloat);
    auto* m = mask.data_ptr<float>();
    const auto* of = edge_of_arc.data_ptr<std::int64_t>();
    for (std::int64_t a = 0; a < arcs; ++a)
        for (std::int64_t c = 0; c < columns; ++c)
            if (deleted[static_cast<std::size_t>(of[a] * columns + c)]) m[a * columns + c] = 0.0f;
    return mask.to(scores.device());
}

void check_scores(const torch::Tensor& scores, const UndirectedEdges& edges) {
    if (scores.dim() != 2 || scores.size(0) != edges.edge_of_arc.size(0))
        throw InvalidArgument("edge scores must be [arcs, columns] with one row per arc of the batch");
}

/// The I-MLE estimator around keep_mask (see imle_keep_all_but_lowest_edge).
struct ImleKeepMask : public torch::autograd::Function<ImleKeepMask> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& logits,
                                 const torch::Tensor& noise, const UndirectedEdges* edges, double beta) {
        const auto mask = keep_mask(logits.detach() + noise, edges->edge_of_arc, edges->edge_ptr);
        ctx->save_for_backward({logits.detach(), noise, mask});
        ctx->saved_data["edge_of_arc"] = edges->edge_of_arc;
        ctx->saved_data["edge_ptr"] = edges->edge_ptr;
        ctx->saved_data["beta"] = beta;
        return mask;
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grad) {
        const auto saved = ctx->get_saved_variables();
        const auto& logits = saved[0];
        const auto& noise = saved[1];
        const auto& mask = saved[2];
        const double beta = ctx->saved_data["beta"].toDouble();
        const auto edge_ptr = ctx->saved_data["edge_ptr"].toIntVector();
        // The target distribution's parameters θ' = θ − β dy, perturbed by the same noise.
        const auto target = (logits - beta * grad[0]) + noise;
        const auto target_mask = keep_mask(target, ctx->saved_data["edge_of_arc"].toTensor(), edge_ptr);
        return {mask - target_mask, torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

}  // namespace

torch::Tensor keep_all_but_lowest_edge(const torch::Tensor& scores, const UndirectedEdges& edges) {
    check_scores(scores, edges);
    return keep_mask(scores, edges.edge_of_arc, edges.edge_ptr);
}

torch::Tensor imle_keep_all_but_lowest_edge(const torch::Tensor& logits, const torch::Tensor& noise,
                                            const UndirectedEdges& edges, double beta) {
    check_scores(logits, edges);
    if (!noise.sizes().equals(logits.sizes())) throw InvalidArgument("I-MLE noise must have the logits' shape");
    return ImleKeepMask::apply(logits, noise, &edges, beta);
}

torch::Tensor gumbel_noise(at::IntArrayRef shape, const torch::TensorOptions& options, torch::Generator& gen) {
    const double tiny = std::numeric_limits<float>::min(), eps = std::numeric_limits<float>::epsilon();
    const auto u = torch::empty(shape, options.dtype(torch::kFloat)).uniform_(tiny, 1.0 - eps, gen);
    return -torch::log(-torch::log(u));
}

torch::Tensor uniform_edge_use_loss(const torch::Tensor& mask, const UndirectedEdges& edges) {
    if (mask.dim() != 2 || mask.size(0) != edges.arc_graph.size(0))
        throw InvalidArgument("an edge mask must be [arcs, columns] with one row per arc of the batch");
    if (mask.size(0) == 0) return mask.sum();
    const auto used = mask.sum(1);  // [A]: the columns that keep each arc, at most C (no overflow in exp)
    const auto log_norm = torch::log(scatter_sum(torch::exp(used), edges.arc_graph, edges.graphs));
    const auto log_softmax = used - log_norm.index_select(0, edges.arc_graph);
    const auto count = edges.arcs_per_graph.index_select(0, edges.arc_graph);  // A_g of each arc's graph
    const auto target = 1.0 / count;
    // Σ_g (1 / A_g) Σ_{arcs of g} t (log t − log softmax), t = 1 / A_g.
    return (target * (torch::log(target) - log_softmax) / count).sum();
}

}  // namespace brec::nn
