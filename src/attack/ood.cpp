// The out-of-distribution experiment on counting regressors: train, test, retrain, one row at a time.
#include "brec/attack/ood.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "brec/core/error.hpp"
#include "brec/io/dir_writer.hpp"
#include "brec/io/files.hpp"
#include "brec/io/records.hpp"
#include "brec/io/results_store.hpp"
#include "brec/nn/device.hpp"
#include "brec/stats/tests.hpp"

namespace brec {
namespace {

using RowKey = std::tuple<std::string, std::string, std::uint64_t, std::string>;  // model, pattern, seed, setting

RowKey key_of(const OodRecord& row) { return {row.model, row.pattern, row.seed, row.setting}; }

/// The settings every row of a run shares: the datasets and how the regressors are trained.
std::string settings_text(const OodRequest& r) {
    const RegressorSettings& s = r.settings;
    std::ostringstream o;
    o << "in " << r.in << ", ood " << r.ood << ", model " << s.model << ", layers " << s.layers << ", hidden "
      << s.hidden << ", loss " << regression_loss_name(s.loss) << ", lr " << s.lr << ", batch " << s.batch
      << ", epochs " << s.epochs << ", patience " << s.patience << ", lr_patience " << s.lr_patience;
    return o.str();
}

std::string kind_of(const std::string& dir) {
    const std::string meta = dir + "/meta.json";
    if (!file_exists(meta)) return {};
    const auto j = nlohmann::json::parse(read_text_file(meta), nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw ParseError(meta, 0, "not a JSON object");
    return j.value("kind", std::string());
}

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

struct Plan {
    std::string in_dir, scratch_dir, head_dir, jsonl, csv;
};

Plan plan_of(const OodRequest& r) {
    Plan p;
    p.in_dir = r.in_models.empty() ? r.out + "/in" : r.in_models;
    p.scratch_dir = r.out + "/scratch";
    p.head_dir = r.out + "/head";
    p.jsonl = r.out + "/ood.jsonl";
    p.csv = r.out + "/ood.csv";
    return p;
}

/// Checks the request before anything is read or written; returns the model files the run writes.
std::vector<std::string> check_request(const OodRequest& r, const Plan& plan) {
    check_counting_model(r.settings.model);
    if (r.patterns.empty() || r.seeds.empty()) throw InvalidArgument("no patterns or no seeds");
    if (r.out.empty()) throw InvalidArgument("no output directory");
    for (const auto* dir : {&r.in, &r.ood})
        if (!is_directory(*dir)) throw IoError("counting dataset " + *dir + ": not a directory");
    if (r.in == r.ood) throw InvalidArgument("--in and --ood are the same dataset " + r.in);
    const std::string kin = kind_of(r.in), kood = kind_of(r.ood);
    if (!kin.empty() && kin == kood)
        throw InvalidArgument("--in " + r.in + " and --ood " + r.ood + " are both '" + kin +
                              "' datasets (expected e.g. er and er-ood)");
    if (kin == "er-ood" && kood == "er")
        throw InvalidArgument("--in " + r.in + " is the er-ood dataset and --ood " + r.ood + " the er one: swap them");
    std::vector<std::string> outputs;
    for (Pattern p : r.patterns)
        for (auto seed : r.seeds) {
            RegressorSettings s = r.settings;
            s.pattern = p;
            s.seed = seed;
            if (!r.in_models.empty() && !file_exists(regressor_path(r.in_models, s)))
                throw IoError("cannot open " + regressor_path(r.in_models, s) +
                              ": missing (--in-models must hold every pattern and seed)");
            if (!r.in_models.empty()) check_regressor_file(regressor_path(r.in_models, s), r.settings);
            if (r.in_models.empty()) outputs.push_back(regressor_path(plan.in_dir, s));
            outputs.push_back(regressor_path(plan.scratch_dir, s));
            outputs.push_back(regressor_path(plan.head_dir, s));
        }
    if (!r.resume)
        for (const auto& path : outputs)
            if (file_exists(path)) throw InvalidArgument(path + " exists (--resume to keep it and go on)");
    return outputs;
}

/// The rows of `rows` grouped by (model, pattern, setting), in pattern order then setting order.
std::map<std::tuple<std::string, std::string, std::size_t>, std::vector<const OodRecord*>> grouped(
    const std::vector<OodRecord>& rows) {
    std::map<std::tuple<std::string, std::string, std::size_t>, std::vector<const OodRecord*>> g;
    const auto& settings = ood_settings();
    for (const auto& row : rows) {
        const auto it = std::find(settings.begin(), settings.end(), row.setting);
        const auto k = static_cast<std::size_t>(it - settings.begin());
        g[{row.model, row.pattern, k}].push_back(&row);
    }
    return g;
}

std::string csv_of(const std::vector<OodRecord>& rows) {
    std::vector<const OodRecord*> sorted;
    for (const auto& r : rows) sorted.push_back(&r);
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const OodRecord* a, const OodRecord* b) { return key_of(*a) < key_of(*b); });
    std::ostringstream csv;
    csv << "task,model,seed,value,direction\n";
    csv.precision(10);
    for (const auto* r : sorted)
        for (const auto& [metric, value] : {std::pair<const char*, double>{"l1", r->l1}, {"lc", r->lc}})
            csv << r->pattern << '/' << r->setting << '_' << metric << ',' << r->model << ',' << r->seed << ',' << value
                << ",min\n";
    return csv.str();
}

/// Everything one (pattern, seed) needs: the models are loaded or trained only when a row needs them.
class SeedRun {
public:
    SeedRun(const OodRequest& r, const Plan& plan, const CountingData& in, const CountingData& ood,
            torch::Device device, RunContext& ctx)
        : r_(r), plan_(plan), in_(in), ood_(ood), device_(device), ctx_(ctx) {}

