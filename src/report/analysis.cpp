#include "brec/report/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"

namespace brec {

const ReportCell* ReportAnalysis::cell(const std::string& task, const std::string& model) const {
    for (const auto& c : cells)
        if (c.task == task && c.model == model) return &c;
    return nullptr;
}

const ReportTask& ReportAnalysis::task(const std::string& name) const {
    for (const auto& t : tasks)
        if (t.name == name) return t;
    throw InvalidArgument("the report has no task '" + name + "'");
}

std::string ReportTask::label() const { return pairs >= 0 ? name + " (" + std::to_string(pairs) + ")" : name; }

std::vector<int> rank_order(const std::vector<double>& mean_ranks) {
    std::vector<int> order(mean_ranks.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return mean_ranks[a] < mean_ranks[b]; });
    return order;
}

std::vector<std::vector<int>> cd_cliques(const std::vector<double>& mean_ranks, double cd) {
    const int k = static_cast<int>(mean_ranks.size());
    const std::vector<int> order = rank_order(mean_ranks);
    std::vector<std::vector<int>> out;
    int last_end = -1;
    for (int i = 0; i < k; ++i) {
        int j = i;
        while (j + 1 < k && mean_ranks[order[j + 1]] - mean_ranks[order[i]] < cd) ++j;
        // Maximal: not contained in the previous run (which started earlier).
        if (j > i && j > last_end) {
            out.emplace_back(order.begin() + i, order.begin() + j + 1);
            last_end = j;
        }
    }
    return out;
}

