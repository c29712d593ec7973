#include "brec/dedup/orbits.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <numeric>
#include <unordered_map>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/dedup/invariant.hpp"
#include "brec/graph/algorithms.hpp"

namespace brec {
namespace {

/// Calls progress(task, done, total) about 200 times over a parallel loop (any thread).
class ProgressCounter {
public:
    ProgressCounter(const RunContext& ctx, const char* task, std::size_t total)
        : ctx_(ctx), task_(task), total_(total), step_(std::max<std::size_t>(1, total / 200)) {}
    void add(std::size_t k) {
        const std::size_t before = done_.fetch_add(k);
        if ((before + k) / step_ == before / step_ && before + k != total_) return;
        std::lock_guard<std::mutex> lock(mutex_);
        ctx_.progress(task_, before + k, total_);
    }

private:
    const RunContext& ctx_;
    const char* task_;
    std::size_t total_, step_;
    std::atomic<std::size_t> done_{0};
    std::mutex mutex_;
};

std::size_t find_root(std::vector<std::size_t>& parent, std::size_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

}  // namespace

Orbits Orbits::from_roots(const std::vector<std::uint32_t>& root) {
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    const std::size_t n = root.size();
    if (n >= kNone) throw ResourceLimit("more than 2^32 - 2 graphs");
    Orbits o;
    o.orbit_of.assign(n, 0);
    // Representatives index a table (nothing is hashed); an orbit gets its number at its first member.
    std::vector<std::uint32_t> id(n, kNone);
    std::uint32_t orbits = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t& x = id[root[i]];
        if (x == kNone) x = orbits++;
        o.orbit_of[i] = x;
    }
    std::vector<std::uint32_t>().swap(id);
    // Counting sort of the graphs by orbit: members stay ascending.
    o.member_begin.assign(static_cast<std::size_t>(orbits) + 1, 0);
    for (std::uint32_t x : o.orbit_of) ++o.member_begin[x + 1];
    for (std::uint32_t k = 0; k < orbits; ++k) o.member_begin[k + 1] += o.member_begin[k];
    o.member_list.resize(n);
    std::vector<std::uint32_t> next(o.member_begin.begin(), o.member_begin.end() - 1);
    for (std::size_t i = 0; i < n; ++i) o.member_list[next[o.orbit_of[i]]++] = static_cast<std::uint32_t>(i);
    return o;
}

std::string mode_name(OrbitMode mode) {
    switch (mode) {
        case OrbitMode::topology:
            return "topology";
        case OrbitMode::node_labels:
            return "node-labels";
        case OrbitMode::edge_labels:
            return "edge-labels";
    }
    return "?";
}

bool use_complement(const Graph& g, OrbitMode mode) {
    const std::uint64_t n = g.n();
    return mode != OrbitMode::edge_labels && n > 1 && 4 * static_cast<std::uint64_t>(g.m()) > n * (n - 1);
}

IsoOptions iso_options(OrbitMode mode) {
    IsoOptions o;
    o.use_node_labels = mode != OrbitMode::topology;
    o.use_edge_labels = mode == OrbitMode::edge_labels;
    return o;
}

Orbits orbits_from_certificates(const std::vector<Certificate>& certificates) {
    std::unordered_map<Certificate, std::size_t, CertificateHash> first;
    first.reserve(certificates.size());
    std::vector<std::uint32_t> root(certificates.size());
    for (std::size_t i = 0; i < certificates.size(); ++i)
        root[i] = static_cast<std::uint32_t>(first.emplace(certificates[i], i).first->second);
    return Orbits::from_roots(root);
}

Orbits compute_orbits_all_certificates(const std::vector<Graph>& graphs, OrbitMode mode, RunContext& ctx) {
    const IsoOptions opt = iso_options(mode);
    std::vector<Certificate> certs(graphs.size());
    ProgressCounter progress(ctx, "dedup", graphs.size());
    parallel_for(graphs.size(), ctx.threads(), [&](std::size_t i) {
        ctx.throw_if_cancelled();
        certs[i] = canonical_certificate(graphs[i], opt);
        progress.add(1);
    });
    return orbits_from_certificates(certs);
}

Orbits compute_orbits(const std::vector<Graph>& graphs, OrbitMode mode, RunContext& ctx) {
    const std::size_t n = graphs.size();
    const int threads = ctx.threads();
    constexpr std::size_t kChunk = 512;  // graphs per parallel task: the invariants are cheap
    // 1. The invariant of every graph; graphs sorted by (invariant, index).
    std::vector<std::pair<std::uint64_t, std::size_t>> keyed(n);
    parallel_for((n + kChunk - 1) / kChunk, threads, [&](std::size_t c) {
        ctx.throw_if_cancelled();
        for (std::size_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i)
            keyed[i] = {refinement_invariant(graphs[i], mode), i};
    });
    std::sort(keyed.begin(), keyed.end());
    // 2. Runs of equal invariants with two or more graphs: only their graphs need certificates.
    std::vector<std::pair<std::size_t, std::size_t>> runs;  // [begin, end) in `keyed`
    for (std::size_t b = 0, e = 0; b < n; b = e) {
        for (e = b + 1; e < n && keyed[e].first == keyed[b].first;) ++e;
        if (e - b > 1) runs.emplace_back(b, e);
    }
    std::vector<std::size_t> candidates;  // positions in `keyed`, run by run
    for (const auto& [b, e] : runs)
        for (std::size_t k = b; k < e; ++k) candidates.push_back(k);
    const IsoOptions opt = iso_options(mode);
    std::vector<Certificate> certs(candidates.size());
    std::vector<std::size_t> cert_at(n, 0);  // position in `keyed` -> index in `certs`
    for (std::size_t c = 0; c < candidates.size(); ++c) cert_at[candidates[c]] = c;
    ProgressCounter progress(ctx, "dedup", candidates.size());
    parallel_for((candidates.size() + 63) / 64, threads, [&](std::size_t c) {
        ctx.throw_if_cancelled();
        const std::size_t end = std::min(candidates.size(), (c + 1) * 64);
        for (std::size_t k = c * 64; k < end; ++k) {
            const Graph& g = graphs[keyed[candidates[k]].second];
            certs[k] =
                use_complement(g, mode) ? canonical_certificate(complement(g), opt) : canonical_certificate(g, opt);
        }
        progress.add(end - c * 64);
    });
    // 3. Within a run, equal certificates form an orbit; its representative is its first graph.
    std::vector<std::uint32_t> root(n);
    std::iota(root.begin(), root.end(), 0u);
    std::vector<std::size_t> order;
    for (const auto& [b, e] : runs) {
        order.resize(e - b);
        std::iota(order.begin(), order.end(), b);
        std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
            const Certificate& cx = certs[cert_at[x]];
            const Certificate& cy = certs[cert_at[y]];
            return cx != cy ? cx < cy : keyed[x].second < keyed[y].second;
        });
        for (std::size_t k = 1; k < order.size(); ++k)
            if (certs[cert_at[order[k]]] == certs[cert_at[order[k - 1]]])
                root[keyed[order[k]].second] = root[keyed[order[k - 1]].second];
    }
    return Orbits::from_roots(root);
}

