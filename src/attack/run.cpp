// brec attack run: graph selection, parallel attacks over (graph, model seed), resumable JSONL
// records, the summary, the report rows and the figure.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <fstream>
#include <iomanip>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "brec/attack/attack.hpp"
#include "brec/attack/regressor.hpp"
#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
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

nlohmann::ordered_json summarize_attack(const std::vector<nlohmann::json>& records, const AttackRunOptions& o) {
    const std::size_t stages = o.attack.budgets.size();
    // success[seed][stage] over graphs.
    std::map<std::uint64_t, std::vector<std::vector<double>>> success;
    std::vector<double> t_all(stages), t_any(stages), t_first(stages), t_n(stages);
    std::set<std::int64_t> graphs;
    for (const auto& r : records) {
        const auto seed = r.at("seed").get<std::uint64_t>();
        graphs.insert(r.at("graph").get<std::int64_t>());
        auto& per = success[seed];
        per.resize(stages);
        const auto& st = r.at("stages");
        for (std::size_t k = 0; k < stages && k < st.size(); ++k) {
            const bool ok = st[k].at("success").get<bool>();
            per[k].push_back(ok ? 1.0 : 0.0);
            if (ok && st[k].contains("transfer")) {
                const auto& t = st[k]["transfer"];
                t_n[k] += 1;
                t_all[k] += t.at("all").get<bool>() ? 1 : 0;
                t_any[k] += t.at("any").get<bool>() ? 1 : 0;
                t_first[k] += t.at("first").get<bool>() ? 1 : 0;
            }
        }
    }
    nlohmann::ordered_json j;
    j["command"] = "attack";
    j["model"] = o.model;
    j["pattern"] = pattern_name(o.attack.pattern);
    j["space"] = space_name(o.attack.space);
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

AttackRunResult run_attack(const AttackRunOptions& o, RunContext& ctx) {
    const auto start = std::chrono::steady_clock::now();
    if (o.seeds.empty()) throw InvalidArgument("attack: no model seeds");
    if (o.out.empty()) throw InvalidArgument("attack: --out FILE.jsonl is required");
    if (o.jobs < 1) throw InvalidArgument("attack: --jobs must be positive");
    if (o.attack.budgets.empty()) throw InvalidArgument("attack: no budgets");
    for (int b : o.attack.budgets)
        if (b < 1) throw InvalidArgument("attack: budgets must be positive, found " + std::to_string(b));
    if (file_exists(o.out) && !o.resume)
        throw InvalidArgument("attack: " + o.out + " exists (use --resume to continue it, or another --out)");
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
    const std::string id = settings_id(o);
    std::set<std::pair<std::int64_t, std::uint64_t>> done;
    std::vector<nlohmann::json> records;
    if (o.resume && file_exists(o.out)) {
        // A run killed while writing leaves a torn or unterminated last line: appending after it
        // would glue the next record onto it.
        repair_jsonl_tail(o.out);
        std::int64_t line = 0;
        for (const auto& text : read_jsonl_lines(o.out)) {
            ++line;
            auto j = nlohmann::json::parse(text);
            if (j.value("settings", std::string()) != id)
                throw ParseError(o.out, line,
                                 "record written with other settings (" + j.value("settings", std::string("?")) +
                                     "); use another --out");
            done.emplace(j.at("graph").get<std::int64_t>(), j.at("seed").get<std::uint64_t>());
            records.push_back(std::move(j));
        }
    }

    // One LibTorch thread per worker, and OpenBLAS's process-wide pool single-threaded too: a
    // threaded pool spins against itself when workers call it at once.
    set_cpu_threads(1);
    // Selection: the first test graphs on which every seed's model is within the tolerance.
    std::vector<double> clean_loss_all;  // [test graph][seed]
    const auto test_graphs = pick(data.graphs, data.test);
    clean_loss_all.assign(test_graphs.size() * o.seeds.size(), 0.0);
    for (std::size_t s = 0; s < o.seeds.size(); ++s) {
        ctx.throw_if_cancelled();
        auto r = load_regressor(paths[s], device);
        const auto pred = predict_counts(*r.model, test_graphs);
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
            if (!done.count({static_cast<std::int64_t>(data.test[c]), o.seeds[s]})) tasks.push_back({c, s});

    AttackRunResult result;
    result.graphs = chosen.size();
    result.resumed = done.size();
    result.tasks = tasks.size();
    std::ofstream out(o.out, std::ios::app);
    if (!out) throw IoError("cannot open " + o.out + " for writing");
    std::mutex out_mutex;
    std::atomic<std::size_t> next{0}, finished{0};
    std::exception_ptr error;
    std::atomic<bool> failed{false};
    auto worker = [&]() {
        try {
            set_torch_threads(1);
            std::vector<Regressor> models;
            for (const auto& path : paths) models.push_back(load_regressor(path, device));
            for (;;) {
                if (failed.load() || ctx.cancelled()) return;
                const std::size_t t = next.fetch_add(1);
                if (t >= tasks.size()) return;
                const Task& task = tasks[t];
                const std::size_t gid = data.test[task.test_pos];
                AttackSettings a = o.attack;
                const auto seed = o.seeds[task.seed_index];
                const auto res = attack_graph(data.graphs[gid], predictor_of(*models[task.seed_index].model), a,
                                              stream_seed(stream_seed(a.seed, seed), gid));
                nlohmann::json rec;
                rec["settings"] = id;
                rec["model"] = o.model;
                rec["pattern"] = pattern_name(a.pattern);
                rec["space"] = space_name(a.space);
                rec["seed"] = seed;
                rec["graph"] = gid;
                rec["count"] = res.count;
                rec["prediction"] = res.prediction;
                rec["loss"] = res.loss;
                nlohmann::json stages = nlohmann::json::array();
                for (const auto& st : res.stages) {
                    nlohmann::json j;
                    j["budget"] = st.budget;
                    j["flips"] = st.flips;
                    j["count"] = st.count;
                    j["prediction"] = st.prediction;
                    j["loss"] = st.loss;
                    j["success"] = st.success;
                    if (st.success && o.seeds.size() > 1) {
                        bool all = true, any = false, first = false, is_first = true;
                        std::vector<std::uint64_t> fooled;
                        for (std::size_t s = 0; s < o.seeds.size(); ++s) {
                            if (s == task.seed_index) continue;
                            const double f = predict_counts(*models[s].model, {st.graph}).at(0);
                            const bool ok = is_adversarial(clean_loss_all[task.test_pos * o.seeds.size() + s],
                                                           std::abs(f - static_cast<double>(st.count)), a);
                            all = all && ok;
                            any = any || ok;
                            if (is_first) first = ok;
                            is_first = false;
                            if (ok) fooled.push_back(o.seeds[s]);
                        }
                        j["transfer"] = {{"all", all}, {"any", any}, {"first", first}, {"fooled", fooled}};
                    }
                    stages.push_back(j);
                }
                rec["stages"] = stages;
                std::lock_guard<std::mutex> lock(out_mutex);
                out << rec.dump() << '\n';
                out.flush();
                records.push_back(std::move(rec));
                ctx.progress("attack", finished.fetch_add(1) + 1, tasks.size());
            }
        } catch (...) {
            std::lock_guard<std::mutex> lock(out_mutex);
            if (!error) error = std::current_exception();
            failed.store(true);
        }
    };
    const int threads = static_cast<int>(
        std::min<std::size_t>(static_cast<std::size_t>(o.jobs), std::max<std::size_t>(1, tasks.size())));
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i) pool.emplace_back(worker);
    worker();
    for (auto& th : pool) th.join();
    out.close();
    if (error) std::rethrow_exception(error);
    ctx.throw_if_cancelled();

    result.summary = summarize_attack(records, o);
    result.summary["out"] = o.out;
    // How many tasks this invocation ran or resumed is no result: a resumed run's summary file is
    // byte for byte the one of an uninterrupted run (AttackRunResult keeps both counts).
    write_text_file_atomic(o.out + ".summary.json", result.summary.dump(2) + "\n");
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
    write_text_file_atomic(o.out + ".csv", csv.str());
    SuccessCurve curve;
    curve.label = o.model + " / " + space_name(o.attack.space);
    for (const auto& row : result.summary["stages"]) {
        curve.budget.push_back(row["budget"].get<double>());
        curve.rate.push_back(row["success_rate"].get<double>());
        curve.error.push_back(row["error"].get<double>());
    }
    write_text_file_atomic(o.out + ".svg",
                           success_rate_svg({curve}, std::string("Attack success, ") + pattern_name(o.attack.pattern)));
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

}  // namespace brec
