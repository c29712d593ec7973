#include "brec/io/pair_records.hpp"

#include <algorithm>

#include "brec/core/parallel.hpp"

namespace brec {

PairsCancelled::PairsCancelled(std::size_t kept, std::string path)
    : Cancelled("cancelled; " + std::to_string(kept) + " results kept" +
                (path.empty() ? " in memory only" : " in " + path)),
      kept_(kept),
      path_(std::move(path)) {}

PairRecords::PairRecords(std::string path, bool resume, const ResultsSettings& settings)
    : store_(std::move(path), resume, settings, [this](nlohmann::json&& j, std::int64_t line) {
          if (!j.contains("id") || !j["id"].is_number_integer())
              throw ParseError(store_.path(), line, "record without an integer \"id\"");
          const std::uint64_t run =
              j.contains("seed") && j["seed"].is_number_unsigned() ? j["seed"].get<std::uint64_t>() : 0;
          const PairRecordKey key{run, j["id"].get<PairId>()};
          records_[key] = std::move(j);
      }) {}

void PairRecords::add(std::uint64_t run, PairId id, nlohmann::json record) {
    store_.append(record);
    std::lock_guard<std::mutex> lock(mutex_);
    records_[{run, id}] = std::move(record);
}

void compute_missing_pairs(const PairDataset& dataset, const std::vector<std::size_t>& indices, std::uint64_t run,
                           int jobs, PairRecords& records, const std::string& task, const RunContext& ctx,
                           const std::function<nlohmann::json(const GraphPairRecord&)>& compute) {
    std::vector<std::size_t> todo;
    for (std::size_t k : indices)
        if (!records.contains(run, dataset.pairs[k].id)) todo.push_back(k);
    std::stable_sort(todo.begin(), todo.end(), [&](std::size_t x, std::size_t y) {
        const auto& px = dataset.pairs[x];
        const auto& py = dataset.pairs[y];
        return std::max(px.a.n(), px.b.n()) > std::max(py.a.n(), py.b.n());
    });
    std::mutex mutex;
    std::size_t finished = 0;
    try {
        // A cancelled task throws before it starts; parallel_for then starts no further task and
        // waits for the ones in progress, whose records are added as usual.
        parallel_for(todo.size(), jobs, [&](std::size_t t) {
            ctx.throw_if_cancelled();
            const auto& pair = dataset.pairs[todo[t]];
            records.add(run, pair.id, compute(pair));
            std::lock_guard<std::mutex> lock(mutex);
            ctx.progress(task, ++finished, todo.size());
        });
    } catch (const Cancelled&) {
        throw PairsCancelled(records.size(), records.path());
    }
}

}  // namespace brec
