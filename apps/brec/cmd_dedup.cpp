// brec dedup: isomorphism orbits of a dataset and the isomorphism-bias metrics (SPEC section 7).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/dedup/dataset.hpp"
#include "brec/dedup/orbits.hpp"
#include "brec/dedup/split.hpp"
#include "brec/io/collection.hpp"
#include "brec/io/files.hpp"
#include "brec/io/tu.hpp"
#include "brec/report/orbit_histogram.hpp"

namespace brec::cli {
namespace {

struct DedupArgs {
    std::string positional;
    PairArgs pairs;
    std::string format = "auto";
    std::string tu_name;
    std::string labels;
    bool node_labels = false;
    bool edge_labels = false;
    std::string method = "certificate";
    std::string split;
    std::string predictions;
    bool one_based = false;
    std::string write_clean;
    std::string svg;
    std::size_t top = 10;
};

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

std::string member_list(const std::vector<std::size_t>& mem, const LabelledGraphs& d, std::size_t limit) {
    std::string s;
    for (std::size_t k = 0; k < mem.size() && k < limit; ++k) s += (k ? " " : "") + d.ids[mem[k]];
    if (mem.size() > limit) s += " ... (+" + std::to_string(mem.size() - limit) + ")";
    return s;
}

std::string label_counts_text(const std::map<Label, std::size_t>& c) {
    if (c.empty()) return "-";
    std::string s;
    for (const auto& [y, k] : c) s += (s.empty() ? "" : " ") + std::to_string(y) + ":" + std::to_string(k);
    return s;
}

LabelledGraphs load_input(const DedupArgs& args, RunContext& ctx) {
    std::string path = args.positional.empty() ? args.pairs.dataset : args.positional;
    if (path.empty()) path = default_dataset_path();
    std::string fmt = args.format;
    if (fmt == "auto") {
        const GraphFormat f = detect_format(path);
        switch (f) {
            case GraphFormat::tu: fmt = "tu"; break;
            case GraphFormat::pairs: fmt = "pairs"; break;
            case GraphFormat::graph6:
            case GraphFormat::sparse6: fmt = "graph6"; break;
            default:
                throw InvalidArgument(path + ": detected format " + format_name(f) +
                                      "; dedup reads a TU directory, a graph6/sparse6 file or a pair file "
                                      "(use --format to override)");
        }
    }
    const bool selection = !args.pairs.categories.empty() || !args.pairs.pairs.empty();
    if (fmt != "pairs" && selection) throw InvalidArgument("--category and --pairs apply to pair files only");
    if (fmt != "graph6" && !args.labels.empty()) throw InvalidArgument("--labels applies to graph6/sparse6 files only");
    if (fmt != "tu" && !args.tu_name.empty()) throw InvalidArgument("--tu-name applies to TU directories only");
    if (fmt == "tu") {
        TuReadOptions ro;
        ro.edge_labels = args.edge_labels;
        ro.node_attributes = !args.write_clean.empty();  // only needed to carry them over
        return from_tu(read_tu_dataset(path, args.tu_name, ro));
    }
    if (fmt == "graph6") return read_graph_lines_with_labels(path, args.labels);
    if (fmt == "pairs") {
        PairArgs pa = args.pairs;
        pa.dataset = path;
        const auto sel = load_selected_pairs(pa);
        return from_pairs(sel.dataset, sel.indices);
    }
    (void)ctx;
    throw InvalidArgument("unknown --format '" + fmt + "' (auto, tu, graph6, pairs)");
}

int run_dedup(const DedupArgs& args, RunContext& ctx) {
    const auto t0 = std::chrono::steady_clock::now();
    set_quiet(ctx, args.pairs.quiet);
    ctx.set_threads(args.pairs.jobs);
    if (args.method != "certificate" && args.method != "pairwise")
        throw InvalidArgument("unknown --method '" + args.method + "' (certificate, pairwise)");
    if (!args.predictions.empty() && args.split.empty()) throw InvalidArgument("--predictions needs --split");
    const LabelledGraphs data = load_input(args, ctx);
    const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    OrbitMode mode = OrbitMode::topology;
    if (args.edge_labels) mode = OrbitMode::edge_labels;
    else if (args.node_labels) mode = OrbitMode::node_labels;
    if (mode != OrbitMode::topology && !data.has_node_labels)
        ctx.warn("--" + std::string(args.edge_labels ? "edge" : "node") + "-labels: the dataset has no node labels");
    if (mode == OrbitMode::edge_labels && !data.has_edge_labels) ctx.warn("--edge-labels: the dataset has no edge labels");
    if (data.source == DedupSource::tu && data.tu_stats.self_loops > 0)
        ctx.warn(std::to_string(data.tu_stats.self_loops) + " self-loop lines in " +
                 std::to_string(data.tu_stats.graphs_with_self_loops) +
                 " graphs were dropped: graphs that differ only by self-loops share an orbit");
    if (data.source == DedupSource::tu && data.tu_stats.duplicate_edge_lines > 0)
        ctx.warn(std::to_string(data.tu_stats.duplicate_edge_lines) + " duplicate edge lines in " +
                 std::to_string(data.tu_stats.graphs_with_duplicates) + " graphs were dropped");
    if (data.source == DedupSource::tu && data.tu_stats.max_nodes >= 1000)
        ctx.info("largest graph has " + std::to_string(data.tu_stats.max_nodes) + " nodes");

    std::uint64_t comparisons = 0;
    const auto t1 = std::chrono::steady_clock::now();
    const Orbits orbits = args.method == "pairwise" ? compute_orbits_pairwise(data.graphs, mode, ctx, &comparisons)
                                                    : compute_orbits(data.graphs, mode, ctx);
    const double orbit_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    const BiasReport rep = bias_report(orbits, data.labels);

    std::vector<Fold> folds;
    std::vector<FoldReport> fold_reports;
    Predictions preds;
    if (!args.split.empty()) {
        folds = read_split_file(args.split, data.graphs.size(), args.one_based);
        if (!args.predictions.empty()) {
            if (data.labels.empty()) throw InvalidArgument("--predictions needs target labels (graph labels)");
            preds = read_predictions(args.predictions, data.graphs.size(), args.one_based);
            if (preds.per_fold && preds.by_fold.size() > folds.size())
                throw InvalidArgument(args.predictions + ": predictions for " + std::to_string(preds.by_fold.size()) +
                                      " folds but the split has " + std::to_string(folds.size()));
        }
        for (std::size_t f = 0; f < folds.size(); ++f)
            fold_reports.push_back(analyse_fold(orbits, data.labels, folds[f], f, args.predictions.empty() ? nullptr : &preds));
    }
    CleanResult clean;
    if (!args.write_clean.empty()) {
        clean = clean_dataset(orbits, data.labels);
        write_clean_dataset(args.write_clean, data, orbits, clean);
    }
    if (!args.svg.empty())
        write_text_file_atomic(args.svg, orbit_histogram_svg({rep.size_histogram.begin(), rep.size_histogram.end()}, "Orbit sizes: " + data.name + " (" + mode_name(mode) + ")"));
    const double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto top = largest_orbits(orbits, args.top);
    const char* source = data.source == DedupSource::tu ? "tu" : data.source == DedupSource::pairs ? "pairs" : "graph6";

    if (args.pairs.json) {
        nlohmann::json j;
        j["command"] = "dedup";
        j["dataset"] = data.path;
        j["format"] = source;
        j["name"] = data.name;
        j["mode"] = mode_name(mode);
        j["method"] = args.method;
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
        for (std::size_t o : top) {
            if (orbits.members[o].size() < 2) break;  // only non-trivial orbits are listed
            nlohmann::json members = nlohmann::json::array(), labels = nlohmann::json::object();
            for (std::size_t i : orbits.members[o]) members.push_back(data.ids[i]);
            for (const auto& [y, c] : orbit_label_counts(orbits, o, data.labels)) labels[std::to_string(y)] = c;
            largest.push_back({{"size", orbits.members[o].size()}, {"members", members}, {"labels", labels}});
        }
        j["largest_orbits"] = largest;
        nlohmann::json nontrivial = nlohmann::json::array();
        for (const auto& mem : orbits.members)
            if (mem.size() > 1) {
                nlohmann::json ids = nlohmann::json::array();
                for (std::size_t i : mem) ids.push_back(data.ids[i]);
                nontrivial.push_back(ids);
            }
        j["non_trivial_orbits"] = nontrivial;
        if (!fold_reports.empty()) {
            nlohmann::json fj = nlohmann::json::array();
            for (const auto& f : fold_reports) {
                nlohmann::json x = {{"fold", f.name}, {"train", f.train}, {"test", f.test}, {"Y_iso", f.y_iso},
                                    {"Y_new", f.y_new}};
                if (rep.has_labels) x["Y_iso_label_conflicts"] = f.y_iso_label_conflicts;
                if (f.has_accuracy) {
                    x["acc_test"] = acc_json(f.acc_test);
                    x["acc_iso"] = acc_json(f.acc_iso);
                    x["acc_new"] = acc_json(f.acc_new);
                    x["acc_peering"] = acc_json(f.acc_peering);
                }
                fj.push_back(x);
            }
            j["folds"] = fj;
        }
        if (data.source == DedupSource::tu) {
            const auto& s = data.tu_stats;
            j["tu_stats"] = {{"nodes", s.nodes}, {"edge_lines", s.edge_lines}, {"edges", s.edges},
                             {"self_loops", s.self_loops}, {"graphs_with_self_loops", s.graphs_with_self_loops},
                             {"duplicate_edge_lines", s.duplicate_edge_lines},
                             {"graphs_with_duplicates", s.graphs_with_duplicates},
                             {"one_direction_edges", s.one_direction_edges}, {"isolated_nodes", s.isolated_nodes},
                             {"max_nodes", s.max_nodes}, {"max_edges", s.max_edges}};
        }
        if (!args.write_clean.empty()) {
            nlohmann::json per = nlohmann::json::object();
            for (const auto& [y, r] : clean.per_class) per[std::to_string(y)] = {{"before", r.before}, {"after", r.after}};
            j["clean"] = {{"dir", args.write_clean}, {"kept", clean.kept.size()},
                          {"dropped_duplicates", clean.dropped_duplicates},
                          {"dropped_mixed_orbits", clean.dropped_mixed_orbits},
                          {"dropped_mixed_graphs", clean.dropped_mixed_graphs}, {"per_class", per}};
        }
        if (args.method == "pairwise") j["comparisons"] = comparisons;
        j["seconds"] = total_s;
        j["seconds_load"] = load_s;
        j["seconds_orbits"] = orbit_s;
        print_json_line(j);
        return 0;
    }

    std::ostringstream out;
    out << "dataset: " << data.path << " (" << source << ", " << data.name << ")\n"
        << "isomorphism: " << mode_name(mode) << " (method: " << args.method << ")\n\n";
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
        s.add_row({"mismatched graphs (orbit with >1 label)", std::to_string(rep.mismatched_graphs) + " in " +
                                                                  std::to_string(rep.mismatched_orbits) + " orbits"});
        s.add_row({"mismatched %", pct(rep.mismatched_pct)});
    } else {
        s.add_row({"mismatched %", "- (no target labels)"});
    }
    out << s.str() << "\norbit-size histogram:\n";
    TextTable h({"orbit size", "orbits", "graphs"});
    for (const auto& [sz, c] : rep.size_histogram) h.add_row({std::to_string(sz), std::to_string(c), std::to_string(sz * c)});
    out << h.str();
    if (rep.nontrivial_orbits > 0) {
        out << "\nlargest orbits (graph ids" << (data.source == DedupSource::pairs ? "" : ", 0-based") << "):\n";
        TextTable l({"size", "labels", "members"});
        for (std::size_t o : top) {
            if (orbits.members[o].size() < 2) break;
            l.add_row({std::to_string(orbits.members[o].size()), label_counts_text(orbit_label_counts(orbits, o, data.labels)),
                       member_list(orbits.members[o], data, 24)});
        }
        out << l.str();
    } else {
        out << "\nno two graphs are isomorphic\n";
    }
    if (!fold_reports.empty()) {
        out << "\ntrain/test split (Y_iso: test graphs with an isomorphic training graph):\n";
        std::vector<std::string> header = {"fold", "train", "test", "Y_iso", "Y_new"};
        if (rep.has_labels) header.push_back("Y_iso conflicts");
        const bool acc = fold_reports[0].has_accuracy;
        if (acc) header.insert(header.end(), {"acc(test)", "acc(Y_iso)", "acc(Y_new)", "peering bound"});
        TextTable f(header);
        for (const auto& r : fold_reports) {
            std::vector<std::string> row = {r.name, std::to_string(r.train), std::to_string(r.test), std::to_string(r.y_iso),
                                            std::to_string(r.y_new)};
            if (rep.has_labels) row.push_back(std::to_string(r.y_iso_label_conflicts));
            if (acc) row.insert(row.end(), {acc_text(r.acc_test), acc_text(r.acc_iso), acc_text(r.acc_new), acc_text(r.acc_peering)});
            f.add_row(row);
        }
        out << f.str();
    }
    if (data.source == DedupSource::tu) {
        const auto& st = data.tu_stats;
        out << "\nTU input: " << st.nodes << " nodes, " << st.edge_lines << " edge lines -> " << st.edges
            << " edges; self-loop lines dropped: " << st.self_loops << " (in " << st.graphs_with_self_loops
            << " graphs); duplicate edge lines dropped: " << st.duplicate_edge_lines << " (in " << st.graphs_with_duplicates
            << " graphs); edges listed in one direction: " << st.one_direction_edges << "; isolated nodes: "
            << st.isolated_nodes << "; largest graph: " << st.max_nodes << " nodes, " << st.max_edges << " edges\n";
    }
    if (!args.write_clean.empty()) {
        out << "\ncleaned dataset written to " << args.write_clean << ": kept " << clean.kept.size() << " of "
            << rep.graphs << " graphs (" << clean.dropped_duplicates << " duplicates merged, "
            << clean.dropped_mixed_graphs << " graphs in " << clean.dropped_mixed_orbits << " mixed-label orbits dropped)\n";
        if (!clean.per_class.empty()) {
            TextTable r({"class", "before", "after", "retained"});
            for (const auto& [y, c] : clean.per_class)
                r.add_row({std::to_string(y), std::to_string(c.before), std::to_string(c.after),
                           pct(c.before ? 100.0 * static_cast<double>(c.after) / static_cast<double>(c.before) : 0.0)});
            out << r.str();
        }
    }
    if (!args.svg.empty()) out << "\nhistogram SVG: " << args.svg << "\n";
    out << "\ntime: " << format_seconds(total_s) << " (load " << format_seconds(load_s) << ", orbits "
        << format_seconds(orbit_s) << (args.method == "pairwise" ? ", " + std::to_string(comparisons) + " pair tests" : "")
        << ")\n";
    std::cout << out.str();
    return 0;
}

}  // namespace