namespace {

/// Both protocols' distinguished pairs per model and task (mean over seeds), for RPC results.
std::vector<ProtocolRow> protocol_rows(const ResultSet& results, const std::vector<ReportTask>& tasks) {
    std::vector<ProtocolRow> rows;
    for (const auto& model : results.models) {
        std::set<std::uint64_t> seeds;
        for (const auto& r : results.records)
            if (r.model == model && r.rpc) seeds.insert(r.seed);
        if (seeds.empty()) continue;
        for (const Protocol p : all_protocols()) {
            ProtocolRow row;
            row.model = model;
            row.protocol = p;
            row.seeds = static_cast<int>(seeds.size());
            row.total.known = true;
            bool any = false;
            for (const auto& task : tasks) {
                ProtocolCell cell;
                int n = 0;
                bool known = true;
                for (const auto& r : results.records) {
                    if (r.model != model || r.task != task.name || !r.rpc) continue;
                    const ProtocolCount& c = r.protocol(p);
                    known = known && c.known;
                    cell.distinguished += c.distinguished;
                    cell.reliability_failures += c.reliability_failures;
                    ++n;
                }
                if (n > 0) {
                    cell.known = known;
                    cell.distinguished /= n;
                    any = true;
                    row.total.known = row.total.known && known;
                    row.total.distinguished += cell.distinguished;
                    row.total.reliability_failures += cell.reliability_failures;
                }
                if (!cell.known) cell = ProtocolCell{};
                row.tasks.push_back(cell);
            }
            if (!any || !row.total.known) row.total = ProtocolCell{};
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

}  // namespace

ReportAnalysis analyse_results(const ResultSet& results, const ReportOptions& options) {
    if (!(options.alpha > 0 && options.alpha < 1)) throw InvalidArgument("alpha must lie in (0, 1)");
    if (options.bootstrap && options.resamples < 1) throw InvalidArgument("bootstrap needs at least one resample");
    ReportAnalysis a;
    a.options = options;
    a.results = results;
    a.notes = results.notes;

    // Group records into cells, seeds ascending. The reader gives every record of a task the same
    // direction; the task takes it from there, once.
    std::map<std::pair<std::string, std::string>, std::vector<const ResultRecord*>> groups;
    std::map<std::string, bool> direction;
    for (const auto& r : results.records) {
        groups[{r.task, r.model}].push_back(&r);
        direction.emplace(r.task, r.higher_is_better);
    }
    for (const auto& name : results.tasks) {
        ReportTask t;
        t.name = name;
        t.higher_is_better = direction.count(name) ? direction[name] : true;
        a.tasks.push_back(std::move(t));
    }
    for (const auto& task : results.tasks) {
        for (const auto& model : results.models) {
            auto it = groups.find({task, model});
            if (it == groups.end()) continue;
            auto recs = it->second;
            std::sort(recs.begin(), recs.end(),
                      [](const ResultRecord* x, const ResultRecord* y) { return x->seed < y->seed; });
            ReportCell c;
            c.task = task;
            c.model = model;
            int pairs_min = -1;
            for (const auto* r : recs) {
                c.seeds.push_back(r->seed);
                c.values.push_back(r->value);
                c.sources.push_back(r->source);
                if (r->pairs >= 0) {
                    if (pairs_min >= 0 && r->pairs != pairs_min)
                        a.notes.push_back(task + " / " + model + ": seeds ran different numbers of pairs (" +
                                          std::to_string(pairs_min) + " and " + std::to_string(r->pairs) + ")");
                    pairs_min = pairs_min < 0 ? r->pairs : std::min(pairs_min, r->pairs);
                    c.pairs = std::max(c.pairs, r->pairs);
                }
                if (r->reliability_failures >= 0)
                    c.reliability_failures = std::max(c.reliability_failures, 0) + r->reliability_failures;
            }
            c.t = t_interval(c.values, options.alpha);
            if (options.bootstrap) {
                // One stream per cell so that adding a model does not change the other intervals.
                const auto cell_id = static_cast<std::uint64_t>(a.cells.size());
                c.bootstrap = bootstrap_interval(c.values, stream_seed(options.bootstrap_seed, cell_id),
                                                 options.resamples, options.alpha);
                c.has_bootstrap = true;
            }
            a.cells.push_back(std::move(c));
        }
    }

    // Per task: its size and its best model(s).
    for (auto& t : a.tasks) {
        bool any = false;
        double best = 0.0;
        for (const auto& c : a.cells) {
            if (c.task != t.name) continue;
            t.pairs = std::max(t.pairs, c.pairs);
            if (!any || (t.higher_is_better ? c.t.mean > best : c.t.mean < best)) best = c.t.mean;
            any = true;
        }
        for (const auto& c : a.cells)
            if (c.task == t.name && c.t.mean == best) t.best.push_back(c.model);
    }

    a.protocols = protocol_rows(results, a.tasks);

    // Per task: every model pair, paired by seed, Holm within the task (each test separately).
    for (const auto& rt : a.tasks) {
        const std::string& task = rt.name;
        TaskComparisons tc;
        tc.task = task;
        tc.higher_is_better = rt.higher_is_better;
        std::vector<std::size_t> testable;
        for (std::size_t i = 0; i < results.models.size(); ++i)
            for (std::size_t j = i + 1; j < results.models.size(); ++j) {
                const ReportCell* x = a.cell(task, results.models[i]);
                const ReportCell* y = a.cell(task, results.models[j]);
                if (!x || !y) continue;
                PairComparison pc;
                pc.a = x->model;
                pc.b = y->model;
                std::vector<double> xs, ys;
                for (std::size_t p = 0; p < x->seeds.size(); ++p) {
                    const auto f = std::find(y->seeds.begin(), y->seeds.end(), x->seeds[p]);
                    if (f == y->seeds.end()) continue;
                    xs.push_back(x->values[p]);
                    ys.push_back(y->values[static_cast<std::size_t>(f - y->seeds.begin())]);
                }
                pc.n = static_cast<int>(xs.size());
                if (pc.n > 0) {
                    for (std::size_t p = 0; p < xs.size(); ++p) pc.mean_difference += (xs[p] - ys[p]) / pc.n;
                    if (pc.mean_difference != 0.0)
                        pc.better = (pc.mean_difference > 0) == tc.higher_is_better ? pc.a : pc.b;
                }
                if (pc.n >= 2) {
                    pc.testable = true;
                    pc.t = paired_t_test(xs, ys);
                    pc.wilcoxon = wilcoxon_signed_rank(xs, ys, options.wilcoxon_exact_limit);
                    pc.dz = cohens_dz(xs, ys);
                    testable.push_back(tc.rows.size());
                }
                tc.rows.push_back(std::move(pc));
            }
        std::vector<double> pt, pw;
        for (std::size_t r : testable) {
            pt.push_back(tc.rows[r].t.p_value);
            pw.push_back(tc.rows[r].wilcoxon.p_value);
        }
        const auto ht = holm_adjust(pt), hw = holm_adjust(pw);
        for (std::size_t i = 0; i < testable.size(); ++i) {
            auto& pc = tc.rows[testable[i]];
            pc.t_holm = ht[i];
            pc.wilcoxon_holm = hw[i];
            const bool st = ht[i] < options.alpha, sw = hw[i] < options.alpha;
            pc.agreement = st && sw ? "both" : (!st && !sw ? "neither" : (st ? "t only" : "W only"));
        }
        if (!tc.rows.empty()) a.comparisons.push_back(std::move(tc));
    }
    // With n non-zero differences the exact two-sided Wilcoxon p is at least 2 / 2^n: with too
    // few seeds the test cannot reject at α whatever the data (n <= 5 at α = 0.05).
    int blind = 0, total = 0, largest_blind = 0;
    for (const auto& tc : a.comparisons)
        for (const auto& pc : tc.rows) {
            if (!pc.testable) continue;
            ++total;
            if (pc.wilcoxon.exact && std::ldexp(2.0, -pc.wilcoxon.n) >= options.alpha) {
                ++blind;
                largest_blind = std::max(largest_blind, pc.wilcoxon.n);
            }
        }
    if (blind > 0) {
        char floor_p[32], alpha[32];
        std::snprintf(floor_p, sizeof floor_p, "%.4g", std::ldexp(2.0, -largest_blind));
        std::snprintf(alpha, sizeof alpha, "%g", options.alpha);
        a.notes.push_back("Wilcoxon signed-rank: " + std::to_string(blind) + " of " + std::to_string(total) +
                          " comparisons rest on at most " + std::to_string(largest_blind) +
                          " non-zero paired differences, where the smallest possible exact two-sided p (2/2^" +
                          std::to_string(largest_blind) + " = " + floor_p + ") is not below alpha = " + alpha +
                          ": the Wilcoxon column cannot reject there; more seeds are needed");
    }

    // Across tasks: Friedman on the cell means of the tasks that have every model.
    RankAnalysis& ra = a.ranks;
    ra.models = results.models;
    std::vector<std::vector<double>> scores;
    std::vector<bool> higher;
    std::vector<std::string> dropped;
    for (const auto& rt : a.tasks) {
        const std::string& task = rt.name;
        std::vector<double> row;
        for (const auto& m : results.models) {
            const ReportCell* c = a.cell(task, m);
            if (!c) break;
            row.push_back(c->t.mean);
        }
        if (row.size() != results.models.size()) {
            dropped.push_back(task);
            continue;
        }
        ra.tasks.push_back(task);
        scores.push_back(row);
        higher.push_back(rt.higher_is_better);
    }
    if (!dropped.empty() && results.models.size() >= 2) {
        std::string list;
        for (const auto& t : dropped) list += (list.empty() ? "" : ", ") + t;
        a.notes.push_back("Friedman/Nemenyi: tasks without a result for every model left out: " + list);
    }
    if (results.models.size() < 2) {
        ra.reason = "needs at least 2 models";
    } else if (ra.tasks.size() < 2) {
        ra.reason =
            "needs at least 2 tasks with a result for every model (found " + std::to_string(ra.tasks.size()) + ")";
    } else {
        ra.available = true;
        ra.ranks = rank_rows(scores, higher);
        ra.friedman = friedman_test(scores, higher);
        const int k = static_cast<int>(results.models.size());
        const Nemenyi nm = nemenyi(k, static_cast<int>(ra.tasks.size()), options.alpha);
        ra.q_alpha = nm.q_alpha;
        ra.cd = nm.cd;
        ra.order = rank_order(ra.friedman.mean_ranks);
        ra.cliques = cd_cliques(ra.friedman.mean_ranks, ra.cd);
    }
    return a;
}

}  // namespace brec
