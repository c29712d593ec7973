#include "brec/io/collection.hpp"
#include "brec/core/text.hpp"

#include <algorithm>
#include <cctype>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"
#include "brec/io/graph_lines.hpp"
#include "brec/io/tu.hpp"

namespace brec {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

GraphCollection from_pairs(const std::vector<GraphPairRecord>& pairs) {
    GraphCollection c;
    c.paired = true;
    c.graphs.reserve(2 * pairs.size());
    for (const auto& p : pairs) {
        c.graphs.push_back(p.a);
        c.graphs.push_back(p.b);
        c.pair_ids.push_back(p.id);
        c.categories.push_back(p.category);
    }
    return c;
}

std::vector<GraphPairRecord> to_pairs(const GraphCollection& c) {
    if (c.paired && c.graphs.size() != 2 * c.pair_ids.size())
        throw InvalidArgument("paired collection with " + std::to_string(c.graphs.size()) + " graphs for " +
                              std::to_string(c.pair_ids.size()) + " pairs");
    if (!c.paired && c.graphs.size() % 2 != 0)
        throw InvalidArgument(
            "pair output needs an even number of graphs (graphs 2i and 2i+1 "
            "form pair i); the input has " +
            std::to_string(c.graphs.size()));
    std::vector<GraphPairRecord> pairs;
    pairs.reserve(c.graphs.size() / 2);
    for (std::size_t i = 0; i + 1 < c.graphs.size(); i += 2) {
        GraphPairRecord r;
        r.id = c.paired ? c.pair_ids[i / 2] : static_cast<PairId>(i / 2);
        r.category = c.paired ? c.categories[i / 2] : "unknown";
        r.a = c.graphs[i];
        r.b = c.graphs[i + 1];
        pairs.push_back(std::move(r));
    }
    return pairs;
}

}  // namespace

GraphFormat parse_format(const std::string& name) {
    const std::string n = lower(name);
    if (n == "graph6" || n == "g6") return GraphFormat::graph6;
    if (n == "sparse6" || n == "s6") return GraphFormat::sparse6;
    if (n == "edgelist" || n == "el" || n == "edges") return GraphFormat::edgelist;
    if (n == "pairs" || n == "tsv") return GraphFormat::pairs;
    if (n == "tu") return GraphFormat::tu;
    if (n == "json") return GraphFormat::json;
    if (n == "npy") return GraphFormat::npy;
    throw InvalidArgument("unknown format '" + name + "' (known: graph6, sparse6, edgelist, pairs, tu, json, npy)");
}

std::string format_name(GraphFormat f) {
    switch (f) {
        case GraphFormat::graph6:
            return "graph6";
        case GraphFormat::sparse6:
            return "sparse6";
        case GraphFormat::edgelist:
            return "edgelist";
        case GraphFormat::pairs:
            return "pairs";
        case GraphFormat::tu:
            return "tu";
        case GraphFormat::json:
            return "json";
        case GraphFormat::npy:
            return "npy";
    }
    return "?";
}

GraphFormat detect_format(const std::string& path) {
    if (is_directory(path)) {
        if (looks_like_tu_dir(path)) return GraphFormat::tu;
        throw InvalidArgument(path +
                              " is a directory without a *_A.txt file, so not a TU "
                              "dataset; give a file or a TU directory");
    }
    const std::string p = lower(path);
    if (ends_with(p, ".npy")) return GraphFormat::npy;
    if (ends_with(p, ".tsv")) return GraphFormat::pairs;
    if (ends_with(p, ".json")) return GraphFormat::json;
    if (ends_with(p, ".s6") || ends_with(p, ".sparse6")) return GraphFormat::sparse6;
    if (ends_with(p, ".g6") || ends_with(p, ".graph6")) return GraphFormat::graph6;
    if (ends_with(p, ".el") || ends_with(p, ".edges") || ends_with(p, ".edgelist")) return GraphFormat::edgelist;
    const std::string text = read_text_file(path);
    if (text.compare(0, 6, "\x93NUMPY") == 0) return GraphFormat::npy;
    for (const auto& line : split_lines(text)) {
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#' || t[0] == '%') continue;
        if (t[0] == '{') return GraphFormat::json;
        if (std::count(t.begin(), t.end(), '\t') == 3) return GraphFormat::pairs;
        if (t[0] == ':' || t.rfind(">>sparse6<<", 0) == 0) return GraphFormat::sparse6;
        if (t.find_first_of(" \t,") != std::string::npos) return GraphFormat::edgelist;
        return GraphFormat::graph6;
    }
    throw ParseError(path, 0, "the file is empty; cannot tell its format (use --from)");
}

