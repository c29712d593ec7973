#pragma once
// A graph as adjacency bit rows: the dense form nauty's dense routines take and graph6 stores.
// Row v is `words` 64-bit words; vertex w is bit 63 - w % 64 of word w / 64 (nauty's set order:
// the first vertex is the most significant bit), so a row can be handed to nauty as it is.

#include <cstdint>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {

struct DenseRows {
    VertexId n = 0;
    std::size_t words = 0;            ///< words per row: ceil(n / 64)
    std::vector<std::uint64_t> bits;  ///< n * words words, row by row

    /// n vertices, no edges (keeps the allocation when it is large enough).
    void reset(VertexId vertices);
    static std::uint64_t mask(VertexId w) { return std::uint64_t{1} << (63 - (w & 63)); }
    bool has_edge(VertexId u, VertexId v) const { return (bits[u * words + (v >> 6)] & mask(v)) != 0; }
    void add_edge(VertexId u, VertexId v) {
        bits[u * words + (v >> 6)] |= mask(v);
        bits[v * words + (u >> 6)] |= mask(u);
    }
    std::uint32_t degree(VertexId v) const {
        std::uint32_t d = 0;
        for (std::size_t k = 0; k < words; ++k)
            d += static_cast<std::uint32_t>(__builtin_popcountll(bits[v * words + k]));
        return d;
    }
    /// Calls f(w) for every neighbour w of v (within a word, the last vertex first).
    template <typename F>
    void for_each_neighbour(VertexId v, F f) const {
        for (std::size_t k = 0; k < words; ++k)
            for (std::uint64_t w = bits[v * words + k]; w != 0; w &= w - 1)
                f(static_cast<VertexId>(64 * k + 63 - static_cast<std::size_t>(__builtin_ctzll(w))));
    }
    std::size_t edge_count() const;
};

/// The rows of g (labels are not kept). Complexity: O(n * ceil(n / 64) + m).
DenseRows dense_rows(const Graph& g);
/// The same graph in CSR form. Complexity: O(n * ceil(n / 64) + m).
Graph graph_from_rows(const DenseRows& rows);

}  // namespace brec
