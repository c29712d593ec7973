#pragma once
// The TU graph-classification format (Morris et al., TUDataset). In a directory, with a dataset
// name DS:
//   DS_A.txt                 one arc "row, col" per line, 1-based global node ids; both directions
//                            of an undirected edge are usually listed
//   DS_graph_indicator.txt   graph id (1-based) of every node, one per line; defines the nodes,
//                            so isolated nodes exist
//   DS_graph_labels.txt      one integer target label per graph (optional here)
//   DS_node_labels.txt       one label per node (optional)
//   DS_edge_labels.txt       one label per line of DS_A.txt (optional)
//   DS_node_attributes.txt   comma-separated numbers per node (optional)
// Columns may be separated by commas or by blanks. Blank lines are skipped (line numbers in
// errors are physical lines). A node or edge label is the whole row of its file: a row may hold
// several integers (e.g. "3, 1"), and two labels are equal only if every column is (label_rows.hpp
// says how graphs carry them).
//
// @inproceedings{morris2020tudataset, title={TUDataset: A collection of benchmark datasets for
//   learning with graphs}, author={Morris, Christopher and Kriege, Nils M. and Bause, Franka and
//   Kersting, Kristian and Mutzel, Petra and Neumann, Marion}, booktitle={ICML 2020 Workshop on
//   Graph Representation Learning and Beyond (GRL+)}, year={2020}}

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/graph/graph.hpp"
#include "brec/io/label_rows.hpp"

namespace brec {

/// What the reader found and tolerated. Graphs are simple: self-loops and repeated lines are
/// dropped (and counted here), an edge listed in one direction only is kept.
struct TuStats {
    std::size_t graphs = 0;
    std::size_t nodes = 0;
    std::size_t edge_lines = 0;            ///< data lines of DS_A.txt
    std::size_t edges = 0;                 ///< undirected edges kept
    std::size_t self_loops = 0;            ///< lines with row == col (dropped)
    std::size_t duplicate_edge_lines = 0;  ///< repeats of an already listed arc (dropped)
    std::size_t one_direction_edges = 0;   ///< edges listed in only one direction (kept)
    std::size_t isolated_nodes = 0;        ///< degree-0 nodes after dropping loops
    std::size_t graphs_with_self_loops = 0;
    std::size_t graphs_with_duplicates = 0;
    std::size_t max_nodes = 0;  ///< largest graph (nodes)
    std::size_t max_edges = 0;  ///< largest graph (edges)
};

/// What to load besides the structure.
struct TuReadOptions {
    bool node_labels = true;      ///< read DS_node_labels.txt when present
    bool edge_labels = true;      ///< read DS_edge_labels.txt when present
    bool node_attributes = true;  ///< read DS_node_attributes.txt when present (can be large)
};

struct TuDataset {
    std::string dir;
    std::string name;
    std::vector<Graph> graphs;        ///< with node labels / edge labels when the files were read
    std::vector<Label> graph_labels;  ///< empty if DS_graph_labels.txt is absent
    bool has_node_labels = false;
    bool has_edge_labels = false;
    /// The rows of multi-column node / edge labels; a kind whose rows are all single integers has
    /// no table and its labels are those integers.
    LabelRows label_rows;
    /// One row per node in file order (global node id - 1); empty when absent or not read.
    std::vector<std::vector<double>> node_attributes;
    TuStats stats;
};

/// Reads a TU dataset. `name` = DS; empty = detect it from the single *_A.txt in `dir`.
/// Throws IoError (missing directory or file), InvalidArgument (several datasets in `dir` and no
/// name), or ParseError naming the file, the line and what was expected (column count, non-integer,
/// node id out of range, edge between different graphs, graph ids with gaps, line-count mismatches
/// between files, conflicting labels on repeated edge lines, empty files).
/// Complexity: O(L log L) for L lines of DS_A.txt, O(nodes) for the other files.
TuDataset read_tu_dataset(const std::string& dir, const std::string& name = "", const TuReadOptions& options = {});

/// Thrown by TuGraphReader when the files are not stored graph by graph (see there); the dataset
/// may still be valid for read_tu_dataset.
class TuOrderError : public Error {
public:
    explicit TuOrderError(const std::string& what) : Error(what) {}
};

/// Reads a TU dataset graph by graph without holding it: the files are read in lockstep, a chunk at
/// a time, and only the graphs of one batch are in memory. Needs the layout every TU dataset has:
/// graph ids in DS_graph_indicator.txt ascending 1, 1, ..., 2, ... without gaps, and the lines of
/// DS_A.txt (with DS_edge_labels.txt) grouped by graph in that order; otherwise next() throws
/// TuOrderError. A graph is the one read_tu_dataset builds (same vertices, edges and what is
/// dropped), except that node and edge labels are ids of their rows numbered by first appearance
/// (equal rows, equal ids, across the whole dataset), and node attributes are never read. Other
/// problems of the files throw ParseError (not always with read_tu_dataset's message: read the
/// dataset with it to learn the exact problem) or IoError.
class TuGraphReader {
public:
    /// Opens the files; reads the graph labels. `name` and `options` as for read_tu_dataset.
    TuGraphReader(const std::string& dir, const std::string& name = "", const TuReadOptions& options = {});
    ~TuGraphReader();
    TuGraphReader(const TuGraphReader&) = delete;
    TuGraphReader& operator=(const TuGraphReader&) = delete;

