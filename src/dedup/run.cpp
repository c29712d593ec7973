#include "brec/dedup/run.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/io/collection.hpp"
#include "brec/io/tu.hpp"

namespace brec {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The input format to read: `format` itself, or the one detected from the path.
std::string resolve_format(const DedupOptions& opt) {
    if (opt.format != "auto") {
        if (opt.format != "tu" && opt.format != "graph6" && opt.format != "pairs")
            throw InvalidArgument("unknown input format '" + opt.format + "' (auto, tu, graph6, pairs)");
        return opt.format;
    }
    const GraphFormat f = detect_format(opt.path);
    switch (f) {
        case GraphFormat::tu:
            return "tu";
        case GraphFormat::pairs:
            return "pairs";
        case GraphFormat::graph6:
        case GraphFormat::sparse6:
            return "graph6";
        default:
            throw InvalidArgument(opt.path + ": detected format " + format_name(f) +
                                  "; dedup reads a TU directory, a graph6/sparse6 file or a pair file "
                                  "(name the format to override the detection)");
    }
}

/// Options that apply to one input format only, given for another: InvalidArgument.
void check_input_options(const DedupOptions& opt, const std::string& format) {
    const bool selection = !opt.selection.categories.empty() || !opt.selection.id_ranges.empty();
    if (format != "pairs" && selection)
        throw InvalidArgument("a pair selection (categories, ids) applies to pair files only");
    if (format != "graph6" && !opt.labels.empty())
        throw InvalidArgument("a target labels file applies to graph6/sparse6 input only");
    if (format != "tu" && !opt.tu_name.empty())
        throw InvalidArgument("a TU dataset name applies to TU directories only");
}

LabelledGraphs load_input(const DedupOptions& opt, const std::string& format) {
    if (format == "tu") {
        TuReadOptions ro;
        ro.edge_labels = opt.edge_labels;
        ro.node_attributes = !opt.write_clean.empty();  // only needed to carry them over
        return from_tu(read_tu_dataset(opt.path, opt.tu_name, ro));
    }
    if (format == "graph6") return read_graph_lines_with_labels(opt.path, opt.labels);
    const PairDataset pairs = read_pair_file(opt.path);
    return from_pairs(pairs, select_pairs(pairs, opt.selection));
}

/// Warnings about the input: labels asked for but absent, and what the TU reader dropped.
std::vector<std::string> input_warnings(const LabelledGraphs& data, OrbitMode mode) {
    std::vector<std::string> w;
    if (mode != OrbitMode::topology && !data.has_node_labels)
        w.push_back(std::string(mode == OrbitMode::edge_labels ? "edge" : "node") +
                    "-label isomorphism asked for, but the dataset has no node labels");
    if (mode == OrbitMode::edge_labels && !data.has_edge_labels)
        w.push_back("edge-label isomorphism asked for, but the dataset has no edge labels");
    if (data.source != DedupSource::tu) return w;
    const TuStats& s = data.tu_stats;
    if (s.self_loops > 0)
        w.push_back(std::to_string(s.self_loops) + " self-loop lines in " + std::to_string(s.graphs_with_self_loops) +
                    " graphs were dropped: graphs that differ only by self-loops share an orbit");
    if (s.duplicate_edge_lines > 0)
        w.push_back(std::to_string(s.duplicate_edge_lines) + " duplicate edge lines in " +
                    std::to_string(s.graphs_with_duplicates) + " graphs were dropped");
    return w;
}

std::string pct(double x, int digits = 2) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f %%", digits, x);
    return buf;
}

