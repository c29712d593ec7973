// Greedy and beam search over edge flips (one graph, one model).
#include <algorithm>
#include <cmath>
#include <limits>

#include "brec/attack/attack.hpp"
#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/count/flip.hpp"

namespace brec {
namespace {

/// A perturbed graph with its exact count and the model's prediction.
struct State {
    Graph graph;
    std::int64_t count = 0;
    double prediction = 0.0;
    double error = 0.0;  ///< |f - C|
    double loss = 0.0;   ///< the objective the search maximises
    std::vector<std::pair<VertexId, VertexId>> flips;
};

/// The search's objective of a prediction of a graph with `count` occurrences.
double objective_of(double prediction, std::int64_t count, RegressionLoss objective) {
    const double error = std::abs(prediction - static_cast<double>(count));
    return objective == RegressionLoss::lc ? error / (static_cast<double>(count) + 1.0) : error;
}

struct Candidate {
    VertexId u = 0, v = 0;
    std::int64_t count = 0;
    std::size_t parent = 0;  ///< beam index
};

/// Up to k items of `pairs` without replacement, probability proportional to `weight` (weights
/// of 0 are never drawn): the k largest keys log(U) / w (Efraimidis and Spirakis), in the order
/// of the pairs (which keeps ties in the search deterministic).
std::vector<Edge> weighted_sample(const std::vector<Edge>& pairs, const std::vector<double>& weight, int k, Rng& rng) {
    std::vector<std::pair<double, std::size_t>> keys;
    keys.reserve(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        double u = rng.uniform();
        if (weight[i] <= 0.0) continue;
        if (u <= 0.0) u = 0x1.0p-53;
        keys.emplace_back(std::log(u) / weight[i], i);
    }
    const auto take = std::min<std::size_t>(keys.size(), static_cast<std::size_t>(k));
    std::partial_sort(
        keys.begin(), keys.begin() + static_cast<long>(take), keys.end(),
        [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < take; ++i) idx.push_back(keys[i].second);
    std::sort(idx.begin(), idx.end());
    std::vector<Edge> out;
    for (auto i : idx) out.push_back(pairs[i]);
    return out;
}

double pair_weight(const Graph& g, VertexId u, VertexId v, Sampling s) {
    const double du = g.degree(u), dv = g.degree(v);
    return s == Sampling::code ? (du + dv) * (du + dv) : du * du + dv * dv;
}

/// The sampled candidate flips of a greedy step: edges and non-edges drawn separately.
std::vector<Edge> greedy_candidates(const Graph& g, const AttackSettings& s, Rng& rng) {
    std::vector<Edge> edges, non_edges;
    std::vector<double> we, wn;
    for (VertexId u = 0; u < g.n(); ++u)
        for (VertexId v = u + 1; v < g.n(); ++v) {
            const bool e = g.has_edge(u, v);
            (e ? edges : non_edges).emplace_back(u, v);
            (e ? we : wn).push_back(pair_weight(g, u, v, s.sampling));
        }
    auto out = weighted_sample(edges, we, s.sample_edges, rng);
    const auto more = weighted_sample(non_edges, wn, s.sample_edges, rng);
    out.insert(out.end(), more.begin(), more.end());
    return out;
}

/// Whether a flip is in the space; sets the new count.
bool admissible(const Graph& g, VertexId u, VertexId v, const AttackSettings& s, std::int64_t count, FlipWorkspace& ws,
                std::int64_t& new_count) {
    if (s.space == PerturbationSpace::any) {
        new_count = count + flip_total_delta(g, u, v, ws)[static_cast<std::size_t>(s.pattern)];
        return true;
    }
    const auto a = flip_admissibility(g, u, v, s.pattern, ws);
    new_count = count + a.delta;
    return s.space == PerturbationSpace::count_preserving ? a.count_preserving : a.subgraph_preserving;
}

bool undoes(const State& st, VertexId u, VertexId v) {
    return std::find(st.flips.begin(), st.flips.end(), std::make_pair(u, v)) != st.flips.end();
}

/// Scores candidates: the perturbed graphs, predicted in one call.
std::vector<State> score(const std::vector<State>& from, const std::vector<Candidate>& cands,
                         const CountPredictor& predict, RegressionLoss objective) {
    std::vector<Graph> graphs;
    graphs.reserve(cands.size());
    for (const auto& c : cands) graphs.push_back(flip_edge(from[c.parent].graph, c.u, c.v));
    const auto pred = cands.empty() ? std::vector<double>{} : predict(graphs);
    std::vector<State> out;
    out.reserve(cands.size());
    for (std::size_t i = 0; i < cands.size(); ++i) {
        State st;
        st.graph = std::move(graphs[i]);
        st.count = cands[i].count;
        st.prediction = pred[i];
        st.error = std::abs(pred[i] - static_cast<double>(cands[i].count));
        st.loss = objective_of(pred[i], cands[i].count, objective);
        st.flips = from[cands[i].parent].flips;
        st.flips.emplace_back(cands[i].u, cands[i].v);
        out.push_back(std::move(st));
    }
    return out;
}

StageResult stage_of(const State& st, int budget, double clean_loss, const AttackSettings& s) {
    StageResult r;
    r.budget = budget;
    r.flips = st.flips;
    r.count = st.count;
    r.prediction = st.prediction;
    r.loss = st.error;
    r.success = is_adversarial(clean_loss, st.error, s);
    r.graph = st.graph;
    return r;
}

}  // namespace

const char* space_name(PerturbationSpace s) {
    switch (s) {
        case PerturbationSpace::any:
            return "any";
        case PerturbationSpace::count_preserving:
            return "count";
        case PerturbationSpace::subgraph_preserving:
            return "subgraph";
    }
    return "?";
}

PerturbationSpace parse_space(const std::string& name) {
    if (name == "any") return PerturbationSpace::any;
    if (name == "count") return PerturbationSpace::count_preserving;
    if (name == "subgraph") return PerturbationSpace::subgraph_preserving;
    throw InvalidArgument("--space '" + name + "': unknown perturbation space (use any, count or subgraph)");
}

SearchMethod parse_search(const std::string& name) {
    if (name == "auto") return SearchMethod::automatic;
    if (name == "greedy") return SearchMethod::greedy;
    if (name == "beam") return SearchMethod::beam;
    throw InvalidArgument("--search '" + name + "': unknown search (use auto, greedy or beam)");
}

Sampling parse_sampling(const std::string& name) {
    if (name == "code") return Sampling::code;
    if (name == "paper") return Sampling::paper;
    throw InvalidArgument("--sampling '" + name + "': unknown sampling (use code or paper)");
}

bool is_adversarial(double clean_loss, double loss, const AttackSettings& s) {
    if (!(loss > s.tolerance)) return false;
    if (clean_loss <= 0.0) return true;
    return (loss - clean_loss) / clean_loss > s.delta;
}

GraphAttackResult attack_graph(const Graph& g, const CountPredictor& predict, const AttackSettings& s,
                               std::uint64_t stream) {
    if (s.budgets.empty()) throw InvalidArgument("attack: no budgets");
    for (int b : s.budgets)
        if (b < 1) throw InvalidArgument("attack: budgets must be positive, found " + std::to_string(b));
    if (s.beam_width < 1 || s.sample_edges < 1)
        throw InvalidArgument("attack: beam width and sample size must be positive");
    const bool beam =
        s.search == SearchMethod::beam || (s.search == SearchMethod::automatic && s.space != PerturbationSpace::any);
    Rng rng(stream);
    FlipWorkspace ws;

    State clean;
    clean.graph = g;
    clean.count = static_cast<std::int64_t>(
        count_patterns(g, pattern_size(s.pattern), false).total[static_cast<std::size_t>(s.pattern)]);
    clean.prediction = predict({g}).at(0);
    clean.error = std::abs(clean.prediction - static_cast<double>(clean.count));
    clean.loss = objective_of(clean.prediction, clean.count, s.objective);
    GraphAttackResult result;
    result.count = clean.count;
    result.prediction = clean.prediction;
    result.loss = clean.error;

    std::vector<State> beam_states{clean};
    State best = clean;
    int total = 0;
    for (int budget : s.budgets) {
        total += budget;
        for (int step = 0; step < budget; ++step) {
            std::vector<Candidate> cands;
            if (!beam) {
                const State& cur = beam_states[0];
                for (const auto& [u, v] : greedy_candidates(cur.graph, s, rng)) {
                    std::int64_t c = 0;
                    if (admissible(cur.graph, u, v, s, cur.count, ws, c)) cands.push_back({u, v, c, 0});
                }
                auto scored = score(beam_states, cands, predict, s.objective);
                std::size_t arg = scored.size();
                for (std::size_t i = 0; i < scored.size(); ++i)
                    if (arg == scored.size() || scored[i].loss > scored[arg].loss) arg = i;
                // The best flip is kept only if it raises the objective.
                if (arg < scored.size() && scored[arg].loss > cur.loss) beam_states[0] = std::move(scored[arg]);
                best = beam_states[0];
            } else {
                for (std::size_t b = 0; b < beam_states.size(); ++b) {
                    const State& st = beam_states[b];
                    for (VertexId u = 0; u < st.graph.n(); ++u)
                        for (VertexId v = u + 1; v < st.graph.n(); ++v) {
                            if (undoes(st, u, v)) continue;
                            std::int64_t c = 0;
                            if (admissible(st.graph, u, v, s, st.count, ws, c)) cands.push_back({u, v, c, b});
                        }
                }
                auto scored = score(beam_states, cands, predict, s.objective);
                std::vector<std::size_t> order(scored.size());
                for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
                std::stable_sort(order.begin(), order.end(),
                                 [&](std::size_t a, std::size_t b) { return scored[a].loss > scored[b].loss; });
                std::vector<State> next;
                for (std::size_t i : order) {
                    if (static_cast<int>(next.size()) >= s.beam_width) break;
                    // Candidates with the loss of one already kept are taken as the same graph.
                    if (!next.empty() && scored[i].loss == next.back().loss) continue;
                    next.push_back(std::move(scored[i]));
                }
                if (next.empty()) break;  // no admissible flip left
                beam_states = std::move(next);
                if (beam_states[0].loss > best.loss) best = beam_states[0];
            }
        }
        result.stages.push_back(stage_of(best, total, clean.error, s));
    }
    return result;
}

double attack_auc(const std::vector<double>& rates) {
    static const double x[] = {0.01, 0.05, 0.10, 0.25};
    if (rates.size() != 4) throw InvalidArgument("attack AUC needs 4 success rates (budgets 1/5/10/25 %)");
    double a = 0.0;
    for (std::size_t i = 1; i < 4; ++i) a += (x[i] - x[i - 1]) * (rates[i] + rates[i - 1]) / 2.0;
    return a / 0.24;
}

}  // namespace brec