    /// Replaces `out` with the next graphs: at most `max_graphs`, and fewer once about `max_bytes` of
    /// DS_A.txt were read. Returns false (and `out` empty) at the end. The files are checked to
    /// agree on the counts as soon as the last graph is read, in the call that returns it.
    bool next(std::size_t max_graphs, std::vector<Graph>& out, std::size_t max_bytes = 1 << 20);

    const std::string& dir() const;
    const std::string& name() const;
    bool has_node_labels() const;
    bool has_edge_labels() const;
    /// Target labels (empty without DS_graph_labels.txt); checked against the graph count at the end.
    const std::vector<Label>& graph_labels() const;
    /// Complete once next() returned false.
    const TuStats& stats() const;
    /// Whether every graph was returned (and the files checked).
    bool at_end() const;
    /// Bytes of DS_A.txt read so far and its size.
    std::uint64_t edge_bytes_read() const;
    std::uint64_t edge_file_size() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Optional content of a written dataset.
struct TuWriteOptions {
    /// Empty, or one row per node in output order (graph by graph) -> DS_node_attributes.txt.
    std::vector<std::vector<double>> node_attributes;
    /// The rows of the graphs' label ids (TuDataset::label_rows); a kind without a table is written
    /// as the integers themselves.
    LabelRows label_rows;
    /// Further files (file name, content) written into the directory in the same atomic step,
    /// e.g. a mapping file. Names must not contain '/'.
    std::vector<std::pair<std::string, std::string>> extra_files;
};

/// Writes graphs in TU format into `dir` with prefix `name`: both directions of every edge, node
/// and edge label files when any graph carries labels (missing labels are written as 0, or as the
/// row of id 0 with a label table), graph
/// labels when given. Everything is staged first (AtomicDirWriter): a new `dir`, whose parent must
/// exist, is created by one rename of a temporary sibling directory; an existing one receives each
/// file by rename (and loses stale optional DS_* files of the same name), so a failure never leaves
/// a partial dataset.
/// Throws InvalidArgument (bad name, label/attribute counts, a label id without a row) or IoError.
void write_tu_dataset(const std::string& dir, const std::string& name, const std::vector<Graph>& graphs,
                      const std::vector<Label>& graph_labels, const TuWriteOptions& options = {});

/// Is `dir` a directory containing a *_A.txt file?
bool looks_like_tu_dir(const std::string& dir);

}  // namespace brec
