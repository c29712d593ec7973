#include "brec/io/pair_records.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "brec/core/parallel.hpp"

namespace brec {
namespace {

std::string results_file_message(ResultsFileError::Problem problem, const std::string& path) {
    if (problem == ResultsFileError::Problem::nothing_to_resume) return "resuming needs a results file";
    return path + " already holds results; resume that run or remove the file";
}

/// Size of a regular file, 0 when it is missing (directories are left to the open that follows).
std::uintmax_t regular_file_size(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return 0;
    const auto size = std::filesystem::file_size(path, ec);
    return ec ? 0 : size;
}

}  // namespace

ResultsFileError::ResultsFileError(Problem problem, std::string path)
    : InvalidArgument(results_file_message(problem, path)), problem_(problem), path_(std::move(path)) {}

PairsCancelled::PairsCancelled(std::size_t kept, std::string path)
    : Cancelled("cancelled; " + std::to_string(kept) + " results kept" +
                (path.empty() ? " in memory only" : " in " + path)),
      kept_(kept),
      path_(std::move(path)) {}

PairRecords::PairRecords(std::string path, bool resume, const Filter& keep) : path_(std::move(path)) {
    if (path_.empty()) {
        if (resume) throw ResultsFileError(ResultsFileError::Problem::nothing_to_resume, path_);
        return;
    }
    if (!resume && regular_file_size(path_) > 0)
        throw ResultsFileError(ResultsFileError::Problem::would_overwrite, path_);
    bool newline_missing = false;
    if (resume && file_exists(path_)) {
        // One read serves both the records and the repair of a torn last line.
        const std::string text = read_text_file(path_);
        const std::size_t whole = load(text, keep);
        if (whole < text.size()) {
            std::error_code ec;
            std::filesystem::resize_file(path_, whole, ec);
            if (ec) throw IoError("cannot repair " + path_ + ": " + ec.message());
        }
        newline_missing = whole > 0 && text[whole - 1] != '\n';
    }
    sink_.open(path_, std::ios::binary | (resume ? std::ios::app : std::ios::trunc));
    if (!sink_) throw IoError("cannot write " + path_ + ": " + std::strerror(errno));
    // A last record without its newline is whole: end its line before appending.
    if (newline_missing) sink_ << '\n' << std::flush;
}

std::size_t PairRecords::load(const std::string& text, const Filter& keep) {
    std::size_t start = 0, whole = 0;
    std::int64_t line = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        const bool last = end == std::string::npos || end + 1 == text.size();
        if (end == std::string::npos) end = text.size();
        ++line;
        std::size_t stop = end;
        if (stop > start && text[stop - 1] == '\r') --stop;
        const std::size_t next = std::min(end + 1, text.size());
        if (stop == start) {  // blank line
            whole = next;
            start = next;
            continue;
        }
        auto j = nlohmann::json::parse(text.begin() + static_cast<std::ptrdiff_t>(start),
                                       text.begin() + static_cast<std::ptrdiff_t>(stop), nullptr,
                                       /*allow_exceptions=*/false);
        if (j.is_discarded() || !j.is_object()) {
            if (last) break;  // the torn last line of an interrupted run: cut off
            throw ParseError(path_, line, "not a JSON object");
        }
        whole = next;
        start = next;
        if (!j.contains("id") || !j["id"].is_number_integer())
            throw ParseError(path_, line, "record without an integer \"id\"");
        if (keep && !keep(j, static_cast<std::size_t>(line))) continue;
        const std::uint64_t run =
            j.contains("seed") && j["seed"].is_number_unsigned() ? j["seed"].get<std::uint64_t>() : 0;
        const PairRecordKey key{run, j["id"].get<PairId>()};
        records_[key] = std::move(j);
    }
    loaded_ = records_.size();
    return whole;
}

void PairRecords::add(std::uint64_t run, PairId id, nlohmann::json record) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (sink_.is_open()) {
        const std::uintmax_t whole = regular_file_size(path_);
        errno = 0;
        sink_ << record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        sink_.flush();
        if (!sink_) {
            // A full disk or a failing device: cut the torn line off, so the file keeps whole
            // records to resume from, and remove a file that holds none.
            const std::string reason = errno ? std::string(": ") + std::strerror(errno) : std::string();
            sink_.close();
            std::error_code ec;
            if (std::filesystem::is_regular_file(path_, ec)) {  // not a device or pipe
                if (whole == 0)
                    std::filesystem::remove(path_, ec);
                else
                    std::filesystem::resize_file(path_, whole, ec);
            }
            throw IoError("cannot write " + path_ + reason);
        }
    }
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
