// A whole `classify` run: orbits, kernels, folds, SVMs, resumable JSONL, and the summaries.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <mutex>
#include <optional>
#include <sstream>
#include <tuple>

#include "brec/classify/classify.hpp"
#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/dedup/run.hpp"
#include "brec/io/dir_writer.hpp"
#include "brec/io/files.hpp"
#include "brec/io/results_store.hpp"

namespace brec {
namespace {

nlohmann::json counts_json(const AccuracyCounts& a) {
    return {{"test", a.test},           {"iso", a.iso},
            {"new", a.fresh},           {"right_test", a.right_test},
            {"right_iso", a.right_iso}, {"right_new", a.right_new}};
}

template <typename T>
T field(const nlohmann::json& j, const char* name, const std::string& source, std::int64_t line) {
    if (!j.contains(name)) throw ParseError(source, line, std::string("missing field \"") + name + "\"");
    try {
        return j.at(name).get<T>();
    } catch (const nlohmann::json::exception&) {
        throw ParseError(source, line, std::string("field \"") + name + "\" has the wrong type");
    }
}

AccuracyCounts counts_from_json(const nlohmann::json& j, const std::string& source, std::int64_t line) {
    if (!j.is_object()) throw ParseError(source, line, "expected an object of accuracy counts");
    AccuracyCounts a;
    a.test = field<std::size_t>(j, "test", source, line);
    a.iso = field<std::size_t>(j, "iso", source, line);
    a.fresh = field<std::size_t>(j, "new", source, line);
    a.right_test = field<std::size_t>(j, "right_test", source, line);
    a.right_iso = field<std::size_t>(j, "right_iso", source, line);
    a.right_new = field<std::size_t>(j, "right_new", source, line);
    if (a.iso + a.fresh != a.test || a.right_iso > a.iso || a.right_new > a.fresh ||
        a.right_iso + a.right_new != a.right_test)
        throw ParseError(source, line, "inconsistent accuracy counts");
    return a;
}

using Key = std::tuple<std::string, std::string, std::string, std::string, std::size_t, std::uint64_t, std::size_t>;
Key key_of(const FoldRecord& r) { return {r.variant, r.model, r.mode, r.settings, r.folds, r.seed, r.fold}; }

/// A C-SVM on a precomputed kernel; C by inner validation with the fold's stream.
class KernelClassifier : public FoldClassifier {
public:
    KernelClassifier(KernelMatrix kernel, std::vector<Label> labels, std::vector<double> c_grid, std::size_t inner)
        : kernel_(std::move(kernel)), labels_(std::move(labels)), c_grid_(std::move(c_grid)), inner_(inner) {}
    FoldFit fit_predict(const Fold& fold, std::uint64_t stream, RunContext&) const override {
        Rng rng(stream);
        const SvmFit fit = svm_fit_predict(kernel_, labels_, fold.train, fold.test, c_grid_, inner_, rng);
        FoldFit out;
        out.predictions = fit.predictions;
        out.c = fit.c;
        return out;
    }

private:
    KernelMatrix kernel_;
    std::vector<Label> labels_;
    std::vector<double> c_grid_;
    std::size_t inner_;
};

/// A dataset version with its orbits, folds are drawn per seed.
struct Version {
    std::string variant, dataset;
    std::vector<Label> labels;
    Orbits orbits;
    std::unique_ptr<FoldClassifier> classifier;
};

AccuracyCounts pooled(const std::vector<const FoldRecord*>& rs, const AccuracyCounts FoldRecord::*which) {
    AccuracyCounts a;
    for (const auto* r : rs) {
        const AccuracyCounts& c = r->*which;
        a.test += c.test;
        a.iso += c.iso;
        a.fresh += c.fresh;
        a.right_test += c.right_test;
        a.right_iso += c.right_iso;
        a.right_new += c.right_new;
    }
    return a;
}

/// Records grouped by (variant, seed), in order.
std::map<std::pair<std::string, std::uint64_t>, std::vector<const FoldRecord*>> by_seed(const ClassifyResult& res) {
    std::map<std::pair<std::string, std::uint64_t>, std::vector<const FoldRecord*>> g;
    for (const auto& r : res.records) g[{r.variant, r.seed}].push_back(&r);
    return g;
}

std::string variant_dataset(const ClassifyResult& res, const std::string& variant) {
    return variant == "clean" ? res.name + "-clean" : res.name;
}

std::vector<std::pair<std::string, const AccuracyCounts FoldRecord::*>> model_variants(const ClassifyResult& res) {
    std::vector<std::pair<std::string, const AccuracyCounts FoldRecord::*>> v{{res.model, &FoldRecord::plain}};
    for (Peering p : res.peering) {
        if (p == Peering::homogeneous) v.emplace_back(res.model + "-PH", &FoldRecord::ph);
        if (p == Peering::majority) v.emplace_back(res.model + "-P", &FoldRecord::p);
    }
    return v;
}

struct MeanSd {
    double mean = std::numeric_limits<double>::quiet_NaN(), sd = 0;
    std::size_t n = 0;
};
MeanSd mean_sd(const std::vector<double>& xs) {
    MeanSd m;
    std::vector<double> v;
    for (double x : xs)
        if (!std::isnan(x)) v.push_back(x);
    m.n = v.size();
    if (v.empty()) return m;
    double s = 0;
    for (double x : v) s += x;
    m.mean = s / static_cast<double>(v.size());
    double q = 0;
    for (double x : v) q += (x - m.mean) * (x - m.mean);
    m.sd = v.size() > 1 ? std::sqrt(q / static_cast<double>(v.size() - 1)) : 0;
    return m;
}

std::string pct(const MeanSd& m) {
    if (m.n == 0) return "-";
    std::ostringstream o;
    o << std::fixed << std::setprecision(1) << 100 * m.mean << " ± " << 100 * m.sd;
    return o.str();
}

/// Per (variant, model variant): accuracies per seed (pooled over folds) and mean fold sizes.
struct Summary {
    std::string dataset, model;
    MeanSd test, iso, fresh;
    double iso_per_fold = 0, new_per_fold = 0;
};
std::vector<Summary> summarise(const ClassifyResult& res) {
    std::vector<Summary> out;
    const auto groups = by_seed(res);
    for (const std::string variant : {"original", "clean"}) {
        for (const auto& [model, which] : model_variants(res)) {
            std::vector<double> t, i, n;
            double iso = 0, fresh = 0, folds = 0;
            for (const auto& [key, rs] : groups) {
                if (key.first != variant) continue;
                const AccuracyCounts a = pooled(rs, which);
                t.push_back(a.acc_test());
                i.push_back(a.acc_iso());
                n.push_back(a.acc_new());
                iso += static_cast<double>(a.iso);
                fresh += static_cast<double>(a.fresh);
                folds += static_cast<double>(rs.size());
            }
            if (t.empty()) continue;
            Summary s{variant_dataset(res, variant), model, mean_sd(t), mean_sd(i), mean_sd(n), 0, 0};
            s.iso_per_fold = folds > 0 ? iso / folds : 0;
            s.new_per_fold = folds > 0 ? fresh / folds : 0;
            out.push_back(s);
        }
    }
    return out;
}

}  // namespace

nlohmann::json to_json(const FoldRecord& r) {
    nlohmann::json j = {{"dataset", r.dataset},
                        {"variant", r.variant},
                        {"model", r.model},
                        {"mode", r.mode},
                        {"settings", r.settings},
                        {"folds", r.folds},
                        {"seed", r.seed},
                        {"fold", r.fold},
                        {"acc_test", r.plain.test ? nlohmann::json(r.plain.acc_test()) : nlohmann::json()},
                        {"acc_iso", r.plain.iso ? nlohmann::json(r.plain.acc_iso()) : nlohmann::json()},
                        {"acc_new", r.plain.fresh ? nlohmann::json(r.plain.acc_new()) : nlohmann::json()},
                        {"counts", counts_json(r.plain)},
                        {"counts_ph", counts_json(r.ph)},
                        {"counts_p", counts_json(r.p)},
                        {"seconds", r.seconds}};
    if (r.model == "wl" || r.model == "vh") j["C"] = r.c;
    if (!r.fit.empty()) j["fit"] = r.fit;
    return j;
}

FoldRecord fold_record_from_json(const nlohmann::json& j, const std::string& source, std::int64_t line) {
    if (!j.is_object()) throw ParseError(source, line, "expected one JSON object per line");
    FoldRecord r;
    r.dataset = field<std::string>(j, "dataset", source, line);
    r.variant = field<std::string>(j, "variant", source, line);
    if (r.variant != "original" && r.variant != "clean")
        throw ParseError(source, line, "\"variant\" must be original or clean");
    r.model = field<std::string>(j, "model", source, line);
    r.mode = field<std::string>(j, "mode", source, line);
    r.settings = field<std::string>(j, "settings", source, line);
    r.folds = field<std::size_t>(j, "folds", source, line);
    r.seed = field<std::uint64_t>(j, "seed", source, line);
    r.fold = field<std::size_t>(j, "fold", source, line);
    if (r.fold >= r.folds) throw ParseError(source, line, "\"fold\" must be below \"folds\"");
    if (r.model == "wl" || r.model == "vh") r.c = field<double>(j, "C", source, line);
    if (j.contains("fit")) {
        if (!j.at("fit").is_object()) throw ParseError(source, line, "field \"fit\" must be an object");
        r.fit = j.at("fit");
    }
    r.plain = counts_from_json(j.contains("counts") ? j.at("counts") : nlohmann::json(), source, line);
    r.ph = counts_from_json(j.contains("counts_ph") ? j.at("counts_ph") : nlohmann::json(), source, line);
    r.p = counts_from_json(j.contains("counts_p") ? j.at("counts_p") : nlohmann::json(), source, line);
    r.seconds = j.contains("seconds") && j.at("seconds").is_number() ? j.at("seconds").get<double>() : 0.0;
    r.resumed = true;
    return r;
}

ClassifierMaker kernel_classifier(const ClassifyOptions& opt) {
    if (opt.model == "gin")
        throw InvalidArgument("model gin needs LibTorch: it is run by run_classify_torch (classify_torch module)");
    if (opt.model != "wl" && opt.model != "vh")
        throw InvalidArgument("unknown model '" + opt.model + "': use wl, vh or gin");
    if (opt.wl_rounds < 0) throw InvalidArgument("--wl-iterations must be >= 0");
    ClassifierMaker m;
    m.model = opt.model;
    std::ostringstream o;
    o << std::setprecision(17) << "h=" << (opt.model == "wl" ? opt.wl_rounds : 0) << ";C=";
    for (std::size_t k = 0; k < opt.c_grid.size(); ++k) o << (k ? "," : "") << opt.c_grid[k];
    o << ";inner=" << opt.inner_folds;
    m.settings = o.str();
    m.prepare = [opt](const std::vector<Graph>& graphs, const std::vector<Label>& labels, RunContext& ctx) {
        return std::make_unique<KernelClassifier>(graph_kernel(graphs, opt.model, opt.wl_rounds, ctx.threads()), labels,
                                                  opt.c_grid, opt.inner_folds);
    };
    return m;
}

ClassifyResult run_classify(const ClassifyOptions& opt, RunContext& ctx) {
    return run_classify(opt, kernel_classifier(opt), ctx);
}

ClassifyResult run_classify(const ClassifyOptions& opt, const ClassifierMaker& maker, RunContext& ctx) {
    const auto t0 = std::chrono::steady_clock::now();
    if (opt.folds < 2) throw InvalidArgument("--folds must be at least 2");
    if (opt.seeds.empty()) throw InvalidArgument("--seeds: give at least one seed");
    if (!opt.original && !opt.clean)
        throw InvalidArgument("nothing to run: neither the original nor the clean dataset");
    if (opt.resume && opt.out.empty()) throw InvalidArgument("--resume needs --out FILE");

    // Read the dataset and its orbits exactly as `brec dedup` does.
    DedupOptions d;
    d.path = opt.path;
    d.format = "tu";
    d.tu_name = opt.tu_name;
    d.node_labels = opt.node_labels;
    d.edge_labels = opt.edge_labels;
    d.keep_graphs = true;  // the models train on them
    DedupResult dd = run_dedup(d, ctx);
    const std::vector<Label>& labels = dd.data.labels;
    if (labels.size() != dd.data.graphs.size())
        throw InvalidArgument(opt.path + ": the dataset has no target labels (DS_graph_labels.txt)");

    ClassifyResult res;
    res.name = dd.data.name;
    res.model = maker.model;
    res.mode = mode_name(dd.mode);
    res.graphs = dd.data.graphs.size();
    res.peering = opt.peering;

    // Records to resume: the whole file is read and checked before anything is written.
    const std::string& settings = maker.settings;
    std::map<Key, FoldRecord> done;
    const auto settings_text = [&](const std::string& dataset, const std::string& model, const std::string& mode,
                                   const std::string& fit, std::size_t folds) {
        return "classify " + dataset + ", model " + model + ", " + mode + " isomorphism, settings " + fit + ", " +
               std::to_string(folds) + " folds";
    };
    ResultsStore store(opt.out, opt.resume,
                       ResultsSettings(settings_text(res.name, maker.model, res.mode, settings, opt.folds),
                                       [&](const nlohmann::json& j, std::int64_t line) {
                                           const FoldRecord r = fold_record_from_json(j, opt.out, line);
                                           // A record of this dataset names its variant's dataset ("NAME-clean").
                                           const bool ours = r.dataset == variant_dataset(res, r.variant);
                                           return settings_text(ours ? res.name : r.dataset, r.model, r.mode,
                                                                r.settings, r.folds);
                                       }),
                       [&](nlohmann::json&& j, std::int64_t line) {
                           FoldRecord r = fold_record_from_json(j, opt.out, line);
                           done.emplace(key_of(r), std::move(r));
                       });

    std::vector<Version> versions;
    const CleanResult cleaned = clean_dataset(dd.orbits, labels);
    res.clean_graphs = cleaned.kept.size();
    if (opt.original) {
        ctx.info("classify: " + res.name + ": preparing " + maker.model + " on " + std::to_string(res.graphs) +
                 " graphs");
        versions.push_back({"original", res.name, labels, dd.orbits, maker.prepare(dd.data.graphs, labels, ctx)});
    }
    if (opt.clean) {
        std::vector<Graph> graphs;
        Version v{"clean", res.name + "-clean", {}, {}, nullptr};
        std::vector<std::uint32_t> alone;  // every graph of the cleaned dataset is its own orbit
        for (std::size_t k = 0; k < cleaned.kept.size(); ++k) {
            graphs.push_back(dd.data.graphs[cleaned.kept[k]]);
            v.labels.push_back(labels[cleaned.kept[k]]);
            alone.push_back(static_cast<std::uint32_t>(k));
        }
        v.orbits = Orbits::from_roots(alone);
        if (graphs.size() < opt.folds)
            throw InvalidArgument(res.name + ": the cleaned dataset has " + std::to_string(graphs.size()) +
                                  " graphs, fewer than --folds");
        ctx.info("classify: " + v.dataset + ": preparing " + maker.model + " on " + std::to_string(graphs.size()) +
                 " graphs");
        v.classifier = maker.prepare(graphs, v.labels, ctx);
        versions.push_back(std::move(v));
    }

    // Folds of every (version, seed); the tasks still to run.
    struct Task {
        const Version* version;
        std::uint64_t seed;
        std::size_t fold;
        const std::vector<Fold>* folds;
    };
    std::map<std::pair<std::size_t, std::uint64_t>, std::vector<Fold>> all_folds;
    std::vector<Task> tasks;
    // The folds directory is written all or nothing, and created (with its parents) as needed.
    std::optional<AtomicDirWriter> folds_out;
    if (!opt.folds_dir.empty()) folds_out.emplace(opt.folds_dir, AtomicDirOptions().set_label("folds directory"));
    for (std::size_t vi = 0; vi < versions.size(); ++vi)
        for (std::uint64_t seed : opt.seeds) {
            Rng rng(stream_seed(seed, 0));
            auto& folds = all_folds[{vi, seed}] = stratified_folds(versions[vi].labels, opt.folds, rng);
            if (folds_out)
                folds_out->write(versions[vi].dataset + "_seed" + std::to_string(seed) + "_folds.json",
                                 folds_to_json(folds).dump() + "\n");
        }
    if (folds_out) folds_out->commit();
    for (std::size_t vi = 0; vi < versions.size(); ++vi)
        for (std::uint64_t seed : opt.seeds)
            for (std::size_t f = 0; f < opt.folds; ++f) {
                FoldRecord probe;
                probe.variant = versions[vi].variant;
                probe.model = maker.model;
                probe.mode = res.mode;
                probe.settings = settings;
                probe.folds = opt.folds;
                probe.seed = seed;
                probe.fold = f;
                const auto it = done.find(key_of(probe));
                if (it != done.end())
                    res.records.push_back(it->second);
                else
                    tasks.push_back({&versions[vi], seed, f, &all_folds[{vi, seed}]});
            }
    if (!done.empty())
        ctx.info("classify: resuming: " + std::to_string(res.records.size()) + " folds kept from " + opt.out);

    // In task order, so that the file does not depend on the number of threads.
    OrderedAppender appender(store);
    std::mutex mutex;
    std::size_t finished = 0;
    std::vector<FoldRecord> computed(tasks.size());
    parallel_for(tasks.size(), ctx.threads(), [&](std::size_t t) {
        ctx.throw_if_cancelled();
        const auto start = std::chrono::steady_clock::now();
        const Task& task = tasks[t];
        const Version& v = *task.version;
        const Fold& fold = (*task.folds)[task.fold];
        const FoldFit fit = v.classifier->fit_predict(fold, stream_seed(task.seed, 1 + task.fold), ctx);
        if (fit.predictions.size() != fold.test.size())
            throw Error("classify: " + maker.model + " gave " + std::to_string(fit.predictions.size()) +
                        " predictions for " + std::to_string(fold.test.size()) + " test graphs");
        FoldRecord r;
        r.dataset = v.dataset;
        r.variant = v.variant;
        r.model = maker.model;
        r.mode = res.mode;
        r.settings = settings;
        r.folds = opt.folds;
        r.seed = task.seed;
        r.fold = task.fold;
        r.c = fit.c;
        r.fit = fit.details;
        r.plain = count_accuracy(v.orbits, v.labels, fold, fit.predictions);
        r.ph = count_accuracy(v.orbits, v.labels, fold,
                              apply_peering(v.orbits, v.labels, fold, fit.predictions, Peering::homogeneous));
        r.p = count_accuracy(v.orbits, v.labels, fold,
                             apply_peering(v.orbits, v.labels, fold, fit.predictions, Peering::majority));
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        appender.add(t, to_json(r));
        std::lock_guard<std::mutex> lock(mutex);
        computed[t] = std::move(r);
        ctx.progress("classify", ++finished, tasks.size());
    });
    for (auto& r : computed) res.records.push_back(std::move(r));
    std::sort(res.records.begin(), res.records.end(),
              [](const FoldRecord& a, const FoldRecord& b) { return key_of(a) < key_of(b); });
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
}

std::string classify_rows_csv(const ClassifyResult& res) {
    std::ostringstream o;
    o << "task,model,seed,value\n" << std::setprecision(10);
    for (const auto& [key, rs] : by_seed(res)) {
        const std::string ds = variant_dataset(res, key.first);
        for (const auto& [model, which] : model_variants(res)) {
            const AccuracyCounts a = pooled(rs, which);
            o << ds << "/acc_test," << model << ',' << key.second << ',' << a.acc_test() << '\n';
            if (a.iso > 0) o << ds << "/acc_iso," << model << ',' << key.second << ',' << a.acc_iso() << '\n';
            if (a.fresh > 0) o << ds << "/acc_new," << model << ',' << key.second << ',' << a.acc_new() << '\n';
        }
    }
    return o.str();
}

std::string classify_table(const ClassifyResult& res) {
    std::ostringstream o;
    o << std::left << std::setw(22) << "dataset" << std::setw(9) << "model" << std::setw(16) << "acc(Y_test) %"
      << std::setw(16) << "acc(Y_iso) %" << std::setw(16) << "acc(Y_new) %"
      << "|Y_iso|/fold  |Y_new|/fold\n";
    for (const Summary& s : summarise(res)) {
        o << std::setw(22) << s.dataset << std::setw(9) << s.model << std::setw(17) << pct(s.test) << std::setw(17)
          << pct(s.iso) << std::setw(17) << pct(s.fresh) << std::fixed << std::setprecision(1) << std::setw(14)
          << s.iso_per_fold << s.new_per_fold << '\n';
    }
    o << "(mean ± sd over " << by_seed(res).size() / std::max<std::size_t>(1, (res.clean_graphs ? 2 : 1))
      << " seed run(s); accuracy pooled over the folds of a seed; " << res.seconds << " s)\n";
    return o.str();
}

std::string classify_markdown(const ClassifyResult& res) {
    std::ostringstream o;
    o << "# " << res.name << ": " << res.model << " with isomorphism-bias accounting\n\n"
      << res.graphs << " graphs, " << res.clean_graphs << " after cleaning (orbits under " << res.mode
      << " isomorphism). Accuracy in %, mean ± sd over seeds, pooled over the folds of each seed.\n\n"
      << "| dataset | model | acc(Y_test) | acc(Y_iso) | acc(Y_new) | |Y_iso|/fold | |Y_new|/fold |\n"
      << "|---|---|---|---|---|---|---|\n";
    const auto sums = summarise(res);
    for (const Summary& s : sums)
        o << "| " << s.dataset << " | " << s.model << " | " << pct(s.test) << " | " << pct(s.iso) << " | "
          << pct(s.fresh) << " | " << std::fixed << std::setprecision(1) << s.iso_per_fold << " | " << s.new_per_fold
          << " |\n";
    o << '\n';
    for (const Summary& s : sums) {
        if (s.dataset != res.name || s.model != res.model) continue;
        if (s.iso.n == 0) {
            o << "No test graph of " << s.dataset << " is isomorphic to a training graph: Y_iso is empty.\n";
            continue;
        }
        const double gain = 100 * (s.test.mean - s.fresh.mean);
        o << std::fixed << std::setprecision(1) << "On " << s.dataset << ", Y_iso "
          << (gain > 0 ? "inflates" : "does not inflate") << " acc(Y_test): " << 100 * s.test.mean << " % on Y_test vs "
          << 100 * s.fresh.mean << " % on Y_new (" << (gain >= 0 ? "+" : "") << gain
          << " points); acc(Y_iso) = " << 100 * s.iso.mean << " % on " << s.iso_per_fold << " graphs per fold.\n";
    }
    return o.str();
}

}  // namespace brec