    /// The measured row of `setting` for settings `s`.
    OodRecord row(const RegressorSettings& s, const std::string& setting) {
        const bool on_in = setting == "in_dist";
        const Regressor& m = setting == "ood_scratch" ? scratch(s) : setting == "ood_head" ? head(s) : trained(s);
        const CountingData& test = on_in ? in_ : ood_;
        const RegressorError e = evaluate_regressor(*m.model, test, test.test, s.pattern);
        OodRecord j;
        j.model = s.model;
        j.pattern = pattern_name(s.pattern);
        j.seed = s.seed;
        j.setting = setting;
        j.trained_on = setting == "in_dist" || setting == "ood" ? r_.in : r_.ood;
        j.tested_on = test.dir;
        j.l1 = e.l1;
        j.lc = e.lc;
        j.mean_count = e.mean_count;
        j.graphs = e.graphs;
        j.epochs_run = m.epochs_run;
        j.best_epoch = m.best_epoch;
        j.train_seconds = m.seconds;
        j.model_file = regressor_path(dir_of(setting), s);
        j.settings = settings_text(r_);
        return j;
    }

private:
    std::string dir_of(const std::string& setting) const {
        return setting == "ood_scratch" ? plan_.scratch_dir : setting == "ood_head" ? plan_.head_dir : plan_.in_dir;
    }

    /// Loads the model file of `s` in `dir`, or trains it (and saves it there).
    Regressor load_or_train(const std::string& dir, const CountingData& data, const RegressorSettings& s,
                            const RegressorStart& start, const char* what) {
        const std::string path = regressor_path(dir, s);
        if (file_exists(path)) {
            ctx_.info("attack ood: " + path + " exists, loaded");
            return load_regressor(path, device_);
        }
        ctx_.info(std::string("attack ood: ") + what + " " + s.name() + " on " + data.dir);
        Regressor m = train_regressor(data, s, ctx_, start, device_);
        save_regressor(m, dir);
        ctx_.info("attack ood: " + path + " (" + std::to_string(m.epochs_run) + " epochs, " + fixed(m.seconds, 1) +
                  " s)");
        return m;
    }

    const Regressor& trained(const RegressorSettings& s) {
        if (!trained_.model) trained_ = load_or_train(plan_.in_dir, in_, s, {}, "training");
        return trained_;
    }
    const Regressor& scratch(const RegressorSettings& s) {
        if (!scratch_.model) scratch_ = load_or_train(plan_.scratch_dir, ood_, s, {}, "training from scratch");
        return scratch_;
    }
    const Regressor& head(const RegressorSettings& s) {
        if (!head_.model) {
            RegressorStart start;
            start.from = &trained(s);
            start.from_name = regressor_path(plan_.in_dir, s);
            start.head_only = true;
            head_ = load_or_train(plan_.head_dir, ood_, s, start, "retraining the head of");
        }
        return head_;
    }

