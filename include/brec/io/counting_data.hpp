#pragma once
// The counting dataset directory of the subgraph-counting experiments, written by
// `brec count --generate` and read by the counting regressors:
//   graphs.g6       graph i on line i + 1 (graph6 or sparse6)
//   counts.tsv      a header "id split n m <count columns>", then one row per graph
//   train.txt, validation.txt, test.txt
//                   the graph ids of each split, one per line
//   meta.json       how the dataset was made (free form; not read back)
// The count columns are matched by name on reading, so their order in the file does not matter.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/graph/graph.hpp"

namespace brec {

/// The count columns of counts.tsv: one per pattern of count/patterns.hpp, in the order of its
/// Pattern enum and named by its pattern_name() (io cannot include count, which builds on io;
/// gen checks that the two lists agree before it writes a dataset).
inline constexpr std::size_t kCountingColumns = 9;
inline constexpr std::array<const char*, kCountingColumns> kCountingColumnNames = {
    "2-path",          "triangle",      "3-path",   "3-star",           "4-cycle",
    "tailed-triangle", "chordal-cycle", "4-clique", "3-star-noninduced"};
/// One graph's counts, index = column (= Pattern): the same type as count's CountArray.
using CountingRow = std::array<std::uint64_t, kCountingColumns>;

/// A counting dataset directory as `brec count --generate` writes it.
struct CountingData {
    std::string dir;  ///< where it was read from (read_counting_data); not used by the writer
    std::vector<Graph> graphs;
    std::vector<CountingRow> counts;  ///< per graph, index = Pattern
    std::vector<std::size_t> train, validation, test;
};

/// Reads a counting dataset directory. Throws IoError for a missing directory or file and
/// ParseError naming the file and line of a malformed graph, count row or split id (out of range,
/// or in two splits), of a header without a count column, and of a graph without counts.
/// Complexity: O(size of the files).
CountingData read_counting_data(const std::string& dir);

/// Writes `data` into `dir` in the layout above, with `meta` as meta.json (indented by one
/// space); the split column of counts.tsv says which split file holds the graph ("none" when
/// none does). All or nothing: `dir` and its missing parents are created, an existing directory
/// receives the six files (other files in it stay), and a failure leaves none of them behind.
/// Throws InvalidArgument when there are no graphs, the counts are not one row per graph, or a
/// split id is out of range or listed twice; IoError when writing fails (see AtomicDirWriter).
void write_counting_data(const CountingData& data, const std::string& dir, const nlohmann::ordered_json& meta);

}  // namespace brec
