#include "brec/eval/run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "brec/core/error.hpp"
#include "brec/core/bytes.hpp"
#include "brec/io/pair_records.hpp"
#include "brec/nn/device.hpp"
#include "brec/nn/registry.hpp"

namespace brec {

using nlohmann::json;

EvalRecord skipped_record(const GraphPairRecord& pair, const EvalOptions& opt, std::uint64_t seed, std::uint64_t need,
                          std::uint64_t limit, int jobs, const RunContext& ctx) {
    const std::string why =
        opt.model + " needs about " + format_bytes(need) + " > --max-memory " + format_bytes(limit) +
        (jobs > 1 ? " / " + std::to_string(jobs) + " jobs = " + format_bytes(limit / static_cast<std::uint64_t>(jobs))
                  : std::string());
    ctx.warn("pair " + std::to_string(pair.id) + ": " + why + "; skipped");
    EvalRecord r;
    r.model = opt.model;
    r.seed = seed;
    r.id = pair.id;
    r.category = pair.category;
    r.n = pair.a.n();
    for (Protocol p : all_protocols()) r.result(p).reliable = true;
    r.skipped = why;
    return r;
}

json model_list_json() {
    json models = json::array();
    for (const ModelEntry& m : model_registry()) {
        const ModelSpec& s = m.spec;
        const Hyper& h = s.defaults;
        json row = {{"name", s.name},
                    {"family", s.family},
                    {"citation", s.citation},
                    {"bound", s.bound},
                    {"tight_bound", s.tight_bound},
                    {"tight_note", s.tight_note},
                    {"defaults",
                     {{"radius", h.radius},
                      {"layers", h.layers},
                      {"hidden", h.hidden},
                      {"lr", h.lr},
                      {"weight_decay", h.weight_decay},
                      {"batch", h.batch},
                      {"epochs", h.epochs},
                      {"loss_threshold", h.loss_threshold}}},
                    {"paper", nullptr},
                    {"paper_subset", s.paper_subset}};
        if (s.paper.known())
            row["paper"] = {{"basic", s.paper.basic},
                            {"regular", s.paper.regular},
                            {"extension", s.paper.extension},
                            {"cfi", s.paper.cfi},
                            {"total", s.paper.total()}};
        models.push_back(std::move(row));
    }
    return models;
}

std::string model_listing(bool as_json) { return as_json ? model_list_json().dump(2) + "\n" : describe_models(); }

json evaluation_settings(const EvalOptions& opt) {
    const Hyper hp = resolve_hyper(opt);
    json s = {{"model", opt.model},
              {"radius", hp.radius},
              {"layers", hp.layers},
              {"hidden", hp.hidden},
              {"batch", hp.batch},
              {"epochs", hp.epochs},
              {"lr", hp.lr},
              {"weight_decay", hp.weight_decay},
              {"loss_threshold", hp.loss_threshold},
              {"q", opt.q},
              {"d", opt.out_dim},
              {"alpha", opt.alpha},
              {"method", opt.rapc ? "rapc" : "rpc"},
              {"rapc_groups", opt.rapc ? opt.rapc_groups : 0},
              {"noise_floor", opt.relative_noise},
              {"trained", opt.train},
              {"output_norm", opt.output_norm}};
    // Only where they apply, so that the settings ids of built-in models stay as they were.
    const ModelSpec& spec = model_entry(opt).spec;
    if (!spec.module_hash.empty()) s["module_hash"] = spec.module_hash;
    if (opt.input_features != "ones") s["input_features"] = opt.input_features;
    if (opt.input_features == "label") s["label_classes"] = opt.label_classes;
    return s;
}

std::string settings_id(const EvalOptions& opt) { return settings_hash(evaluation_settings(opt)); }

std::vector<std::size_t> paper_subset_indices(const PairDataset& dataset, std::vector<std::size_t> indices,
                                              const std::string& model) {
    const std::string& subset = find_model(model).spec.paper_subset;
    if (subset.empty()) return indices;
    const IdRanges ids = parse_id_ranges(subset);
    indices.erase(std::remove_if(indices.begin(), indices.end(),
                                 [&](std::size_t k) { return !ids.contains(dataset.pairs[k].id); }),
                  indices.end());
    return indices;
}

std::uint64_t physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

std::optional<std::uint64_t> pair_memory_estimate(const GraphPairRecord& pair, const EvalOptions& opt) {
    const ModelEntry& entry = model_entry(opt);
    if (!entry.estimate_bytes) return std::nullopt;
    const Hyper hp = resolve_hyper(opt);
    const ModelConfig config = model_config(opt);
    // A batch holds at most the 2q graphs of a group; sizes do not depend on the labelling.
    const auto size = static_cast<std::size_t>(std::min(hp.batch, 2 * opt.q));
    std::vector<Graph> mixed, only_a(size, pair.a), only_b(size, pair.b);
    for (std::size_t i = 0; i < size; ++i) mixed.push_back(i % 2 ? pair.b : pair.a);
    return std::max({entry.estimate_bytes(mixed, config), entry.estimate_bytes(only_a, config),
                     entry.estimate_bytes(only_b, config)});
}

void configure_cpu_threads(EvalOptions& opt, int jobs, int requested) {
    // OpenMP keeps the intra-op count per calling thread, so evaluate_pair sets it again per pair.
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    opt.torch_threads = requested > 0 ? requested : std::max(1, hw / std::max(1, jobs));
    opt.single_thread_below = requested > 0 ? 0 : 32;
    set_torch_threads(opt.torch_threads);
    set_blas_threads(jobs > 1 ? 1 : opt.torch_threads);
    opt.blas_threads = jobs > 1 ? 0 : opt.torch_threads;
    tune_cpu_allocator();
}

ResultsSettings eval_results_settings(const std::string& path, const std::string& model,
                                      const std::string& settings_id) {
    return ResultsSettings(eval_settings_text(model, settings_id), [path](const json& j, std::int64_t line) {
        if (!is_eval_record(j)) return std::string("not an eval record");
        const EvalRecord r = eval_record_from_json(j, path, line);
        return eval_settings_text(r.model, r.settings_id);
    });
}

EvalRunResult run_evaluation(const PairDataset& dataset, const std::vector<std::size_t>& indices,
                             const EvalRunOptions& opt, RunContext& ctx) {
    if (opt.seeds.empty()) throw InvalidArgument("no seeds to run");
    EvalOptions eval = opt.eval;
    if (eval.input_features == "label" && eval.label_classes < 1) {
        // One width for every pair: the module's input layer is fixed.
        eval.label_classes = 1;
        for (const auto& pair : dataset.pairs) eval.label_classes = std::max(eval.label_classes, label_classes(pair));
    }
    const json settings = evaluation_settings(eval);  // validates the model and hyperparameters first
    const std::string id = settings_hash(settings);
    const ModelSpec& spec = model_entry(eval).spec;
    // A user's module is checked on tiny graphs before any pair runs or any file is written.
    check_model(model_entry(eval), model_config(eval));
    // Resuming with another model or other settings would mix two experiments in one result.
    PairRecords records(opt.out, opt.resume, eval_results_settings(opt.out, eval.model, id));
    if (records.loaded()) ctx.info("resuming: " + std::to_string(records.loaded()) + " results already in " + opt.out);

    // Pairs run in parallel share the memory. By default 80 % of it: an estimate covers the model's
    // tensors, not the dataset, the allocator's slack or the rest of the machine (I²-GNN's 20.7 GiB
    // for a 4-vertex-condition pair under 23.5 GiB of RAM would leave nothing for them).
    const std::uint64_t max_memory = opt.max_memory ? opt.max_memory : physical_memory_bytes() / 5 * 4;
    const int jobs = std::max(1, opt.jobs);
    const std::uint64_t per_pair = max_memory / static_cast<std::uint64_t>(jobs);

    RunDescription description;
    description.command = "eval";
    description.model = eval.model;
    description.dataset = opt.dataset;
    description.shard = opt.shard;
    description.protocol = opt.protocol;
    description.settings = settings;
    description.settings_id = id;
    description.runtime = {{"device", opt.eval.device},
                           {"kernel", opt.eval.kernel},
                           {"jobs", opt.jobs},
                           {"torch_threads", opt.eval.torch_threads},
                           {"max_memory", max_memory}};
    EvalRunResult result;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::uint64_t seed : opt.seeds) {
        const auto start = std::chrono::steady_clock::now();
        compute_missing_pairs(
            dataset, indices, seed, opt.jobs, records, "eval " + eval.model + " seed " + std::to_string(seed), ctx,
            [&](const GraphPairRecord& pair) {
                const auto need = pair_memory_estimate(pair, eval);
                EvalRecord r = need && *need > per_pair ? skipped_record(pair, eval, seed, *need, max_memory, jobs, ctx)
                                                        : evaluate_pair(pair, eval, seed, &ctx);
                r.settings_id = id;
                r.bound = spec.bound;
                return to_json(r);
            });
        SeedRun run;
        run.seed = seed;
        for (std::size_t k : indices)
            run.records.push_back(eval_record_from_json(records.at(seed, dataset.pairs[k].id), opt.out, 0));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        run.summary = seed_summary(run.records, description, seed, seconds);
        result.runs.push_back(std::move(run));
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    summarise_seeds(result, opt.protocol);
    return result;
}

}  // namespace brec
