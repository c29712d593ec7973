#include "brec/io/edgelist.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <tuple>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec {
namespace {

// Splits a data line into fields at blanks, tabs and commas; drops a trailing comment.
std::vector<std::string_view> fields_of(std::string_view line) {
    const std::size_t hash = line.find_first_of("#%");
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::string_view> out;
    std::size_t i = 0;
    auto sep = [](char c) { return c == ',' || std::isspace(static_cast<unsigned char>(c)); };
    while (i < line.size()) {
        while (i < line.size() && sep(line[i])) ++i;
        const std::size_t start = i;
        while (i < line.size() && !sep(line[i])) ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

struct PendingEdge {
    VertexId u, v;  // u < v
    Label label;
    std::int64_t line;
};

// One graph being read.
struct Block {
    std::int64_t declared = -1;  // from "n N", else -1
    std::int64_t first_line = 0;
    std::int64_t max_id = -1;
    int labelled = -1;  // -1 unknown, 0 no, 1 yes
    std::vector<PendingEdge> edges;
};

}  // namespace

std::vector<Graph> parse_edge_lists(std::string_view text, const std::string& source, const EdgeListOptions& opt,
                                    EdgeListStats* stats) {
    EdgeListStats st;
    std::vector<Graph> out;
    bool multi = false;  // the file uses "n" lines
    bool seen_data = false;
    Block cur;
    bool open = false;
    const std::int64_t shift = opt.one_based ? 1 : 0;

    auto finish = [&]() {
        if (!open) return;
        std::int64_t n = cur.declared >= 0 ? cur.declared : cur.max_id + 1;
        if (n > static_cast<std::int64_t>(opt.max_vertices))
            throw ResourceLimit(source + ":" + std::to_string(cur.first_line) + ": graph with " + std::to_string(n) +
                                " vertices exceeds the edge-list limit of " + std::to_string(opt.max_vertices));
        // Duplicates: sort by edge, keeping line order among equal edges.
        std::stable_sort(cur.edges.begin(), cur.edges.end(), [](const PendingEdge& a, const PendingEdge& b) {
            return std::tie(a.u, a.v) < std::tie(b.u, b.v);
        });
        GraphBuilder b(static_cast<VertexId>(n));
        const bool labelled = cur.labelled == 1;
        for (std::size_t i = 0; i < cur.edges.size(); ++i) {
            const PendingEdge& e = cur.edges[i];
            if (i > 0 && cur.edges[i - 1].u == e.u && cur.edges[i - 1].v == e.v) {
                const PendingEdge& first = cur.edges[i - 1];
                if (opt.duplicates == EdgePolicy::reject)
                    throw ParseError(source, e.line,
                                     "duplicate edge {" + std::to_string(e.u + shift) + "," +
                                         std::to_string(e.v + shift) + "} (first listed on line " +
                                         std::to_string(first.line) + "); remove it or allow duplicates to drop them");
                if (labelled && first.label != e.label)
                    throw ParseError(source, e.line,
                                     "edge {" + std::to_string(e.u + shift) + "," + std::to_string(e.v + shift) +
                                         "} has label " + std::to_string(e.label) + " but label " +
                                         std::to_string(first.label) + " on line " + std::to_string(first.line));
                ++st.duplicate_edges;
                continue;
            }
            if (labelled)
                b.add_edge(e.u, e.v, e.label);
            else
                b.add_edge(e.u, e.v);
        }
        out.push_back(b.build());
        ++st.graphs;
        cur = Block{};
        open = false;
    };

    std::size_t start = 0;
    std::int64_t line_no = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        ++line_no;
        const bool last = end >= text.size();
        start = end + 1;
        const auto f = fields_of(line);
        if (f.empty()) {
            if (last) break;
            continue;
        }
        if (f[0] == "n") {
            if (!seen_data) multi = true;
            if (!multi)
                throw ParseError(source, line_no,
                                 "'n' line after edges: in a file with 'n N' lines the first data "
                                 "line must be one (each graph starts with its 'n N' line)");
            std::int64_t n = -1;
            if (f.size() != 2 || !parse_int64(f[1], n) || n < 0)
                throw ParseError(source, line_no, "expected 'n N' with a vertex count N >= 0");
            finish();
            seen_data = true;
            open = true;
            cur.declared = n;
            cur.first_line = line_no;
            if (last) break;
            continue;
        }
        seen_data = true;
        if (f.size() != 2 && f.size() != 3)
            throw ParseError(
                source, line_no,
                "expected an edge 'u v' or 'u v label' (or 'n N'), found " + std::to_string(f.size()) + " fields");
        std::int64_t u = 0, v = 0, label = 0;
        if (!parse_int64(f[0], u) || !parse_int64(f[1], v))
            throw ParseError(
                source, line_no,
                "expected integer vertex ids 'u v', found '" + std::string(f[0]) + " " + std::string(f[1]) + "'");
        if (f.size() == 3 && !parse_int64(f[2], label))
            throw ParseError(source, line_no, "expected an integer edge label, found '" + std::string(f[2]) + "'");
        if (!open) {
            open = true;
            cur.first_line = line_no;
        }
        const int has_label = f.size() == 3 ? 1 : 0;
        if (cur.labelled >= 0 && cur.labelled != has_label)
            throw ParseError(source, line_no,
                             std::string("edge ") + (has_label ? "has" : "lacks") +
                                 " a label but earlier edges of this graph " + (has_label ? "have none" : "have one") +
                                 " (label every edge or none)");
        cur.labelled = has_label;
        ++st.edge_lines;
        const std::int64_t lo = opt.one_based ? 1 : 0;
        if (u < lo || v < lo)
            throw ParseError(source, line_no,
                             "vertex id " + std::to_string(std::min(u, v)) + " is below " + std::to_string(lo) +
                                 (opt.one_based ? " (ids are 1-based)" : "") + "");
        u -= shift;
        v -= shift;
        const std::int64_t limit = cur.declared >= 0 ? cur.declared : static_cast<std::int64_t>(opt.max_vertices);
        if (u >= limit || v >= limit) {
            const std::int64_t bad = std::max(u, v) + shift;
            if (cur.declared >= 0)
                throw ParseError(source, line_no,
                                 "vertex id " + std::to_string(bad) + " out of range for 'n " +
                                     std::to_string(cur.declared) + "' (line " + std::to_string(cur.first_line) +
                                     "): ids run from " + std::to_string(shift) + " to " +
                                     std::to_string(cur.declared - 1 + shift));
            throw ResourceLimit(source + ":" + std::to_string(line_no) + ": vertex id " + std::to_string(bad) +
                                " exceeds the edge-list limit of " + std::to_string(opt.max_vertices) + " vertices");
        }
        if (u == v) {
            if (opt.self_loops == EdgePolicy::reject)
                throw ParseError(source, line_no,
                                 "self-loop at vertex " + std::to_string(u + shift) +
                                     " (simple graphs only; drop self-loops to skip them)");
            ++st.self_loops;
            cur.max_id = std::max(cur.max_id, u);
            if (last) break;
            continue;
        }
        cur.max_id = std::max({cur.max_id, u, v});
        cur.edges.push_back(
            {static_cast<VertexId>(std::min(u, v)), static_cast<VertexId>(std::max(u, v)), label, line_no});
        if (last) break;
    }
    finish();
    if (out.empty()) throw ParseError(source, 0, "no graphs found (the edge list is empty or only comments)");
    if (stats) *stats = st;
    return out;
}

std::vector<Graph> read_edge_lists(const std::string& path, const EdgeListOptions& options, EdgeListStats* stats) {
    return parse_edge_lists(read_text_file(path), path, options, stats);
}

std::string format_edge_lists(const std::vector<Graph>& graphs, bool one_based) {
    std::ostringstream out;
    const VertexId shift = one_based ? 1 : 0;
    for (const auto& g : graphs) {
        out << "n " << g.n() << '\n';
        for (const auto& [u, v] : g.edges()) {
            out << u + shift << ' ' << v + shift;
            if (g.has_edge_labels()) out << ' ' << g.edge_label(u, v);
            out << '\n';
        }
    }
    return out.str();
}

void write_edge_lists(const std::string& path, const std::vector<Graph>& graphs, bool one_based) {
    write_text_file_atomic(path, format_edge_lists(graphs, one_based));
}

}  // namespace brec
