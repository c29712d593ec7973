#include "brec/dedup/orbits.hpp"

#include <algorithm>
#include <mutex>
#include <numeric>
#include <unordered_map>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"

namespace brec {
namespace {

/// Renumbers an arbitrary class assignment so that orbits are ordered by first member.
Orbits orbits_from_roots(const std::vector<std::size_t>& root) {
    Orbits o;
    o.orbit_of.assign(root.size(), 0);
    std::unordered_map<std::size_t, std::uint32_t> index;
    index.reserve(root.size());
    for (std::size_t i = 0; i < root.size(); ++i) {
        auto [it, fresh] = index.emplace(root[i], static_cast<std::uint32_t>(o.members.size()));
        if (fresh) o.members.emplace_back();
        o.orbit_of[i] = it->second;
        o.members[it->second].push_back(i);
    }
    return o;
}

std::size_t find_root(std::vector<std::size_t>& parent, std::size_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

}  // namespace

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

IsoOptions iso_options(OrbitMode mode) {
    IsoOptions o;
    o.use_node_labels = mode != OrbitMode::topology;
    o.use_edge_labels = mode == OrbitMode::edge_labels;
    return o;
}

Orbits orbits_from_certificates(const std::vector<Certificate>& certificates) {
    std::unordered_map<Certificate, std::size_t, CertificateHash> first;
    first.reserve(certificates.size());
    std::vector<std::size_t> root(certificates.size());
    for (std::size_t i = 0; i < certificates.size(); ++i) root[i] = first.emplace(certificates[i], i).first->second;
    return orbits_from_roots(root);
}

Orbits compute_orbits(const std::vector<Graph>& graphs, OrbitMode mode, RunContext& ctx) {
    const IsoOptions opt = iso_options(mode);
    std::vector<Certificate> certs(graphs.size());
    std::mutex m;
    std::size_t done = 0;
    const std::size_t step = std::max<std::size_t>(1, graphs.size() / 200);
    parallel_for(graphs.size(), ctx.threads(), [&](std::size_t i) {
        ctx.throw_if_cancelled();
        certs[i] = canonical_certificate(graphs[i], opt);
        std::lock_guard<std::mutex> lock(m);
        ++done;
        if (done % step == 0 || done == graphs.size()) ctx.progress("dedup", done, graphs.size());
    });
    return orbits_from_certificates(certs);
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
    std::mutex m;
    std::size_t done = 0;
    const std::size_t step = std::max<std::size_t>(1, tests.size() / 200);
    parallel_for(tests.size(), ctx.threads(), [&](std::size_t t) {
        ctx.throw_if_cancelled();
        iso[t] = are_isomorphic(graphs[tests[t].first], graphs[tests[t].second], opt) ? 1 : 0;
        std::lock_guard<std::mutex> lock(m);
        if (++done % step == 0 || done == tests.size()) ctx.progress("pairwise", done, tests.size());
    });
    if (comparisons) *comparisons = tests.size();
    std::vector<std::size_t> parent(graphs.size());
    std::iota(parent.begin(), parent.end(), 0);
    for (std::size_t t = 0; t < tests.size(); ++t) {
        if (!iso[t]) continue;
        const std::size_t a = find_root(parent, tests[t].first), b = find_root(parent, tests[t].second);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    std::vector<std::size_t> root(graphs.size());
    for (std::size_t i = 0; i < graphs.size(); ++i) root[i] = find_root(parent, i);
    return orbits_from_roots(root);
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
        const auto& mem = orbits.members[o];
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
                     [&](std::size_t a, std::size_t b) { return orbits.members[a].size() > orbits.members[b].size(); });
    if (idx.size() > k) idx.resize(k);
    return idx;
}

std::map<Label, std::size_t> orbit_label_counts(const Orbits& orbits, std::size_t orbit,
                                                const std::vector<Label>& labels) {
    std::map<Label, std::size_t> out;
    if (labels.empty()) return out;
    for (std::size_t i : orbits.members.at(orbit)) ++out[labels.at(i)];
    return out;
}

}  // namespace brec
