#include "brec/eval/board.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/text.hpp"
#include "brec/eval/run.hpp"
#include "brec/io/pair_records.hpp"
#include "brec/io/sha256.hpp"
#include "brec/nn/device.hpp"
#include "brec/nn/registry.hpp"
#include "brec/wl/run.hpp"

namespace brec {

using nlohmann::json;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

double process_cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

/// The value of the first "KEY : value" line of a /proc-style text file that has it ("" if none).
std::string proc_field(const std::string& path, const std::string& key) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos || line.compare(0, key.size(), key) != 0) continue;
        const auto begin = line.find_first_not_of(" \t", colon + 1);
        return begin == std::string::npos ? std::string() : line.substr(begin);
    }
    return "";
}

/// The machine a segment runs on: host, CPU model, cores, and the NVIDIA GPU's model when the
/// device is CUDA (from the driver's /proc entries: no CUDA headers needed).
BoardSegment start_segment(const BoardOptions& opt, const torch::Device& device) {
    BoardSegment s;
    s.started = utc_now();
    s.brec_version = opt.brec_version;
    s.git_commit = opt.git_commit;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) s.host = host;
    s.cpu = proc_field("/proc/cpuinfo", "model name");
    s.cores = static_cast<int>(std::thread::hardware_concurrency());
    s.device = device.str();
    if (device.is_cuda() && fs::is_directory("/proc/driver/nvidia/gpus")) {
        for (const auto& gpu : fs::directory_iterator("/proc/driver/nvidia/gpus")) {
            s.gpu = proc_field(gpu.path().string() + "/information", "Model");
            if (!s.gpu.empty()) break;
        }
    }
    s.jobs = opt.jobs;
    return s;
}

/// One model of the board: its options, settings, pairs, records and costs.
struct BoardEntry {
    EvalOptions eval;
    std::string settings_id, bound;
    json settings;
    std::vector<std::size_t> indices;  ///< into dataset.pairs
    /// Per entry of `indices`: the memory the model needs on the pair (none: no estimate).
    std::vector<std::optional<std::uint64_t>> memory;
    std::unique_ptr<PairRecords> records;
    std::map<PairId, double> cost;  ///< estimated core-seconds per task
};

struct Task {
    std::size_t model;
    std::size_t pair;  ///< into dataset.pairs
    std::uint64_t seed;
    double cost;
    std::optional<std::uint64_t> memory;
};

/// The cost file: one record per (model, pair), of the model's settings id.
class CostStore {
public:
    CostStore(const std::string& path, const std::vector<BoardEntry>& entries) {
        std::map<std::string, std::string> ids;
        for (const auto& e : entries) ids[e.eval.model] = e.settings_id;
        const auto of = [path](const json& j, std::int64_t line) {
            if (!j.is_object() || !j.contains("model") || !j.contains("settings_id") || !j.contains("id") ||
                !j.contains("seconds"))
                throw ParseError(path, line, "not a cost record (model, settings_id, id, seconds)");
            return j["model"].get<std::string>() + " settings " + j["settings_id"].get<std::string>();
        };
        // A model of this run must have its settings; others keep theirs.
        const auto expected = [ids](const json& j) {
            const std::string model = j["model"].get<std::string>();
            const auto it = ids.find(model);
            return model + " settings " + (it == ids.end() ? j["settings_id"].get<std::string>() : it->second);
        };
        store_ = std::make_unique<ResultsStore>(path, true, ResultsSettings(of, expected), [&](json&& j, std::int64_t) {
            costs_[{j["model"].get<std::string>(), j["id"].get<PairId>()}] = j["seconds"].get<double>();
        });
    }
    const double* find(const std::string& model, PairId id) const {
        const auto it = costs_.find({model, id});
        return it == costs_.end() ? nullptr : &it->second;
    }
    void add(const std::string& model, const std::string& settings_id, PairId id, const PairCost& c) {
        store_->append(json{{"model", model},
                            {"settings_id", settings_id},
                            {"id", id},
                            {"flops", c.flops()},
                            {"ops", c.ops()},
                            {"seconds", c.seconds()}});
        std::lock_guard<std::mutex> lock(mutex_);
        costs_[{model, id}] = c.seconds();
    }

private:
    std::unique_ptr<ResultsStore> store_;
    std::map<std::pair<std::string, PairId>, double> costs_;
    std::mutex mutex_;
};

