#include "brec/io/collection.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"
#include "brec/io/tu.hpp"

namespace brec {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

nlohmann::json graph_json(const Graph& g) {
    nlohmann::json j;
    j["n"] = g.n();
    nlohmann::json edges = nlohmann::json::array();
    for (const auto& [u, v] : g.edges()) {
        if (g.has_edge_labels()) edges.push_back({u, v, g.edge_label(u, v)});
        else edges.push_back({u, v});
    }
    j["edges"] = edges;
    if (g.has_node_labels()) j["node_labels"] = g.node_labels();
    return j;
}

}  // namespace

GraphFormat parse_format(const std::string& name) {
    if (name == "graph6" || name == "g6") return GraphFormat::graph6;
    if (name == "sparse6" || name == "s6") return GraphFormat::sparse6;
    if (name == "edgelist" || name == "el" || name == "edges") return GraphFormat::edgelist;
    if (name == "pairs" || name == "tsv") return GraphFormat::pairs;
    if (name == "tu") return GraphFormat::tu;
    if (name == "json") return GraphFormat::json;
    if (name == "npy") return GraphFormat::npy;
    throw InvalidArgument("unknown format '" + name + "' (known: graph6, sparse6, edgelist, pairs, tu, json, npy)");
}

std::string format_name(GraphFormat f) {
    switch (f) {
        case GraphFormat::graph6: return "graph6";
        case GraphFormat::sparse6: return "sparse6";
        case GraphFormat::edgelist: return "edgelist";
        case GraphFormat::pairs: return "pairs";
        case GraphFormat::tu: return "tu";
        case GraphFormat::json: return "json";
        case GraphFormat::npy: return "npy";
    }
    return "?";
}

GraphFormat detect_format(const std::string& path) {
    if (looks_like_tu_dir(path)) return GraphFormat::tu;
    if (ends_with(path, ".npy")) return GraphFormat::npy;
    if (ends_with(path, ".tsv")) return GraphFormat::pairs;
    if (ends_with(path, ".json")) return GraphFormat::json;
    if (ends_with(path, ".s6")) return GraphFormat::sparse6;
    if (ends_with(path, ".g6")) return GraphFormat::graph6;
    if (ends_with(path, ".el") || ends_with(path, ".edges") || ends_with(path, ".edgelist")) return GraphFormat::edgelist;
    const std::string text = read_text_file(path);
    for (const auto& line : split_lines(text)) {
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#') continue;
        if (std::count(t.begin(), t.end(), '\t') == 3) return GraphFormat::pairs;
        if (t.find(' ') != std::string::npos) return GraphFormat::edgelist;
        return t[0] == ':' || t.rfind(">>sparse6<<", 0) == 0 ? GraphFormat::sparse6 : GraphFormat::graph6;
    }
    throw ParseError(path, 0, "file is empty; cannot tell its format (use --from)");
}

std::vector<Graph> read_graph_lines(const std::string& path) {
    std::vector<Graph> out;
    const auto lines = split_lines(read_text_file(path));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string t = trim(lines[i]);
        if (t.empty() || t[0] == '#') continue;
        out.push_back(parse_graph6_or_sparse6(t, SourcePos{path, static_cast<std::int64_t>(i + 1)}));
    }
    if (out.empty()) throw ParseError(path, 0, "no graphs found (empty file)");
    return out;
}

