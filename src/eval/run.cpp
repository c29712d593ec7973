#include "brec/eval/run.hpp"

#include <chrono>
#include <cstdio>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/io/pair_records.hpp"
#include "brec/io/summary.hpp"

namespace brec {
namespace {

const char* t2_form_name(T2Form f) { return f == T2Form::reference ? "reference" : "standard"; }

}  // namespace

nlohmann::json evaluation_settings(const EvalOptions& opt) {
    const ResolvedHyper hp = resolve_hyper(opt);
    return {{"model", opt.model},
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
            {"t2_form", t2_form_name(opt.t2_form)},
            {"noise_floor", opt.relative_noise},
            {"trained", opt.train},
            {"output_norm", opt.output_norm}};
}

std::string settings_id(const EvalOptions& opt) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx",
                  static_cast<unsigned long long>(fnv1a(evaluation_settings(opt).dump())));
    return buf;
}

nlohmann::json evaluation_record(const PairEvaluation& r, const EvalOptions& opt, std::uint64_t seed,
                                 const std::string& settings_id) {
    return {{"model", opt.model}, {"seed", seed}, {"id", r.id}, {"category", r.category}, {"n", r.n},
            {"distinguished", r.distinguished}, {"reliable", r.reliable}, {"t2_test", r.t2_test},
            {"t2_reliability", r.t2_reliability}, {"threshold", r.threshold}, {"epochs", r.epochs},
            {"final_loss", r.final_loss}, {"seconds", r.seconds}, {"train_seconds", r.train_seconds}, {"losses", r.losses},
            {"settings_id", settings_id}};
}

