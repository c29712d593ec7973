#pragma once
// Node and edge labels of several columns. A row of a TU labels file may hold several
// comma-separated integers (e.g. "3, 1"); the label of a node or an edge is its whole row, and two
// labels are equal only if every column is. Graphs keep one integer per label, so that colours stay
// integers in every algorithm: each distinct row gets a dense id (in order of first appearance), and
// the dataset keeps the rows of the ids to write them back.

#include <string>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {

/// The rows of a dataset's multi-column labels. A kind (node or edge) whose table is empty has
/// single-integer labels, which the graphs carry as the integers themselves.
struct LabelRows {
    std::vector<std::vector<Label>> node;  ///< node[id] = the columns of node label id
    std::vector<std::vector<Label>> edge;  ///< edge[id] = the columns of edge label id

    bool empty() const { return node.empty() && edge.empty(); }
    bool operator==(const LabelRows& o) const { return node == o.node && edge == o.edge; }
    bool operator!=(const LabelRows& o) const { return !(*this == o); }
};

/// The text of `label` as a labels file row: the columns of rows[label] joined by ", ", or the
/// integer itself when `rows` is empty. Throws InvalidArgument for an id without a row.
std::string label_row_text(const std::vector<std::vector<Label>>& rows, Label label);

}  // namespace brec
