#pragma once
// graph6 and sparse6, nauty's text formats for undirected graphs (see nauty's formats.txt).
// All three size forms are read and written (1 byte for n <= 62, 4 bytes for n <= 258047, 8 bytes
// above). Output is byte-identical to nauty's (nauty-copyg), so a record written by nauty comes back
// unchanged; sparse6 padding follows nauty's rule, which networkx's writer does not always use
// (both decode to the same graph). Limits: graph6 (dense) records up to 2^20 vertices, sparse6 up
// to 2^27 vertices; larger size fields raise ResourceLimit instead of allocating.

#include <cstdint>
#include <string>
#include <string_view>

#include "brec/graph/dense_rows.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

/// Where a record came from, for error messages.
struct SourcePos {
    std::string source = "<input>";
    std::int64_t line = 0;  ///< 1-based; 0 when unknown
};

/// Parses one graph6 record (an optional ">>graph6<<" header is accepted).
/// Throws ParseError naming the source, line and byte column on any malformation.
Graph parse_graph6(std::string_view text, const SourcePos& pos = {});
/// Parses one graph6 record straight into adjacency bit rows, reusing `out`'s allocation (for
/// readers that never need the CSR form, such as canonical labelling by dense nauty). The same
/// checks and errors as parse_graph6. Complexity: O(record length + n * ceil(n / 64)).
void parse_graph6_rows(std::string_view text, DenseRows& out, const SourcePos& pos = {});
/// The vertex count the size field of a graph6 or sparse6 record (no header) declares, or -1 when
/// the field cannot be read; nothing else of the record is checked. Complexity: O(1).
std::int64_t declared_order(std::string_view record);
/// Parses one sparse6 record (leading ':'; optional ">>sparse6<<" header). Self-loops and
/// multi-edges (legal in nauty's sparse6) are rejected: brec graphs are simple. Incremental
/// sparse6 (';') is not supported.
Graph parse_sparse6(std::string_view text, const SourcePos& pos = {});
/// Dispatches on the first character: ':' sparse6, otherwise graph6.
Graph parse_graph6_or_sparse6(std::string_view text, const SourcePos& pos = {});

/// graph6 encoding without header or newline. Node and edge labels are not encoded.
std::string to_graph6(const Graph& g);
/// sparse6 encoding (leading ':'), without header or newline.
std::string to_sparse6(const Graph& g);

}  // namespace brec
