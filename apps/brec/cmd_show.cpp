// brec show: draw both graphs of one pair side by side as SVG, with the pair's parameters.
#include <iostream>

#include "brec/io/files.hpp"
#include "brec/iso/iso.hpp"
#include "brec/report/pair_figure.hpp"
#include "commands.hpp"
#include "common.hpp"

namespace brec::cli {
namespace {

struct ShowArgs {
    PairId id = -1;
    std::string dataset;
    std::string svg;
};

int run_show(const ShowArgs& args, RunContext& ctx) {
    const std::string path = args.dataset.empty() ? default_dataset_path() : args.dataset;
    // The isomorphism facts come from iso, which the drawing module does not depend on.
    const PairFigure figure = draw_pair(path, args.id, [](const Graph& a, const Graph& b) {
        return PairSymmetry{automorphisms(a).order_text(), automorphisms(b).order_text(), are_isomorphic(a, b)};
    });
    write_text_file_atomic(args.svg, figure.svg);
    ctx.info("wrote " + args.svg);
    for (const auto& line : figure.caption) std::cout << line << "\n";
    return 0;
}

}  // namespace

void add_show(CLI::App& root, Action& action) {
    auto args = std::make_shared<ShowArgs>();
    auto* sub =
        root.add_subcommand("show",
                            "Draw both graphs of a pair side by side as SVG (circular layout for regular graphs,\n"
                            "stress majorization otherwise) with the pair's parameters as caption.\n"
                            "Example: brec show 110 --svg pair110.svg");
    sub->add_option("id", args->id, "Pair id")->required()->check(whole_number_at_least(0));
    sub->add_option("--dataset", args->dataset, "Pair file (default: the shipped BREC v3 pairs)");
    sub->add_option("--svg", args->svg, "Output SVG file")->required();
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return run_show(*args, ctx); }; });
}

}  // namespace brec::cli