std::vector<BoardEntry> board_entries(const PairDataset& dataset, const std::vector<std::size_t>& indices,
                                      const BoardOptions& opt) {
    std::vector<std::string> names = opt.models.empty() ? model_names() : opt.models;
    std::vector<BoardEntry> entries;
    for (const std::string& name : names) {
        if (std::count(names.begin(), names.end(), name) > 1)
            throw InvalidArgument("model " + name + " is named twice");
        if (is_torchscript_model(name))
            throw InvalidArgument("a board runs built-in models; judge your own module with brec eval");
        BoardEntry e;
        e.eval.model = name;
        e.eval.device = opt.device;
        e.eval.kernel = opt.kernel;
        e.settings = evaluation_settings(e.eval);  // validates the model name
        e.settings_id = settings_hash(e.settings);
        e.bound = find_model(name).spec.bound;
        e.indices = opt.all_pairs ? indices : paper_subset_indices(dataset, indices, name);
        entries.push_back(std::move(e));
    }
    return entries;
}

/// The manifest this run continues (or a new one), checked against the run's data and subset.
BoardManifest open_manifest(const PairDataset& dataset, const BoardOptions& opt) {
    const bool exists = fs::exists(board_manifest_path(opt.dir));
    if (exists && !opt.resume)
        throw InvalidArgument(opt.dir + " holds a board (manifest.json): add --resume to continue it");
    BoardManifest m;
    const std::string sha = sha256_file(opt.dataset);
    if (exists) {
        m = read_board_manifest(opt.dir);
        if (m.dataset_sha256 != sha)
            throw InvalidArgument(opt.dir + " is a board of " + m.dataset + " (SHA-256 " +
                                  m.dataset_sha256.substr(0, 12) + "...), not of " + opt.dataset + " (" +
                                  sha.substr(0, 12) + "...)");
        if (m.subset != (opt.all_pairs ? "all" : "paper"))
            throw InvalidArgument(opt.dir + " is a board of " +
                                  (m.subset == "all" ? "all pairs" : "the paper subsets") +
                                  (opt.all_pairs ? "; drop --all-pairs" : "; add --all-pairs"));
    } else {
        fs::create_directories(opt.dir);
        m.dataset_sha256 = sha;
        m.subset = opt.all_pairs ? "all" : "paper";
    }
    m.dataset = opt.dataset;
    m.dataset_pairs = dataset.pairs.size();
    for (std::uint64_t s : opt.seeds)
        if (std::find(m.seeds.begin(), m.seeds.end(), s) == m.seeds.end()) m.seeds.push_back(s);
    m.max_cost_seconds = opt.max_cost_seconds;
    return m;
}

/// Estimates the cost of every (model, pair) the cost file lacks, in parallel. A pair whose memory
/// estimate is above `per_job` is left out: it will be skipped, and its step might not fit either.
void estimate_costs(const PairDataset& dataset, std::vector<BoardEntry>& entries, CostStore& costs, int jobs,
                    std::uint64_t per_job, const RunContext& ctx) {
    std::vector<std::pair<std::size_t, std::size_t>> todo;  // (entry, pair index)
    for (std::size_t m = 0; m < entries.size(); ++m)
        for (std::size_t j = 0; j < entries[m].indices.size(); ++j) {
            const std::size_t k = entries[m].indices[j];
            const auto& need = entries[m].memory[j];
            if (!costs.find(entries[m].eval.model, dataset.pairs[k].id) && !(need && *need > per_job))
                todo.push_back({m, k});
        }
    if (todo.empty()) return;
    ctx.info("estimating the cost of " + std::to_string(todo.size()) + " (model, pair) tasks");
    std::mutex mutex;
    std::size_t done = 0;
    parallel_for(todo.size(), jobs, [&](std::size_t t) {
        ctx.throw_if_cancelled();
        const auto [m, k] = todo[t];
        const BoardEntry& e = entries[m];
        // One seed for every estimate, whatever seeds the board runs: a sampling model's shapes
        // may follow its draws, and what a board includes must not depend on its seeds.
        costs.add(e.eval.model, e.settings_id, dataset.pairs[k].id, estimate_pair_cost(dataset.pairs[k], e.eval, 0));
        std::lock_guard<std::mutex> lock(mutex);
        ctx.progress("board: estimating costs", ++done, todo.size());
    });
}

