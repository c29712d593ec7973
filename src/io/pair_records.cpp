#include "brec/io/pair_records.hpp"

#include <algorithm>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"

namespace brec {

PairRecords::PairRecords(std::string path, bool resume, const Filter& keep) : path_(std::move(path)) {
    if (path_.empty()) {
        if (resume) throw InvalidArgument("--resume needs --out FILE.jsonl");
        return;
    }
    if (resume) {
        std::size_t line = 0;
        for (const auto& text : read_jsonl_lines(path_)) {
            ++line;
            auto j = nlohmann::json::parse(text);
            if (!j.contains("id") || !j["id"].is_number_integer())
                throw ParseError(path_, static_cast<std::int64_t>(line), "record without an integer \"id\"");
            if (keep && !keep(j, line)) continue;
            const std::uint64_t run = j.contains("seed") && j["seed"].is_number_unsigned() ? j["seed"].get<std::uint64_t>() : 0;
            const PairRecordKey key{run, j["id"].get<PairId>()};
            records_[key] = std::move(j);
        }
        loaded_ = records_.size();
    } else if (file_exists(path_) && !read_text_file(path_).empty()) {
        throw InvalidArgument("--out " + path_ + " already holds results; pass --resume to continue that run, "
                              "or remove the file");
    }
    sink_ = std::make_unique<JsonlAppender>(path_, resume);
}

void PairRecords::add(std::uint64_t run, PairId id, nlohmann::json record) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (sink_) sink_->append(record.dump());
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
    parallel_for(todo.size(), jobs, [&](std::size_t t) {
        const auto& pair = dataset.pairs[todo[t]];
        records.add(run, pair.id, compute(pair));
        std::lock_guard<std::mutex> lock(mutex);
        ctx.progress(task, ++finished, todo.size());
    });
}

}  // namespace brec
