#include "brec/nn/subgraphs.hpp"

#include <algorithm>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"

namespace brec::nn {
namespace {

torch::Tensor to_device(const std::vector<std::int64_t>& values, torch::Device device) {
    auto t = torch::empty({static_cast<std::int64_t>(values.size())}, torch::kLong);
    std::copy(values.begin(), values.end(), t.data_ptr<std::int64_t>());
    return t.to(device);
}

}  // namespace

SubgraphBatch make_subgraph_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                                  SubgraphPolicy policy, std::uint32_t radius, torch::Device device) {
    if (begin > end || end > graphs.size()) throw InvalidArgument("make_subgraph_batch: range outside the graph list");
    std::vector<std::int64_t> node_graph, src, dst;
    std::vector<std::int64_t> copy_node, copy_subgraph, copy_distance, root_copy, copy_src, copy_dst;
    std::vector<std::int64_t> local;  // node of the current graph → its copy in the current subgraph, −1 if none
    std::int64_t offset = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const Graph& g = graphs[i];
        const VertexId n = g.n();
        for (VertexId v = 0; v < n; ++v) {
            node_graph.push_back(static_cast<std::int64_t>(i - begin));
            for (VertexId w : g.neighbors(v)) {
                src.push_back(offset + w);
                dst.push_back(offset + v);
            }
        }
        local.assign(n, -1);
        const std::vector<EgoBall> balls = ego_balls(g, radius);
        for (VertexId root = 0; root < n; ++root) {
            const EgoBall& ball = balls[root];
            const auto first = static_cast<std::int64_t>(copy_node.size());
            const std::int64_t subgraph = offset + root;
            if (policy == SubgraphPolicy::ego_net) {
                for (std::size_t k = 0; k < ball.vertices.size(); ++k) {
                    local[ball.vertices[k]] = first + static_cast<std::int64_t>(k);
                    copy_node.push_back(offset + ball.vertices[k]);
                    copy_subgraph.push_back(subgraph);
                    copy_distance.push_back(ball.distances[k]);
                }
                root_copy.push_back(first);
            } else {
                for (VertexId v = 0; v < n; ++v) {
                    copy_node.push_back(offset + v);
                    copy_subgraph.push_back(subgraph);
                    copy_distance.push_back(-1);
                }
                for (std::size_t k = 0; k < ball.vertices.size(); ++k) {
                    local[ball.vertices[k]] = first + ball.vertices[k];
                    copy_distance[static_cast<std::size_t>(first + ball.vertices[k])] = ball.distances[k];
                }
                root_copy.push_back(first + root);
            }
            // The ball's edges, receiver by receiver in the policy's copy order.
            for (VertexId u : ball.vertices)
                for (VertexId w : g.neighbors(u))
                    if (local[w] >= 0) {
                        copy_src.push_back(local[w]);
                        copy_dst.push_back(local[u]);
                    }
            for (VertexId u : ball.vertices) local[u] = -1;
        }
        offset += n;
    }
    SubgraphBatch b;
    b.graphs = static_cast<std::int64_t>(end - begin);
    b.nodes = offset;
    b.subgraphs = offset;
    b.copies = static_cast<std::int64_t>(copy_node.size());
    b.node_graph = to_device(node_graph, device);
    b.arcs = make_adjacency(to_device(src, device), to_device(dst, device), offset);
    b.copy_node = to_device(copy_node, device);
    b.copy_subgraph = to_device(copy_subgraph, device);
    b.copy_distance = to_device(copy_distance, device);
    b.root_copy = to_device(root_copy, device);
    b.subgraph_graph = b.node_graph;
    b.copy_arcs = make_adjacency(to_device(copy_src, device), to_device(copy_dst, device), b.copies);
    b.by_subgraph = make_grouping(b.copy_subgraph, b.subgraphs);
    b.by_node = make_grouping(b.copy_node, b.nodes);
    b.by_graph = make_grouping(b.node_graph, b.graphs);
    return b;
}

std::vector<std::int64_t> pair_distance_classes(const Graph& g, int cap) {
    if (cap < 0) throw InvalidArgument("pair_distance_classes: the distance cap must be >= 0");
    const std::vector<std::int32_t> d = all_pairs_distances(g);
    std::vector<std::int64_t> classes(d.size());
    for (std::size_t k = 0; k < d.size(); ++k) classes[k] = d[k] == kUnreachable ? cap : std::min(d[k], cap);
    return classes;
}

}  // namespace brec::nn
