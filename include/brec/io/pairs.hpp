#pragma once
// BREC pair files (TSV: id, category, graph6_a, graph6_b; '#' comments) and the pair selection
// shared by every pair command (--category, --pairs, --shard). The BREC categories themselves are
// in categories.hpp.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "brec/core/types.hpp"
#include "brec/graph/graph.hpp"
#include "brec/io/categories.hpp"

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
/// The text of a pair TSV: `comment` as '#' lines, a '# columns' line, one line per pair.
std::string format_pair_file(const std::vector<GraphPairRecord>& pairs, const std::string& comment = "");
/// Writes a pair TSV (with a comment header) atomically: no partial file on failure.
void write_pair_file(const std::string& path, const std::vector<GraphPairRecord>& pairs,
                     const std::string& comment = "");

/// Which pairs of a dataset a command works on.
struct PairSelection {
    std::vector<std::string> categories;  ///< fine names, aliases or group names; empty = all
    std::string id_ranges;                ///< e.g. "0-59,260"; empty = all
    int shard_index = 0;                  ///< 1-based shard i of N; 0 = no sharding
    int shard_count = 0;
};

/// A set of pair ids kept as sorted, disjoint, non-adjacent closed intervals, so that a range as
/// wide as 0-9000000000 costs one interval, not one entry per id.
class IdRanges {
public:
    struct Interval {
        PairId lo = 0, hi = 0;  ///< both included
        bool operator==(const Interval& o) const { return lo == o.lo && hi == o.hi; }
    };

    IdRanges() = default;
    /// The union of `intervals` (any order, overlapping or adjacent ones are merged).
    explicit IdRanges(std::vector<Interval> intervals);

    bool empty() const { return intervals_.empty(); }
    /// O(log intervals).
    bool contains(PairId id) const;
    /// The smallest id of the set that is not in `have` (sorted ascending); false when the set is
    /// a subset of `have`. O(intervals + have).
    bool first_missing(const std::vector<PairId>& have, PairId& missing) const;
    const std::vector<Interval>& intervals() const { return intervals_; }
    /// Every id of the set, ascending (meant for sets of pair files, not for 0-9000000000).
    std::vector<PairId> ids() const;
    /// The number of ids in the set.
    std::uint64_t count() const;
    /// The union of this set and `other`.
    IdRanges united(const IdRanges& other) const;
    /// The set as parse_id_ranges reads it: "0-59,260" ("" when empty).
    std::string str() const;

private:
    std::vector<Interval> intervals_;
};

/// Parses "0-59,260,300-302". Throws InvalidArgument on bad syntax, negative ids or reversed
/// ranges.
IdRanges parse_id_ranges(const std::string& text);

/// Parses seeds "100,200,300" or "0-4" (ranges expand; at most 100,000 seeds) in the order given.
/// Throws InvalidArgument naming the text on a malformed, negative or reversed item.
std::vector<std::uint64_t> parse_seed_list(const std::string& text);
/// Parses "i/N" (1 <= i <= N). Throws InvalidArgument otherwise.
void parse_shard(const std::string& text, int& index, int& count);

/// Indices (into dataset.pairs) of the selected pairs, in dataset order. Throws InvalidArgument for
/// an unknown category, for ids that do not exist, and when the selection is empty.
std::vector<std::size_t> select_pairs(const PairDataset& dataset, const PairSelection& sel);

/// The selected pairs of a pair TSV read a batch at a time, never the whole file: the records
/// read_pair_file reads (the same checks and messages, every graph parsed), filtered as
/// select_pairs filters them.
class PairFileReader {
public:
    /// Opens `path` (IoError when it cannot be read).
    PairFileReader(const std::string& path, const PairSelection& selection);
    ~PairFileReader();
    PairFileReader(const PairFileReader&) = delete;
    PairFileReader& operator=(const PairFileReader&) = delete;

    /// Replaces `out` with the next selected pairs: at most `max_pairs`, and fewer once about
    /// `max_bytes` of the file were read. Returns false (and `out` empty) at the end. The checks of
    /// select_pairs that need the whole file run as soon as it was read, in the call that reads its
    /// end. Throws ParseError and InvalidArgument as read_pair_file and select_pairs do.
    bool next(std::size_t max_pairs, std::vector<GraphPairRecord>& out, std::size_t max_bytes = 1 << 20);
    /// Bytes of the file read so far, its size, and whether all of it was read (and checked).
    std::uint64_t bytes_read() const;
    std::uint64_t file_size() const;
    bool at_end() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace brec
