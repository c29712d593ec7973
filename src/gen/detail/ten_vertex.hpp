#pragma once
// Private: the exhaustive search behind the basic and extension categories. All connected graphs on
// n vertices are streamed from geng, hashed with an isomorphism-invariant 1-WL hash (64-bit
// integer mixing, no strings), grouped, and the groups are split into true 1-WL classes by joint
// refinement (wl1_equivalent).

#include <cstdint>
#include <string>
#include <vector>

#include "brec/core/run_context.hpp"
#include "brec/graph/graph.hpp"

namespace brec::detail {

/// Isomorphism-invariant hash of the stable 1-WL colouring of g from initial colour keys (empty:
/// degrees). Equal for 1-WL-equivalent graphs with equal initial multisets; collisions are possible
/// and must be filtered by joint refinement.
std::uint64_t wl_hash(const Graph& g, const std::vector<std::uint64_t>& initial = {});

/// Parses a graph6 record of a graph on n <= 11 vertices into its upper-triangle bit code
/// (bit k = k-th bit of graph6's column-wise order). Returns false on a malformed record.
bool graph6_code(const char* s, std::size_t len, VertexId n, std::uint64_t& code);
/// The graph of a bit code.
Graph graph_from_code(std::uint64_t code, VertexId n);

struct TenVertexPool {
    VertexId n = 0;
    std::uint64_t streamed = 0;    ///< graphs read from geng
    std::uint64_t candidates = 0;  ///< non-regular graphs sharing a hash with another
    /// True 1-WL classes (size >= 2) of non-regular connected graphs, as bit codes; classes ordered
    /// by (hash, first code), members by code.
    std::vector<std::vector<std::uint64_t>> classes;
};

/// Streams `geng -c n` with ctx.threads() res/mod splits in parallel. Deterministic.
TenVertexPool build_ten_vertex_pool(VertexId n, RunContext& ctx);

/// Extension sub-classes of a pool class: the graphs of one 1-WL class grouped by the hash of 1-WL
/// refined from S3 / S4 pattern counts or N1 ego-net certificates. kind: "S3", "S4", "N1".
std::vector<std::vector<std::uint64_t>> extension_subclasses(const std::vector<std::uint64_t>& cls, VertexId n,
                                                             const std::string& kind);

}  // namespace brec::detail