/// The hardness certificate of every pair of the board and the verdicts of every built-in model's
/// tight-bound test (DIR/certify.jsonl, resumed): what the page shows beside each pair and the
/// bounds it counts per model. All models' tests, so that the file serves every later run.
void certify_board(const PairDataset& dataset, const std::vector<BoardEntry>& entries, const BoardOptions& opt,
                   RunContext& ctx) {
    std::vector<std::size_t> indices;
    for (const BoardEntry& e : entries) indices.insert(indices.end(), e.indices.begin(), e.indices.end());
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    CertifyRunOptions c;
    c.out = opt.dir + "/certify.jsonl";
    c.resume = true;
    c.jobs = std::max(1, opt.jobs);
    c.dataset = opt.dataset;
    for (const ModelEntry& m : model_registry())
        if (!m.spec.tight_bound.empty() &&
            std::find(c.tests.begin(), c.tests.end(), m.spec.tight_bound) == c.tests.end())
            c.tests.push_back(m.spec.tight_bound);
    run_certify(dataset, indices, c, ctx);
}

/// Sorts the tasks of model `m` over the board's pairs and seeds: done before, left out by the rule
/// (for pairs of this run's selection; earlier runs' verdicts for the others are kept), or queued
/// (a seed of this run); sets the model's manifest entry and plan row.
void plan_model(const PairDataset& dataset, std::size_t m, BoardEntry& e, const CostStore& costs,
                const BoardOptions& opt, BoardResult& result, std::vector<Task>& queue) {
    BoardModel& bm = *result.manifest.find(e.eval.model);
    BoardModelPlan& plan = result.plan.emplace_back();
    plan.model = e.eval.model;
    std::map<PairId, std::size_t> selected;  // id -> position in e.indices
    for (std::size_t j = 0; j < e.indices.size(); ++j) selected[dataset.pairs[e.indices[j]].id] = j;
    const std::map<std::uint64_t, IdRanges> before = std::move(bm.not_run);
    std::map<std::uint64_t, std::vector<IdRanges::Interval>> not_run;
    for (const PairId id : bm.pairs.ids()) {
        // No estimate: above the memory limit (the task will be recorded as skipped), or a pair of
        // an earlier run that this run did not estimate.
        const double* estimate = costs.find(e.eval.model, id);
        const double cost = estimate ? *estimate : 0.0;
        const auto k = selected.find(id);
        for (std::uint64_t seed : result.manifest.seeds) {
            const bool done = e.records->contains(seed, id);
            bool excluded = false;
            if (!done && k != selected.end())
                excluded = opt.max_cost_seconds > 0 && cost > opt.max_cost_seconds;
            else if (!done)
                excluded = before.count(seed) && before.at(seed).contains(id);
            ++plan.tasks;
            plan.estimated_seconds += cost;
            if (done) {
                ++plan.done;
            } else if (excluded) {
                ++plan.not_run;
                plan.not_run_seconds += cost;
                not_run[seed].push_back({id, id});
            } else if (k != selected.end() && std::find(opt.seeds.begin(), opt.seeds.end(), seed) != opt.seeds.end()) {
                queue.push_back({m, e.indices[k->second], seed, cost, e.memory[k->second]});
                ++plan.to_run;
                plan.to_run_seconds += cost;
                plan.largest_seconds = std::max(plan.largest_seconds, cost);
            }
        }
    }
    bm.not_run.clear();
    for (auto& [seed, ids] : not_run) bm.not_run[seed] = IdRanges(std::move(ids));
    bm.not_run_estimated_seconds = plan.not_run_seconds;
    bm.estimated_seconds = plan.estimated_seconds - plan.not_run_seconds;
    result.kept += plan.done;
    result.not_run += plan.not_run;
}

}  // namespace

