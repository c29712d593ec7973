#include "brec/rpc/export.hpp"

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/rng.hpp"
#include "brec/io/dir_writer.hpp"
#include "brec/io/graph6.hpp"
#include "brec/io/npy_numeric.hpp"
#include "brec/rpc/groups.hpp"

namespace brec {
namespace {

std::string pair_file(PairId id, const std::string& ext) { return "pair_" + std::to_string(id) + ext; }

}  // namespace

EdgeIndexArrays edge_index_arrays(const std::vector<Graph>& graphs, std::size_t begin, std::size_t end) {
    if (begin > end || end > graphs.size()) throw InvalidArgument("edge_index_arrays: range outside the graph list");
    EdgeIndexArrays a;
    bool labelled = false;
    for (std::size_t i = begin; i < end; ++i) labelled = labelled || graphs[i].has_node_labels();
    std::int64_t offset = 0;
    a.node_ptr.push_back(0);
    a.edge_ptr.push_back(0);
    for (std::size_t i = begin; i < end; ++i) {
        const Graph& g = graphs[i];
        // Arcs grouped by target v, sources ascending: nn::make_sparse_batch's order.
        for (VertexId v = 0; v < g.n(); ++v) {
            a.batch.push_back(static_cast<std::int64_t>(i - begin));
            if (labelled) a.node_label.push_back(static_cast<std::int64_t>(g.node_label(v)));
            for (VertexId w : g.neighbors(v)) {
                a.src.push_back(offset + w);
                a.dst.push_back(offset + v);
            }
        }
        offset += g.n();
        a.num_nodes.push_back(g.n());
        a.node_ptr.push_back(offset);
        a.edge_ptr.push_back(static_cast<std::int64_t>(a.src.size()));
    }
    return a;
}

std::string graphs_npz(const std::vector<Graph>& graphs) {
    const EdgeIndexArrays a = edge_index_arrays(graphs, 0, graphs.size());
    std::vector<std::int64_t> edge_index(a.src);
    edge_index.insert(edge_index.end(), a.dst.begin(), a.dst.end());
    const auto len = [](const std::vector<std::int64_t>& v) { return std::vector<std::size_t>{v.size()}; };
    std::vector<std::pair<std::string, std::string>> members = {
        {"edge_index", format_npy_int64(edge_index, {2, a.src.size()})},
        {"batch", format_npy_int64(a.batch, len(a.batch))},
        {"num_nodes", format_npy_int64(a.num_nodes, len(a.num_nodes))},
        {"node_ptr", format_npy_int64(a.node_ptr, len(a.node_ptr))},
        {"edge_ptr", format_npy_int64(a.edge_ptr, len(a.edge_ptr))}};
    if (!a.node_label.empty()) members.emplace_back("node_label", format_npy_int64(a.node_label, len(a.node_label)));
    return format_npz(members);
}

ExportResult export_pair_groups(const PairDataset& dataset, const std::vector<std::size_t>& indices,
                                const ExportOptions& opt, const std::string& dir, const RunContext& ctx) {
    if (opt.q < 2)
        throw InvalidArgument("an export needs at least 2 relabelings per graph (q = " + std::to_string(opt.q) + ")");
    if (dir.empty()) throw InvalidArgument("no export directory given");
    // Built in a temporary sibling directory that replaces `dir` in one rename: a missing or empty
    // directory only, whose parent exists.
    AtomicDirWriter out(dir, AtomicDirOptions().set_existing(ExistingDir::replace_empty).set_create_parents(false));

    const int rows = 4 * opt.q;
    std::vector<nlohmann::json> entries(indices.size());
    std::atomic<std::size_t> done{0};
    parallel_for(indices.size(), opt.jobs, [&](std::size_t k) {
        if (ctx.cancelled()) throw Cancelled("export cancelled");
        const GraphPairRecord& pair = dataset.pairs[indices[k]];
        Rng rng(stream_seed(opt.seed, static_cast<std::uint64_t>(pair.id)));
        const PairGroups groups = make_pair_groups(pair, opt.q, rng);
        std::vector<Graph> all = groups.traintest;
        all.insert(all.end(), groups.reliability.begin(), groups.reliability.end());
        std::string g6;
        for (const Graph& g : all) g6 += to_graph6(g) + "\n";
        out.write(pair_file(pair.id, ".g6"), g6);
        out.write(pair_file(pair.id, ".npz"), graphs_npz(all));
        entries[k] = {{"id", pair.id},
                      {"category", pair.category},
                      {"n", pair.a.n()},
                      {"m", pair.a.m()},
                      {"reliability_of", groups.reliability_of_b ? "H" : "G"},
                      {"graph6", pair_file(pair.id, ".g6")},
                      {"npz", pair_file(pair.id, ".npz")},
                      {"embeddings", pair_file(pair.id, ".npy")}};
        if (pair.b.n() != pair.a.n() || pair.b.m() != pair.a.m()) {
            entries[k]["n_h"] = pair.b.n();
            entries[k]["m_h"] = pair.b.m();
        }
        ctx.progress("export", ++done, indices.size());
    });

    nlohmann::json manifest = {
        {"format", "brec-export"},
        {"version", 1},
        {"dataset", opt.dataset.empty() ? dataset.path : opt.dataset},
        {"seed", opt.seed},
        {"q", opt.q},
        {"rows_per_pair", rows},
        {"groups",
         {{{"name", "traintest"},
           {"first_row", 0},
           {"rows", 2 * opt.q},
           {"order",
            "G_1, H_1, G_2, H_2, ...: rows 2i and 2i+1 are the i-th relabelings of the pair's graphs G and H "
            "(row 0 is G and row 1 is H as in the dataset)"}},
          {{"name", "reliability"},
           {"first_row", 2 * opt.q},
           {"rows", 2 * opt.q},
           {"order",
            "2q relabelings of one graph of the pair (reliability_of: G or H), paired consecutively; the "
            "first is the graph itself"}}}},
        {"embeddings",
         "per pair a float32 array [rows_per_pair, d] in row order, saved as the pair's 'embeddings' file, or one "
         "float32 array [pairs, rows_per_pair, d] in the order of 'pairs' saved as embeddings.npy; d < q"},
        {"pairs", entries}};
    out.write("manifest.json", manifest.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    out.commit();
    ExportResult r;
    r.dir = dir;
    r.pairs = indices.size();
    r.graphs = indices.size() * static_cast<std::size_t>(rows);
    r.manifest = std::move(manifest);
    return r;
}

}  // namespace brec