Orbits compute_orbits_pairwise(const std::vector<Graph>& graphs, OrbitMode mode, RunContext& ctx,
                               std::uint64_t* comparisons) {
    const IsoOptions opt = iso_options(mode);
    std::map<std::pair<VertexId, std::size_t>, std::vector<std::size_t>> buckets;
    for (std::size_t i = 0; i < graphs.size(); ++i) buckets[{graphs[i].n(), graphs[i].m()}].push_back(i);
    std::vector<std::pair<std::size_t, std::size_t>> tests;
    for (const auto& [key, idx] : buckets)
        for (std::size_t a = 0; a < idx.size(); ++a)
            for (std::size_t b = a + 1; b < idx.size(); ++b) tests.emplace_back(idx[a], idx[b]);
    std::vector<std::uint8_t> iso(tests.size(), 0);
    ProgressCounter progress(ctx, "pairwise", tests.size());
    parallel_for(tests.size(), ctx.threads(), [&](std::size_t t) {
        ctx.throw_if_cancelled();
        iso[t] = are_isomorphic(graphs[tests[t].first], graphs[tests[t].second], opt) ? 1 : 0;
        progress.add(1);
    });
    if (comparisons) *comparisons = tests.size();
    std::vector<std::size_t> parent(graphs.size());
    std::iota(parent.begin(), parent.end(), 0);
    for (std::size_t t = 0; t < tests.size(); ++t) {
        if (!iso[t]) continue;
        const std::size_t a = find_root(parent, tests[t].first), b = find_root(parent, tests[t].second);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    std::vector<std::uint32_t> root(graphs.size());
    for (std::size_t i = 0; i < graphs.size(); ++i) root[i] = static_cast<std::uint32_t>(find_root(parent, i));
    return Orbits::from_roots(root);
}

BiasReport bias_report(const Orbits& orbits, const std::vector<Label>& labels) {
    BiasReport r;
    r.graphs = orbits.orbit_of.size();
    if (!labels.empty() && labels.size() != r.graphs)
        throw InvalidArgument("bias_report: " + std::to_string(labels.size()) + " labels for " +
                              std::to_string(r.graphs) + " graphs");
    r.has_labels = !labels.empty();
    r.orbits = orbits.size();
    for (std::size_t o = 0; o < orbits.size(); ++o) {
        const auto mem = orbits.members(o);
        const std::size_t s = mem.size();
        ++r.size_histogram[s];
        if (s == 1) {
            ++r.trivial_orbits;
            continue;
        }
        ++r.nontrivial_orbits;
        r.isomorphic_graphs += s;
        r.isomorphic_pairs += static_cast<std::uint64_t>(s) * (s - 1) / 2;
        if (r.has_labels) {
            const bool mixed =
                std::any_of(mem.begin(), mem.end(), [&](std::size_t i) { return labels[i] != labels[mem[0]]; });
            if (mixed) {
                ++r.mismatched_orbits;
                r.mismatched_graphs += s;
            }
        }
    }
    r.redundant_graphs = r.graphs - r.orbits;
    if (r.graphs > 0) {
        r.i_pct = 100.0 * static_cast<double>(r.isomorphic_graphs) / static_cast<double>(r.graphs);
        r.mismatched_pct = 100.0 * static_cast<double>(r.mismatched_graphs) / static_cast<double>(r.graphs);
    }
    if (r.graphs > 1) {
        const double all = static_cast<double>(r.graphs) * static_cast<double>(r.graphs - 1) / 2.0;
        r.ip_pct = 100.0 * static_cast<double>(r.isomorphic_pairs) / all;
    }
    return r;
}

std::vector<std::size_t> largest_orbits(const Orbits& orbits, std::size_t k) {
    std::vector<std::size_t> idx(orbits.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::size_t a, std::size_t b) { return orbits.members(a).size() > orbits.members(b).size(); });
    if (idx.size() > k) idx.resize(k);
    return idx;
}

std::map<Label, std::size_t> orbit_label_counts(const Orbits& orbits, std::size_t orbit,
                                                const std::vector<Label>& labels) {
    std::map<Label, std::size_t> out;
    if (labels.empty()) return out;
    if (orbit >= orbits.size()) throw InvalidArgument("orbit " + std::to_string(orbit) + " out of range");
    for (std::size_t i : orbits.members(orbit)) ++out[labels.at(i)];
    return out;
}

}  // namespace brec
