// brec info: sizes, categories, node/edge ranges and defining parameters of a pair dataset.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common.hpp"
#include "brec/dedup/dataset_info.hpp"

namespace brec::cli {
namespace {

struct InfoArgs {
    PairArgs pairs;
    std::string positional;
};

int info_command(const InfoArgs& args, RunContext& ctx) {
    PairArgs pa = args.pairs;
    if (!args.positional.empty()) pa.dataset = args.positional;
    set_quiet(ctx, true);  // info takes a second at most: no progress bar, whatever --quiet says
    ctx.set_threads(pa.jobs);
    const auto sel = load_selected_pairs(pa);
    const DatasetInfo info = describe_pairs(sel.dataset, sel.indices, ctx);
    for (const auto& w : info.warnings) ctx.warn(w);
    if (pa.json)
        print_json_line(to_json(info));
    else
        std::cout << dataset_info_text(info);
    return 0;
}

}  // namespace

void add_info(CLI::App& root, Action& action) {
    auto args = std::make_shared<InfoArgs>();
    auto* sub = add_command(root, "info", "Sizes, categories, node/edge ranges and parameters of a pair dataset",
                            "Repeated graphs (up to isomorphism) and pairs of isomorphic graphs are found by\n"
                            "canonical certificates and reported as warnings.\n"
                            "JSON (--json, one line): command, dataset, pairs, graphs, categories{NAME: {pairs, ids,\n"
                            "nodes, edges, connected_graphs, regular_graphs, parameters}}, repeated_graphs,\n"
                            "isomorphic_pairs.\n"
                            "Example: brec info --category str,4vtx,dr");
    sub->add_option("dataset", args->positional, "Pair file (default: the shipped BREC v3 pairs)");
    add_pair_flags(sub, args->pairs);
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return info_command(*args, ctx); }; });
}

}  // namespace brec::cli
