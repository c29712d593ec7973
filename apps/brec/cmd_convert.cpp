// brec convert: between graph6, sparse6, edge lists, pair TSV, TU and JSON; reads .npy files.
#include <iostream>

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
    std::size_t relabelings = 0;
    bool json = false;
};

int run_convert(const ConvertArgs& args, RunContext& ctx) {
    const GraphFormat from = args.from.empty() ? detect_format(args.input) : parse_format(args.from);
    const GraphFormat to = parse_format(args.to);
    if (to == GraphFormat::npy) throw InvalidArgument("--to npy: .npy is an input format only");
    GraphCollection c = (from == GraphFormat::npy) ? read_npy_pairs(args.input, args.relabelings)
                                                   : read_collection(args.input, from, args.one_based);
    write_collection(args.output, to, c, args.one_based);
    const std::size_t pairs = c.paired ? c.pair_ids.size() : 0;
    if (args.json) {
        print_json_line({{"command", "convert"}, {"input", args.input}, {"from", format_name(from)},
                         {"output", args.output}, {"to", format_name(to)}, {"graphs", c.graphs.size()},
                         {"pairs", pairs}});
    } else {
        ctx.info("converted " + std::to_string(c.graphs.size()) + " graphs" +
                 (pairs ? " (" + std::to_string(pairs) + " pairs)" : "") + " from " + format_name(from) +
                 " to " + format_name(to) + ": " + args.output);
    }
    return 0;
}

}  // namespace

void add_convert(CLI::App& root, Action& action) {
    auto args = std::make_shared<ConvertArgs>();
    auto* sub = root.add_subcommand(
        "convert", "Convert graphs between formats: graph6, sparse6, edgelist ('n N' then 'u v' lines),\n"
                   "pairs (BREC TSV), tu (directory of DS_*.txt files), json (export only), npy (input\n"
                   "only: the BREC authors' NumPy arrays of graph6 strings). Pairs flatten to consecutive\n"
                   "graphs; consecutive graphs become pairs. Output is written atomically.\n"
                   "Example: brec convert datasets/brec/brec_v3_pairs.tsv --to sparse6 --out brec.s6");
    sub->add_option("input", args->input, "Input file or TU directory")->required();
    sub->add_option("--out,-o", args->output, "Output file (TU: directory; its name is the dataset name)")->required();
    sub->add_option("--to", args->to, "Output format")->required()
        ->check(CLI::IsMember({"graph6", "g6", "sparse6", "s6", "edgelist", "el", "pairs", "tsv", "tu", "json"}));
    sub->add_option("--from", args->from, "Input format (default: detected from the path and content)")
        ->check(CLI::IsMember({"graph6", "g6", "sparse6", "s6", "edgelist", "el", "pairs", "tsv", "tu", "npy"}));
    sub->add_flag("--one-based", args->one_based, "Edge lists use 1-based vertex ids");
    sub->add_option("--relabelings", args->relabelings,
                    "npy input: graphs per pair block (first two are the pair); default: 2, or 128 for "
                    "the 51,200-graph relabelled BREC file");
    sub->add_flag("--json", args->json, "Print a JSON summary of what was converted");
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return run_convert(*args, ctx); }; });
}

}  // namespace brec::cli
