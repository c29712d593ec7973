#pragma once
// Reading result files for `brec report` (SPEC §6): a plain CSV table `task,model,seed,value
// [,direction]`, the JSONL / summary JSON written by `brec eval` and `brec wl`, and the per-pair
// JSONL records of several shards of one run, merged per (model, seed).

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace brec {

/// A line of an input file (1-based; 0: the file as a whole).
struct SourceLine {
    std::string file;
    std::int64_t line = 0;

    /// "file:line", or the file alone for line 0.
    std::string str() const;
    bool operator<(const SourceLine& o) const;
    bool operator==(const SourceLine& o) const { return file == o.file && line == o.line; }
};

/// Where a number came from: the input lines it was computed from, kept typed (not as text) so that
/// errors can name a file and line without parsing a string back.
struct Provenance {
    std::vector<SourceLine> lines;  ///< sorted, each once

    /// Adds a line (keeps the order, drops a repeat).
    void add(const SourceLine& where);
    void add(const Provenance& other);
    /// Compact text: files in order, runs of lines joined, e.g. "a.jsonl:1-3,7; b.jsonl:2".
    std::string str() const;
};

/// One number: the result of one model with one seed on one task.
struct ResultRecord {
    std::string task;
    std::string model;
    std::uint64_t seed = 0;
    double value = 0.0;
    bool higher_is_better = true;
    int pairs = -1;  ///< BREC tasks: pairs run in the category; -1 otherwise
    int reliability_failures =
        -1;              ///< BREC tasks: pairs whose reliability check failed; -1 otherwise
    Provenance source;  ///< the lines of the raw data (several when counted from per-pair records)
};

/// All results read from a set of files.
struct ResultSet {
    std::vector<ResultRecord> records;
    std::vector<std::string> tasks;   ///< in report order (BREC categories in official order first)
    std::vector<std::string> models;  ///< in the order first seen
    std::vector<std::string> inputs;  ///< the files read
    bool brec = false;  ///< every record is a BREC category count (distinguished pairs)
    std::vector<std::string> notes;  ///< things the reader decided that a user should know about
};

struct ResultReadOptions {
    /// BREC results: one task per fine category (basic, regular, ...) instead of the four groups
    /// (Basic, Regular, Extension, CFI).
    bool fine = false;
};

/// Accumulates result files and merges them into a ResultSet.
///
/// Formats (detected per file: `.csv` or a first character other than `{` means CSV):
/// - CSV `task,model,seed,value[,direction]`, direction `max` (default) or `min`; an optional
///   header line starting with `task`; `#` comments and blank lines are skipped; fields may be
///   double-quoted. A (task, model, seed) given twice, or a task given both directions, is an
///   error.
/// - A JSON summary object (SPEC §9; one object per file, or one per JSONL line) with "categories"
///   {name: {pairs, distinguished, reliability_failures}}, "model" (eval) or "method" (wl) and
///   "seed": one task per category, value = distinguished. Summaries of distinct shards
///   ("shard": "i/N") of one (model, seed) are summed; identical duplicates are ignored.
/// - Per-pair JSONL records {"id", "category", "distinguished", "reliable" | "reliability_failure",
///   "model" | "method", "seed" | "reliability_seed"} from any number of shard files: grouped by
///   (model, seed) and counted per category; a pair counts as distinguished only when reliable.
///   An id repeated with the same outcome is counted once; with a different outcome it is an error.
///   Where per-pair records of a (model, seed) exist, its summary objects are not used.
/// A torn last line of a JSONL file (an interrupted run) is skipped with a note.
/// Every malformed line throws ParseError naming the file and the line.
class ResultReader {
public:
    explicit ResultReader(ResultReadOptions options = {}) : options_(options) {}

    /// Reads one file (throws IoError if it cannot be read).
    void add_file(const std::string& path);
    /// Parses text as if read from `source` (tests, stdin).
    void add_text(const std::string& text, const std::string& source);
    /// Merges everything added so far. Throws InvalidArgument when nothing was read.
    ResultSet finish() const;

private:
    struct PairRecord {
        std::string category;
        bool distinguished = false;
        bool reliable = true;
        SourceLine source;
    };
    struct Summary {
        std::map<std::string, std::vector<long long>>
            categories;  ///< pairs, distinguished, failures
        std::string shard;
        SourceLine source;
    };
    using RunKey = std::pair<std::string, std::uint64_t>;  ///< (model, seed)

    void add_csv(const std::vector<std::string>& lines, const std::string& source);
    void add_json_object(const nlohmann::json& j, const std::string& source, std::int64_t line);
    void note_model(const std::string& model);

    ResultReadOptions options_;
    std::vector<ResultRecord> csv_;
    std::map<std::string, std::pair<bool, SourceLine>> csv_direction_;  ///< task -> (max?, where set)
    std::map<RunKey, std::map<long long, PairRecord>> pairs_;
    std::map<RunKey, std::vector<Summary>> summaries_;
    std::vector<RunKey> run_order_;
    std::vector<std::string> inputs_;
    std::vector<std::string> notes_;
    std::vector<std::string> model_order_;
};

/// Convenience: reads every path with a ResultReader.
ResultSet read_results(const std::vector<std::string>& paths,
                       const ResultReadOptions& options = {});

}  // namespace brec
