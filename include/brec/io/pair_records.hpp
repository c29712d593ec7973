#pragma once
// The per-pair results of a long pair command (`wl`, `certify`, `eval`): kept in memory and, with a
// file, appended and flushed as JSON lines as they finish, so that an interrupted run loses nothing
// and `--resume` continues it. Also the loop that computes the missing results in parallel.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

/// A record's key: (run, pair id); `run` tells apart several runs over the same pairs in one file
/// (the seed of `brec eval`), 0 elsewhere.
using PairRecordKey = std::pair<std::uint64_t, PairId>;

class PairRecords {
public:
    /// Decides whether a record of an earlier run (line `line` of the file) may stand for this
    /// run; it may also throw to refuse the file (e.g. results of other settings).
    using Filter = std::function<bool(const nlohmann::json& record, std::size_t line)>;

    /// `path` empty: memory only (`resume` then throws InvalidArgument). With `resume`, the records of `path` that `keep` accepts are
    /// loaded (a torn last line of an interrupted run is dropped) and new ones are appended; the
    /// run of a record is its "seed" field (0 if absent), its pair its "id". Without `resume`, a
    /// non-empty existing file is refused with InvalidArgument: results are never overwritten
    /// silently. Throws ParseError for a corrupt line or a record without an integer "id".
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
    std::string path_;
    std::map<PairRecordKey, nlohmann::json> records_;
    std::size_t loaded_ = 0;
    std::unique_ptr<JsonlAppender> sink_;
    std::mutex mutex_;
};

/// Computes the record of every pair in `indices` that `records` lacks for `run`, on `jobs`
/// threads, largest pairs first (a big pair started last would leave the other workers idle; the
/// order changes nothing else), adding each as it finishes and reporting progress as `task`.
/// The first exception of `compute` is rethrown after the workers stop; finished records stay.
void compute_missing_pairs(const PairDataset& dataset, const std::vector<std::size_t>& indices, std::uint64_t run,
                           int jobs, PairRecords& records, const std::string& task, const RunContext& ctx,
                           const std::function<nlohmann::json(const GraphPairRecord&)>& compute);

}  // namespace brec
