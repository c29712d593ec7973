#include "brec/dedup/dataset_info.hpp"

#include <algorithm>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "brec/core/parallel.hpp"
#include "brec/core/text.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/graph/properties.hpp"
#include "brec/iso/iso.hpp"

namespace brec {
namespace {

/// The defining parameter label of a regular graph (most specific first).
std::string parameter_label(const Graph& g) {
    if (!g.is_regular() || g.n() == 0) return "";
    if (const auto srg = srg_parameters(g)) {
        std::string s = srg->str();
        if (const auto fv = four_vertex_constants(g))
            if (g.n() > 16)  // tiny SRGs satisfy it trivially often; report for the BREC family sizes
                s += " 4vtx(" + std::to_string(fv->first) + "," + std::to_string(fv->second) + ")";
        return s;
    }
    if (const auto ia = intersection_array(g); ia && ia->diameter() >= 3) return "drg" + ia->str();
    return "(n,k)=(" + std::to_string(g.n()) + "," + std::to_string(g.degree(0)) + ")";
}

}  // namespace

DatasetInfo describe_pairs(const PairDataset& ds, const std::vector<std::size_t>& indices, RunContext& ctx) {
    DatasetInfo info;
    info.path = ds.path;
    info.pairs = indices.size();
    info.graphs = 2 * indices.size();
    struct PerPair {
        std::string label_a, label_b;
        bool conn_a = false, conn_b = false;
        Certificate ca, cb;
    };
    std::vector<PerPair> per(indices.size());
    std::size_t done = 0;
    std::mutex m;
    parallel_for(indices.size(), ctx.threads(), [&](std::size_t k) {
        ctx.throw_if_cancelled();
        const auto& p = ds.pairs[indices[k]];
        PerPair r;
        r.label_a = parameter_label(p.a);
        r.label_b = parameter_label(p.b);
        r.conn_a = is_connected(p.a);
        r.conn_b = is_connected(p.b);
        r.ca = canonical_certificate(p.a);
        r.cb = canonical_certificate(p.b);
        per[k] = std::move(r);
        std::lock_guard<std::mutex> lock(m);
        ctx.progress("info", ++done, indices.size());
    });
    std::map<std::string, std::size_t> cat_index;
    std::unordered_map<Certificate, std::vector<std::pair<PairId, char>>, CertificateHash> seen;
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const auto& p = ds.pairs[indices[k]];
        auto [it, fresh] = cat_index.emplace(p.category, info.categories.size());
        if (fresh) {
            CategoryInfo c;
            c.name = p.category;
            c.min_n = std::min(p.a.n(), p.b.n());
            c.max_n = std::max(p.a.n(), p.b.n());
            c.min_m = std::min(p.a.m(), p.b.m());
            c.max_m = std::max(p.a.m(), p.b.m());
            c.first_id = c.last_id = p.id;
            info.categories.push_back(c);
        }
        CategoryInfo& c = info.categories[it->second];
        ++c.pairs;
        c.min_n = std::min({c.min_n, p.a.n(), p.b.n()});
        c.max_n = std::max({c.max_n, p.a.n(), p.b.n()});
        c.min_m = std::min({c.min_m, p.a.m(), p.b.m()});
        c.max_m = std::max({c.max_m, p.a.m(), p.b.m()});
        c.first_id = std::min(c.first_id, p.id);
        c.last_id = std::max(c.last_id, p.id);
        c.connected_graphs += per[k].conn_a + per[k].conn_b;
        c.regular_graphs += p.a.is_regular() + p.b.is_regular();
        const auto& la = per[k].label_a;
        const auto& lb = per[k].label_b;
        if (!la.empty() || !lb.empty()) {
            // Count the pair under its label; mixed labels show both.
            c.parameters[la == lb ? la : (la + " | " + lb)] += 1;
        }
        if (per[k].ca == per[k].cb) info.isomorphic_pairs.push_back(p.id);
        seen[per[k].ca].push_back({p.id, 'a'});
        seen[per[k].cb].push_back({p.id, 'b'});
    }
    for (auto& [cert, occ] : seen)
        if (occ.size() > 1) {
            std::sort(occ.begin(), occ.end());
            info.repeated.push_back({occ});
        }
    std::sort(info.repeated.begin(), info.repeated.end(),
              [](const RepeatedGraph& a, const RepeatedGraph& b) { return a.occurrences < b.occurrences; });
    for (const auto& r : info.repeated) {
        std::string where;
        for (const auto& [id, side] : r.occurrences) where += (where.empty() ? "" : ", ") + std::to_string(id) + side;
        info.warnings.push_back("the same graph (up to isomorphism) occurs " + std::to_string(r.occurrences.size()) +
                                " times: pairs " + where);
    }
    for (PairId id : info.isomorphic_pairs)
        info.warnings.push_back("pair " + std::to_string(id) + ": its two graphs are isomorphic");
    return info;
}

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

std::string dataset_info_text(const DatasetInfo& info) {
    std::ostringstream out;
    out << "dataset: " << info.path << "\n" << info.pairs << " pairs, " << info.graphs << " graphs\n\n";
    TextTable t({"category", "ids", "pairs", "nodes", "edges", "connected", "regular"});
    for (const auto& c : info.categories) {
        t.add_row({c.name, std::to_string(c.first_id) + "-" + std::to_string(c.last_id), std::to_string(c.pairs),
                   std::to_string(c.min_n) + "-" + std::to_string(c.max_n),
                   std::to_string(c.min_m) + "-" + std::to_string(c.max_m),
                   std::to_string(c.connected_graphs) + "/" + std::to_string(2 * c.pairs),
                   std::to_string(c.regular_graphs) + "/" + std::to_string(2 * c.pairs)});
    }
    out << t.str() << "\nparameters of regular pairs (pairs per parameter set):\n";
    for (const auto& c : info.categories) {
        if (c.parameters.empty()) continue;
        out << "  " << c.name << ":";
        std::size_t k = 0;
        for (const auto& [label, count] : c.parameters)
            out << (k++ % 4 == 0 ? "\n    " : "  ") << label << " x" << count;
        out << "\n";
    }
    out << "\nrepeated graphs: " << info.repeated.size() << "\n";
    for (const auto& r : info.repeated) {
        out << " ";
        for (const auto& [id, side] : r.occurrences) out << " " << id << side;
        out << "\n";
    }
    return out.str();
}

}  // namespace brec
