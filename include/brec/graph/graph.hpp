#pragma once
// The one immutable simple undirected graph of brec: CSR offsets (n+1) plus sorted neighbour lists,
// optional integer node labels and optional per-edge integer labels. Only GraphBuilder creates it.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "brec/core/types.hpp"

namespace brec {

using Label = std::int64_t;
using Edge = std::pair<VertexId, VertexId>;

class Graph {
public:
    /// The empty graph (n = 0).
    Graph() : offsets_(1, 0) {}

    VertexId n() const { return static_cast<VertexId>(offsets_.size() - 1); }
    /// Number of undirected edges.
    std::size_t m() const { return neighbors_.size() / 2; }

    std::uint32_t degree(VertexId v) const { return offsets_[v + 1] - offsets_[v]; }
    /// Sorted neighbours of v.
    Span<const VertexId> neighbors(VertexId v) const { return {neighbors_.data() + offsets_[v], degree(v)}; }
    /// O(log deg) adjacency test.
    bool has_edge(VertexId u, VertexId v) const;

    const std::vector<std::uint32_t>& offsets() const { return offsets_; }
    const std::vector<VertexId>& neighbor_array() const { return neighbors_; }

    bool has_node_labels() const { return !node_labels_.empty(); }
    /// Label of v (0 when the graph has no labels).
    Label node_label(VertexId v) const { return node_labels_.empty() ? 0 : node_labels_[v]; }
    const std::vector<Label>& node_labels() const { return node_labels_; }

    bool has_edge_labels() const { return !edge_labels_.empty(); }
    /// Label of the arc at position `pos` of neighbor_array() (0 when unlabelled).
    Label arc_label(std::size_t pos) const { return edge_labels_.empty() ? 0 : edge_labels_[pos]; }
    /// Label of edge {u,v}; the edge must exist.
    Label edge_label(VertexId u, VertexId v) const;

    /// Edges as (u, v) with u < v, in increasing order.
    std::vector<Edge> edges() const;
    std::vector<std::uint32_t> degree_sequence() const;  ///< sorted descending
    bool is_regular() const;
    std::uint32_t max_degree() const;
    std::uint32_t min_degree() const;

    /// Dense row-major adjacency matrix (n*n bytes of 0/1).
    std::vector<std::uint8_t> adjacency_matrix() const;

    bool operator==(const Graph& other) const {
        return offsets_ == other.offsets_ && neighbors_ == other.neighbors_ && node_labels_ == other.node_labels_ &&
               edge_labels_ == other.edge_labels_;
    }
    bool operator!=(const Graph& other) const { return !(*this == other); }

private:
    friend class GraphBuilder;
    std::vector<std::uint32_t> offsets_;
    std::vector<VertexId> neighbors_;
    std::vector<Label> node_labels_;
    std::vector<Label> edge_labels_;
};

/// What GraphBuilder does with self-loops and repeated edges.
enum class EdgePolicy {
    reject,  ///< throw InvalidArgument
    drop,    ///< drop and count them
};

/// Counts of what GraphBuilder dropped.
struct BuildStats {
    std::size_t self_loops = 0;
    std::size_t duplicate_edges = 0;  ///< repeated undirected edges (both directions of one edge count once)
};

/// Validates, sorts and de-duplicates edges, then freezes them into a Graph.
class GraphBuilder {
public:
    explicit GraphBuilder(VertexId n = 0) : n_(n) {}

    GraphBuilder& set_self_loops(EdgePolicy p) {
        loops_ = p;
        return *this;
    }
    GraphBuilder& set_duplicates(EdgePolicy p) {
        dups_ = p;
        return *this;
    }
    /// Tolerates both directions of an edge being listed (as in TU files) without counting them
    /// as duplicates: each unordered edge is then expected once per direction.
    GraphBuilder& set_symmetric_input(bool yes) {
        symmetric_ = yes;
        return *this;
    }

    VertexId n() const { return n_; }
    /// Adds vertices so that the graph has at least `n` of them.
    void ensure_vertices(VertexId n) {
        if (n > n_) n_ = n;
    }
    /// Adds an undirected edge; ids must be < n() (checked in build()).
    void add_edge(VertexId u, VertexId v) { raw_.push_back({u, v}); }
    void add_edge(VertexId u, VertexId v, Label label) {
        raw_.push_back({u, v});
        raw_labels_.resize(raw_.size() - 1, 0);
        raw_labels_.push_back(label);
    }
    void set_node_labels(std::vector<Label> labels) { node_labels_ = std::move(labels); }

    /// Builds the graph. Throws InvalidArgument on out-of-range ids, and on self-loops or
    /// duplicate edges when their policy is `reject`, or when duplicates disagree on a label.
    Graph build(BuildStats* stats = nullptr) const;

private:
    VertexId n_;
    std::vector<Edge> raw_;
    std::vector<Label> raw_labels_;
    std::vector<Label> node_labels_;
    EdgePolicy loops_ = EdgePolicy::reject;
    EdgePolicy dups_ = EdgePolicy::reject;
    bool symmetric_ = false;
};

/// Convenience: a graph on n vertices from an edge list (rejects loops and repeats).
Graph make_graph(VertexId n, const std::vector<Edge>& edges);

/// Common graphs used by tests and generators.
Graph make_cycle(VertexId n);
Graph make_path(VertexId n);
Graph make_complete(VertexId n);
Graph make_petersen();

}  // namespace brec