std::vector<Graph> read_edge_lists(const std::string& path, bool one_based) {
    std::vector<Graph> out;
    const auto lines = split_lines(read_text_file(path));
    std::vector<Edge> edges;
    std::int64_t declared = -1;
    std::int64_t max_id = -1;
    bool any = false;
    std::int64_t block_line = 0;
    auto flush = [&]() {
        if (!any) return;
        const std::int64_t n = declared >= 0 ? declared : max_id + 1;
        if (declared >= 0 && max_id >= declared)
            throw ParseError(path, block_line, "vertex id " + std::to_string(max_id) + " out of range for 'n " +
                                                   std::to_string(declared) + "'");
        GraphBuilder b(static_cast<VertexId>(n));
        for (auto [u, v] : edges) b.add_edge(u, v);
        try {
            out.push_back(b.build());
        } catch (const InvalidArgument& e) {
            throw ParseError(path, block_line, e.what());
        }
        edges.clear();
        declared = -1;
        max_id = -1;
        any = false;
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto ln = static_cast<std::int64_t>(i + 1);
        const std::string t = trim(lines[i]);
        if (t.empty() || t[0] == '#' || t[0] == '%') continue;
        std::istringstream ss(t);
        std::string a, b, extra;
        ss >> a >> b >> extra;
        if (a == "n") {
            flush();
            std::int64_t n = -1;
            try {
                n = std::stoll(b);
            } catch (...) {
            }
            if (n < 0 || !extra.empty()) throw ParseError(path, ln, "expected 'n N' with N >= 0");
            declared = n;
            any = true;
            block_line = ln;
            continue;
        }
        if (b.empty() || !extra.empty()) throw ParseError(path, ln, "expected an edge 'u v'");
        std::int64_t u = 0, v = 0;
        std::size_t pu = 0, pv = 0;
        try {
            u = std::stoll(a, &pu);
            v = std::stoll(b, &pv);
        } catch (...) {
            pu = 0;
        }
        if (pu != a.size() || pv != b.size() || pu == 0) throw ParseError(path, ln, "expected integer vertex ids 'u v'");
        if (one_based) {
            --u;
            --v;
        }
        if (u < 0 || v < 0)
            throw ParseError(path, ln, "negative vertex id" + std::string(one_based ? " (ids are 1-based)" : ""));
        if (u == v) throw ParseError(path, ln, "self-loop at vertex " + a + " (simple graphs only)");
        if (!any) block_line = ln;
        any = true;
        max_id = std::max({max_id, u, v});
        edges.emplace_back(static_cast<VertexId>(u), static_cast<VertexId>(v));
    }
    flush();
    if (out.empty()) throw ParseError(path, 0, "no graphs found (empty file)");
    return out;
}

std::string format_edge_lists(const std::vector<Graph>& graphs, bool one_based) {
    std::ostringstream out;
    const int shift = one_based ? 1 : 0;
    for (const auto& g : graphs) {
        out << "n " << g.n() << '\n';
        for (const auto& [u, v] : g.edges()) out << u + shift << ' ' << v + shift << '\n';
    }
    return out.str();
}

