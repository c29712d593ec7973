#pragma once
// Plain-text edge lists, one or several graphs per file.
//
// Format (what the reader accepts and the writer produces):
//   * Blank lines are skipped; '#' or '%' starts a comment that runs to the end of the line.
//   * An edge line holds two vertex ids "u v", optionally followed by an integer edge label
//     "u v label". Fields are separated by blanks, tabs or commas.
//   * A line "n N" declares a graph with N vertices (so isolated vertices can be represented).
//     If the first data line of a file is an "n" line, the file holds one graph per "n" line,
//     each followed by its edges. Otherwise the file is a single graph whose vertex count is
//     the largest id + 1, and an "n" line later on is an error.
//   * Ids are 0-based; with one_based they run from 1 (and "n N" means ids 1..N).
//   * Within one graph either every edge line has a label or none has.
//   * Self-loops and repeated edges (in either direction) are rejected with the line numbers
//     involved, or dropped and counted when their policy is EdgePolicy::drop.
// Node labels are not part of the format (use TU or JSON for them).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {

struct EdgeListOptions {
    bool one_based = false;                      ///< ids start at 1
    EdgePolicy self_loops = EdgePolicy::reject;  ///< "v v" lines
    EdgePolicy duplicates = EdgePolicy::reject;  ///< an edge listed again (either direction)
    /// Largest vertex count accepted (a guard against a stray huge id allocating gigabytes).
    VertexId max_vertices = VertexId{1} << 26;

    EdgeListOptions& set_one_based(bool v) {
        one_based = v;
        return *this;
    }
    EdgeListOptions& set_self_loops(EdgePolicy p) {
        self_loops = p;
        return *this;
    }
    EdgeListOptions& set_duplicates(EdgePolicy p) {
        duplicates = p;
        return *this;
    }
};

/// What the reader found.
struct EdgeListStats {
    std::size_t graphs = 0;
    std::size_t edge_lines = 0;
    std::size_t self_loops = 0;       ///< dropped (policy drop)
    std::size_t duplicate_edges = 0;  ///< dropped (policy drop)
};

/// Parses edge-list text; `source` names it in errors. Throws ParseError ("source:line: what was
/// expected") for malformed lines, ids out of range, negative ids, loops/duplicates under
/// EdgePolicy::reject, or text without any graph; ResourceLimit above options.max_vertices.
/// Complexity O(L log L) for L edge lines.
std::vector<Graph> parse_edge_lists(std::string_view text, const std::string& source,
                                    const EdgeListOptions& options = {}, EdgeListStats* stats = nullptr);
/// Reads an edge-list file (IoError when it cannot be read).
std::vector<Graph> read_edge_lists(const std::string& path, const EdgeListOptions& options = {},
                                   EdgeListStats* stats = nullptr);

/// Formats graphs as edge lists: for every graph an "n N" line, then "u v" (or "u v label" when
/// the graph has edge labels) per edge with u < v in increasing order. Reading the text back
/// gives the same graphs (node labels excepted).
std::string format_edge_lists(const std::vector<Graph>& graphs, bool one_based = false);
/// Writes format_edge_lists(...) atomically (no partial file on failure).
void write_edge_lists(const std::string& path, const std::vector<Graph>& graphs, bool one_based = false);

}  // namespace brec
