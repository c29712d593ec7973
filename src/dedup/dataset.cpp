#include "brec/dedup/dataset.hpp"

#include <algorithm>
#include <cstdio>

#include "brec/core/error.hpp"
#include "brec/io/collection.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph_lines.hpp"

namespace brec {
namespace {

std::string base_name(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    const auto slash = path.find_last_of('/');
    std::string b = slash == std::string::npos ? path : path.substr(slash + 1);
    const auto dot = b.find_last_of('.');
    if (dot != std::string::npos && dot > 0) b.resize(dot);
    return b;
}

}  // namespace

LabelledGraphs from_tu(TuDataset ds) {
    LabelledGraphs d;
    d.path = ds.dir;
    d.source = DedupSource::tu;
    d.name = ds.name;
    d.graphs = std::move(ds.graphs);
    d.labels = std::move(ds.graph_labels);
    d.has_node_labels = ds.has_node_labels;
    d.has_edge_labels = ds.has_edge_labels;
    d.label_rows = std::move(ds.label_rows);
    d.tu_stats = ds.stats;
    d.node_attributes = std::move(ds.node_attributes);
    d.graph_count = d.graphs.size();
    return d;
}

LabelledGraphs from_pairs(const PairDataset& ds, const std::vector<std::size_t>& indices) {
    LabelledGraphs d;
    d.path = ds.path;
    d.source = DedupSource::pairs;
    d.name = base_name(ds.path);
    for (std::size_t k : indices) {
        const auto& p = ds.pairs.at(k);
        d.graphs.push_back(p.a);
        d.ids.push_back(std::to_string(p.id) + "a");
        d.graphs.push_back(p.b);
        d.ids.push_back(std::to_string(p.id) + "b");
    }
    d.graph_count = d.graphs.size();
    for (const auto& g : d.graphs) {
        d.has_node_labels = d.has_node_labels || g.has_node_labels();
        d.has_edge_labels = d.has_edge_labels || g.has_edge_labels();
    }
    return d;
}

TargetLabels read_target_labels(const std::string& path) {
    TargetLabels t;
    t.path = path;
    if (path.empty()) return t;
    const auto lines = split_lines(read_text_file(path));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string s = lines[i];
        if (const auto h = s.find('#'); h != std::string::npos) s.resize(h);
        const auto b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
        if (b == std::string::npos) continue;
        s = s.substr(b, e - b + 1);
        std::int64_t y = 0;
        if (!parse_int64(s, y))
            throw ParseError(path, static_cast<std::int64_t>(i + 1), "expected one integer label, found '" + s + "'");
        t.labels.push_back(y);
        t.last_line = static_cast<std::int64_t>(i + 1);
    }
    return t;
}

LabelledGraphs pairs_without_graphs(const std::string& path, std::vector<PairId> pair_ids) {
    LabelledGraphs d;
    d.path = path;
    d.source = DedupSource::pairs;
    d.name = base_name(path);
    d.graph_count = 2 * pair_ids.size();
    d.pair_ids = std::move(pair_ids);
    return d;
}

LabelledGraphs graph_lines_without_graphs(const std::string& path, TargetLabels labels, std::size_t count) {
    LabelledGraphs d;
    d.path = path;
    d.source = DedupSource::graph_lines;
    d.name = base_name(path);
    d.graph_count = count;
    if (labels.path.empty()) return d;
    if (labels.labels.size() != count)
        throw ParseError(labels.path, labels.last_line,
                         "has " + std::to_string(labels.labels.size()) + " labels for " + std::to_string(count) +
                             " graphs in " + path);
    d.labels = std::move(labels.labels);
    return d;
}

LabelledGraphs read_graph_lines_with_labels(const std::string& path, const std::string& labels_path) {
    std::vector<Graph> graphs = read_graph_lines(path);
    LabelledGraphs d = graph_lines_without_graphs(path, read_target_labels(labels_path), graphs.size());
    d.graphs = std::move(graphs);
    return d;
}

