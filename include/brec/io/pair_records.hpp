#pragma once
// The per-pair results of a long pair command (`wl`, `certify`, `eval`, `rpc`): kept in memory and,
// with a file, in a results store (io/results_store.hpp) as they finish, so that an interrupted run
// loses nothing and a later run can resume it. Also the loop that computes the missing results in
// parallel.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"
#include "brec/core/run_context.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/results_store.hpp"

namespace brec {

/// A record's key: (run, pair id); `run` tells apart several runs over the same pairs in one file
/// (the seed of `brec eval`), 0 elsewhere.
using PairRecordKey = std::pair<std::uint64_t, PairId>;

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
    /// A results store (io/results_store.hpp) of per-pair records, also kept in memory by (run,
    /// pair): the run of a record is its "seed" field (0 if absent), its pair its "id". `path`
    /// empty: memory only. Throws what ResultsStore throws, and ParseError for a record without an
    /// integer "id".
    PairRecords(std::string path, bool resume, const ResultsSettings& settings = {});

    bool contains(std::uint64_t run, PairId id) const { return records_.count({run, id}) > 0; }
    /// The record of (run, id); throws std::out_of_range if there is none.
    const nlohmann::json& at(std::uint64_t run, PairId id) const { return records_.at({run, id}); }
    std::size_t size() const { return records_.size(); }
    /// Records loaded from the file at construction (for a "resuming" message).
    std::size_t loaded() const { return store_.loaded(); }
    const std::string& path() const { return store_.path(); }

    /// Stores a record and appends it to the file (flushed). Thread-safe.
    void add(std::uint64_t run, PairId id, nlohmann::json record);

private:
    std::map<PairRecordKey, nlohmann::json> records_;
    ResultsStore store_;
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
