#pragma once
// Graph collections and the formats `brec convert` moves between: graph6/sparse6 lines, edge
// lists, BREC pair TSV, TU directories, JSON export, and the BREC authors' NumPy files.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/graph/graph.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

/// A list of graphs with optional per-graph labels and, when it came from a pair file, the pair
/// structure (graphs 2i and 2i+1 form pair i).
struct GraphCollection {
    std::vector<Graph> graphs;
    std::vector<Label> graph_labels;      ///< empty or one per graph
    bool paired = false;
    std::vector<PairId> pair_ids;         ///< when paired
    std::vector<std::string> categories;  ///< when paired
};

enum class GraphFormat { graph6, sparse6, edgelist, pairs, tu, json, npy };

/// "graph6", "g6", "sparse6", "s6", "edgelist", "el", "pairs", "tsv", "tu", "json", "npy".
GraphFormat parse_format(const std::string& name);
std::string format_name(GraphFormat f);
/// Guesses the format of a path: a directory with *_A.txt is TU; otherwise by extension
/// (.g6, .s6, .txt/.el/.edges, .tsv, .json, .npy), else by the first data byte (':' sparse6).
GraphFormat detect_format(const std::string& path);

/// One graph6/sparse6 record per line (headers, blank lines and '#' comments skipped).
std::vector<Graph> read_graph_lines(const std::string& path);
/// Edge lists: "u v" per line, '#' comments; a line "n N" starts a new graph with N vertices,
/// otherwise the file is one graph with max id + 1 vertices. Ids are 0-based unless one_based.
std::vector<Graph> read_edge_lists(const std::string& path, bool one_based = false);
std::string format_edge_lists(const std::vector<Graph>& graphs, bool one_based = false);

/// The BREC authors' .npy files: 1-D or 2-D arrays of graph6 strings with dtype '<U…' (UTF-32) or
/// '|S…' (bytes). Returns the strings in C order and the shape.
struct NpyStrings {
    std::vector<std::string> values;
    std::vector<std::size_t> shape;
};
NpyStrings read_npy_strings(const std::string& path);
/// Pairs from an .npy file: shape (N, 2) or (2N,) = consecutive pairs; the relabelled BREC file
/// (51,200 = 400 x 128 graphs: per pair 32 interleaved relabelings of G and H, then 64 of one
/// graph) is recognised and its first G/H of each block taken. `relabelings` > 0 forces blocks of
/// that many graphs per pair (first two = the pair).
GraphCollection read_npy_pairs(const std::string& path, std::size_t relabelings = 0);

/// Reads any supported input.
GraphCollection read_collection(const std::string& path, GraphFormat format, bool one_based = false);
/// Writes a collection atomically (TU: a directory named `path`, dataset name = its basename).
void write_collection(const std::string& path, GraphFormat format, const GraphCollection& c,
                      bool one_based = false);

/// {"graphs":[{"n":..,"edges":[[u,v],...],"node_labels":[..],"label":..}]} or, for pairs,
/// {"pairs":[{"id":..,"category":..,"a":{...},"b":{...}}]}.
nlohmann::json collection_to_json(const GraphCollection& c);

}  // namespace brec