std::string acc_text(double x) {
    if (std::isnan(x)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", x);
    return buf;
}

nlohmann::json acc_json(double x) { return std::isnan(x) ? nlohmann::json(nullptr) : nlohmann::json(x); }

std::string member_list(Span<const std::uint32_t> mem, const LabelledGraphs& d, std::size_t limit) {
    std::string s;
    for (std::size_t k = 0; k < mem.size() && k < limit; ++k) s += (k ? " " : "") + d.id(mem[k]);
    if (mem.size() > limit) s += " ... (+" + std::to_string(mem.size() - limit) + ")";
    return s;
}

std::string label_counts_text(const std::map<Label, std::size_t>& c) {
    if (c.empty()) return "-";
    std::string s;
    for (const auto& [y, k] : c) s += (s.empty() ? "" : " ") + std::to_string(y) + ":" + std::to_string(k);
    return s;
}

nlohmann::json folds_json(const DedupResult& r) {
    nlohmann::json fj = nlohmann::json::array();
    for (const auto& f : r.folds) {
        nlohmann::json x = {
            {"fold", f.name}, {"train", f.train}, {"test", f.test}, {"Y_iso", f.y_iso}, {"Y_new", f.y_new}};
        if (r.report.has_labels) x["Y_iso_label_conflicts"] = f.y_iso_label_conflicts;
        if (f.has_accuracy) {
            x["acc_test"] = acc_json(f.acc_test);
            x["acc_iso"] = acc_json(f.acc_iso);
            x["acc_new"] = acc_json(f.acc_new);
            x["acc_peering"] = acc_json(f.acc_peering);
        }
        fj.push_back(x);
    }
    return fj;
}

std::string folds_text(const DedupResult& r) {
    std::vector<std::string> header = {"fold", "train", "test", "Y_iso", "Y_new"};
    if (r.report.has_labels) header.push_back("Y_iso conflicts");
    const bool acc = r.folds[0].has_accuracy;
    if (acc) header.insert(header.end(), {"acc(test)", "acc(Y_iso)", "acc(Y_new)", "peering bound"});
    TextTable t(header);
    for (const auto& f : r.folds) {
        std::vector<std::string> row = {f.name, std::to_string(f.train), std::to_string(f.test),
                                        std::to_string(f.y_iso), std::to_string(f.y_new)};
        if (r.report.has_labels) row.push_back(std::to_string(f.y_iso_label_conflicts));
        if (acc)
            row.insert(row.end(),
                       {acc_text(f.acc_test), acc_text(f.acc_iso), acc_text(f.acc_new), acc_text(f.acc_peering)});
        t.add_row(row);
    }
    return t.str();
}

}  // namespace