std::vector<Graph> read_graph_lines(const std::string& path) {
    std::vector<Graph> out;
    GraphLineReader reader(path);
    GraphLineReader::Batch batch;
    while (reader.next(1 << 14, batch))
        for (std::size_t k = 0; k < batch.size(); ++k)
            out.push_back(parse_graph6_or_sparse6(batch.record(k), SourcePos{path, batch.line[k]}));
    if (out.empty()) throw ParseError(path, 0, "no graphs found (empty file)");
    return out;
}

GraphCollection read_collection(const std::string& path, GraphFormat format, const CollectionOptions& opt) {
    GraphCollection c;
    switch (format) {
        case GraphFormat::graph6:
        case GraphFormat::sparse6:
            c.graphs = read_graph_lines(path);
            break;
        case GraphFormat::edgelist: {
            EdgeListStats st;
            c.graphs = read_edge_lists(path, opt.edge_list, &st);
            c.self_loops_dropped = st.self_loops;
            c.duplicate_edges_dropped = st.duplicate_edges;
            break;
        }
        case GraphFormat::pairs:
            c = from_pairs(read_pair_file(path).pairs);
            break;
        case GraphFormat::tu: {
            TuDataset ds = read_tu_dataset(path, opt.tu_name);
            c.graphs = std::move(ds.graphs);
            c.graph_labels = std::move(ds.graph_labels);
            c.label_rows = std::move(ds.label_rows);
            c.self_loops_dropped = ds.stats.self_loops;
            c.duplicate_edges_dropped = ds.stats.duplicate_edge_lines;
            break;
        }
        case GraphFormat::npy:
            c = from_pairs(read_npy_pairs(path, opt.npy).dataset.pairs);
            break;
        case GraphFormat::json: {
            JsonDataset ds = read_dataset_json(path);
            if (ds.paired) {
                c = from_pairs(ds.pairs);
            } else {
                c.graphs = std::move(ds.graphs);
                c.graph_labels = std::move(ds.graph_labels);
                c.label_rows = std::move(ds.label_rows);
            }
            break;
        }
    }
    return c;
}

GraphCollection read_collection(const std::string& path, GraphFormat format, bool one_based) {
    CollectionOptions opt;
    opt.edge_list.one_based = one_based;
    return read_collection(path, format, opt);
}

nlohmann::json collection_to_json(const GraphCollection& c) {
    if (c.paired) return pairs_to_json(to_pairs(c));
    return graphs_to_json(c.graphs, c.graph_labels, c.label_rows);
}

void write_collection(const std::string& path, GraphFormat format, const GraphCollection& c,
                      const CollectionOptions& opt) {
    switch (format) {
        case GraphFormat::graph6:
        case GraphFormat::sparse6: {
            std::string text;
            for (const auto& g : c.graphs)
                text += (format == GraphFormat::graph6 ? to_graph6(g) : to_sparse6(g)) + "\n";
            write_text_file_atomic(path, text);
            return;
        }
        case GraphFormat::edgelist:
            write_edge_lists(path, c.graphs, opt.one_based);
            return;
        case GraphFormat::pairs:
            write_pair_file(path, to_pairs(c));
            return;
        case GraphFormat::tu: {
            std::string dir = path;
            while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
            const std::string name = opt.tu_name.empty() ? dir.substr(dir.find_last_of('/') + 1) : opt.tu_name;
            TuWriteOptions tu;
            tu.label_rows = c.label_rows;
            write_tu_dataset(dir, name, c.graphs, c.graph_labels, tu);
            return;
        }
        case GraphFormat::json:
            write_json_file(path, collection_to_json(c));
            return;
        case GraphFormat::npy:
            throw Unsupported(
                "writing .npy files is not supported by convert (npy is an input "
                "format); write graph6 or pairs instead");
    }
}

void write_collection(const std::string& path, GraphFormat format, const GraphCollection& c, bool one_based) {
    CollectionOptions opt;
    opt.one_based = one_based;
    write_collection(path, format, c, opt);
}

}  // namespace brec
