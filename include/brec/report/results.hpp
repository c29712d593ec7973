#pragma once
// Reading result files for `brec report`: a plain CSV table `task,model,seed,value[,direction]`,
// the JSONL / summary JSON written by `brec eval` and `brec wl`, and the per-pair JSONL records of
// several shards of one run, merged per (model, seed). Evaluation records carry the decisions of
// both RPC protocols; the reader counts the one asked for and keeps both.

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "brec/core/types.hpp"
#include "brec/io/board_manifest.hpp"
#include "brec/io/records.hpp"

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

/// One RPC protocol's counts of a BREC task (reliable pairs distinguished, reliability failures).
struct ProtocolCount {
    bool known = false;  ///< every record of the task carried this protocol's decision
    int distinguished = 0;
    int reliability_failures = 0;
};

/// One number: the result of one model with one seed on one task.
struct ResultRecord {
    std::string task;
    std::string model;
    std::uint64_t seed = 0;
    double value = 0.0;
    bool higher_is_better = true;
    int pairs = -1;  ///< BREC tasks: pairs run in the category; -1 otherwise
    /// BREC tasks: pairs whose reliability check failed; -1 otherwise.
    int reliability_failures = -1;
    Provenance source;  ///< the lines of the raw data (several when counted from per-pair records)
    /// RPC results (`brec eval` records and summaries): value and reliability_failures are the
    /// counts of the protocol read; these are both protocols' counts, side by side.
    bool rpc = false;
    ProtocolCount hotelling, brec_reference;

    const ProtocolCount& protocol(Protocol p) const { return p == Protocol::hotelling ? hotelling : brec_reference; }
};

/// One decision on a pair as the report counts it.
struct PairDecision {
    bool known = false;  ///< the record carried this decision
    bool distinguished = false;
    bool reliable = true;
    /// RPC records: T² of the pair and its threshold under this protocol (0 for other records).
    double t2_test = 0.0, threshold = 0.0;
    /// A pair counts as distinguished only when its reliability check passed.
    bool counts() const { return known && distinguished && reliable; }
};

/// A per-pair record as read.
struct PairResult {
    PairId id = 0;
    std::string category;
    /// An RPC record has a decision per protocol (brec_reference unknown in records written before
    /// both were recorded); a WL record or a hand-made one has a single decision, held by both.
    bool rpc = false;
    PairDecision hotelling, brec_reference;
    bool skipped = false;  ///< not run (counted as not distinguished, not as a reliability failure)
    double seconds = 0.0;  ///< the record's time for the whole pair (0 when it has none)
    SourceLine source;

    const PairDecision& decision(Protocol p) const { return p == Protocol::hotelling ? hotelling : brec_reference; }
};

/// The per-pair records of one run (one model with one seed), merged over its shard files.
struct PairRun {
    std::string model;
    std::uint64_t seed = 0;
    /// The model's theoretical bound as its eval records give it ("1wl", "2fwl", "3fwl"), or "".
    std::string bound;
    std::vector<PairResult> pairs;  ///< ascending id, each once
};

/// All results read from a set of files.
struct ResultSet {
    std::vector<ResultRecord> records;
    std::vector<std::string> tasks;           ///< in report order (BREC categories in official order first)
    std::vector<std::string> models;          ///< in the order first seen
    std::vector<std::string> inputs;          ///< the files read
    bool brec = false;                        ///< every record is a BREC category count (distinguished pairs)
    Protocol protocol = Protocol::hotelling;  ///< whose counts form the values of RPC results
    bool rpc = false;                         ///< some record is an RPC result
    bool both_protocols = false;              ///< some RPC record carries the brec_reference decision too
    std::vector<PairRun> runs;                ///< runs read from per-pair records, in the order first seen
    std::vector<std::string> notes;           ///< things the reader decided that a user should know about
    /// The boards read (directories of `brec board run`) with their manifests, in the order read.
    std::vector<std::pair<std::string, BoardManifest>> boards;
};

struct ResultReadOptions {
    /// BREC results: one task per fine category (basic, regular, ...) instead of the four groups
    /// (Basic, Regular, Extension, CFI).
    bool fine = false;
    /// RPC results: the protocol whose decisions are counted.
    Protocol protocol = Protocol::hotelling;
    /// Merge eval records of one model run with different settings ids (a settings id hashes
    /// everything that decides a model's results: its hyperparameters, epochs, relabelings, ...).
    /// By default that is an error: such runs measure different things.
    bool mixed_settings = false;
    /// Merge boards (directories of `brec board run`) whose manifests name different datasets
    /// (by SHA-256). By default that is an error: such counts are of different pairs.
    bool mixed_datasets = false;
};