EvalRunResult run_evaluation(const PairDataset& dataset, const std::vector<std::size_t>& indices,
                             const EvalRunOptions& opt, RunContext& ctx) {
    if (opt.seeds.empty()) throw InvalidArgument("no seeds to run");
    resolve_hyper(opt.eval);  // validates the model and hyperparameters before any file is touched
    const nlohmann::json settings = evaluation_settings(opt.eval);
    const std::string id = settings_id(opt.eval);
    PairRecords records(opt.out, opt.resume, [&](const nlohmann::json& j, std::size_t line) {
        if (j.value("model", "") != opt.eval.model) return false;  // another model's results
        if (!j.contains("seed") || !j.contains("distinguished") || !j.contains("reliable") || !j.contains("category"))
            throw ParseError(opt.out, static_cast<std::int64_t>(line),
                             "not a brec eval record (needs seed, id, category, distinguished, reliable)");
        // Resuming with other settings would mix two experiments in one result.
        if (j.value("settings_id", "") != id)
            throw InvalidArgument(opt.out + ":" + std::to_string(line) + ": this " + opt.eval.model +
                                  " result was made with other settings (settings_id " + j.value("settings_id", "none") +
                                  ", now " + id + "); resume with the same flags or write to another --out");
        return true;
    });
    if (records.loaded()) ctx.info("resuming: " + std::to_string(records.loaded()) + " results already in " + opt.out);

    EvalRunResult result;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::uint64_t seed : opt.seeds) {
        const auto start = std::chrono::steady_clock::now();
        compute_missing_pairs(dataset, indices, seed, opt.jobs, records,
                              "eval " + opt.eval.model + " seed " + std::to_string(seed), ctx,
                              [&](const GraphPairRecord& pair) {
                                  return evaluation_record(evaluate_pair(pair, opt.eval, seed), opt.eval, seed, id);
                              });
        SeedRun run;
        run.seed = seed;
        std::vector<PairOutcome> outcomes;
        for (std::size_t k : indices) {
            const auto& j = records.at(seed, dataset.pairs[k].id);
            const bool reliable = j["reliable"].get<bool>();
            // A result counts only when the reliability check passed.
            outcomes.push_back({j["id"].get<PairId>(), j["category"].get<std::string>(),
                                j["distinguished"].get<bool>() && reliable, !reliable});
            run.records.push_back(j);
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        run.summary = make_summary({"eval", opt.eval.model, opt.dataset, seed, seconds}, outcomes);
        run.summary["model"] = opt.eval.model;
        run.summary["settings"] = settings;
        run.summary["settings_id"] = id;
        if (!opt.shard.empty()) run.summary["shard"] = opt.shard;
        run.summary["runtime"] = {{"device", opt.eval.device}, {"kernel", opt.eval.kernel}, {"jobs", opt.jobs},
                                  {"torch_threads", opt.eval.torch_threads}};
        result.runs.push_back(std::move(run));
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // Multi-seed protocol (SPEC §5): the best seed whose run passed every reliability check.
    result.best_reliable = result.runs.size();
    int best_score = -1;
    for (std::size_t i = 0; i < result.runs.size(); ++i) {
        const auto& total = result.runs[i].summary["total"];
        if (total["reliability_failures"].get<int>() == 0 && total["distinguished"].get<int>() > best_score) {
            best_score = total["distinguished"].get<int>();
            result.best_reliable = i;
        }
    }
    const std::size_t shown = result.best_reliable < result.runs.size() ? result.best_reliable : 0;
    result.summary = result.runs[shown].summary;
    if (result.runs.size() > 1) {
        nlohmann::json seeds = nlohmann::json::array();
        for (const auto& r : result.runs)
            seeds.push_back({{"seed", r.seed}, {"total", r.summary["total"]}, {"seconds", r.summary["seconds"]}});
        result.summary["seeds"] = seeds;
        result.summary["best_reliable_seed"] = result.best_reliable < result.runs.size()
                                                   ? nlohmann::json(result.runs[result.best_reliable].seed)
                                                   : nlohmann::json();
    }
    result.summary["wall_seconds"] = result.seconds;
    return result;
}

std::vector<std::string> baseline_regressions(const nlohmann::json& baseline, const nlohmann::json& summary,
                                              const std::string& baseline_name) {
    if (!baseline.is_object() || !baseline.contains("categories") || !baseline["categories"].is_object())
        throw ParseError(baseline_name, 0, "not a brec summary (no 'categories' object)");
    std::vector<std::string> out;
    for (auto it = baseline["categories"].begin(); it != baseline["categories"].end(); ++it) {
        if (!summary["categories"].contains(it.key())) continue;
        const auto& old = it.value();
        const auto& now = summary["categories"][it.key()];
        for (const char* key : {"distinguished", "reliability_failures"})
            if (!old.contains(key) || !old[key].is_number_integer())
                throw ParseError(baseline_name, 0, "category '" + it.key() + "' has no integer '" + key + "'");
        const int old_d = old["distinguished"].get<int>(), now_d = now["distinguished"].get<int>();
        const int old_f = old["reliability_failures"].get<int>(), now_f = now["reliability_failures"].get<int>();
        if (now_d < old_d)
            out.push_back(it.key() + ": distinguished " + std::to_string(now_d) + " < " + std::to_string(old_d));
        if (now_f > old_f)
            out.push_back(it.key() + ": reliability failures " + std::to_string(now_f) + " > " + std::to_string(old_f));
    }
    return out;
}

std::string junit_xml(const std::vector<nlohmann::json>& records, const std::string& suite, double seconds) {
    int failures = 0;
    for (const auto& j : records) failures += !j["reliable"].get<bool>();
    std::ostringstream x;
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"" << xml_escape(suite) << "\" tests=\""
      << records.size() << "\" failures=\"" << failures << "\" time=\"" << seconds << "\">\n";
    for (const auto& j : records) {
        x << "  <testcase classname=\"brec." << xml_escape(j["category"].get<std::string>()) << "\" name=\"pair "
          << j["id"].get<PairId>() << (j["distinguished"].get<bool>() ? " distinguished" : " not distinguished")
          << "\" time=\"" << j["seconds"].get<double>() << "\">";
        if (!j["reliable"].get<bool>())
            x << "<failure message=\"reliability check failed: T2_reliability " << j["t2_reliability"].get<double>()
              << " &gt;= threshold " << j["threshold"].get<double>() << "\"/>";
        x << "<system-out>T2_test=" << j["t2_test"].get<double>() << " T2_reliability=" << j["t2_reliability"].get<double>()
          << " threshold=" << j["threshold"].get<double>() << "</system-out></testcase>\n";
    }
    x << "</testsuite>\n";
    return x.str();
}

}  // namespace brec