CleanResult clean_dataset(const Orbits& orbits, const std::vector<Label>& labels) {
    CleanResult c;
    const std::size_t n = orbits.orbit_of.size();
    if (!labels.empty() && labels.size() != n)
        throw InvalidArgument("clean_dataset: " + std::to_string(labels.size()) + " labels for " + std::to_string(n) +
                              " graphs");
    for (std::size_t i = 0; i < labels.size(); ++i) ++c.per_class[labels[i]].before;
    for (std::size_t o = 0; o < orbits.size(); ++o) {
        const auto mem = orbits.members(o);
        const bool mixed = !labels.empty() && std::any_of(mem.begin(), mem.end(),
                                                          [&](std::size_t i) { return labels[i] != labels[mem[0]]; });
        if (mixed) {
            ++c.dropped_mixed_orbits;
            c.dropped_mixed_graphs += mem.size();
            continue;
        }
        c.kept.push_back(mem[0]);
        c.kept_orbit.push_back(o);
        c.dropped_duplicates += mem.size() - 1;
        if (!labels.empty()) ++c.per_class[labels[mem[0]]].after;
    }
    // Orbits are ordered by first member, so `kept` is ascending already.
    return c;
}

std::string clean_mapping_tsv(const CleanResult& clean, const Orbits& orbits, const LabelledGraphs& data) {
    std::string out = "# new_index\told_index\torbit_old_ids\tlabel   (indices 0-based; TU graph id = index + 1)\n";
    for (std::size_t k = 0; k < clean.kept.size(); ++k) {
        const std::size_t old = clean.kept[k];
        std::string members;
        for (std::size_t i : orbits.members(clean.kept_orbit[k])) members += (members.empty() ? "" : ",") + data.id(i);
        out += std::to_string(k) + '\t' + data.id(old) + '\t' + members + '\t' +
               (data.labels.empty() ? std::string("-") : std::to_string(data.labels[old])) + '\n';
    }
    return out;
}

std::string clean_retention_tsv(const CleanResult& clean) {
    std::string out = "# label\tbefore\tafter\tretained_pct\n";
    char buf[128];
    for (const auto& [y, r] : clean.per_class) {
        std::snprintf(buf, sizeof buf, "%lld\t%zu\t%zu\t%.2f\n", static_cast<long long>(y), r.before, r.after,
                      r.before ? 100.0 * static_cast<double>(r.after) / static_cast<double>(r.before) : 0.0);
        out += buf;
    }
    return out;
}

void write_clean_dataset(const std::string& dir_in, const LabelledGraphs& data, const Orbits& orbits,
                         const CleanResult& clean) {
    if (clean.kept.empty()) throw InvalidArgument("cleaned dataset: every orbit has mixed labels; nothing to write");
    std::string dir = dir_in;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    const auto slash = dir.find_last_of('/');
    const std::string name = slash == std::string::npos ? dir : dir.substr(slash + 1);
    std::vector<Graph> graphs;
    std::vector<Label> labels;
    if (data.graphs.empty()) {
        graphs = read_graph_lines_at(data.path, clean.kept);
    } else {
        graphs.reserve(clean.kept.size());
        for (std::size_t i : clean.kept) graphs.push_back(data.graphs[i]);
    }
    for (std::size_t i : clean.kept)
        if (!data.labels.empty()) labels.push_back(data.labels[i]);
    TuWriteOptions opt;
    opt.label_rows = data.label_rows;
    if (!data.node_attributes.empty()) {
        std::vector<std::size_t> first_node(data.graphs.size() + 1, 0);
        for (std::size_t g = 0; g < data.graphs.size(); ++g) first_node[g + 1] = first_node[g] + data.graphs[g].n();
        if (first_node.back() == data.node_attributes.size())
            for (std::size_t i : clean.kept)
                for (std::size_t v = first_node[i]; v < first_node[i + 1]; ++v)
                    opt.node_attributes.push_back(data.node_attributes[v]);
    }
    opt.extra_files.emplace_back(name + "_mapping.tsv", clean_mapping_tsv(clean, orbits, data));
    if (!clean.per_class.empty()) opt.extra_files.emplace_back(name + "_retention.tsv", clean_retention_tsv(clean));
    write_tu_dataset(dir, name, graphs, labels, opt);
}

}  // namespace brec
