#pragma once
// The per-pair results of a long pair command (`wl`, `certify`, `eval`): kept in memory and, with a
// file, appended and flushed as JSON lines as they finish, so that an interrupted run loses nothing
// and a later run can resume it. Also the loop that computes the missing results in parallel.

#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"
#include "brec/core/run_context.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

/// A record's key: (run, pair id); `run` tells apart several runs over the same pairs in one file
/// (the seed of `brec eval`), 0 elsewhere.
using PairRecordKey = std::pair<std::uint64_t, PairId>;

/// A results file that cannot be used as asked. The message names no command-line flag, so a
/// front end may rephrase it in its own terms from problem() and path().
class ResultsFileError : public InvalidArgument {
public:
    enum class Problem {
        nothing_to_resume,  ///< resuming was asked for without a results file
        would_overwrite,    ///< the file holds results and resuming was not asked for
    };
    ResultsFileError(Problem problem, std::string path);
    Problem problem() const { return problem_; }
    const std::string& path() const { return path_; }

private:
    Problem problem_;
    std::string path_;
};

/// compute_missing_pairs stopped because its RunContext was cancelled. Every record finished
/// before is kept (and, with a file, already flushed to it), so the run can be resumed.
class PairsCancelled : public Cancelled {
public:
    PairsCancelled(std::size_t kept, std::string path);
    /// Records held when the run stopped (those of an earlier run included).
    std::size_t kept() const { return kept_; }
    /// The results file that holds them; empty for a run kept in memory only.
    const std::string& path() const { return path_; }

private:
    std::size_t kept_;
    std::string path_;
};

class PairRecords {
public:
    /// Decides whether a record of an earlier run (line `line` of the file) may stand for this
    /// run; it may also throw to refuse the file (e.g. results of other settings).
    using Filter = std::function<bool(const nlohmann::json& record, std::size_t line)>;

    /// `path` empty: memory only (`resume` then throws ResultsFileError). With `resume`, the file
    /// is read once: the records that `keep` accepts are loaded (a torn last line of an
    /// interrupted run is cut off the file) and new ones are appended; the run of a record is its
    /// "seed" field (0 if absent), its pair its "id". Without `resume`, a non-empty existing file
    /// is refused with ResultsFileError: results are never overwritten silently. Throws
    /// ParseError for a corrupt line or a record without an integer "id", IoError when the file
    /// cannot be read or written.
    PairRecords(std::string path, bool resume, const Filter& keep = {});

    bool contains(std::uint64_t run, PairId id) const { return records_.count({run, id}) > 0; }
    /// The record of (run, id); throws std::out_of_range if there is none.
    const nlohmann::json& at(std::uint64_t run, PairId id) const { return records_.at({run, id}); }
    std::size_t size() const { return records_.size(); }
    /// Records loaded from the file at construction (for a "resuming" message).
    std::size_t loaded() const { return loaded_; }
    const std::string& path() const { return path_; }

    /// Stores a record and appends it to the file (flushed). Thread-safe.
    void add(std::uint64_t run, PairId id, nlohmann::json record);

private:
    /// Loads the accepted records of the file; returns how many leading bytes hold whole lines.
    std::size_t load(const std::string& text, const Filter& keep);

    std::string path_;
    std::map<PairRecordKey, nlohmann::json> records_;
    std::size_t loaded_ = 0;
    std::ofstream sink_;
    mutable std::mutex mutex_;
};

/// Computes the record of every pair in `indices` that `records` lacks for `run`, on `jobs`
/// threads, largest pairs first (a big pair started last would leave the other workers idle; the
/// order changes nothing else), adding each as it finishes and reporting progress as `task`.
/// The first exception of `compute` is rethrown after the workers stop; finished records stay.
/// Once `ctx` is cancelled no further pair is started; pairs in progress either finish (their
/// records are added) or stop by throwing Cancelled themselves (they are dropped); then
/// PairsCancelled is thrown.
void compute_missing_pairs(const PairDataset& dataset, const std::vector<std::size_t>& indices, std::uint64_t run,
                           int jobs, PairRecords& records, const std::string& task, const RunContext& ctx,
                           const std::function<nlohmann::json(const GraphPairRecord&)>& compute);

}  // namespace brec
