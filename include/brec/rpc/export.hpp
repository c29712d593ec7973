#pragma once
// `brec export`: the graphs every pair is judged on, for a model trained outside brec (PyTorch,
// JAX, ...). Per pair the traintest group (2q graphs G₁, H₁, G₂, H₂, ...) and the reliability
// group (2q relabelings of one graph, paired consecutively), exactly as `brec eval` builds them for
// the seed, as graph6 lines and as NumPy edge_index arrays, with a JSON manifest. The user embeds
// the 4q graphs of a pair (rows in file order) and `brec rpc` judges the embeddings.
//
// Directory layout (version 1):
//   manifest.json     format, version, dataset, seed, q, rows per pair, groups, pairs[] with id,
//                     category, n, m, which graph the reliability group relabels, file names
//   pair_ID.g6        4q graph6 lines: rows 0..2q−1 traintest, rows 2q..4q−1 reliability
//   pair_ID.npz       the same 4q graphs as one disjoint union (graph k's vertices numbered from
//                     node_ptr[k]): edge_index int64 [2, E] (row 0 sources, row 1 targets, both
//                     directions of every edge, grouped by target with ascending sources: the
//                     order brec's models see), batch int64 [N] (graph of each vertex), num_nodes
//                     int64 [4q], node_ptr int64 [4q+1], edge_ptr int64 [4q+1] (graph k's arcs are
//                     columns edge_ptr[k]..edge_ptr[k+1]−1), node_label int64 [N] when labelled
// The user writes pair_ID.npy (float32 [4q, d]) or one embeddings.npy ([pairs, 4q, d] in manifest
// order).

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/graph/graph.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

struct ExportOptions {
    std::uint64_t seed = 100;  ///< the seed of `brec eval` whose groups are exported
    int q = 32;                ///< relabelings per graph (>= 2)
    std::string dataset;       ///< the dataset's name for the manifest
    int jobs = 1;              ///< pairs prepared in parallel (the files do not depend on it)
};

/// The graphs [begin, end) of a list as one disjoint union in the arrays of an export (see the
/// header comment); the arc order is that of brec's message-passing batches (nn::SparseBatch).
struct EdgeIndexArrays {
    std::vector<std::int64_t> src, dst;  ///< edge_index rows 0 and 1
    std::vector<std::int64_t> batch;     ///< graph of each vertex
    std::vector<std::int64_t> num_nodes, node_ptr, edge_ptr;
    std::vector<std::int64_t> node_label;  ///< empty unless some graph has node labels
};
EdgeIndexArrays edge_index_arrays(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end);

/// The .npz bytes of a list of graphs (members edge_index, batch, num_nodes, node_ptr, edge_ptr
/// and node_label when labelled).
std::string graphs_npz(const std::vector<Graph>& graphs);

/// What an export wrote.
struct ExportResult {
    std::string dir;
    std::size_t pairs = 0;
    std::size_t graphs = 0;
    nlohmann::json manifest;
};

/// Writes the groups of pairs `indices` of `dataset` to the new directory `dir`: built in a
/// temporary sibling directory and renamed into place, so a failure leaves no partial directory.
/// Throws InvalidArgument when `dir` exists and is not an empty directory, or for q < 2; IoError
/// when a file cannot be written; Cancelled when ctx is cancelled.
/// Complexity: O(Σ q (n + m) log n) over the pairs, plus the files' size.
ExportResult export_pair_groups(const PairDataset& dataset, const std::vector<std::size_t>& indices,
                                const ExportOptions& opt, const std::string& dir, const RunContext& ctx);

}  // namespace brec
