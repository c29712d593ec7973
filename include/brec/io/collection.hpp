#pragma once
// Graph collections and the formats `brec convert` moves between: graph6/sparse6 lines, edge
// lists (edgelist.hpp), BREC pair TSV (pairs.hpp), TU directories (tu.hpp), dataset JSON
// (dataset_json.hpp), and the BREC authors' NumPy files (npy.hpp, input only).

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/graph/graph.hpp"
#include "brec/io/dataset_json.hpp"
#include "brec/io/edgelist.hpp"
#include "brec/io/npy.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

/// A list of graphs with optional per-graph labels and, when it came from a pair file, the pair
/// structure (graphs 2i and 2i+1 form pair i).
struct GraphCollection {
    std::vector<Graph> graphs;
    std::vector<Label> graph_labels;  ///< empty or one per graph
    LabelRows label_rows;             ///< rows of multi-column label ids (TU, JSON)
    bool paired = false;
    std::vector<PairId> pair_ids;         ///< when paired
    std::vector<std::string> categories;  ///< when paired
    /// Counts of what the reader dropped (policy drop) or tolerated, for reports.
    std::size_t self_loops_dropped = 0;
    std::size_t duplicate_edges_dropped = 0;
};

enum class GraphFormat { graph6, sparse6, edgelist, pairs, tu, json, npy };

/// "graph6", "g6", "sparse6", "s6", "edgelist", "el", "edges", "pairs", "tsv", "tu", "json",
/// "npy". Throws InvalidArgument for other names.
GraphFormat parse_format(const std::string& name);
std::string format_name(GraphFormat f);
/// Guesses the format of an input path: a directory with a *_A.txt file is TU; then by extension
/// (.npy, .tsv, .json, .s6, .g6, .el/.edges/.edgelist); otherwise by content: the .npy magic,
/// '{' (JSON), a first data line with 3 tabs (pairs), ':' (sparse6), blanks or commas between
/// fields (edge list), else graph6. Throws IoError (missing path), ParseError (empty file) or
/// InvalidArgument (a directory that is not a TU dataset).
GraphFormat detect_format(const std::string& path);

/// One graph6/sparse6 record per line (headers, blank lines and '#' comments skipped).
std::vector<Graph> read_graph_lines(const std::string& path);

/// Options of read_collection / write_collection.
struct CollectionOptions {
    EdgeListOptions edge_list;  ///< edge-list input (ids, loop/duplicate policies)
    bool one_based = false;     ///< edge-list output: 1-based ids
    NpyPairOptions npy;         ///< .npy input
    std::string tu_name;        ///< TU: dataset name (input: empty = detect; output: empty = the
                                ///< directory's name)
};

/// Reads any supported input into a collection.
GraphCollection read_collection(const std::string& path, GraphFormat format, const CollectionOptions& options);
/// As above with edge-list ids 0-based (one_based = false) or 1-based.
GraphCollection read_collection(const std::string& path, GraphFormat format, bool one_based = false);
/// Writes a collection atomically (TU: a directory named `path`). npy is input only
/// (Unsupported); pair output needs a paired collection or an even number of graphs.
void write_collection(const std::string& path, GraphFormat format, const GraphCollection& c,
                      const CollectionOptions& options);
void write_collection(const std::string& path, GraphFormat format, const GraphCollection& c, bool one_based = false);

/// The dataset JSON (dataset_json.hpp) of a collection: pairs when paired, else graphs.
nlohmann::json collection_to_json(const GraphCollection& c);

}  // namespace brec