NpyStrings read_npy_strings(const std::string& path) {
    const std::string data = read_text_file(path);
    auto fail = [&](const std::string& what) -> void { throw ParseError(path, 0, what); };
    if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0) fail("not a NumPy .npy file (bad magic)");
    const int major = static_cast<unsigned char>(data[6]);
    std::size_t header_len = 0, offset = 0;
    if (major == 1) {
        header_len = static_cast<unsigned char>(data[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(data[9])) << 8);
        offset = 10;
    } else if (major == 2 || major == 3) {
        if (data.size() < 12) fail("truncated .npy header");
        for (int i = 0; i < 4; ++i) header_len |= static_cast<std::size_t>(static_cast<unsigned char>(data[8 + i])) << (8 * i);
        offset = 12;
    } else {
        fail("unsupported .npy format version " + std::to_string(major));
    }
    if (offset + header_len > data.size()) fail("truncated .npy header");
    const std::string header = data.substr(offset, header_len);
    offset += header_len;
    auto field = [&](const std::string& key) {
        const auto p = header.find("'" + key + "'");
        if (p == std::string::npos) fail("header has no '" + key + "'");
        const auto colon = header.find(':', p);
        return header.substr(colon + 1);
    };
    const std::string descr_part = field("descr");
    const auto q1 = descr_part.find('\''), q2 = descr_part.find('\'', q1 + 1);
    const std::string descr = descr_part.substr(q1 + 1, q2 - q1 - 1);
    if (field("fortran_order").find("True") < field("fortran_order").find(',')) fail("Fortran-ordered arrays are not supported");
    const std::string shape_part = field("shape");
    const std::string shape_text = shape_part.substr(shape_part.find('(') + 1, shape_part.find(')') - shape_part.find('(') - 1);
    NpyStrings out;
    std::stringstream ss(shape_text);
    std::string dim;
    while (std::getline(ss, dim, ','))
        if (!trim(dim).empty()) out.shape.push_back(static_cast<std::size_t>(std::stoull(trim(dim))));
    std::size_t count = 1;
    for (auto d : out.shape) count *= d;
    bool utf32 = false;
    std::size_t width = 0;
    if (descr.size() > 2 && (descr[0] == '<' || descr[0] == '|' || descr[0] == '=') && descr[1] == 'U') {
        utf32 = true;
        width = std::stoull(descr.substr(2));
    } else if (descr.size() > 2 && descr[0] == '|' && descr[1] == 'S') {
        width = std::stoull(descr.substr(2));
    } else if (descr == "|O" || descr == "O") {
        fail("object arrays are pickles and are not read; re-save with np.save(path, arr.astype(str))");
    } else {
        fail("dtype '" + descr + "' is not a string array (expected '<U…' or '|S…')");
    }
    const std::size_t item = utf32 ? 4 * width : width;
    if (offset + item * count > data.size()) fail("truncated .npy data: " + std::to_string(count) + " items of " + std::to_string(item) + " bytes expected");
    out.values.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        std::string s;
        const char* p = data.data() + offset + i * item;
        for (std::size_t k = 0; k < width; ++k) {
            std::uint32_t c = 0;
            if (utf32) {
                for (int b = 0; b < 4; ++b) c |= static_cast<std::uint32_t>(static_cast<unsigned char>(p[4 * k + b])) << (8 * b);
            } else {
                c = static_cast<unsigned char>(p[k]);
            }
            if (c == 0) break;
            if (c > 126) throw ParseError(path, 0, "item " + std::to_string(i) + " has a non-ASCII character; not graph6", static_cast<std::int64_t>(offset + i * item));
            s.push_back(static_cast<char>(c));
        }
        out.values.push_back(std::move(s));
    }
    return out;
}

GraphCollection read_npy_pairs(const std::string& path, std::size_t relabelings) {
    const NpyStrings arr = read_npy_strings(path);
    std::size_t block = 2;
    if (relabelings > 0) block = relabelings;
    else if (arr.values.size() == 400 * 128 && arr.shape.size() == 1) block = 128;  // relabelled BREC v3
    if (block < 2 || arr.values.size() % block != 0)
        throw ParseError(path, 0, std::to_string(arr.values.size()) + " graphs do not split into pairs of blocks of " + std::to_string(block));
    GraphCollection c;
    c.paired = true;
    for (std::size_t i = 0; i < arr.values.size(); i += block) {
        for (std::size_t k = 0; k < 2; ++k) {
            try {
                c.graphs.push_back(parse_graph6_or_sparse6(arr.values[i + k], SourcePos{path + " item " + std::to_string(i + k), 0}));
            } catch (const ParseError& e) {
                throw ParseError(path, 0, "item " + std::to_string(i + k) + ": " + e.problem());
            }
        }
        c.pair_ids.push_back(static_cast<PairId>(i / block));
        c.categories.push_back("unknown");
    }
    // Official BREC order: name the categories by id range when the file has exactly 400 pairs.
    if (c.pair_ids.size() == 400) {
        for (std::size_t i = 0; i < 400; ++i) {
            const char* cat = i < 60 ? "basic" : i < 110 ? "regular" : i < 160 ? "strongly_regular" : i < 260 ? "extension"
                              : i < 360 ? "cfi" : i < 380 ? "four_vertex_condition" : "distance_regular";
            c.categories[i] = cat;
        }
    }
    return c;
}

