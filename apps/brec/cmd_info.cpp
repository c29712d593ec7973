// brec info: sizes, categories, node/edge ranges and defining parameters of a pair dataset.
#include <iostream>

#include "commands.hpp"
#include "common.hpp"
#include "brec/dedup/dataset_info.hpp"

namespace brec::cli {
namespace {

struct InfoArgs {
    PairArgs pairs;
    std::string positional;
};

nlohmann::json to_json(const DatasetInfo& info) {
    nlohmann::json j;
    j["command"] = "info";
    j["dataset"] = info.path;
    j["pairs"] = info.pairs;
    j["graphs"] = info.graphs;
    nlohmann::json cats = nlohmann::json::object();
    for (const auto& c : info.categories) {
        cats[c.name] = {{"pairs", c.pairs},
                        {"ids", {c.first_id, c.last_id}},
                        {"nodes", {c.min_n, c.max_n}},
                        {"edges", {c.min_m, c.max_m}},
                        {"connected_graphs", c.connected_graphs},
                        {"regular_graphs", c.regular_graphs},
                        {"parameters", c.parameters}};
    }
    j["categories"] = cats;
    nlohmann::json rep = nlohmann::json::array();
    for (const auto& r : info.repeated) {
        nlohmann::json occ = nlohmann::json::array();
        for (const auto& [id, side] : r.occurrences) occ.push_back(std::to_string(id) + side);
        rep.push_back(occ);
    }
    j["repeated_graphs"] = rep;
    j["isomorphic_pairs"] = info.isomorphic_pairs;
    return j;
}

int run_info(const InfoArgs& args, RunContext& ctx) {
    PairArgs pa = args.pairs;
    if (!args.positional.empty()) pa.dataset = args.positional;
    set_quiet(ctx, pa.quiet || true);  // info is fast; no progress bar
    ctx.set_threads(pa.jobs);
    const auto sel = load_selected_pairs(pa);
    const DatasetInfo info = describe_pairs(sel.dataset, sel.indices, ctx);
    for (const auto& r : info.repeated) {
        std::string where;
        for (const auto& [id, side] : r.occurrences) where += (where.empty() ? "" : ", ") + std::to_string(id) + side;
        ctx.warn("the same graph (up to isomorphism) occurs " + std::to_string(r.occurrences.size()) +
                 " times: pairs " + where);
    }
    for (PairId id : info.isomorphic_pairs)
        ctx.warn("pair " + std::to_string(id) + ": its two graphs are isomorphic");
    if (pa.json) {
        print_json_line(to_json(info));
        return 0;
    }
    std::cout << "dataset: " << info.path << "\n"
              << info.pairs << " pairs, " << info.graphs << " graphs\n\n";
    TextTable t({"category", "ids", "pairs", "nodes", "edges", "connected", "regular"});
    for (const auto& c : info.categories) {
        t.add_row({c.name, std::to_string(c.first_id) + "-" + std::to_string(c.last_id),
                   std::to_string(c.pairs), std::to_string(c.min_n) + "-" + std::to_string(c.max_n),
                   std::to_string(c.min_m) + "-" + std::to_string(c.max_m),
                   std::to_string(c.connected_graphs) + "/" + std::to_string(2 * c.pairs),
                   std::to_string(c.regular_graphs) + "/" + std::to_string(2 * c.pairs)});
    }
    std::cout << t.str() << "\nparameters of regular pairs (pairs per parameter set):\n";
    for (const auto& c : info.categories) {
        if (c.parameters.empty()) continue;
        std::cout << "  " << c.name << ":";
        std::size_t k = 0;
        for (const auto& [label, count] : c.parameters)
            std::cout << (k++ % 4 == 0 ? "\n    " : "  ") << label << " x" << count;
        std::cout << "\n";
    }
    std::cout << "\nrepeated graphs: " << info.repeated.size() << "\n";
    for (const auto& r : info.repeated) {
        std::cout << " ";
        for (const auto& [id, side] : r.occurrences) std::cout << " " << id << side;
        std::cout << "\n";
    }
    return 0;
}

}  // namespace

void add_info(CLI::App& root, Action& action) {
    auto args = std::make_shared<InfoArgs>();
    auto* sub = root.add_subcommand(
        "info", "Sizes, categories, node/edge ranges and parameters of a pair dataset.\n"
                "Example: brec info --category str,4vtx,dr");
    sub->add_option("dataset", args->positional, "Pair file (default: the shipped BREC v3 pairs)");
    add_pair_flags(sub, args->pairs);
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return run_info(*args, ctx); }; });
}

}  // namespace brec::cli