BoardResult run_board(const PairDataset& dataset, const std::vector<std::size_t>& indices, const BoardOptions& opt,
                      RunContext& ctx) {
    if (opt.dir.empty()) throw InvalidArgument("a board needs a directory");
    if (opt.seeds.empty()) throw InvalidArgument("no seeds to run");
    if (opt.max_cost_seconds < 0) throw InvalidArgument("the cost limit must be >= 0");
    const auto t0 = Clock::now();
    const double cpu0 = process_cpu_seconds();
    const torch::Device device = parse_device(opt.device);
    std::vector<BoardEntry> entries = board_entries(dataset, indices, opt);
    EvalOptions threads;
    configure_cpu_threads(threads, opt.jobs, opt.torch_threads);
    for (BoardEntry& e : entries) {
        e.eval.torch_threads = threads.torch_threads;
        e.eval.single_thread_below = threads.single_thread_below;
        e.eval.blas_threads = threads.blas_threads;
        for (std::size_t k : e.indices) e.memory.push_back(pair_memory_estimate(dataset.pairs[k], e.eval));
    }

    BoardResult result;
    BoardManifest& manifest = result.manifest;
    manifest = open_manifest(dataset, opt);
    for (BoardEntry& e : entries) {
        const std::string file = e.eval.model + ".jsonl";
        e.records = std::make_unique<PairRecords>(
            opt.dir + "/" + file, true, eval_results_settings(opt.dir + "/" + file, e.eval.model, e.settings_id));
        BoardModel* m = manifest.find(e.eval.model);
        if (!m) {
            manifest.models.push_back({});
            m = &manifest.models.back();
        }
        m->name = e.eval.model;
        m->settings_id = e.settings_id;
        m->settings = e.settings;
        m->file = file;
        // The board's pairs of the model: those of earlier runs and this run's selection.
        std::vector<IdRanges::Interval> selected;
        for (std::size_t k : e.indices) selected.push_back({dataset.pairs[k].id, dataset.pairs[k].id});
        m->pairs = m->pairs.united(IdRanges(std::move(selected)));
    }
    manifest.segments.push_back(start_segment(opt, device));
    BoardSegment& segment = manifest.segments.back();
    std::mutex manifest_mutex;
    auto last_write = Clock::now();
    // Record counts and times as they are now; the segment stays open until `ended` is set.
    const auto write_manifest = [&](bool final) {
        if (opt.plan) return;
        for (BoardEntry& e : entries) manifest.find(e.eval.model)->records = e.records->size();
        segment.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        segment.cpu_seconds = process_cpu_seconds() - cpu0;
        segment.tasks = result.ran + result.skipped;
        if (final) segment.ended = utc_now();
        write_board_manifest(opt.dir, manifest);
        last_write = Clock::now();
    };
    write_manifest(false);

    const std::uint64_t max_memory = opt.max_memory ? opt.max_memory : physical_memory_bytes() / 5 * 4;
    const int jobs = std::max(1, opt.jobs);
    const std::uint64_t per_job = max_memory / static_cast<std::uint64_t>(jobs);
    std::vector<Task> queue;
    try {
        CostStore costs(opt.dir + "/costs.jsonl", entries);
        estimate_costs(dataset, entries, costs, jobs, per_job, ctx);
        for (std::size_t m = 0; m < entries.size(); ++m) plan_model(dataset, m, entries[m], costs, opt, result, queue);
    } catch (...) {
        write_manifest(true);
        throw;
    }
    // Cheapest first; ties in model, pair and seed order.
    std::stable_sort(queue.begin(), queue.end(), [](const Task& a, const Task& b) { return a.cost < b.cost; });
    double total = 0.0;
    for (const Task& t : queue) total += t.cost;
    result.estimated_seconds = total;
    ctx.info(std::to_string(queue.size()) + " tasks to run, estimated " + std::to_string(std::lround(total)) +
             " core-seconds" + (result.kept ? "; " + std::to_string(result.kept) + " done before" : "") +
             (result.not_run ? "; " + std::to_string(result.not_run) + " not run (estimated above " +
                                   format_seconds(opt.max_cost_seconds) + " of a core)"
                             : ""));

    if (!opt.plan) {
        try {
            certify_board(dataset, entries, opt, ctx);
        } catch (...) {
            write_manifest(true);
            throw;
        }
    }
    if (opt.plan) {
        result.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        return result;
    }

    // Progress in estimated core-seconds, so that its ETA weighs each task by its cost.
    const auto units = [](double cost) { return static_cast<std::size_t>(std::llround(std::max(1.0, cost))); };
    std::size_t total_units = 0, done_units = 0;
    for (const Task& t : queue) total_units += units(t.cost);
    try {
        parallel_for(queue.size(), jobs, [&](std::size_t i) {
            ctx.throw_if_cancelled();
            const Task& t = queue[i];
            BoardEntry& e = entries[t.model];
            const GraphPairRecord& pair = dataset.pairs[t.pair];
            const bool skip = t.memory && *t.memory > per_job;
            EvalRecord r = skip ? skipped_record(pair, e.eval, t.seed, *t.memory, max_memory, jobs, ctx)
                                : evaluate_pair(pair, e.eval, t.seed, &ctx);
            r.settings_id = e.settings_id;
            r.bound = e.bound;
            e.records->add(t.seed, pair.id, to_json(r));
            std::lock_guard<std::mutex> lock(manifest_mutex);
            ++(skip ? result.skipped : result.ran);
            done_units += units(t.cost);
            ctx.progress("board (estimated core-seconds)", done_units, total_units);
            if (Clock::now() - last_write > std::chrono::seconds(60)) write_manifest(false);
        });
    } catch (const Cancelled&) {
        write_manifest(true);
        std::size_t kept = 0;
        for (const BoardEntry& e : entries) kept += e.records->size();
        throw PairsCancelled(kept, opt.dir);
    } catch (...) {
        write_manifest(true);
        throw;
    }
    write_manifest(true);
    result.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return result;
}

std::string board_plan_text(const BoardResult& result) {
    TextTable table({"model", "tasks", "done", "to run", "core-h", "largest s", "not run", "core-h"});
    BoardModelPlan total;
    const auto hours = [](double s) { return format_fixed(s / 3600.0, 2); };
    for (const BoardModelPlan& p : result.plan) {
        table.add_row({p.model, std::to_string(p.tasks), std::to_string(p.done), std::to_string(p.to_run),
                       hours(p.to_run_seconds), format_fixed(p.largest_seconds, 1), std::to_string(p.not_run),
                       hours(p.not_run_seconds)});
        total.tasks += p.tasks;
        total.done += p.done;
        total.to_run += p.to_run;
        total.not_run += p.not_run;
        total.to_run_seconds += p.to_run_seconds;
        total.not_run_seconds += p.not_run_seconds;
        total.largest_seconds = std::max(total.largest_seconds, p.largest_seconds);
    }
    table.add_rule();
    table.add_row({"total", std::to_string(total.tasks), std::to_string(total.done), std::to_string(total.to_run),
                   hours(total.to_run_seconds), format_fixed(total.largest_seconds, 1), std::to_string(total.not_run),
                   hours(total.not_run_seconds)});
    return table.str();
}

}  // namespace brec