void add_dedup(CLI::App& root, Action& action) {
    auto args = std::make_shared<DedupArgs>();
    auto* sub = root.add_subcommand(
        "dedup",
        "Isomorphism orbits of a dataset and isomorphism-bias metrics: N, orbits (all, trivial, non-trivial),\n"
        "I = graphs in non-trivial orbits, I%, IP% = isomorphic pairs / (N(N-1)/2), mismatched% = graphs whose\n"
        "orbit holds more than one target label, the orbit-size histogram and the largest orbits.\n"
        "One nauty canonical certificate per graph plus a hash map (never all pairs).\n"
        "PATH: a TU directory (DS_A.txt, DS_graph_indicator.txt, DS_graph_labels.txt, ...), a graph6/sparse6\n"
        "file (one graph per line; --labels for targets) or a BREC pair file (ids like 66b). Graph ids are\n"
        "0-based indices (TU graph id = index + 1). Self-loops and duplicate edge lines of TU files are dropped\n"
        "and counted. --edge-labels subdivides every labelled edge by a vertex coloured with its label.\n"
        "JSON (--json, one line): command, dataset, mode, graphs, orbits{total_including_trivial, trivial,\n"
        "non_trivial}, I, I_pct, isomorphic_pairs, IP_pct, mismatched_graphs, mismatched_pct, histogram,\n"
        "largest_orbits, non_trivial_orbits, folds, tu_stats, clean, seconds.\n"
        "Example: brec dedup data/MUTAG --node-labels --split folds.txt --write-clean MUTAG_clean");
    sub->add_option("path", args->positional,
                    "TU directory, graph6/sparse6 file or pair file (default: the shipped BREC v3 pairs)");
    sub->add_option("--dataset", args->pairs.dataset, "Same as PATH (for symmetry with the pair commands)");
    sub->add_option("--category", args->pairs.categories,
                    "Pair files only: categories (fine names or groups Basic, Regular, Extension, CFI)")
        ->delimiter(',');
    sub->add_option("--pairs", args->pairs.pairs, "Pair files only: pair ids, e.g. 0-59,260 (default: all)");
    sub->add_option("--format", args->format, "Input format: auto, tu, graph6 (also sparse6), pairs")
        ->check(CLI::IsMember({"auto", "tu", "graph6", "pairs"}))
        ->capture_default_str();
    sub->add_option("--tu-name", args->tu_name, "TU dataset name DS when the directory holds several");
    sub->add_option("--labels", args->labels, "graph6/sparse6 input: target labels, one integer per line");
    sub->add_flag("--node-labels", args->node_labels, "Label-preserving isomorphism: node labels are vertex colours");
    sub->add_flag("--edge-labels", args->edge_labels,
                  "Preserve node and edge labels (labelled edges are subdivided by a vertex of the label's colour)");
    sub->add_option("--method", args->method,
                    "certificate (one canonical form per graph + hash map) or pairwise (baseline: test all pairs "
                    "with equal node and edge counts; for benchmarks)")
        ->capture_default_str();
    sub->add_option("--split", args->split,
                    "Train/test split: JSON folds [{\"train\":[..],\"test\":[..]}], 'INDEX train|test' lines, one "
                    "test index per line, or a fold file (one line of test indices per fold)");
    sub->add_option("--predictions", args->predictions,
                    "Model predictions: one label per graph per line, 'INDEX LABEL' or 'FOLD INDEX LABEL' lines; "
                    "reports acc(Y_test), acc(Y_iso), acc(Y_new) and the peering upper bound per fold");
    sub->add_flag("--one-based", args->one_based, "Indices (and fold numbers) in --split/--predictions are 1-based");
    sub->add_option("--write-clean", args->write_clean,
                    "Write the cleaned dataset (one graph per orbit with agreeing labels) in TU format to this "
                    "directory, plus NAME_mapping.tsv (new -> old ids) and NAME_retention.tsv (per class)");
    sub->add_option("--svg", args->svg, "Write the orbit-size histogram as SVG to this file");
    sub->add_option("--top", args->top, "Number of largest orbits to list")->capture_default_str();
    sub->add_option("--jobs,-j", args->pairs.jobs, "Worker threads (canonical labelling in parallel)")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    sub->add_flag("--json", args->pairs.json, "Print the report as one JSON object (the summary) on stdout");
    sub->add_flag("--quiet,-q", args->pairs.quiet, "No progress on stderr");
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return run_dedup(*args, ctx); }; });
}

}  // namespace brec::cli