    const OodRequest& r_;
    const Plan& plan_;
    const CountingData& in_;
    const CountingData& ood_;
    torch::Device device_;
    RunContext& ctx_;
    Regressor trained_, scratch_, head_;
};

}  // namespace

const std::vector<std::string>& ood_settings() {
    static const std::vector<std::string> kSettings = {"in_dist", "ood", "ood_scratch", "ood_head"};
    return kSettings;
}

std::string ood_table(const std::vector<OodRecord>& rows) {
    std::ostringstream out;
    char line[256];
    std::snprintf(line, sizeof line, "%-8s %-20s %-12s %5s %10s %22s %22s\n", "model", "pattern", "setting", "seeds",
                  "mean_count", "l1 (mean +- sd)", "lc (mean +- sd)");
    out << line;
    for (const auto& [k, group] : grouped(rows)) {
        std::vector<double> l1, lc, count;
        for (const auto* r : group) {
            l1.push_back(r->l1);
            lc.push_back(r->lc);
            count.push_back(r->mean_count);
        }
        const std::size_t s = std::get<2>(k);
        std::snprintf(line, sizeof line, "%-8s %-20s %-12s %5zu %10.3f %11.4f +- %-7.4f %11.5f +- %-7.5f\n",
                      std::get<0>(k).c_str(), std::get<1>(k).c_str(),
                      s < ood_settings().size() ? ood_settings()[s].c_str() : "?", group.size(), sample_mean(count),
                      sample_mean(l1), sample_sd(l1), sample_mean(lc), sample_sd(lc));
        out << line;
    }
    return out.str();
}

OodResult run_ood(const OodRequest& request, RunContext& ctx) {
    const auto start = std::chrono::steady_clock::now();
    const Plan plan = plan_of(request);
    const std::vector<std::string> model_files = check_request(request, plan);
    const torch::Device device = parse_device(request.device);
    const CountingData in = read_counting_data(request.in);
    const CountingData ood = read_counting_data(request.ood);
    set_cpu_threads(ctx.threads());

    // Rows already measured (resume), all of this run's settings; rows written before rows
    // recorded their settings are vouched for by their model files, checked below.
    make_directories(request.out);
    const std::string settings = settings_text(request);
    std::vector<OodRecord> rows;
    std::set<RowKey> done;
    ResultsStore jsonl(plan.jsonl, request.resume,
                       ResultsSettings(settings,
                                       [&](const nlohmann::json& j, std::int64_t line) {
                                           const OodRecord row = ood_record_from_json(j, plan.jsonl, line);
                                           return row.settings.empty() ? settings : row.settings;
                                       }),
                       [&](nlohmann::json&& j, std::int64_t line) {
                           rows.push_back(ood_record_from_json(j, plan.jsonl, line));
                           done.insert(key_of(rows.back()));
                       });
    // A model file kept by --resume must have been trained as asked.
    for (const auto& path : model_files)
        if (file_exists(path)) check_regressor_file(path, request.settings);

    const std::size_t total = request.patterns.size() * request.seeds.size() * ood_settings().size();
    std::size_t finished = 0, resumed = 0;
    for (Pattern p : request.patterns)
        for (auto seed : request.seeds) {
            RegressorSettings s = request.settings;
            s.pattern = p;
            s.seed = seed;
            SeedRun run(request, plan, in, ood, device, ctx);
            for (const auto& setting : ood_settings()) {
                ctx.throw_if_cancelled();
                if (done.count(RowKey{s.model, pattern_name(p), seed, setting})) {
                    ++resumed;
                } else {
                    const OodRecord row = run.row(s, setting);
                    jsonl.append(to_json(row));
                    rows.push_back(row);
                    ctx.info("attack ood: " + s.name() + " " + setting + " l1 " + fixed(row.l1, 4) + " lc " +
                             fixed(row.lc, 5));
                }
                ctx.progress("attack ood", ++finished, total);
            }
        }
    OodResult result;
    result.report_rows = csv_of(rows);
    result.rows = std::move(rows);
    result.resumed = resumed;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

std::string ood_run_text(const OodResult& result, const OodRequest& request) {
    const Plan plan = plan_of(request);
    return ood_table(result.rows) + "wrote " + plan.jsonl + " and " + plan.csv + " (" +
           std::to_string(result.rows.size()) + " rows, " + std::to_string(result.resumed) + " resumed, " +
           fixed(result.seconds, 1) + " s)\n";
}

}  // namespace brec
