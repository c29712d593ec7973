#pragma once
// JSON export (and re-import) of a dataset, for Python users and web tools.
//
// A graph:  {"n": 4, "edges": [[0, 1], [1, 2]], "edge_labels": [7, 9], "node_labels": [1, 1, 2, 0],
//            "label": 3}
//   "edges" lists every undirected edge once as [u, v] with u < v, in increasing order;
//   "edge_labels" (parallel to "edges") and "node_labels" appear only when the graph has them;
//   "label" (a graph's target label, e.g. from a TU dataset) only when known.
// A dataset of graphs: {"format": "brec-dataset", "version": 1, "graphs": [graph, ...]}, and when
//   its node or edge labels have several columns (label_rows.hpp), "node_label_rows" /
//   "edge_label_rows": [[3, 1], [0, 2], ...], the row of each label id the graphs use.
// A pair dataset:      {"format": "brec-dataset", "version": 1,
//                       "pairs": [{"id": 0, "category": "basic", "a": graph, "b": graph}, ...]}

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/graph/graph.hpp"
#include "brec/io/label_rows.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

/// The JSON object of one graph (see the header comment).
nlohmann::json graph_to_json(const Graph& g);
/// A graph from its JSON object; `where` (e.g. "data.json: /graphs/3") prefixes errors.
/// Throws ParseError for missing or mistyped fields, ids out of range, self-loops, repeated
/// edges or label arrays of the wrong length; ResourceLimit for more than 2^26 vertices.
Graph graph_from_json(const nlohmann::json& j, const std::string& where);

/// {"format": "brec-dataset", "version": 1, "graphs": [...]}; graph_labels is empty or has one
/// label per graph; label_rows as read (written when not empty).
nlohmann::json graphs_to_json(const std::vector<Graph>& graphs, const std::vector<Label>& graph_labels = {},
                              const LabelRows& label_rows = {});
/// {"format": "brec-dataset", "version": 1, "pairs": [...]}.
nlohmann::json pairs_to_json(const std::vector<GraphPairRecord>& pairs);

/// A dataset read back from JSON: either graphs (with optional labels) or pairs.
struct JsonDataset {
    bool paired = false;
    std::vector<Graph> graphs;           ///< when !paired
    std::vector<Label> graph_labels;     ///< when !paired: empty or one per graph
    LabelRows label_rows;                ///< when !paired: rows of multi-column label ids
    std::vector<GraphPairRecord> pairs;  ///< when paired
};

/// Parses JSON text. Throws ParseError naming `source`, the line and the column for a syntax
/// error or a number beyond the range of a double (e.g. 1e999), never an nlohmann exception.
nlohmann::json parse_json_document(const std::string& text, const std::string& source);

/// Parses a dataset JSON document. Syntax errors name the line and column; structural errors
/// name the JSON path (e.g. "/pairs/12/a/edges/3"). Throws ParseError (or ResourceLimit for a
/// graph above the vertex limit), never an nlohmann exception.
JsonDataset parse_dataset_json(const std::string& text, const std::string& source);
/// Reads a dataset JSON file (IoError when it cannot be read).
JsonDataset read_dataset_json(const std::string& path);
/// Writes a JSON value to `path` atomically (one element per line for arrays of graphs, so that
/// diffs stay readable), ending with a newline.
void write_json_file(const std::string& path, const nlohmann::json& j);

}  // namespace brec
