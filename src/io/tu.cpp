#include "brec/io/tu.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec {
namespace {

bool is_dir(const std::string& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> list_dir(const std::string& dir) {
    std::vector<std::string> out;
    DIR* d = opendir(dir.c_str());
    if (!d) throw IoError("cannot open directory " + dir + ": " + std::strerror(errno));
    while (dirent* e = readdir(d)) out.emplace_back(e->d_name);
    closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

/// Splits a line on commas (and surrounding blanks); a line without commas splits on whitespace.
std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    if (line.find(',') != std::string::npos) {
        std::stringstream ss(line);
        std::string f;
        while (std::getline(ss, f, ',')) out.push_back(trim(f));
    } else {
        std::stringstream ss(line);
        std::string f;
        while (ss >> f) out.push_back(f);
    }
    return out;
}

std::int64_t parse_int(const std::string& s, const std::string& file, std::int64_t line, const char* what) {
    if (s.empty()) throw ParseError(file, line, std::string("empty ") + what + ", expected an integer");
    std::size_t pos = 0;
    long long v = 0;
    try {
        v = std::stoll(s, &pos);
    } catch (...) {
        pos = 0;
    }
    if (pos != s.size()) throw ParseError(file, line, std::string(what) + " '" + s + "' is not an integer");
    return v;
}

/// Non-empty lines of a file with their 1-based line numbers.
std::vector<std::pair<std::int64_t, std::string>> data_lines(const std::string& path) {
    const auto lines = split_lines(read_text_file(path));
    std::vector<std::pair<std::int64_t, std::string>> out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (!trim(lines[i]).empty()) out.emplace_back(static_cast<std::int64_t>(i + 1), lines[i]);
    if (out.empty()) throw ParseError(path, 0, "file is empty");
    return out;
}

/// Reads a one-integer-per-line file.
std::vector<std::pair<std::int64_t, std::int64_t>> int_lines(const std::string& path, const char* what) {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (const auto& [ln, text] : data_lines(path)) {
        const auto f = fields(text);
        if (f.size() != 1)
            throw ParseError(path, ln, "expected 1 column (" + std::string(what) + "), found " + std::to_string(f.size()));
        out.emplace_back(ln, parse_int(f[0], path, ln, what));
    }
    return out;
}

}  // namespace

bool looks_like_tu_dir(const std::string& dir) {
    if (!is_dir(dir)) return false;
    for (const auto& f : list_dir(dir))
        if (f.size() > 6 && f.compare(f.size() - 6, 6, "_A.txt") == 0) return true;
    return false;
}

TuDataset read_tu_dataset(const std::string& dir_in, const std::string& name_in) {
    std::string dir = dir_in;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (!is_dir(dir)) throw IoError("cannot open TU dataset directory " + dir + ": not a directory");
    std::string name = name_in;
    if (name.empty()) {
        std::vector<std::string> found;
        for (const auto& f : list_dir(dir))
            if (f.size() > 6 && f.compare(f.size() - 6, 6, "_A.txt") == 0) found.push_back(f.substr(0, f.size() - 6));
        if (found.empty()) throw IoError(dir + ": no DS_A.txt file (not a TU dataset directory)");
        if (found.size() > 1) throw InvalidArgument(dir + ": several TU datasets (" + found[0] + ", " + found[1] + ", ...); name one");
        name = found[0];
    }
    const std::string prefix = dir + "/" + name + "_";
    TuDataset ds;
    ds.dir = dir;
    ds.name = name;

    // Nodes: the indicator file defines them (isolated nodes included).
    const std::string ind_path = prefix + "graph_indicator.txt";
    const auto indicator = int_lines(ind_path, "graph id");
    std::int64_t num_graphs = 0;
    for (const auto& [ln, gid] : indicator) {
        if (gid < 1) throw ParseError(ind_path, ln, "graph id " + std::to_string(gid) + " must be >= 1");
        num_graphs = std::max(num_graphs, gid);
    }
    const std::size_t n_nodes = indicator.size();
    ds.stats.nodes = n_nodes;
    std::vector<std::uint32_t> graph_of(n_nodes), local(n_nodes);
    std::vector<VertexId> sizes(static_cast<std::size_t>(num_graphs), 0);
    for (std::size_t v = 0; v < n_nodes; ++v) {
        graph_of[v] = static_cast<std::uint32_t>(indicator[v].second - 1);
        local[v] = sizes[graph_of[v]]++;
    }
    for (std::int64_t g = 0; g < num_graphs; ++g)
        if (sizes[static_cast<std::size_t>(g)] == 0)
            throw ParseError(ind_path, 0, "graph " + std::to_string(g + 1) + " has no nodes (graph ids must be 1..N without gaps)");

    // Graph labels.
    const std::string gl_path = prefix + "graph_labels.txt";
    if (file_exists(gl_path)) {
        const auto gl = int_lines(gl_path, "graph label");
        if (static_cast<std::int64_t>(gl.size()) != num_graphs)
            throw ParseError(gl_path, gl.back().first, "has " + std::to_string(gl.size()) + " labels for " +
                                                           std::to_string(num_graphs) + " graphs in " + ind_path);
        for (const auto& x : gl) ds.graph_labels.push_back(x.second);
    }

    // Node labels.
    std::vector<Label> node_labels;
    const std::string nl_path = prefix + "node_labels.txt";
    if (file_exists(nl_path)) {
        const auto nl = data_lines(nl_path);
        if (nl.size() != n_nodes)
            throw ParseError(nl_path, nl.back().first, "has " + std::to_string(nl.size()) + " lines for " +
                                                           std::to_string(n_nodes) + " nodes in " + ind_path);
        for (const auto& [ln, text] : nl) {
            const auto f = fields(text);
            if (f.empty()) throw ParseError(nl_path, ln, "expected a node label");
            node_labels.push_back(parse_int(f[0], nl_path, ln, "node label"));
        }
        ds.has_node_labels = true;
    }

    // Node attributes.
    const std::string na_path = prefix + "node_attributes.txt";
    if (file_exists(na_path)) {
        const auto na = data_lines(na_path);
        if (na.size() != n_nodes)
            throw ParseError(na_path, na.back().first, "has " + std::to_string(na.size()) + " lines for " +
                                                           std::to_string(n_nodes) + " nodes");
        for (const auto& [ln, text] : na) {
            std::vector<double> row;
            for (const auto& f : fields(text)) {
                std::size_t pos = 0;
                double x = 0;
                try {
                    x = std::stod(f, &pos);
                } catch (...) {
                    pos = 0;
                }
                if (pos != f.size() || f.empty()) throw ParseError(na_path, ln, "attribute '" + f + "' is not a number");
                row.push_back(x);
            }
            ds.node_attributes.push_back(std::move(row));
        }
    }

    // Edges.
    const std::string a_path = prefix + "A.txt";
    const auto a_lines = data_lines(a_path);
    ds.stats.edge_lines = a_lines.size();
    std::vector<Label> edge_labels;
    const std::string el_path = prefix + "edge_labels.txt";
    if (file_exists(el_path)) {
        const auto el = data_lines(el_path);
        if (el.size() != a_lines.size())
            throw ParseError(el_path, el.back().first, "has " + std::to_string(el.size()) + " lines for " +
                                                           std::to_string(a_lines.size()) + " edges in " + a_path);
        for (const auto& [ln, text] : el) {
            const auto f = fields(text);
            if (f.empty()) throw ParseError(el_path, ln, "expected an edge label");
            edge_labels.push_back(parse_int(f[0], el_path, ln, "edge label"));
        }
        ds.has_edge_labels = true;
    }
    std::vector<GraphBuilder> builders;
    builders.reserve(sizes.size());
    for (VertexId s : sizes) {
        builders.emplace_back(s);
        builders.back().set_symmetric_input(true).set_duplicates(EdgePolicy::drop).set_self_loops(EdgePolicy::drop);
    }
    std::map<std::pair<std::size_t, std::size_t>, int> direction_seen;
    for (std::size_t i = 0; i < a_lines.size(); ++i) {
        const auto& [ln, text] = a_lines[i];
        const auto f = fields(text);
        if (f.size() != 2) throw ParseError(a_path, ln, "expected 2 columns 'row, col', found " + std::to_string(f.size()));
        const std::int64_t r = parse_int(f[0], a_path, ln, "node id"), c = parse_int(f[1], a_path, ln, "node id");
        for (std::int64_t x : {r, c})
            if (x < 1 || x > static_cast<std::int64_t>(n_nodes))
                throw ParseError(a_path, ln, "node id " + std::to_string(x) + " out of range [1," + std::to_string(n_nodes) + "]");
        const std::size_t u = static_cast<std::size_t>(r - 1), v = static_cast<std::size_t>(c - 1);
        if (graph_of[u] != graph_of[v])
            throw ParseError(a_path, ln, "edge " + std::to_string(r) + "," + std::to_string(c) + " joins graphs " +
                                             std::to_string(graph_of[u] + 1) + " and " + std::to_string(graph_of[v] + 1));
        if (u == v) {
            ++ds.stats.self_loops;
            continue;
        }
        auto& b = builders[graph_of[u]];
        if (ds.has_edge_labels) b.add_edge(local[u], local[v], edge_labels[i]);
        else b.add_edge(local[u], local[v]);
        direction_seen[{std::min(u, v), std::max(u, v)}] |= (u < v ? 1 : 2);
    }
    for (const auto& kv : direction_seen)
        if (kv.second != 3) ++ds.stats.one_direction_edges;
    for (std::size_t g = 0; g < builders.size(); ++g) {
        if (ds.has_node_labels) {
            std::vector<Label> labels(sizes[g]);
            for (std::size_t v = 0; v < n_nodes; ++v)
                if (graph_of[v] == g) labels[local[v]] = node_labels[v];
            builders[g].set_node_labels(std::move(labels));
        }
        BuildStats st;
        try {
            ds.graphs.push_back(builders[g].build(&st));
        } catch (const InvalidArgument& e) {
            throw ParseError(a_path, 0, "graph " + std::to_string(g + 1) + ": " + e.what());
        }
        ds.stats.duplicate_edges += st.duplicate_edges;
        for (VertexId v = 0; v < ds.graphs.back().n(); ++v)
            if (ds.graphs.back().degree(v) == 0) ++ds.stats.isolated_nodes;
    }
    return ds;
}

void write_tu_dataset(const std::string& dir, const std::string& name, const std::vector<Graph>& graphs,
                      const std::vector<Label>& graph_labels) {
    if (name.empty() || name.find('/') != std::string::npos) throw InvalidArgument("bad TU dataset name '" + name + "'");
    if (!graph_labels.empty() && graph_labels.size() != graphs.size())
        throw InvalidArgument("write_tu_dataset: " + std::to_string(graph_labels.size()) + " labels for " +
                              std::to_string(graphs.size()) + " graphs");
    if (graphs.empty()) throw InvalidArgument("write_tu_dataset: no graphs to write");
    const bool node_labels = std::any_of(graphs.begin(), graphs.end(), [](const Graph& g) { return g.has_node_labels(); });
    const bool edge_labels = std::any_of(graphs.begin(), graphs.end(), [](const Graph& g) { return g.has_edge_labels(); });
    std::ostringstream a, ind, nl, el, gl;
    std::size_t offset = 0;
    for (std::size_t gi = 0; gi < graphs.size(); ++gi) {
        const Graph& g = graphs[gi];
        for (VertexId v = 0; v < g.n(); ++v) {
            ind << gi + 1 << '\n';
            if (node_labels) nl << g.node_label(v) << '\n';
            const auto nb = g.neighbors(v);
            for (std::size_t k = 0; k < nb.size(); ++k) {
                a << offset + v + 1 << ", " << offset + nb[k] + 1 << '\n';
                if (edge_labels) el << g.arc_label(g.offsets()[v] + k) << '\n';
            }
        }
        offset += g.n();
        if (!graph_labels.empty()) gl << graph_labels[gi] << '\n';
    }
    const std::string tmp = dir + ".tmp." + std::to_string(::getpid());
    if (::mkdir(tmp.c_str(), 0755) != 0) throw IoError("cannot create " + tmp + ": " + std::strerror(errno));
    std::vector<std::pair<std::string, std::string>> files = {{"A.txt", a.str()}, {"graph_indicator.txt", ind.str()}};
    if (!graph_labels.empty()) files.emplace_back("graph_labels.txt", gl.str());
    if (node_labels) files.emplace_back("node_labels.txt", nl.str());
    if (edge_labels) files.emplace_back("edge_labels.txt", el.str());
    auto cleanup = [&]() {
        for (const auto& f : files) std::remove((tmp + "/" + name + "_" + f.first).c_str());
        ::rmdir(tmp.c_str());
    };
    try {
        for (const auto& [suffix, content] : files) {
            std::ofstream out(tmp + "/" + name + "_" + suffix, std::ios::binary);
            out << content;
            if (!out) throw IoError("cannot write " + tmp + "/" + name + "_" + suffix);
        }
        if (!is_dir(dir)) {
            if (std::rename(tmp.c_str(), dir.c_str()) != 0) throw IoError("cannot create " + dir + ": " + std::strerror(errno));
            return;
        }
        for (const auto& f : files) {
            const std::string from = tmp + "/" + name + "_" + f.first, to = dir + "/" + name + "_" + f.first;
            if (std::rename(from.c_str(), to.c_str()) != 0) throw IoError("cannot write " + to + ": " + std::strerror(errno));
        }
        ::rmdir(tmp.c_str());
    } catch (...) {
        cleanup();
        throw;
    }
}

}  // namespace brec
