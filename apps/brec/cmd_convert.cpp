// brec convert: between graph6, sparse6, edge lists, pair TSV, TU and JSON; reads .npy files.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/io/collection.hpp"

namespace brec::cli {
namespace {

struct ConvertArgs {
    std::string input;
    std::string output;
    std::string from;
    std::string to;
    bool one_based = false;
    CollectionOptions opt;  ///< npy and TU options are bound to their flags directly
    bool json = false;
    bool quiet = false;
};

int run_convert(const ConvertArgs& args, RunContext& ctx) {
    set_quiet(ctx, args.quiet);
    auto warn = [&](const std::string& msg) {
        if (!args.quiet) ctx.warn(msg);
    };
    const auto t0 = std::chrono::steady_clock::now();
    const GraphFormat from = args.from.empty() ? detect_format(args.input) : parse_format(args.from);
    const GraphFormat to = parse_format(args.to);
    if (to == GraphFormat::npy) throw InvalidArgument("--to npy: .npy is an input format only; write graph6 or pairs");
    CollectionOptions opt = args.opt;
    // Ignored options are reported, not silently dropped.
    if (from != GraphFormat::edgelist && to != GraphFormat::edgelist && args.one_based)
        warn("--one-based only applies to edge lists; ignored");
    if (from != GraphFormat::edgelist &&
        (opt.edge_list.self_loops != EdgePolicy::reject || opt.edge_list.duplicates != EdgePolicy::reject))
        warn("--loops/--duplicates only apply to edge-list input; ignored");
    if (from != GraphFormat::npy && (opt.npy.relabelings || !opt.npy.category.empty() || opt.npy.first_id))
        warn("--relabelings/--npy-category/--npy-first-id only apply to .npy input; ignored");
    opt.edge_list.one_based = opt.one_based = args.one_based;
    // TU input: --tu-name picks the dataset in the directory; output: names the files.
    CollectionOptions in_opt = opt, out_opt = opt;
    if (to == GraphFormat::tu) in_opt.tu_name.clear();
    if (from == GraphFormat::tu && to != GraphFormat::tu) out_opt.tu_name.clear();

    const GraphCollection c = read_collection(args.input, from, in_opt);
    write_collection(args.output, to, c, out_opt);

    const std::size_t pairs = c.paired ? c.pair_ids.size() : 0;
    VertexId min_n = 0, max_n = 0;
    std::size_t min_m = 0, max_m = 0;
    for (std::size_t i = 0; i < c.graphs.size(); ++i) {
        min_n = i ? std::min(min_n, c.graphs[i].n()) : c.graphs[i].n();
        max_n = std::max(max_n, c.graphs[i].n());
        min_m = i ? std::min(min_m, c.graphs[i].m()) : c.graphs[i].m();
        max_m = std::max(max_m, c.graphs[i].m());
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (c.self_loops_dropped || c.duplicate_edges_dropped)
        warn("dropped " + std::to_string(c.self_loops_dropped) + " self-loops and " +
             std::to_string(c.duplicate_edges_dropped) + " duplicate edges");
    if (args.json) {
        print_json_line({{"command", "convert"},
                         {"input", args.input},
                         {"from", format_name(from)},
                         {"output", args.output},
                         {"to", format_name(to)},
                         {"graphs", c.graphs.size()},
                         {"pairs", pairs},
                         {"nodes", {min_n, max_n}},
                         {"edges", {min_m, max_m}},
                         {"graph_labels", !c.graph_labels.empty()},
                         {"self_loops_dropped", c.self_loops_dropped},
                         {"duplicate_edges_dropped", c.duplicate_edges_dropped},
                         {"seconds", seconds}});
        return 0;
    }
    std::cout << "converted " << c.graphs.size() << " graphs"
              << (pairs ? " (" + std::to_string(pairs) + " pairs)" : std::string()) << " from " << format_name(from)
              << " (" << args.input << ") to " << format_name(to) << " (" << args.output << "); nodes " << min_n << "-"
              << max_n << ", edges " << min_m << "-" << max_m << ", " << format_seconds(seconds) << "\n";
    return 0;
}

}  // namespace

void add_convert(CLI::App& root, Action& action) {
    auto args = std::make_shared<ConvertArgs>();
    auto* sub = add_command(
        root, "convert", "Convert graphs between graph6, sparse6, edge lists, pair files, TU and JSON (and read .npy)",
        "Formats: graph6 and sparse6 (one record per line), edgelist\n"
        "('n N' line per graph, then 'u v [label]' lines; '#' comments), pairs (BREC TSV: id,\n"
        "category, graph6_a, graph6_b), tu (a directory of DS_A.txt, DS_graph_indicator.txt, ...),\n"
        "json (dataset JSON: {\"graphs\": [{\"n\", \"edges\", ...}]} or {\"pairs\": [...]}), and npy\n"
        "(input only: the BREC authors' NumPy arrays of graph6 strings, e.g. basic.npy, cfi.npy or\n"
        "the relabelled brec_v3.npy). Pairs flatten to consecutive graphs; consecutive graphs\n"
        "become pairs. The input format is detected from the extension or the content unless\n"
        "--from is given. The output is written atomically: on any error no file is left.\n"
        "With --json the summary is one JSON object: command, input, from, output, to, graphs,\n"
        "pairs, nodes [min, max], edges [min, max], graph_labels, self_loops_dropped,\n"
        "duplicate_edges_dropped, seconds.\n"
        "Example: brec convert brec_v3.npy --to pairs --out brec_v3_pairs.tsv");
    sub->add_option("input", args->input, "Input file or TU directory")->required();
    add_out_flag(sub, args->output, "Output file (tu: a directory, whose name is the dataset name unless --tu-name)")
        ->required();
    const std::vector<std::string> outs = {"graph6", "g6",    "sparse6", "s6", "edgelist",
                                           "el",     "pairs", "tsv",     "tu", "json"};
    std::vector<std::string> ins = outs;
    ins.push_back("npy");
    sub->add_option("--to", args->to, "Output format: graph6, sparse6, edgelist, pairs, tu, json")
        ->required()
        ->check(CLI::IsMember(outs, CLI::ignore_case));
    sub->add_option("--from", args->from, "Input format (default: detected from the path and the content)")
        ->check(CLI::IsMember(ins, CLI::ignore_case));
    sub->add_flag("--one-based", args->one_based,
                  "Edge lists (input and output) use 1-based vertex ids (default: 0-based)");
    const std::map<std::string, EdgePolicy> policies = {{"reject", EdgePolicy::reject}, {"drop", EdgePolicy::drop}};
    sub->add_option("--loops", args->opt.edge_list.self_loops,
                    "Edge-list input: self-loops are an error (reject) or skipped and counted (drop) [reject]")
        ->transform(CLI::CheckedTransformer(policies));
    sub->add_option("--duplicates", args->opt.edge_list.duplicates,
                    "Edge-list input: a repeated edge (either direction) is an error (reject) or "
                    "skipped and counted (drop) [reject]")
        ->transform(CLI::CheckedTransformer(policies));
    sub->add_option("--relabelings", args->opt.npy.relabelings,
                    "npy input: the array is in the BREC authors' relabelled layout with R "
                    "relabelings per graph (P traintest blocks of 2R strings G,H,G',H',..., then P "
                    "reliability blocks); pair i = strings 2R*i and 2R*i+1. Default: detected "
                    "(R = 32 for the 51,200 strings of brec_v3.npy; (P, 2) rows and (2P,) "
                    "arrays are plain pairs)");
    sub->add_option("--npy-category", args->opt.npy.category,
                    "npy input: category of every pair (default: the official BREC categories by "
                    "id for 400 pairs, else 'unknown'), e.g. basic for basic.npy");
    sub->add_option("--npy-first-id", args->opt.npy.first_id,
                    "npy input: id of the first pair (default 0), e.g. 60 for regular.npy")
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--tu-name", args->opt.tu_name,
                    "TU dataset name (DS of DS_A.txt): which dataset to read from a directory that "
                    "holds several, or the name of the written files");
    add_json_flag(sub, args->json, "Print the summary as one JSON object");
    add_quiet_flag(sub, args->quiet, "No warnings on stderr (errors are still reported)");
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return run_convert(*args, ctx); }; });
}

}  // namespace brec::cli
