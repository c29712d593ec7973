#pragma once
// The TU graph-classification format (Morris et al., TUDataset): in a directory, DS_A.txt
// (1-based "row, col" per line, usually both directions), DS_graph_indicator.txt (graph id of every
// node, 1-based), DS_graph_labels.txt, and optional DS_node_labels.txt, DS_edge_labels.txt (one per
// line of DS_A.txt) and DS_node_attributes.txt (comma-separated numbers).
//
// @inproceedings{morris2020tudataset, title={TUDataset: A collection of benchmark datasets for
//   learning with graphs}, author={Morris, Christopher and others}, booktitle={ICML GRL+ Workshop},
//   year={2020}}

#include <cstdint>
#include <string>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {

/// What the reader found and tolerated.
struct TuStats {
    std::size_t nodes = 0;
    std::size_t edge_lines = 0;       ///< lines of DS_A.txt
    std::size_t self_loops = 0;       ///< lines with row == col (dropped)
    std::size_t duplicate_edges = 0;  ///< repeated lines of the same arc (dropped)
    std::size_t one_direction_edges = 0;  ///< edges listed in only one direction (kept)
    std::size_t isolated_nodes = 0;
};

struct TuDataset {
    std::string dir;
    std::string name;
    std::vector<Graph> graphs;           ///< with node labels / edge labels when the files exist
    std::vector<Label> graph_labels;     ///< empty if DS_graph_labels.txt is absent
    bool has_node_labels = false;
    bool has_edge_labels = false;
    std::vector<std::vector<double>> node_attributes;  ///< per node in file order; may be empty
    TuStats stats;
};

/// Reads a TU dataset. `name` = DS; empty = detect from the single *_A.txt in `dir`.
/// Throws IoError (missing directory or file) or ParseError naming the file, the line and what
/// was expected (column count, non-integer, node id out of range, edge across graphs, line-count
/// mismatches between files, empty files).
TuDataset read_tu_dataset(const std::string& dir, const std::string& name = "");

/// Writes graphs in TU format into `dir` (created if needed) with prefix `name`, both directions
/// of every edge, node/edge label files when the graphs carry labels, graph labels when given.
/// All files are written to a temporary directory first and moved into place at the end, so a
/// failure leaves no partial dataset.
void write_tu_dataset(const std::string& dir, const std::string& name, const std::vector<Graph>& graphs,
                      const std::vector<Label>& graph_labels);

/// Is `dir` a directory containing a *_A.txt file?
bool looks_like_tu_dir(const std::string& dir);

}  // namespace brec
