#pragma once
// The inputs of `brec dedup` as one labelled graph list, and the cleaned export: one graph per
// orbit whose target labels agree, orbits with mixed labels dropped.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "brec/dedup/orbits.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/tu.hpp"

namespace brec {

enum class DedupSource { tu, graph_lines, pairs };

/// Graphs to deduplicate with display ids ("0".."N-1" = 0-based index; "66b" = graph b of pair 66).
struct LabelledGraphs {
    std::string path;
    DedupSource source = DedupSource::graph_lines;
    std::string name;              ///< TU dataset name, or the file's base name
    std::vector<Graph> graphs;     ///< empty for a graph-line file read as a stream (graph_count graphs)
    std::size_t graph_count = 0;   ///< number of graphs
    std::vector<Label> labels;     ///< target labels; empty when there are none
    std::vector<std::string> ids;  ///< display id per graph; empty = from pair_ids or the 0-based index (see id)
    std::vector<PairId> pair_ids;  ///< a pair file read as a stream: the pair of graphs 2k, 2k + 1
    bool has_node_labels = false;
    bool has_edge_labels = false;
    LabelRows label_rows;                              ///< TU inputs only: rows of multi-column label ids
    TuStats tu_stats;                                  ///< TU inputs only
    std::vector<std::vector<double>> node_attributes;  ///< TU inputs only; per node in file order

    std::string id(std::size_t i) const {
        if (!ids.empty()) return ids[i];
        if (!pair_ids.empty()) return std::to_string(pair_ids[i / 2]) + (i % 2 == 0 ? "a" : "b");
        return std::to_string(i);
    }
};

/// A TU dataset (ids = 0-based graph indices; the TU graph id is index + 1).
LabelledGraphs from_tu(TuDataset ds);
/// The selected pairs of a pair file: graphs "IDa" and "IDb"; no target labels.
LabelledGraphs from_pairs(const PairDataset& ds, const std::vector<std::size_t>& indices);
/// A graph6/sparse6 file (one graph per line) with an optional labels file (one integer per line,
/// one line per graph). Throws ParseError on a count mismatch or a bad label.
LabelledGraphs read_graph_lines_with_labels(const std::string& path, const std::string& labels_path);
/// Target labels of graph lines: one integer per line ('#' comments and blank lines skipped).
struct TargetLabels {
    std::string path;  ///< "" = none
    std::vector<Label> labels;
    std::int64_t last_line = 0;  ///< line of the last label
};
/// Reads a labels file ("" = no labels). Throws ParseError naming the line of a bad label.
TargetLabels read_target_labels(const std::string& path);
/// The selected pairs of a pair file read as a stream (no graphs kept): graphs 2k and 2k + 1 are
/// those of pair pair_ids[k].
LabelledGraphs pairs_without_graphs(const std::string& path, std::vector<PairId> pair_ids);
/// A graph-line file whose `count` graphs were read as a stream (no graphs kept): name, path,
/// count and the labels. Throws ParseError when the number of labels is not `count`.
LabelledGraphs graph_lines_without_graphs(const std::string& path, TargetLabels labels, std::size_t count);

/// The cleaned dataset: one representative (the smallest index) per orbit whose labels agree.
struct CleanResult {
    std::vector<std::size_t> kept;         ///< old index of each new graph (ascending)
    std::vector<std::size_t> kept_orbit;   ///< orbit of each new graph
    std::size_t dropped_duplicates = 0;    ///< graphs merged into a representative
    std::size_t dropped_mixed_orbits = 0;  ///< orbits removed for mixed labels
    std::size_t dropped_mixed_graphs = 0;
    struct Retention {
        std::size_t before = 0, after = 0;
    };
    std::map<Label, Retention> per_class;  ///< empty without labels
};
CleanResult clean_dataset(const Orbits& orbits, const std::vector<Label>& labels);

/// Tab-separated mapping: new index, old index, old ids of the whole orbit, label (if any).
std::string clean_mapping_tsv(const CleanResult& clean, const Orbits& orbits, const LabelledGraphs& data);
/// Tab-separated retention per class: label, before, after, retained %.
std::string clean_retention_tsv(const CleanResult& clean);

/// Writes the cleaned dataset in TU format into `dir` (dataset name = basename of `dir`), with
/// NAME_mapping.tsv and NAME_retention.tsv, node labels / edge labels / node attributes carried
/// over; atomic (see write_tu_dataset). The kept graphs of a streamed graph-line file are read
/// back from it. Throws InvalidArgument when nothing would be kept.
void write_clean_dataset(const std::string& dir, const LabelledGraphs& data, const Orbits& orbits,
                         const CleanResult& clean);

}  // namespace brec