/// Accumulates result files and merges them into a ResultSet.
///
/// Formats (detected per file: `.csv` or a first character other than `{` means CSV):
/// - CSV `task,model,seed,value[,direction]`, direction `max` (default) or `min`; an optional
///   header line starting with `task`; `#` comments and blank lines are skipped; fields may be
///   double-quoted. A (task, model, seed) given twice, or a task given both directions, is an
///   error.
/// - A JSON summary object (one object per file, or one per JSONL line) with "categories"
///   {name: {pairs, distinguished, reliability_failures}}, "model" (eval) or "method" (wl) and
///   "seed": one task per category, value = distinguished. An eval summary may carry
///   "protocols": {"hotelling": {"categories", ...}, "brec_reference": {...}}; the protocol read is
///   then taken from there (the headline "categories" follow whichever protocol the run chose).
///   Summaries of distinct shards ("shard": "i/N") of one (model, seed) are summed; identical
///   duplicates are ignored.
/// - Per-pair JSONL records from any number of shard files, grouped by (model, seed) and counted
///   per category; a pair counts as distinguished only when reliable. `brec eval` records (see
///   EvalRecord: both protocols under "protocols", or one decision at top level in older files),
///   `brec wl` records (WlRecord: "method", "reliability_seed", "reliability_failure") and
///   hand-made records {"id", "category", "distinguished", ["reliable"], "model", "seed"} with one
///   decision. An id repeated with the same outcome is counted once; with a different outcome it
///   is an error. Where per-pair records of a (model, seed) exist, its summary objects are not
///   used.
/// Reading the brec_reference protocol from an eval record or summary that lacks it is an error,
/// and so are two eval records giving one model different bounds. A torn last line of a JSONL file
/// (an interrupted run) is skipped with a note. Every malformed line throws ParseError naming the
/// file and the line.
class ResultReader {
public:
    explicit ResultReader(ResultReadOptions options = {}) : options_(options) {}

    /// Reads one file (throws IoError if it cannot be read), or a board directory (add_board).
    void add_file(const std::string& path);
    /// Reads a board directory of `brec board run`: its manifest.json, then the records file of
    /// every model it names. Refuses (ParseError naming the file and line) a record the manifest
    /// does not describe (another model, settings id, seed or pair, or a pair it says was not
    /// run), a records file whose count differs from the manifest's, a results file the manifest
    /// does not name, and (InvalidArgument) a board of another dataset than a board read before
    /// unless mixed_datasets.
    void add_board(const std::string& dir);
    /// Parses text as if read from `source` (tests, stdin).
    void add_text(const std::string& text, const std::string& source);
    /// Merges everything added so far. Throws InvalidArgument when nothing was read.
    ResultSet finish() const;

private:
    /// One category of a summary: its pairs and, per protocol, what it counted.
    struct SummaryCounts {
        long long pairs = 0;
        ProtocolCount hotelling, brec_reference;
        bool operator==(const SummaryCounts& o) const;
    };
    struct Summary {
        std::map<std::string, SummaryCounts> categories;
        std::string shard;
        SourceLine source;
        bool rpc = false;
    };
    using RunKey = std::pair<std::string, std::uint64_t>;  ///< (model, seed)

    void add_csv(const std::vector<std::string>& lines, const std::string& source);
    void add_json_object(const nlohmann::json& j, const std::string& source, std::int64_t line);
    void add_summary(const nlohmann::json& j, const std::string& source, std::int64_t line);
    void add_pair(const RunKey& key, PairResult p);
    void note_model(const std::string& model);

    ResultReadOptions options_;
    std::vector<ResultRecord> csv_;
    std::map<std::string, std::pair<bool, SourceLine>> csv_direction_;  ///< task -> (max?, where set)
    std::map<RunKey, std::map<PairId, PairResult>> pairs_;
    std::map<RunKey, std::vector<Summary>> summaries_;
    std::map<std::string, std::pair<std::string, SourceLine>> bounds_;    ///< model -> (bound, where)
    std::map<std::string, std::pair<std::string, SourceLine>> settings_;  ///< model -> (settings id, where)
    std::map<std::string, std::string> board_datasets_;  ///< dataset SHA-256 -> the first board read of it
    std::vector<std::pair<std::string, BoardManifest>> boards_;
    std::vector<RunKey> run_order_;
    std::vector<std::string> inputs_;
    std::vector<std::string> notes_;
    std::vector<std::string> model_order_;
};

/// Convenience: reads every path with a ResultReader.
ResultSet read_results(const std::vector<std::string>& paths, const ResultReadOptions& options = {});

}  // namespace brec