DedupResult run_dedup(const DedupOptions& opt, RunContext& ctx) {
    const auto t0 = std::chrono::steady_clock::now();
    if (opt.method != "certificate" && opt.method != "all-certificates" && opt.method != "pairwise")
        throw InvalidArgument("unknown orbit method '" + opt.method + "' (certificate, all-certificates, pairwise)");
    if (!opt.predictions.empty() && opt.split.empty()) throw InvalidArgument("predictions need a train/test split");
    if (opt.invariants != "auto" && opt.invariants != "always" && opt.invariants != "never")
        throw InvalidArgument("unknown invariant use '" + opt.invariants + "' (auto, always, never)");
    DedupResult r;
    r.method = opt.method;
    r.format = resolve_format(opt);
    check_input_options(opt, r.format);
    r.mode = opt.edge_labels ? OrbitMode::edge_labels : opt.node_labels ? OrbitMode::node_labels : OrbitMode::topology;
    // Every input is read as a stream of canonical forms instead of being held (graph lines and
    // pair files carry no labels: every mode is plain isomorphism there). The pairwise baseline
    // needs the graphs, and so does a cleaned TU dataset or pair file (its graphs and attributes
    // are written back).
    r.streamed = !opt.keep_graphs && opt.method != "pairwise" && (r.format == "graph6" || opt.write_clean.empty());
    StreamOrbitOptions so;
    so.invariants = opt.method == "all-certificates" ? InvariantUse::never
                    : opt.invariants == "always"     ? InvariantUse::always
                    : opt.invariants == "never"      ? InvariantUse::never
                                                     : InvariantUse::automatic;
    so.memory_budget = opt.memory_budget;
    so.spill_dir = opt.spill_dir;
    if (r.streamed && r.format == "graph6") {
        TargetLabels labels = read_target_labels(opt.labels);  // a bad labels file fails before the long work
        r.orbits = graph_file_orbits(opt.path, so, ctx, &r.stream);
        r.data = graph_lines_without_graphs(opt.path, std::move(labels), r.orbits.orbit_of.size());
    } else if (r.streamed && r.format == "pairs") {
        r.orbits = pair_file_orbits(opt.path, opt.selection, so, ctx, r.data, &r.stream);
    } else if (r.streamed) {
        try {
            r.orbits = tu_dataset_orbits(opt.path, opt.tu_name, r.mode, so, ctx, r.data, &r.stream);
        } catch (const TuOrderError& e) {
            ctx.info(std::string(e.what()) + "; the dataset is read into memory");
            r.streamed = false;
        } catch (const ParseError&) {
            // The whole-file reader names the problem exactly (file, line, what was expected).
            r.data = load_input(opt, r.format);
            r.streamed = false;
        }
    }
    if (r.streamed) {
        r.seconds_orbits = seconds_since(t0);
        for (const auto& w : input_warnings(r.data, r.mode)) ctx.warn(w);
    } else {
        if (opt.memory_budget > 0 || !opt.spill_dir.empty())
            ctx.warn(
                "a memory budget applies to inputs read as a stream only (not to --method pairwise or, but "
                "for graph6/sparse6 files, --write-clean); this input is read into memory");
        if (r.data.graphs.empty()) r.data = load_input(opt, r.format);
        r.seconds_load = seconds_since(t0);
        for (const auto& w : input_warnings(r.data, r.mode)) ctx.warn(w);
        const auto t1 = std::chrono::steady_clock::now();
        if (opt.method == "pairwise")
            r.orbits = compute_orbits_pairwise(r.data.graphs, r.mode, ctx, &r.comparisons);
        else if (opt.method == "all-certificates" || opt.invariants == "never")
            r.orbits = compute_orbits_all_certificates(r.data.graphs, r.mode, ctx);
        else
            r.orbits = compute_orbits(r.data.graphs, r.mode, ctx);
        r.seconds_orbits = seconds_since(t1);
    }
    if (r.data.source == DedupSource::tu && r.data.tu_stats.max_nodes >= 1000)
        ctx.info("largest graph has " + std::to_string(r.data.tu_stats.max_nodes) + " nodes");
    r.report = bias_report(r.orbits, r.data.labels);
    r.largest = largest_orbits(r.orbits, opt.top);

    if (!opt.split.empty()) {
        const std::vector<Fold> folds = read_split_file(opt.split, r.data.graph_count, opt.one_based);
        Predictions preds;
        if (!opt.predictions.empty()) {
            if (r.data.labels.empty()) throw InvalidArgument("predictions need target labels (graph labels)");
            preds = read_predictions(opt.predictions, r.data.graph_count, opt.one_based);
            if (preds.per_fold && preds.by_fold.size() > folds.size())
                throw InvalidArgument(opt.predictions + ": predictions for " + std::to_string(preds.by_fold.size()) +
                                      " folds but the split has " + std::to_string(folds.size()));
        }
        for (std::size_t f = 0; f < folds.size(); ++f)
            r.folds.push_back(
                analyse_fold(r.orbits, r.data.labels, folds[f], f, opt.predictions.empty() ? nullptr : &preds));
    }
    if (!opt.write_clean.empty()) {
        ctx.throw_if_cancelled();
        r.clean = clean_dataset(r.orbits, r.data.labels);
        write_clean_dataset(opt.write_clean, r.data, r.orbits, r.clean);
        r.clean_dir = opt.write_clean;
    }
    r.seconds = seconds_since(t0);
    return r;
}

