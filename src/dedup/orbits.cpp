#include "brec/dedup/orbits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <unordered_map>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/text.hpp"

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
        case OrbitMode::topology: return "topology";
        case OrbitMode::node_labels: return "node-labels";
        case OrbitMode::edge_labels: return "edge-labels";
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
    for (std::size_t i = 0; i < certificates.size(); ++i)
        root[i] = first.emplace(certificates[i], i).first->second;
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
            const bool mixed = std::any_of(mem.begin(), mem.end(), [&](std::size_t i) { return labels[i] != labels[mem[0]]; });
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
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
        return orbits.members[a].size() > orbits.members[b].size();
    });
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

std::string orbit_histogram_svg(const BiasReport& report, const std::string& title) {
    const auto& h = report.size_histogram;
    const double width = 640, height = 360, left = 70, right = 20, top = 40, bottom = 60;
    const double plot_w = width - left - right, plot_h = height - top - bottom;
    std::size_t max_count = 1, min_count = 0;
    for (const auto& [s, c] : h) {
        max_count = std::max(max_count, c);
        min_count = min_count == 0 ? c : std::min(min_count, c);
    }
    const bool log_scale = max_count >= 100 * std::max<std::size_t>(1, min_count);
    auto y_of = [&](double c) {
        const double f = log_scale ? std::log10(1.0 + c) / std::log10(1.0 + static_cast<double>(max_count))
                                   : c / static_cast<double>(max_count);
        return top + plot_h * (1.0 - f);
    };
    char buf[512];
    std::string svg;
    std::snprintf(buf, sizeof buf,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                  "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
                  width, height, width, height);
    svg += buf;
    svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    std::snprintf(buf, sizeof buf, "<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">", width / 2);
    svg += buf + xml_escape(title) + "</text>\n";
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n"
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                  left, top, left, top + plot_h, left, top + plot_h, left + plot_w, top + plot_h);
    svg += buf;
    // Y ticks.
    std::vector<double> ticks;
    if (log_scale) {
        for (double t = 1; t <= static_cast<double>(max_count); t *= 10) ticks.push_back(t);
    } else {
        const double stepv = std::max(1.0, std::ceil(static_cast<double>(max_count) / 5.0));
        for (double t = 0; t <= static_cast<double>(max_count); t += stepv) ticks.push_back(t);
    }
    for (double t : ticks) {
        std::snprintf(buf, sizeof buf,
                      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>"
                      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n",
                      left, y_of(t), left + plot_w, y_of(t), left - 6, y_of(t) + 4, t);
        svg += buf;
    }
    const std::size_t bars = std::max<std::size_t>(1, h.size());
    const double slot = plot_w / static_cast<double>(bars);
    std::size_t k = 0;
    for (const auto& [s, c] : h) {
        const double x = left + slot * static_cast<double>(k) + slot * 0.1, y = y_of(static_cast<double>(c));
        std::snprintf(buf, sizeof buf,
                      "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                      "<title>size %zu: %zu orbits (%zu graphs)</title></rect>\n",
                      x, y, slot * 0.8, top + plot_h - y, s == 1 ? "#9ecae1" : "#de2d26", s, c, s * c);
        svg += buf;
        std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%zu</text>\n",
                      x + slot * 0.4, top + plot_h + 16, s);
        svg += buf;
        if (bars <= 40) {
            std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%zu</text>\n",
                          x + slot * 0.4, y - 3, c);
            svg += buf;
        }
        ++k;
    }
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">orbit size (1 = trivial)</text>\n"
                  "<text x=\"16\" y=\"%.0f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.0f)\">"
                  "number of orbits%s</text>\n",
                  left + plot_w / 2, height - 20, top + plot_h / 2, top + plot_h / 2, log_scale ? " (log scale)" : "");
    svg += buf;
    svg += "</svg>\n";
    return svg;
}

}  // namespace brec