GraphCollection read_collection(const std::string& path, GraphFormat format, bool one_based) {
    GraphCollection c;
    switch (format) {
        case GraphFormat::graph6:
        case GraphFormat::sparse6: c.graphs = read_graph_lines(path); break;
        case GraphFormat::edgelist: c.graphs = read_edge_lists(path, one_based); break;
        case GraphFormat::pairs: {
            const PairDataset ds = read_pair_file(path);
            c.paired = true;
            for (const auto& p : ds.pairs) {
                c.graphs.push_back(p.a);
                c.graphs.push_back(p.b);
                c.pair_ids.push_back(p.id);
                c.categories.push_back(p.category);
            }
            break;
        }
        case GraphFormat::tu: {
            TuDataset ds = read_tu_dataset(path);
            c.graphs = std::move(ds.graphs);
            c.graph_labels = std::move(ds.graph_labels);
            break;
        }
        case GraphFormat::npy: c = read_npy_pairs(path); break;
        case GraphFormat::json: throw Unsupported("reading JSON datasets is not supported; JSON is an export format");
    }
    return c;
}

nlohmann::json collection_to_json(const GraphCollection& c) {
    nlohmann::json j;
    if (c.paired) {
        nlohmann::json pairs = nlohmann::json::array();
        for (std::size_t i = 0; i < c.pair_ids.size(); ++i)
            pairs.push_back({{"id", c.pair_ids[i]}, {"category", c.categories[i]}, {"a", graph_json(c.graphs[2 * i])}, {"b", graph_json(c.graphs[2 * i + 1])}});
        j["pairs"] = pairs;
        return j;
    }
    nlohmann::json graphs = nlohmann::json::array();
    for (std::size_t i = 0; i < c.graphs.size(); ++i) {
        auto g = graph_json(c.graphs[i]);
        if (!c.graph_labels.empty()) g["label"] = c.graph_labels[i];
        graphs.push_back(g);
    }
    j["graphs"] = graphs;
    return j;
}

void write_collection(const std::string& path, GraphFormat format, const GraphCollection& c, bool one_based) {
    switch (format) {
        case GraphFormat::graph6:
        case GraphFormat::sparse6: {
            std::string text;
            for (const auto& g : c.graphs) text += (format == GraphFormat::graph6 ? to_graph6(g) : to_sparse6(g)) + "\n";
            write_text_file_atomic(path, text);
            return;
        }
        case GraphFormat::edgelist: write_text_file_atomic(path, format_edge_lists(c.graphs, one_based)); return;
        case GraphFormat::pairs: {
            if (!c.paired && c.graphs.size() % 2 != 0)
                throw InvalidArgument("pair output needs an even number of graphs (consecutive graphs form a pair); got " +
                                      std::to_string(c.graphs.size()));
            std::vector<GraphPairRecord> pairs;
            for (std::size_t i = 0; i + 1 < c.graphs.size(); i += 2) {
                GraphPairRecord r;
                r.id = c.paired ? c.pair_ids[i / 2] : static_cast<PairId>(i / 2);
                r.category = c.paired ? c.categories[i / 2] : "unknown";
                r.a = c.graphs[i];
                r.b = c.graphs[i + 1];
                pairs.push_back(std::move(r));
            }
            write_pair_file(path, pairs);
            return;
        }
        case GraphFormat::tu: {
            std::string dir = path;
            while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
            const std::string name = dir.substr(dir.find_last_of('/') + 1);
            write_tu_dataset(dir, name, c.graphs, c.graph_labels);
            return;
        }
        case GraphFormat::json: write_text_file_atomic(path, collection_to_json(c).dump(1) + "\n"); return;
        case GraphFormat::npy: throw Unsupported("writing .npy files is not supported (npy is an input format)");
    }
}

}  // namespace brec