nlohmann::json to_json(const DedupResult& r) {
    const BiasReport& rep = r.report;
    nlohmann::json j;
    j["command"] = "dedup";
    j["dataset"] = r.data.path;
    j["format"] = r.format;
    j["name"] = r.data.name;
    j["mode"] = mode_name(r.mode);
    j["method"] = r.method;
    j["graphs"] = rep.graphs;
    j["orbits"] = {{"total_including_trivial", rep.orbits},
                   {"trivial", rep.trivial_orbits},
                   {"non_trivial", rep.nontrivial_orbits}};
    j["I"] = rep.isomorphic_graphs;
    j["I_pct"] = rep.i_pct;
    j["isomorphic_pairs"] = rep.isomorphic_pairs;
    j["IP_pct"] = rep.ip_pct;
    j["redundant_graphs"] = rep.redundant_graphs;
    if (rep.has_labels) {
        j["mismatched_graphs"] = rep.mismatched_graphs;
        j["mismatched_orbits"] = rep.mismatched_orbits;
        j["mismatched_pct"] = rep.mismatched_pct;
    } else {
        j["mismatched_graphs"] = nullptr;
        j["mismatched_pct"] = nullptr;
    }
    nlohmann::json hist = nlohmann::json::array();
    for (const auto& [s, c] : rep.size_histogram) hist.push_back({{"size", s}, {"orbits", c}, {"graphs", s * c}});
    j["histogram"] = hist;
    nlohmann::json largest = nlohmann::json::array();
    for (std::size_t o : r.largest) {
        if (r.orbits.members(o).size() < 2) break;  // only non-trivial orbits are listed
        nlohmann::json members = nlohmann::json::array(), labels = nlohmann::json::object();
        for (std::size_t i : r.orbits.members(o)) members.push_back(r.data.id(i));
        for (const auto& [y, c] : orbit_label_counts(r.orbits, o, r.data.labels)) labels[std::to_string(y)] = c;
        largest.push_back({{"size", r.orbits.members(o).size()}, {"members", members}, {"labels", labels}});
    }
    j["largest_orbits"] = largest;
    nlohmann::json nontrivial = nlohmann::json::array();
    for (std::size_t o = 0; o < r.orbits.size(); ++o)
        if (const auto mem = r.orbits.members(o); mem.size() > 1) {
            nlohmann::json ids = nlohmann::json::array();
            for (std::size_t i : mem) ids.push_back(r.data.id(i));
            nontrivial.push_back(ids);
        }
    j["non_trivial_orbits"] = nontrivial;
    if (!r.folds.empty()) j["folds"] = folds_json(r);
    if (r.data.source == DedupSource::tu) {
        const auto& s = r.data.tu_stats;
        j["tu_stats"] = {{"nodes", s.nodes},
                         {"edge_lines", s.edge_lines},
                         {"edges", s.edges},
                         {"self_loops", s.self_loops},
                         {"graphs_with_self_loops", s.graphs_with_self_loops},
                         {"duplicate_edge_lines", s.duplicate_edge_lines},
                         {"graphs_with_duplicates", s.graphs_with_duplicates},
                         {"one_direction_edges", s.one_direction_edges},
                         {"isolated_nodes", s.isolated_nodes},
                         {"max_nodes", s.max_nodes},
                         {"max_edges", s.max_edges}};
    }
    if (!r.clean_dir.empty()) {
        nlohmann::json per = nlohmann::json::object();
        for (const auto& [y, c] : r.clean.per_class)
            per[std::to_string(y)] = {{"before", c.before}, {"after", c.after}};
        j["clean"] = {{"dir", r.clean_dir},
                      {"kept", r.clean.kept.size()},
                      {"dropped_duplicates", r.clean.dropped_duplicates},
                      {"dropped_mixed_orbits", r.clean.dropped_mixed_orbits},
                      {"dropped_mixed_graphs", r.clean.dropped_mixed_graphs},
                      {"per_class", per}};
    }
    if (r.method == "pairwise") j["comparisons"] = r.comparisons;
    if (r.streamed) {
        const StreamOrbitStats& st = r.stream;
        j["stream"] = {{"forms", st.forms},
                       {"sparse_forms", st.sparse_forms},
                       {"invariants", st.invariants},
                       {"predicted_unique",
                        st.predicted_unique < 0 ? nlohmann::json(nullptr) : nlohmann::json(st.predicted_unique)},
                       {"runs", st.runs},
                       {"spilled_bytes", st.spilled_bytes}};
    }
    j["seconds"] = r.seconds;
    j["seconds_load"] = r.seconds_load;
    j["seconds_orbits"] = r.seconds_orbits;
    return j;
}

