// brec show: draw both graphs of one pair side by side as SVG, with the pair's parameters.
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/report/layout.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/graph/properties.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
#include "brec/iso/iso.hpp"

namespace brec::cli {
namespace {

struct ShowArgs {
    PairId id = -1;
    std::string dataset;
    std::string svg;
};

std::string structure(const Graph& g) {
    if (g.n() == 0) return "empty";
    if (!g.is_regular()) {
        const auto d = g.degree_sequence();
        return "degrees " + std::to_string(d.back()) + "-" + std::to_string(d.front());
    }
    if (const auto s = srg_parameters(g)) {
        const auto f = four_vertex_constants(g);
        return f ? s->str() + " 4vtx(" + std::to_string(f->first) + "," + std::to_string(f->second) + ")" : s->str();
    }
    if (g.degree(0) <= 2) return std::to_string(g.degree(0)) + "-regular";  // cycles: trivially distance-regular
    if (const auto ia = intersection_array(g)) return "distance-regular " + ia->str();
    return std::to_string(g.degree(0)) + "-regular";
}

/// Parameters recorded by `brec generate` in DIR/meta.json next to the pair file, if any.
std::string generated_kind(const std::string& dataset, PairId id) {
    const auto meta = std::filesystem::path(dataset).parent_path() / "meta.json";
    std::error_code ec;
    if (!std::filesystem::exists(meta, ec)) return "";
    try {
        const auto j = nlohmann::json::parse(read_text_file(meta.string()));
        for (const auto& p : j.at("pairs"))
            if (p.at("id").get<PairId>() == id) {
                std::string s = p.at("kind").get<std::string>();
                const auto& params = p.at("params");
                for (const char* key : {"base", "treewidth", "hardness", "l", "base_n", "base_degree"})
                    if (params.contains(key))
                        s += ", " + std::string(key) + " " +
                             (params[key].is_string() ? params[key].get<std::string>() : params[key].dump());
                return s;
            }
    } catch (const std::exception&) {
        return "";  // not our metadata; the drawing does not need it
    }
    return "";
}

int run_show(const ShowArgs& args, RunContext& ctx) {
    const std::string path = args.dataset.empty() ? default_dataset_path() : args.dataset;
    const PairDataset ds = read_pair_file(path);
    const GraphPairRecord* rec = nullptr;
    for (const auto& p : ds.pairs)
        if (p.id == args.id) rec = &p;
    if (!rec) throw InvalidArgument("pair " + std::to_string(args.id) + " does not exist in " + path);
    const Graph& a = rec->a;
    const Graph& b = rec->b;
    std::vector<std::string> caption;
    caption.push_back("pair " + std::to_string(rec->id) + " (" + rec->category + "), n = " + std::to_string(a.n()) +
                      ", m = " + std::to_string(a.m()) + " / " + std::to_string(b.m()));
    const std::string sa = structure(a), sb = structure(b);
    caption.push_back(sa == sb ? sa : sa + " / " + sb);
    const std::string kind = generated_kind(path, rec->id);
    if (!kind.empty()) caption.push_back(kind);
    caption.push_back("|Aut| " + automorphisms(a).order_text() + " / " + automorphisms(b).order_text() +
                      (are_isomorphic(a, b) ? "  (isomorphic!)" : "  (non-isomorphic)"));
    caption.push_back(pair_layout_description(a, b));
    write_text_file_atomic(args.svg, render_pair_svg(a, b, "G (graph a)", "H (graph b)", caption));
    ctx.info("wrote " + args.svg);
    for (const auto& line : caption) std::cout << line << "\n";
    return 0;
}

}  // namespace

void add_show(CLI::App& root, Action& action) {
    auto args = std::make_shared<ShowArgs>();
    auto* sub = root.add_subcommand(
        "show", "Draw both graphs of a pair side by side as SVG (circular layout for regular graphs,\n"
                "stress majorization otherwise) with the pair's parameters as caption.\n"
                "Example: brec show 110 --svg pair110.svg");
    sub->add_option("id", args->id, "Pair id")->required()->check(whole_number_at_least(0));
    sub->add_option("--dataset", args->dataset, "Pair file (default: the shipped BREC v3 pairs)");
    sub->add_option("--svg", args->svg, "Output SVG file")->required();
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return run_show(*args, ctx); }; });
}

}  // namespace brec::cli
