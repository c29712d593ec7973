// brec attack run: graph selection, parallel attacks over (graph, model seed), resumable JSONL
// records, the summary and the report rows.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "brec/attack/attack.hpp"
#include "brec/attack/regressor.hpp"
#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/core/parallel.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/records.hpp"
#include "brec/io/results_store.hpp"
#include "brec/nn/device.hpp"
#include "brec/report/attack_figure.hpp"
#include "brec/stats/tests.hpp"

namespace brec {
namespace {

/// The settings that make two records comparable (resume refuses a file written with others).
std::string settings_id(const AttackRunOptions& o) {
    const auto& a = o.attack;
    std::ostringstream s;
    s << o.model << '/' << pattern_name(a.pattern) << '/' << space_name(a.space) << "/search"
      << static_cast<int>(a.search) << "/sampling" << static_cast<int>(a.sampling) << "/budgets";
    for (int b : a.budgets) s << ',' << b;
    s << "/k" << a.sample_edges << "/w" << a.beam_width << "/delta" << a.delta << "/tol" << a.tolerance << "/seed"
      << a.seed << "/seeds";
    for (auto x : o.seeds) s << ',' << x;
    // Runs made before the objective was a setting maximised |f - C|: their ids stay valid.
    if (a.objective != RegressionLoss::l1) s << "/objective-" << regression_loss_name(a.objective);
    return s.str();
}

CountPredictor predictor_of(GraphEmbedder& model) {
    return [&model](const std::vector<Graph>& graphs) { return predict_counts(model, graphs); };
}

std::vector<Graph> pick(const std::vector<Graph>& graphs, const std::vector<std::size_t>& ids) {
    std::vector<Graph> out;
    for (auto i : ids) out.push_back(graphs[i]);
    return out;
}

std::string task_name(const AttackRunOptions& o, const std::string& what) {
    return std::string("attack/") + pattern_name(o.attack.pattern) + "/" + space_name(o.attack.space) + "/" + what;
}

}  // namespace

nlohmann::ordered_json summarize_attack(const std::vector<AttackRecord>& records, const AttackRunOptions& o) {
    const std::size_t stages = o.attack.budgets.size();
    // success[seed][stage] over graphs.
    std::map<std::uint64_t, std::vector<std::vector<double>>> success;
    std::vector<double> t_all(stages), t_any(stages), t_first(stages), t_n(stages);
    std::set<std::uint64_t> graphs;
    for (const auto& r : records) {
        graphs.insert(r.graph);
        auto& per = success[r.seed];
        per.resize(stages);
        for (std::size_t k = 0; k < stages && k < r.stages.size(); ++k) {
            const AttackStageRecord& st = r.stages[k];
            per[k].push_back(st.success ? 1.0 : 0.0);
            if (st.success && st.has_transfer) {
                t_n[k] += 1;
                t_all[k] += st.transfer_all ? 1 : 0;
                t_any[k] += st.transfer_any ? 1 : 0;
                t_first[k] += st.transfer_first ? 1 : 0;
            }
        }
    }
    nlohmann::ordered_json j;
    j["command"] = "attack";
    j["model"] = o.model;
    j["pattern"] = pattern_name(o.attack.pattern);
    j["space"] = space_name(o.attack.space);
    j["objective"] = regression_loss_name(o.attack.objective);
    j["graphs"] = graphs.size();
    j["seeds"] = o.seeds;
    j["budgets"] = o.attack.budgets;
    std::vector<int> cumulative;
    int total = 0;
    for (int b : o.attack.budgets) cumulative.push_back(total += b);
    j["cumulative_budgets"] = cumulative;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    std::vector<double> aucs;
    for (std::size_t k = 0; k < stages; ++k) {
        std::vector<double> rates;
        for (const auto& [seed, per] : success) rates.push_back(sample_mean(per[k]));
        nlohmann::ordered_json row;
        row["budget"] = cumulative[k];
        row["success_rate"] = sample_mean(rates);
        row["error"] = rates.empty() ? 0.0 : sample_sd(rates) / std::sqrt(static_cast<double>(rates.size()));
        row["adversarial"] = static_cast<std::int64_t>(t_n[k]);
        row["transfer_all"] = t_n[k] > 0 ? t_all[k] / t_n[k] : 0.0;
        row["transfer_any"] = t_n[k] > 0 ? t_any[k] / t_n[k] : 0.0;
        row["transfer_first"] = t_n[k] > 0 ? t_first[k] / t_n[k] : 0.0;
        rows.push_back(row);
    }
    j["stages"] = rows;
    if (stages == 4) {
        for (const auto& [seed, per] : success) {
            std::vector<double> r;
            for (const auto& v : per) r.push_back(sample_mean(v));
            aucs.push_back(attack_auc(r));
        }
        j["auc"] = sample_mean(aucs);
        j["auc_error"] = aucs.empty() ? 0.0 : sample_sd(aucs) / std::sqrt(static_cast<double>(aucs.size()));
    }
    // Per seed, for the report rows.
    nlohmann::ordered_json per_seed = nlohmann::ordered_json::object();
    for (const auto& [seed, per] : success) {
        std::vector<double> r;
        for (const auto& v : per) r.push_back(sample_mean(v));
        per_seed[std::to_string(seed)] = r;
    }
    j["success_rate_per_seed"] = per_seed;
    return j;
}

AttackRunResult run_attack(const AttackRunOptions& options, RunContext& ctx) {
    AttackRunOptions o = options;
    const auto start = std::chrono::steady_clock::now();
    if (o.seeds.empty()) throw InvalidArgument("attack: no model seeds");
    if (o.out.empty()) throw InvalidArgument("attack: --out FILE.jsonl is required");
    if (o.jobs < 1) throw InvalidArgument("attack: --jobs must be positive");
    if (o.attack.budgets.empty()) throw InvalidArgument("attack: no budgets");
    for (int b : o.attack.budgets)
        if (b < 1) throw InvalidArgument("attack: budgets must be positive, found " + std::to_string(b));
    const torch::Device device = parse_device(o.device);
    const CountingData data = read_counting_data(o.data);
    const auto p = static_cast<std::size_t>(o.attack.pattern);
    std::vector<std::string> paths;
    for (auto seed : o.seeds) {
        RegressorSettings rs;
        rs.model = o.model;
        rs.pattern = o.attack.pattern;
        rs.seed = seed;
        paths.push_back(regressor_path(o.models, rs));
        if (!file_exists(paths.back()))
            throw IoError("cannot open " + paths.back() + ": no " + o.model + " regressor for " +
                          pattern_name(o.attack.pattern) + " seed " + std::to_string(seed) +
                          " (train it with brec attack train)");
    }
    // Every seed's regressor, read once: their training losses give the objective, and they pick
    // the test graphs below.
    std::vector<Regressor> regressors;
    for (const auto& path : paths) regressors.push_back(load_regressor(path, device));
    if (o.objective_from_models) {
        // The original attacks each model with its training loss; every seed's must be the same.
        o.attack.objective = regressors.front().settings.loss;
        for (std::size_t s = 0; s < paths.size(); ++s)
            if (regressors[s].settings.loss != o.attack.objective)
                throw InvalidArgument("attack: " + paths[s] + " was trained with " +
                                      regression_loss_name(regressors[s].settings.loss) + ", " + paths.front() +
                                      " with " + regression_loss_name(o.attack.objective) +
                                      ": give the objective (--objective l1 or lc)");
    }
    const std::string id = settings_id(o);
    std::set<std::pair<std::uint64_t, std::uint64_t>> done;  // (graph, seed)
    std::vector<AttackRecord> records;
    const auto settings_of = [&](const nlohmann::json& j, std::int64_t line) {
        return attack_record_from_json(j, o.out, line).settings;
    };
    ResultsStore store(o.out, o.resume, ResultsSettings(id, settings_of), [&](nlohmann::json&& j, std::int64_t line) {
        AttackRecord r = attack_record_from_json(j, o.out, line);
        done.emplace(r.graph, r.seed);
        records.push_back(std::move(r));
    });

    // One LibTorch thread per worker, and OpenBLAS's process-wide pool single-threaded too: a
    // threaded pool spins against itself when workers call it at once.
    set_cpu_threads(1);
    // Selection: the first test graphs on which every seed's model is within the tolerance.
    std::vector<double> clean_loss_all;  // [test graph][seed]
    const auto test_graphs = pick(data.graphs, data.test);
    clean_loss_all.assign(test_graphs.size() * o.seeds.size(), 0.0);
    for (std::size_t s = 0; s < o.seeds.size(); ++s) {
        ctx.throw_if_cancelled();
        const auto pred = predict_counts(*regressors[s].model, test_graphs);
        for (std::size_t i = 0; i < test_graphs.size(); ++i)
            clean_loss_all[i * o.seeds.size() + s] =
                std::abs(pred[i] - static_cast<double>(data.counts[data.test[i]][p]));
    }
    std::vector<std::size_t> chosen;  // positions in data.test
    for (std::size_t i = 0; i < test_graphs.size() && chosen.size() < o.graphs; ++i) {
        bool ok = true;
        for (std::size_t s = 0; s < o.seeds.size(); ++s)
            ok = ok && clean_loss_all[i * o.seeds.size() + s] < o.attack.tolerance;
        if (ok) chosen.push_back(i);
    }
    ctx.info("attack: " + std::to_string(chosen.size()) + " test graphs predicted within " +
             std::to_string(o.attack.tolerance) + " by every seed");

    struct Task {
        std::size_t test_pos, seed_index;
    };
    std::vector<Task> tasks;
    for (std::size_t c : chosen)
        for (std::size_t s = 0; s < o.seeds.size(); ++s)
            if (!done.count({data.test[c], o.seeds[s]})) tasks.push_back({c, s});

    AttackRunResult result;
    result.graphs = chosen.size();
    result.resumed = done.size();
    result.tasks = tasks.size();
    std::mutex mutex;
    std::size_t finished = 0;
    const auto load_models = [&] {
        set_torch_threads(1);
        std::vector<Regressor> models;
        for (const auto& path : paths) models.push_back(load_regressor(path, device));
        return models;
    };
    parallel_for_each_worker(tasks.size(), o.jobs, load_models, [&](std::vector<Regressor>& models, std::size_t t) {
        ctx.throw_if_cancelled();
        const Task& task = tasks[t];
        const std::size_t gid = data.test[task.test_pos];
        const AttackSettings& a = o.attack;
        const auto seed = o.seeds[task.seed_index];
        const auto res = attack_graph(data.graphs[gid], predictor_of(*models[task.seed_index].model), a,
                                      stream_seed(stream_seed(a.seed, seed), gid));
        AttackRecord rec;
        rec.settings = id;
        rec.model = o.model;
        rec.pattern = pattern_name(a.pattern);
        rec.space = space_name(a.space);
        rec.seed = seed;
        rec.graph = gid;
        rec.count = res.count;
        rec.prediction = res.prediction;
        rec.loss = res.loss;
        for (const auto& st : res.stages) {
            AttackStageRecord stage;
            stage.budget = st.budget;
            stage.flips = st.flips;
            stage.count = st.count;
            stage.prediction = st.prediction;
            stage.loss = st.loss;
            stage.success = st.success;
            if (st.success && o.seeds.size() > 1) {
                // Does the adversarial graph fool the other seeds' models too?
                stage.has_transfer = true;
                stage.transfer_all = true;
                bool is_first = true;
                for (std::size_t s = 0; s < o.seeds.size(); ++s) {
                    if (s == task.seed_index) continue;
                    const double f = predict_counts(*models[s].model, {st.graph}).at(0);
                    const bool ok = is_adversarial(clean_loss_all[task.test_pos * o.seeds.size() + s],
                                                   std::abs(f - static_cast<double>(st.count)), a);
                    stage.transfer_all = stage.transfer_all && ok;
                    stage.transfer_any = stage.transfer_any || ok;
                    if (is_first) stage.transfer_first = ok;
                    is_first = false;
                    if (ok) stage.fooled.push_back(o.seeds[s]);
                }
            }
            rec.stages.push_back(std::move(stage));
        }
        store.append(to_json(rec));
        std::lock_guard<std::mutex> lock(mutex);
        records.push_back(std::move(rec));
        ctx.progress("attack", ++finished, tasks.size());
    });

    result.summary = summarize_attack(records, o);
    result.summary["out"] = o.out;
    // How many tasks this invocation ran or resumed is no result: a resumed run's summary is byte
    // for byte the one of an uninterrupted run (AttackRunResult keeps both counts).
    // Report rows: the success rate per budget and the AUC, per seed.
    std::ostringstream csv;
    csv << "task,model,seed,value,direction\n";
    const auto& per_seed = result.summary["success_rate_per_seed"];
    for (auto it = per_seed.begin(); it != per_seed.end(); ++it) {
        std::vector<double> rates = it.value().get<std::vector<double>>();
        for (std::size_t k = 0; k < rates.size(); ++k)
            csv << task_name(o, "budget" + std::to_string(result.summary["cumulative_budgets"][k].get<int>())) << ','
                << o.model << ',' << it.key() << ',' << rates[k] << ",max\n";
        if (rates.size() == 4)
            csv << task_name(o, "auc") << ',' << o.model << ',' << it.key() << ',' << attack_auc(rates) << ",max\n";
    }
    result.report_rows = csv.str();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

std::vector<std::uint64_t> parse_model_seeds(const std::string& text) {
    auto seeds = parse_seed_list(text);
    std::sort(seeds.begin(), seeds.end());
    seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
    return seeds;
}

std::vector<Pattern> parse_pattern_list(const std::string& text) {
    std::vector<Pattern> out;
    std::stringstream ss(text);
    for (std::string tok; std::getline(ss, tok, ',');) out.push_back(parse_pattern(tok));
    if (out.empty()) throw InvalidArgument("pattern list '" + text + "' is empty");
    return out;
}

std::vector<int> parse_budgets(const std::string& text) {
    std::vector<int> out;
    std::stringstream ss(text);
    for (std::string tok; std::getline(ss, tok, ',');) {
        std::int64_t v = 0;
        if (!parse_int64(tok, v) || v < 1 || v > 100000)
            throw InvalidArgument("--budgets '" + text + "': '" + tok + "' is not a positive number of flips");
        out.push_back(static_cast<int>(v));
    }
    if (out.empty()) throw InvalidArgument("--budgets '" + text + "': no budget");
    return out;
}

std::string attack_run_text(const AttackRunResult& r, const AttackRunOptions& options) {
    std::ostringstream out;
    out << "attack " << options.model << " " << pattern_name(options.attack.pattern) << " space "
        << space_name(options.attack.space) << ": " << r.graphs << " graphs, " << r.tasks << " tasks run, " << r.resumed
        << " resumed\n";
    out << "budget  success  error   transfer(all/any/first)\n";
    for (const auto& row : r.summary["stages"])
        out << std::fixed << std::setprecision(3) << std::left << std::setw(8) << row["budget"].get<int>()
            << std::setw(9) << row["success_rate"].get<double>() << std::setw(8) << row["error"].get<double>()
            << row["transfer_all"].get<double>() << "/" << row["transfer_any"].get<double>() << "/"
            << row["transfer_first"].get<double>() << '\n';
    if (r.summary.contains("auc")) out << "AUC " << r.summary["auc"].get<double>() << '\n';
    out << "wrote " << options.out << " (+ .summary.json, .csv, .svg)\n";
    return out.str();
}

void write_attack_outputs(const AttackRunResult& r, const AttackRunOptions& o) {
    write_text_file_atomic(o.out + ".summary.json", r.summary.dump(2) + "\n");
    write_text_file_atomic(o.out + ".csv", r.report_rows);
    SuccessCurve curve;
    curve.label = o.model + " / " + space_name(o.attack.space);
    for (const auto& row : r.summary["stages"]) {
        curve.budget.push_back(row["budget"].get<double>());
        curve.rate.push_back(row["success_rate"].get<double>());
        curve.error.push_back(row["error"].get<double>());
    }
    write_text_file_atomic(o.out + ".svg",
                           success_rate_svg({curve}, std::string("Attack success, ") + pattern_name(o.attack.pattern)));
}

}  // namespace brec