std::string dedup_text(const DedupResult& r, const std::string& svg_path) {
    const BiasReport& rep = r.report;
    std::ostringstream out;
    out << "dataset: " << r.data.path << " (" << r.format << ", " << r.data.name << ")\n"
        << "isomorphism: " << mode_name(r.mode) << " (method: " << r.method << ")\n\n";
    TextTable s({"metric", "value"});
    s.add_row({"N (graphs)", std::to_string(rep.graphs)});
    s.add_row({"orbits, all (trivial included)", std::to_string(rep.orbits)});
    s.add_row({"  trivial orbits (size 1)", std::to_string(rep.trivial_orbits)});
    s.add_row({"  non-trivial orbits (size >= 2)", std::to_string(rep.nontrivial_orbits)});
    s.add_row({"I (graphs in non-trivial orbits)", std::to_string(rep.isomorphic_graphs)});
    s.add_row({"I %", pct(rep.i_pct)});
    s.add_row({"isomorphic pairs", std::to_string(rep.isomorphic_pairs)});
    s.add_row({"IP %", pct(rep.ip_pct, 4)});
    s.add_row({"redundant graphs (N - orbits)", std::to_string(rep.redundant_graphs)});
    if (rep.has_labels) {
        s.add_row({"mismatched graphs (orbit with >1 label)",
                   std::to_string(rep.mismatched_graphs) + " in " + std::to_string(rep.mismatched_orbits) + " orbits"});
        s.add_row({"mismatched %", pct(rep.mismatched_pct)});
    } else {
        s.add_row({"mismatched %", "- (no target labels)"});
    }
    out << s.str() << "\norbit-size histogram:\n";
    TextTable h({"orbit size", "orbits", "graphs"});
    for (const auto& [sz, c] : rep.size_histogram)
        h.add_row({std::to_string(sz), std::to_string(c), std::to_string(sz * c)});
    out << h.str();
    if (rep.nontrivial_orbits > 0) {
        out << "\nlargest orbits (graph ids" << (r.data.source == DedupSource::pairs ? "" : ", 0-based") << "):\n";
        TextTable l({"size", "labels", "members"});
        for (std::size_t o : r.largest) {
            if (r.orbits.members(o).size() < 2) break;
            l.add_row({std::to_string(r.orbits.members(o).size()),
                       label_counts_text(orbit_label_counts(r.orbits, o, r.data.labels)),
                       member_list(r.orbits.members(o), r.data, 24)});
        }
        out << l.str();
    } else {
        out << "\nno two graphs are isomorphic\n";
    }
    if (!r.folds.empty())
        out << "\ntrain/test split (Y_iso: test graphs with an isomorphic training graph):\n" << folds_text(r);
    if (r.data.source == DedupSource::tu) {
        const auto& st = r.data.tu_stats;
        out << "\nTU input: " << st.nodes << " nodes, " << st.edge_lines << " edge lines -> " << st.edges
            << " edges; self-loop lines dropped: " << st.self_loops << " (in " << st.graphs_with_self_loops
            << " graphs); duplicate edge lines dropped: " << st.duplicate_edge_lines << " (in "
            << st.graphs_with_duplicates << " graphs); edges listed in one direction: " << st.one_direction_edges
            << "; isolated nodes: " << st.isolated_nodes << "; largest graph: " << st.max_nodes << " nodes, "
            << st.max_edges << " edges\n";
    }
    if (!r.clean_dir.empty()) {
        out << "\ncleaned dataset written to " << r.clean_dir << ": kept " << r.clean.kept.size() << " of "
            << rep.graphs << " graphs (" << r.clean.dropped_duplicates << " duplicates merged, "
            << r.clean.dropped_mixed_graphs << " graphs in " << r.clean.dropped_mixed_orbits
            << " mixed-label orbits dropped)\n";
        if (!r.clean.per_class.empty()) {
            TextTable t({"class", "before", "after", "retained"});
            for (const auto& [y, c] : r.clean.per_class)
                t.add_row({std::to_string(y), std::to_string(c.before), std::to_string(c.after),
                           pct(c.before ? 100.0 * static_cast<double>(c.after) / static_cast<double>(c.before) : 0.0)});
            out << t.str();
        }
    }
    if (!svg_path.empty()) out << "\nhistogram SVG: " << svg_path << "\n";
    if (r.streamed) {
        const StreamOrbitStats& st = r.stream;
        out << "\ntime: " << format_seconds(r.seconds) << " (read as a stream: " << st.forms << " canonical forms for "
            << st.graphs << " graphs, invariant pass: " << (st.invariants ? "yes" : "no")
            << (st.runs > 0 ? ", " + std::to_string(st.runs) + " sorted runs on disk" : "") << ")\n";
        return out.str();
    }
    out << "\ntime: " << format_seconds(r.seconds) << " (load " << format_seconds(r.seconds_load) << ", orbits "
        << format_seconds(r.seconds_orbits)
        << (r.method == "pairwise" ? ", " + std::to_string(r.comparisons) + " pair tests" : "") << ")\n";
    return out.str();
}

}  // namespace brec
