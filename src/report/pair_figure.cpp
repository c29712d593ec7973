#include "brec/report/pair_figure.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"
#include "brec/graph/properties.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
#include "brec/report/layout.hpp"

namespace brec {

std::string graph_structure(const Graph& g) {
    if (g.n() == 0) return "empty";
    if (!g.is_regular()) {
        const auto d = g.degree_sequence();
        return "degrees " + std::to_string(d.back()) + "-" + std::to_string(d.front());
    }
    if (const auto s = srg_parameters(g)) {
        const auto f = four_vertex_constants(g);
        return f ? s->str() + " 4vtx(" + std::to_string(f->first) + "," + std::to_string(f->second) + ")" : s->str();
    }
    // Cycles are trivially distance-regular: their degree says enough.
    if (g.degree(0) <= 2) return std::to_string(g.degree(0)) + "-regular";
    if (const auto ia = intersection_array(g)) return "distance-regular " + ia->str();
    return std::to_string(g.degree(0)) + "-regular";
}

std::string generated_pair_parameters(const std::string& dataset, PairId id) {
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
        return "";  // not the generator's metadata; the drawing does not need it
    }
    return "";
}

PairFigure draw_pair(const std::string& dataset, PairId id, const PairSymmetryFn& symmetry) {
    const PairDataset ds = read_pair_file(dataset);
    const GraphPairRecord* rec = nullptr;
    for (const auto& p : ds.pairs)
        if (p.id == id) rec = &p;
    if (!rec) throw InvalidArgument("pair " + std::to_string(id) + " does not exist in " + dataset);
    const Graph& a = rec->a;
    const Graph& b = rec->b;
    PairFigure fig;
    auto& caption = fig.caption;
    caption.push_back("pair " + std::to_string(rec->id) + " (" + rec->category + "), n = " + std::to_string(a.n()) +
                      ", m = " + std::to_string(a.m()) + " / " + std::to_string(b.m()));
    const std::string sa = graph_structure(a), sb = graph_structure(b);
    caption.push_back(sa == sb ? sa : sa + " / " + sb);
    const std::string kind = generated_pair_parameters(dataset, rec->id);
    if (!kind.empty()) caption.push_back(kind);
    const PairSymmetry sym = symmetry(a, b);
    caption.push_back("|Aut| " + sym.automorphisms_a + " / " + sym.automorphisms_b +
                      (sym.isomorphic ? "  (isomorphic!)" : "  (non-isomorphic)"));
    const PairLayout layout = plan_pair_layout(a, b);
    caption.push_back(layout.description());
    fig.svg = render_pair_svg(a, b, layout, "G (graph a)", "H (graph b)", caption);
    return fig;
}

}  // namespace brec
