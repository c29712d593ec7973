#include "brec/nn/subgraphs.hpp"

#include <algorithm>
#include <limits>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"

namespace brec::nn {
namespace {

torch::Tensor to_device(const std::vector<std::int64_t>& values, torch::Device device) {
    auto t = torch::empty({static_cast<std::int64_t>(values.size())}, torch::kLong);
    std::copy(values.begin(), values.end(), t.data_ptr<std::int64_t>());
    return t.to(device);
}

/// The vertices of `ball` within distance r of its root: a prefix, as a ball lists its vertices in
/// BFS order.
std::size_t ball_prefix(const EgoBall& ball, std::uint32_t r) {
    const auto cap = static_cast<std::int32_t>(std::min<std::uint32_t>(r, std::numeric_limits<std::int32_t>::max()));
    return static_cast<std::size_t>(std::upper_bound(ball.distances.begin(), ball.distances.end(), cap) -
                                    ball.distances.begin());
}

/// The balls a policy needs: of radius r, or r + 1 for ego_net_per_neighbour, whose marks need the
/// distances from the root's neighbours, all within r + 1 of them.
std::vector<EgoBall> policy_balls(const Graph& g, SubgraphPolicy policy, std::uint32_t radius) {
    if (policy != SubgraphPolicy::ego_net_per_neighbour) return ego_balls(g, radius);
    return ego_balls(g, radius == std::numeric_limits<std::uint32_t>::max() ? radius : radius + 1);
}

}  // namespace

MarkedSubgraphCounts count_marked_subgraphs(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                                            std::uint32_t radius) {
    if (begin > end || end > graphs.size())
        throw InvalidArgument("count_marked_subgraphs: range outside the graph list");
    MarkedSubgraphCounts c;
    std::vector<char> inside;
    for (std::size_t i = begin; i < end; ++i) {
        const Graph& g = graphs[i];
        inside.assign(g.n(), 0);
        const std::vector<EgoBall> balls = ego_balls(g, radius);
        for (VertexId root = 0; root < g.n(); ++root) {
            const EgoBall& ball = balls[root];
            for (VertexId u : ball.vertices) inside[u] = 1;
            std::int64_t arcs = 0;
            for (VertexId u : ball.vertices)
                for (VertexId w : g.neighbors(u)) arcs += inside[w];
            for (VertexId u : ball.vertices) inside[u] = 0;
            const std::int64_t marks = radius > 0 ? std::max<std::int64_t>(g.degree(root), 1) : 1;
            c.marks += marks;
            c.copies += marks * static_cast<std::int64_t>(ball.vertices.size());
            c.arcs += marks * arcs;
        }
        c.nodes += g.n();
    }
    return c;
}

SubgraphBatch make_subgraph_batch(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end,
                                  SubgraphPolicy policy, std::uint32_t radius, torch::Device device) {
    if (begin > end || end > graphs.size()) throw InvalidArgument("make_subgraph_batch: range outside the graph list");
    std::vector<std::int64_t> node_graph, src, dst;
    std::vector<std::int64_t> copy_node, copy_subgraph, copy_distance, root_copy, copy_src, copy_dst;
    std::vector<std::int64_t> local;  // node of the current graph → its copy in the current subgraph, −1 if none
    // ego_net_per_neighbour: the marks, one ego-net's arcs as positions in its ball (reused by every
    // mark of the root), and the distances from the current mark's neighbour.
    const bool marked = policy == SubgraphPolicy::ego_net_per_neighbour;
    std::vector<std::int64_t> copy_mark, copy_mark_distance, mark_subgraph, ball_src, ball_dst;
    std::vector<std::int32_t> mark_distance;
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
        if (marked) mark_distance.assign(n, kUnreachable);
        const std::vector<EgoBall> balls = policy_balls(g, policy, radius);
        for (VertexId root = 0; root < n; ++root) {
            const EgoBall& ball = balls[root];
            const auto first = static_cast<std::int64_t>(copy_node.size());
            const std::int64_t subgraph = offset + root;
            if (marked) {
                const std::size_t size = ball_prefix(ball, radius);
                for (std::size_t k = 0; k < size; ++k) local[ball.vertices[k]] = static_cast<std::int64_t>(k);
                ball_src.clear();
                ball_dst.clear();
                for (std::size_t k = 0; k < size; ++k)
                    for (VertexId w : g.neighbors(ball.vertices[k]))
                        if (local[w] >= 0) {
                            ball_src.push_back(local[w]);
                            ball_dst.push_back(static_cast<std::int64_t>(k));
                        }
                // The root's neighbours in its ego-net: all of them, or none at radius 0.
                const auto neighbours = radius > 0 ? g.neighbors(root) : Span<const VertexId>();
                const std::size_t marks = std::max<std::size_t>(neighbours.size(), 1);
                for (std::size_t m = 0; m < marks; ++m) {
                    const auto base = static_cast<std::int64_t>(copy_node.size());
                    const auto mark = static_cast<std::int64_t>(mark_subgraph.size());
                    mark_subgraph.push_back(subgraph);
                    const EgoBall* around = neighbours.size() > 0 ? &balls[neighbours[m]] : nullptr;
                    if (around)
                        for (std::size_t k = 0; k < around->vertices.size(); ++k)
                            mark_distance[around->vertices[k]] = around->distances[k];
                    for (std::size_t k = 0; k < size; ++k) {
                        const VertexId w = ball.vertices[k];
                        copy_node.push_back(offset + w);
                        copy_subgraph.push_back(subgraph);
                        copy_distance.push_back(ball.distances[k]);
                        copy_mark.push_back(mark);
                        copy_mark_distance.push_back(around ? mark_distance[w] : -1);
                    }
                    for (std::size_t a = 0; a < ball_src.size(); ++a) {
                        copy_src.push_back(base + ball_src[a]);
                        copy_dst.push_back(base + ball_dst[a]);
                    }
                    if (around)
                        for (VertexId w : around->vertices) mark_distance[w] = kUnreachable;
                }
                root_copy.push_back(first);
                for (std::size_t k = 0; k < size; ++k) local[ball.vertices[k]] = -1;
                continue;
            }
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
    if (marked) {
        b.marks = static_cast<std::int64_t>(mark_subgraph.size());
        b.copy_mark = to_device(copy_mark, device);
        b.copy_mark_distance = to_device(copy_mark_distance, device);
        b.mark_subgraph = to_device(mark_subgraph, device);
        b.by_mark = make_grouping(b.copy_mark, b.marks);
        b.marks_by_subgraph = make_grouping(b.mark_subgraph, b.subgraphs);
    }
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
