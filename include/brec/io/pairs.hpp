#pragma once
// BREC pair files (TSV: id, category, graph6_a, graph6_b; '#' comments), the BREC categories,
// and the pair selection shared by every pair command (--category, --pairs, --shard).

#include <cstdint>
#include <string>
#include <vector>

#include "brec/core/types.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

/// One pair of a pair dataset.
struct GraphPairRecord {
    PairId id = 0;
    std::string category;
    Graph a;
    Graph b;
    std::int64_t line = 0;  ///< line in the source file
};

struct PairDataset {
    std::string path;
    std::vector<GraphPairRecord> pairs;
};

/// Reads a pair TSV. Throws IoError (missing/unreadable file) or ParseError (file:line: problem):
/// wrong column count, negative or non-integer or repeated id, empty category, bad graph6.
PairDataset read_pair_file(const std::string& path);
/// Parses pair TSV text (used by read_pair_file and tests); `source` names it in errors.
PairDataset parse_pair_text(const std::string& text, const std::string& source);
/// Writes a pair TSV (with a comment header) atomically: no partial file on failure.
void write_pair_file(const std::string& path, const std::vector<GraphPairRecord>& pairs,
                     const std::string& comment = "");

/// The seven fine BREC categories in official order.
const std::vector<std::string>& brec_fine_categories();
/// The four top groups in report order: Basic, Regular, Extension, CFI.
const std::vector<std::string>& brec_groups();
/// Group of a fine category ("regular", "strongly_regular", "four_vertex_condition",
/// "distance_regular" -> "Regular"); unknown categories map to "Other".
std::string brec_group_of(const std::string& category);
/// Canonical fine name for accepted aliases ("str" -> "strongly_regular", "4vtx", "dr", "cfi", ...);
/// returns the input unchanged when it is not an alias.
std::string canonical_category(const std::string& name);

/// Which pairs of a dataset a command works on.
struct PairSelection {
    std::vector<std::string> categories;  ///< fine names, aliases or group names; empty = all
    std::string id_ranges;                ///< e.g. "0-59,260"; empty = all
    int shard_index = 0;                  ///< 1-based shard i of N; 0 = no sharding
    int shard_count = 0;
};

/// Parses "0-59,260,300-302" into sorted, de-duplicated ids. Throws InvalidArgument on bad syntax,
/// negative ids or reversed ranges.
std::vector<PairId> parse_id_ranges(const std::string& text);
/// Parses "i/N" (1 <= i <= N). Throws InvalidArgument otherwise.
void parse_shard(const std::string& text, int& index, int& count);

/// Indices (into dataset.pairs) of the selected pairs, in dataset order. Throws InvalidArgument for
/// an unknown category, for ids that do not exist, and when the selection is empty.
std::vector<std::size_t> select_pairs(const PairDataset& dataset, const PairSelection& sel);

}  // namespace brec
