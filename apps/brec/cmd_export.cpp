// brec export: the relabeled groups of every selected pair, as `brec eval` builds them for a seed,
// for a model trained outside brec (library: rpc/export.hpp).
#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "brec/rpc/export.hpp"

namespace brec::cli {
namespace {

struct ExportArgs {
    PairArgs pairs;
    ExportOptions options;
    std::string out;
};

int run_export(const ExportArgs& args, RunContext& ctx) {
    set_quiet(ctx, args.pairs.quiet);
    const auto sel = load_selected_pairs(args.pairs);
    ExportOptions opt = args.options;
    opt.jobs = args.pairs.jobs;
    opt.dataset = args.pairs.dataset.empty() ? sel.dataset.path : args.pairs.dataset;
    const ExportResult r = export_pair_groups(sel.dataset, sel.indices, opt, args.out, ctx);
    const nlohmann::json summary{
        {"command", "export"}, {"dir", r.dir},     {"dataset", opt.dataset}, {"seed", opt.seed},
        {"q", opt.q},          {"pairs", r.pairs}, {"graphs", r.graphs},     {"rows_per_pair", 4 * opt.q}};
    if (args.pairs.json)
        print_json_line(summary);
    else
        std::cout << "exported " << r.pairs << " pairs (" << r.graphs << " graphs, " << 4 * opt.q << " per pair, seed "
                  << opt.seed << ") to " << r.dir << "\n";
    return 0;
}

}  // namespace

void add_export(CLI::App& root, Action& action) {
    auto a = std::make_shared<ExportArgs>();
    auto* sub =
        root.add_subcommand("export", "Write the relabeled graphs of every pair for a model trained outside brec");
    sub->footer(
        "Writes, per selected pair, the graphs `brec eval --seed S --q Q` judges the pair on: the traintest\n"
        "group (2q graphs G1,H1,G2,H2,...) then the reliability group (2q relabelings of one graph, paired\n"
        "consecutively), as DIR/pair_ID.g6 (graph6, one graph per line = one embedding row) and\n"
        "DIR/pair_ID.npz (edge_index int64 [2,E] with both directions, batch [N], num_nodes, node_ptr and\n"
        "edge_ptr [4q+1]), plus DIR/manifest.json. Embed the 4q graphs of each pair with your own model,\n"
        "save float32 [4q, d] as DIR/pair_ID.npy (d < q) and run `brec rpc --embeddings DIR`.\n"
        "DIR must not exist (or be empty); nothing is left behind on failure. --json prints one object:\n"
        "{command, dir, dataset, seed, q, pairs, graphs, rows_per_pair}.\n"
        "Example: brec export --category basic --seed 100 --out basic_groups");
    sub->add_option("--out,-o", a->out, "New directory to write")->required();
    sub->add_option("--seed", a->options.seed, "Seed of the relabelings (as brec eval --seed)")->capture_default_str();
    sub->add_option("--q", a->options.q, "Relabelings per graph")->check(CLI::Range(2, 100000))->capture_default_str();
    add_pair_flags(sub, a->pairs);
    sub->callback([a, &action]() { action = [a](RunContext& ctx) { return run_export(*a, ctx); }; });
}

}  // namespace brec::cli
