#include "brec/io/tu.hpp"

#include <dirent.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "brec/core/error.hpp"
#include "brec/io/dir_writer.hpp"
#include "brec/io/files.hpp"
#include "detail/chunked_lines.hpp"

namespace brec {
namespace {

std::vector<std::string> list_dir(const std::string& dir) {
    std::vector<std::string> out;
    DIR* d = opendir(dir.c_str());
    if (!d) throw IoError("cannot open directory " + dir + ": " + std::strerror(errno));
    while (dirent* e = readdir(d)) out.emplace_back(e->d_name);
    closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

/// Splits a line on commas (fields trimmed); a line without commas splits on blanks.
void split_fields(std::string_view line, std::vector<std::string_view>& out) {
    out.clear();
    if (line.find(',') != std::string_view::npos) {
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = line.find(',', start);
            out.push_back(trim(line.substr(start, comma == std::string_view::npos ? line.npos : comma - start)));
            if (comma == std::string_view::npos) break;
            start = comma + 1;
        }
        return;
    }
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_blank(line[i])) ++i;
        const std::size_t b = i;
        while (i < line.size() && !is_blank(line[i])) ++i;
        if (i > b) out.push_back(line.substr(b, i - b));
    }
}

/// An integer column: an optional sign and decimal digits, parsed as an integer (never through a
/// double, whose conversion back is undefined outside the int64 range). An integral decimal such as
/// "3.0" (some exports write labels that way) is accepted; exponents such as "1e3" are not.
std::int64_t parse_int(std::string_view s, const std::string& file, std::int64_t line, const char* what) {
    if (s.empty()) throw ParseError(file, line, std::string("empty ") + what + ", expected an integer");
    std::string_view whole = s;
    if (const std::size_t dot = s.find('.'); dot != std::string_view::npos && dot + 1 < s.size() &&
                                             s.find_first_not_of('0', dot + 1) == std::string_view::npos)
        whole = s.substr(0, dot);
    std::int64_t v = 0;
    if (parse_int64(whole, v)) return v;
    const std::string_view digits = whole.substr(!whole.empty() && (whole[0] == '-' || whole[0] == '+') ? 1 : 0);
    const bool integral = !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
    throw ParseError(file, line,
                     std::string(what) + " '" + std::string(s) + "' " +
                         (integral ? "is out of range for a 64-bit integer" : "is not an integer"));
}

double parse_double(std::string_view s, const std::string& file, std::int64_t line) {
    const std::string copy(s);
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(copy.c_str(), &end);
    if (copy.empty() || end != copy.c_str() + copy.size())
        throw ParseError(file, line, "attribute '" + copy + "' is not a number");
    return d;
}

/// Calls f(line number, trimmed line) for every non-blank line of `text` (1-based physical line
/// numbers); returns the number of such lines.
template <typename F>
std::size_t for_each_data_line(std::string_view all, F&& f) {
    std::size_t start = 0, count = 0;
    std::int64_t number = 0;
    while (start < all.size()) {
        const void* nl = std::memchr(all.data() + start, '\n', all.size() - start);
        const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - all.data()) : all.size();
        ++number;
        const std::string_view line = trim(all.substr(start, end - start));
        if (!line.empty()) {
            ++count;
            f(number, line);
        }
        start = end + 1;
    }
    return count;
}

/// The number of '\n' in `text` (memchr runs vectorised; a byte loop at -O2 does not).
std::size_t count_newlines(std::string_view text) {
    std::size_t count = 0;
    for (const char *p = text.data(), *end = p + text.size();;) {
        const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
        if (!nl) return count;
        ++count;
        p = static_cast<const char*>(nl) + 1;
    }
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space_or_tab(char c) { return c == ' ' || c == '\t'; }

/// Reads `k` columns of 1-18 plain decimal digits from `p` to the end of its line: blanks around
/// them and at most one comma between two. On success stores them, moves `p` past the line's '\n'
/// and returns true; anything else (signs, decimals, longer numbers, empty lines) returns false.
bool plain_columns(const char*& p, const char* end, int k, std::int64_t* out) {
    const char* q = p;
    for (int col = 0; col < k; ++col) {
        while (q < end && is_space_or_tab(*q)) ++q;
        if (col > 0 && q < end && *q == ',') {
            ++q;
            while (q < end && is_space_or_tab(*q)) ++q;
        }
        const char* digits = q;
        std::int64_t v = 0;
        while (q < end && is_digit(*q) && q - digits < 18) v = v * 10 + (*q++ - '0');
        if (q == digits || (q < end && is_digit(*q))) return false;
        out[col] = v;
    }
    while (q < end && *q != '\n' && is_blank(*q)) ++q;
    if (q < end && *q != '\n') return false;
    p = q < end ? q + 1 : q;
    return true;
}

/// Like for_each_data_line, but lines of `k` plain columns (plain_columns) go to
/// plain(line number, values) without being split; every other non-blank line goes to
/// other(line number, trimmed line). Returns the number of non-blank lines.
template <typename Plain, typename Other>
std::size_t for_each_plain_line(std::string_view all, int k, Plain&& plain, Other&& other) {
    const char* p = all.data();
    const char* const end = p + all.size();
    std::size_t count = 0;
    std::int64_t number = 0;
    std::int64_t values[2] = {0, 0};
    while (p < end) {
        ++number;
        if (plain_columns(p, end, k, values)) {
            ++count;
            plain(number, values);
            continue;
        }
        const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
        const char* line_end = nl ? static_cast<const char*>(nl) : end;
        const std::string_view line = trim(std::string_view(p, static_cast<std::size_t>(line_end - p)));
        if (!line.empty()) {
            ++count;
            other(number, line);
        }
        p = line_end < end ? line_end + 1 : end;
    }
    return count;
}

/// `k` (1 or 2) integer columns of a data line into `out` (`fields`: scratch); ParseError naming
/// the file, the line and what was expected otherwise.
void parse_columns(const std::string& path, std::string_view line, std::int64_t ln, int k, std::int64_t* out,
                   const char* what, std::vector<std::string_view>& fields) {
    const char* p = line.data();
    if (plain_columns(p, line.data() + line.size(), k, out)) return;
    split_fields(line, fields);
    if (fields.size() != static_cast<std::size_t>(k))
        throw ParseError(path, ln,
                         k == 2
                             ? "expected 2 columns 'row, col', found " + std::to_string(fields.size())
                             : "expected 1 column (" + std::string(what) + "), found " + std::to_string(fields.size()));
    for (int c = 0; c < k; ++c) out[c] = parse_int(fields[static_cast<std::size_t>(c)], path, ln, what);
}

/// The non-blank lines of a file with their 1-based physical line numbers (views into `text`).
struct Lines {
    std::string text;
    std::vector<std::pair<std::int64_t, std::string_view>> lines;
};

Lines data_lines(const std::string& path, bool allow_empty = false) {
    Lines out;
    out.text = read_text_file(path);
    for_each_data_line(out.text,
                       [&](std::int64_t number, std::string_view line) { out.lines.emplace_back(number, line); });
    if (out.lines.empty() && !allow_empty) throw ParseError(path, 0, "file is empty");
    return out;
}

/// One integer per line (exactly one column), with its line number.
std::vector<std::pair<std::int64_t, std::int64_t>> int_lines(const std::string& path, const char* what) {
    const std::string text = read_text_file(path);
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    out.reserve(count_newlines(text) + 1);
    std::vector<std::string_view> f;
    for_each_plain_line(
        text, 1, [&](std::int64_t ln, const std::int64_t* v) { out.emplace_back(ln, v[0]); },
        [&](std::int64_t ln, std::string_view line) {
            std::int64_t v = 0;
            parse_columns(path, line, ln, 1, &v, what, f);
            out.emplace_back(ln, v);
        });
    if (out.empty()) throw ParseError(path, 0, "file is empty");
    return out;
}

/// The labels of a node or edge labels file, one per data line, with its line number. A label is
/// the whole row: when every row is one integer, that integer (and `rows` stays empty); otherwise
/// each distinct row (all columns) gets a dense id in order of first appearance, `rows` receives
/// the rows of the ids, and rows that differ in any column get different ids.
std::vector<std::pair<std::int64_t, Label>> label_lines(const std::string& path, const char* what,
                                                        std::vector<std::vector<Label>>& rows) {
    const std::string text = read_text_file(path);
    std::vector<std::int64_t> line_of;
    std::vector<Label> columns;            // every row's columns, one after another
    std::vector<std::size_t> start(1, 0);  // row i is columns[start[i], start[i + 1])
    bool several = false;
    std::vector<std::string_view> f;
    for_each_plain_line(
        text, 1,
        [&](std::int64_t ln, const std::int64_t* v) {
            line_of.push_back(ln);
            columns.push_back(v[0]);
            start.push_back(columns.size());
        },
        [&](std::int64_t ln, std::string_view line) {
            line_of.push_back(ln);
            split_fields(line, f);
            for (const auto& x : f) columns.push_back(parse_int(x, path, ln, what));
            several = several || f.size() > 1;
            start.push_back(columns.size());
        });
    if (line_of.empty()) throw ParseError(path, 0, "file is empty");
    std::vector<std::pair<std::int64_t, Label>> out;
    out.reserve(line_of.size());
    rows.clear();
    std::map<std::vector<Label>, Label> ids;
    for (std::size_t i = 0; i < line_of.size(); ++i) {
        const auto first = columns.begin() + static_cast<std::ptrdiff_t>(start[i]);
        const auto last = columns.begin() + static_cast<std::ptrdiff_t>(start[i + 1]);
        if (!several) {
            out.emplace_back(line_of[i], *first);
            continue;
        }
        const auto [it, added] = ids.emplace(std::vector<Label>(first, last), static_cast<Label>(rows.size()));
        if (added) rows.push_back(it->first);
        out.emplace_back(line_of[i], it->second);
    }
    return out;
}

std::string count_mismatch(std::size_t have, const char* what, std::size_t want, const std::string& other) {
    return "has " + std::to_string(have) + " " + what + " for " + std::to_string(want) + " " + other;
}

/// One data line of DS_A.txt after validation; `index` is its data-line index (edge labels and
/// their line numbers are looked up by it, and it orders repeated lines as the file does).
struct Arc {
    std::uint32_t lo = 0, hi = 0;  ///< global node ids (0-based), lo < hi
    std::uint32_t index = 0;
    std::uint8_t dir = 0;  ///< 1: listed as lo,hi; 2: listed as hi,lo
};

/// Groups the arcs of nodes 0..n_nodes-1 (node ids `lo`, `hi` below n_nodes) into undirected
/// edges: add_edge(lo, hi, forward, backward, label) once per edge with the number of its lines in
/// each direction. With `labels` (the label of data line `index`; nullptr = none), repeated lines
/// of one edge must carry equal labels: conflict(first arc, arc) is called (and must throw) when
/// they do not. Arcs are reordered.
template <typename AddEdge, typename Conflict>
void group_arcs(std::vector<Arc>& arcs, std::size_t n_nodes, const Label* labels, AddEdge&& add_edge,
                Conflict&& conflict) {
    // Arcs grouped by lo: an in-place counting sort (linear, no second array: each arc is swapped
    // into its node's range).
    std::vector<std::uint32_t> range_end;  // the arcs of node v end at range_end[v]
    {
        std::vector<std::uint32_t> bucket(n_nodes + 1, 0);
        for (const Arc& a : arcs) ++bucket[a.lo + 1];
        for (std::size_t v = 0; v < n_nodes; ++v) bucket[v + 1] += bucket[v];
        std::vector<std::uint32_t> next(bucket.begin(), bucket.end() - 1);  // first unplaced slot per node
        for (std::size_t v = 0; v < n_nodes; ++v)
            while (next[v] < bucket[v + 1]) {
                Arc a = arcs[next[v]];
                while (a.lo != v) std::swap(a, arcs[next[a.lo]++]);  // place a, pick up the arc it displaces
                arcs[next[v]++] = a;
            }
        // With edge labels, each node's arcs are sorted by (hi, dir, line) for the label checks below.
        if (labels)
            for (std::size_t v = 0; v < n_nodes; ++v)
                std::sort(arcs.begin() + bucket[v], arcs.begin() + bucket[v + 1], [](const Arc& x, const Arc& y) {
                    return std::tie(x.hi, x.dir, x.index) < std::tie(y.hi, y.dir, y.index);
                });
        range_end = std::move(next);  // once every arc is placed, next[v] ends node v's range
    }
    if (!labels) {
        // Repeated lines of one edge carry nothing to check: group each node's arcs by hi in linear
        // time (first_of[hi] = the group of hi at node lo, valid while seen_at[hi] == lo + 1).
        std::vector<std::uint32_t> seen_at(n_nodes, 0), first_of(n_nodes, 0);
        struct Group {
            std::uint32_t hi;
            std::uint32_t count[3];
        };
        std::vector<Group> groups;
        std::uint32_t begin = 0;
        for (std::uint32_t lo = 0; lo < n_nodes; ++lo) {
            groups.clear();
            for (std::uint32_t k = begin; k < range_end[lo]; ++k) {
                const Arc& a = arcs[k];
                if (seen_at[a.hi] != lo + 1) {
                    seen_at[a.hi] = lo + 1;
                    first_of[a.hi] = static_cast<std::uint32_t>(groups.size());
                    groups.push_back({a.hi, {0, 0, 0}});
                }
                ++groups[first_of[a.hi]].count[a.dir];
            }
            for (const Group& e : groups) add_edge(lo, e.hi, e.count[1], e.count[2], Label{0});
            begin = range_end[lo];
        }
        return;
    }
    for (std::size_t i = 0; i < arcs.size();) {
        std::size_t j = i;
        std::size_t count[3] = {0, 0, 0};
        while (j < arcs.size() && arcs[j].lo == arcs[i].lo && arcs[j].hi == arcs[i].hi) {
            if (labels[arcs[j].index] != labels[arcs[i].index]) conflict(arcs[i], arcs[j]);
            ++count[arcs[j].dir];
            ++j;
        }
        add_edge(arcs[i].lo, arcs[i].hi, count[1], count[2], labels[arcs[i].index]);
        i = j;
    }
}

/// Counts a finished graph into the reader's statistics.
void count_graph(const Graph& h, TuStats& stats) {
    stats.edges += h.m();
    stats.max_nodes = std::max<std::size_t>(stats.max_nodes, h.n());
    stats.max_edges = std::max(stats.max_edges, h.m());
    for (VertexId v = 0; v < h.n(); ++v)
        if (h.degree(v) == 0) ++stats.isolated_nodes;
}

/// The message of repeated lines of one edge with different labels.
std::string label_conflict(std::size_t lo, std::size_t hi, const std::vector<std::vector<Label>>& rows, Label here,
                           Label first, std::int64_t first_line) {
    return "edge " + std::to_string(lo) + "," + std::to_string(hi) + " has label " + label_row_text(rows, here) +
           " here but label " + label_row_text(rows, first) + " at line " + std::to_string(first_line) +
           " (expected equal labels on repeated lines of one edge)";
}

}  // namespace

bool looks_like_tu_dir(const std::string& dir) {
    if (!is_directory(dir)) return false;
    for (const auto& f : list_dir(dir))
        if (f.size() > 6 && f.compare(f.size() - 6, 6, "_A.txt") == 0) return true;
    return false;
}

namespace {

/// The directory (without trailing '/') and the dataset name: `name`, or the single DS of a DS_A.txt.
std::pair<std::string, std::string> resolve_dataset(const std::string& dir_in, const std::string& name_in) {
    std::string dir = dir_in;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (!is_directory(dir)) throw IoError("cannot open TU dataset directory " + dir + ": not a directory");
    std::string name = name_in;
    if (name.empty()) {
        std::vector<std::string> found;
        for (const auto& f : list_dir(dir))
            if (f.size() > 6 && f.compare(f.size() - 6, 6, "_A.txt") == 0) found.push_back(f.substr(0, f.size() - 6));
        if (found.empty()) throw IoError(dir + ": no DS_A.txt file (not a TU dataset directory)");
        if (found.size() > 1)
            throw InvalidArgument(dir + ": several TU datasets (" + found[0] + ", " + found[1] + ", ...); name one");
        name = found[0];
    }
    return {dir, name};
}

}  // namespace

TuDataset read_tu_dataset(const std::string& dir_in, const std::string& name_in, const TuReadOptions& opt) {
    const auto [dir, name] = resolve_dataset(dir_in, name_in);
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
    if (static_cast<std::uint64_t>(num_graphs) > n_nodes)
        throw ParseError(ind_path, 0,
                         "graph ids go up to " + std::to_string(num_graphs) + " but there are only " +
                             std::to_string(n_nodes) + " nodes (ids must be 1..N without gaps)");
    ds.stats.nodes = n_nodes;
    ds.stats.graphs = static_cast<std::size_t>(num_graphs);
    std::vector<std::uint32_t> graph_of(n_nodes), local(n_nodes);
    std::vector<VertexId> sizes(static_cast<std::size_t>(num_graphs), 0);
    for (std::size_t v = 0; v < n_nodes; ++v) {
        graph_of[v] = static_cast<std::uint32_t>(indicator[v].second - 1);
        local[v] = sizes[graph_of[v]]++;
    }
    for (std::int64_t g = 0; g < num_graphs; ++g)
        if (sizes[static_cast<std::size_t>(g)] == 0)
            throw ParseError(ind_path, 0,
                             "graph " + std::to_string(g + 1) + " has no nodes (graph ids must be 1..N without gaps)");

    // Graph labels.
    const std::string gl_path = prefix + "graph_labels.txt";
    if (file_exists(gl_path)) {
        const auto gl = int_lines(gl_path, "graph label");
        if (gl.size() != static_cast<std::size_t>(num_graphs))
            throw ParseError(gl_path, gl.back().first,
                             count_mismatch(gl.size(), "labels", static_cast<std::size_t>(num_graphs), "graphs") +
                                 " of " + ind_path);
        ds.graph_labels.reserve(gl.size());
        for (const auto& x : gl) ds.graph_labels.push_back(x.second);
    }

    // Node labels (whole rows).
    std::vector<Label> node_labels;
    const std::string nl_path = prefix + "node_labels.txt";
    if (opt.node_labels && file_exists(nl_path)) {
        const auto nl = label_lines(nl_path, "node label", ds.label_rows.node);
        if (nl.size() != n_nodes)
            throw ParseError(nl_path, nl.back().first,
                             count_mismatch(nl.size(), "lines", n_nodes, "nodes") + " of " + ind_path);
        node_labels.reserve(n_nodes);
        for (const auto& x : nl) node_labels.push_back(x.second);
        ds.has_node_labels = true;
    }

    // Node attributes.
    const std::string na_path = prefix + "node_attributes.txt";
    if (opt.node_attributes && file_exists(na_path)) {
        const Lines na = data_lines(na_path);
        if (na.lines.size() != n_nodes)
            throw ParseError(na_path, na.lines.back().first,
                             count_mismatch(na.lines.size(), "lines", n_nodes, "nodes") + " of " + ind_path);
        ds.node_attributes.reserve(n_nodes);
        std::vector<std::string_view> f;
        for (const auto& [ln, text] : na.lines) {
            split_fields(text, f);
            std::vector<double> row;
            row.reserve(f.size());
            for (const auto& x : f) row.push_back(parse_double(x, na_path, ln));
            ds.node_attributes.push_back(std::move(row));
        }
    }

    // Edges.
    const std::string a_path = prefix + "A.txt";
    // An empty DS_A.txt is valid: every graph is edgeless (the indicator still defines the nodes).
    std::string a_text = read_text_file(a_path);
    const std::string el_path = prefix + "edge_labels.txt";
    const bool read_edge_labels = opt.edge_labels && file_exists(el_path);
    if (read_edge_labels)  // the line count first: the label file is checked against it
        ds.stats.edge_lines = for_each_data_line(a_text, [](std::int64_t, std::string_view) {});
    std::vector<Label> edge_labels;
    std::vector<std::int64_t> el_line;  // line numbers in the edge label file
    if (read_edge_labels && ds.stats.edge_lines > 0) {
        const auto el = label_lines(el_path, "edge label", ds.label_rows.edge);
        if (el.size() != ds.stats.edge_lines)
            throw ParseError(el_path, el.back().first,
                             count_mismatch(el.size(), "lines", ds.stats.edge_lines, "edge lines") + " of " + a_path);
        edge_labels.reserve(el.size());
        el_line.reserve(el.size());
        for (const auto& x : el) {
            el_line.push_back(x.first);
            edge_labels.push_back(x.second);
        }
        ds.has_edge_labels = true;
    }
    if (n_nodes > std::numeric_limits<std::uint32_t>::max())
        throw ResourceLimit(ind_path + ": more than 2^32 - 1 nodes");
    std::vector<Arc> arcs;
    arcs.reserve(count_newlines(a_text) + 1);
    std::vector<std::uint8_t> graph_loops(sizes.size(), 0);
    std::vector<std::string_view> f;
    std::size_t index = 0;
    auto add_arc = [&](std::int64_t ln, std::int64_t r, std::int64_t c) {
        if (index == std::numeric_limits<std::uint32_t>::max())
            throw ResourceLimit(a_path + ": more than 2^32 - 1 edge lines");
        const std::size_t i = index++;
        for (std::int64_t x : {r, c})
            if (x < 1 || static_cast<std::uint64_t>(x) > n_nodes)
                throw ParseError(a_path, ln,
                                 "node id " + std::to_string(x) + " out of range [1," + std::to_string(n_nodes) +
                                     "] (nodes of " + ind_path + ")");
        const auto u = static_cast<std::uint32_t>(r - 1), v = static_cast<std::uint32_t>(c - 1);
        if (graph_of[u] != graph_of[v])
            throw ParseError(a_path, ln,
                             "edge " + std::to_string(r) + "," + std::to_string(c) + " joins graphs " +
                                 std::to_string(graph_of[u] + 1) + " and " + std::to_string(graph_of[v] + 1));
        if (u == v) {
            ++ds.stats.self_loops;
            graph_loops[graph_of[u]] = 1;
            return;
        }
        Arc a;
        a.lo = std::min(u, v);
        a.hi = std::max(u, v);
        a.dir = u < v ? 1 : 2;
        a.index = static_cast<std::uint32_t>(i);
        arcs.push_back(a);
    };
    const std::size_t lines = for_each_plain_line(
        a_text, 2, [&](std::int64_t ln, const std::int64_t* rc) { add_arc(ln, rc[0], rc[1]); },
        [&](std::int64_t ln, std::string_view text) {
            std::int64_t rc[2] = {0, 0};
            parse_columns(a_path, text, ln, 2, rc, "node id", f);
            add_arc(ln, rc[0], rc[1]);
        });
    ds.stats.edge_lines = lines;
    std::string().swap(a_text);  // parsed: release it before the arcs are sorted
    for (auto x : graph_loops) ds.stats.graphs_with_self_loops += x;
    std::vector<GraphBuilder> builders;
    builders.reserve(sizes.size());
    for (VertexId s : sizes) builders.emplace_back(s);
    std::vector<std::uint8_t> graph_dups(sizes.size(), 0);
    // One undirected edge with the number of its lines in each direction.
    auto add_edge = [&](std::uint32_t lo, std::uint32_t hi, std::size_t forward, std::size_t backward, Label label) {
        const std::uint32_t g = graph_of[lo];
        const std::size_t dups = (forward > 1 ? forward - 1 : 0) + (backward > 1 ? backward - 1 : 0);
        ds.stats.duplicate_edge_lines += dups;
        if (dups > 0) graph_dups[g] = 1;
        if (forward == 0 || backward == 0) ++ds.stats.one_direction_edges;
        if (ds.has_edge_labels)
            builders[g].add_edge(local[lo], local[hi], label);
        else
            builders[g].add_edge(local[lo], local[hi]);
    };
    group_arcs(arcs, n_nodes, edge_labels.empty() ? nullptr : edge_labels.data(), add_edge,
               [&](const Arc& first, const Arc& a) {
                   throw ParseError(el_path, el_line[a.index],
                                    label_conflict(first.lo + 1, first.hi + 1, ds.label_rows.edge, edge_labels[a.index],
                                                   edge_labels[first.index], el_line[first.index]));
               });
    for (auto x : graph_dups) ds.stats.graphs_with_duplicates += x;
    std::vector<std::vector<Label>> labels_of(ds.has_node_labels ? sizes.size() : 0);
    if (ds.has_node_labels) {
        for (std::size_t g = 0; g < sizes.size(); ++g) labels_of[g].resize(sizes[g]);
        for (std::size_t v = 0; v < n_nodes; ++v) labels_of[graph_of[v]][local[v]] = node_labels[v];
    }
    ds.graphs.reserve(builders.size());
    for (std::size_t g = 0; g < builders.size(); ++g) {
        if (ds.has_node_labels) builders[g].set_node_labels(std::move(labels_of[g]));
        ds.graphs.push_back(builders[g].build());
        count_graph(ds.graphs.back(), ds.stats);
        builders[g] = GraphBuilder();  // release memory early
    }
    return ds;
}

struct TuGraphReader::Impl {
    std::string dir, name;
    std::unique_ptr<detail::ChunkedLines> ind, a, nl, el;  // nl, el: when read
    std::vector<Label> graph_labels;
    std::string gl_path;
    std::int64_t gl_last_line = 0;
    TuStats stats;
    bool finished = false;
    // Label ids: rows numbered by first appearance, one counter for single integers and longer rows.
    std::unordered_map<Label, Label> single_id;
    std::map<std::vector<Label>, Label> row_id;
    Label next_id = 0;
    std::vector<std::string_view> fields;
    std::vector<Label> row;
    // The indicator line read ahead, and the DS_A.txt line read ahead (it belongs to a later graph).
    bool ind_ahead = false, arc_ahead = false;
    std::int64_t gid = 0, gid_line = 0;
    std::int64_t arc_r = 0, arc_c = 0, arc_line = 0, arc_label_line = 0;
    Label arc_label = 0;
    std::uint64_t nodes = 0;
    // One graph's arcs (local ids), their labels and label lines, and its node labels.
    std::vector<Arc> arcs;
    std::vector<Label> arc_labels, node_labels;
    std::vector<std::int64_t> arc_label_lines;

    /// The id of the label row on the next line of `f`; ParseError when there is none.
    Label label_id(detail::ChunkedLines& f, const char* what, const std::string& counted,
                   std::int64_t* line_out = nullptr) {
        std::string_view line;
        std::int64_t ln = 0;
        if (!f.next(line, ln)) throw ParseError(f.path(), 0, std::string("fewer ") + what + " lines than " + counted);
        if (line_out) *line_out = ln;
        std::int64_t v = 0;
        const char* p = line.data();
        if (!plain_columns(p, line.data() + line.size(), 1, &v)) {
            split_fields(line, fields);
            row.clear();
            for (const auto& x : fields) row.push_back(parse_int(x, f.path(), ln, what));
            if (row.size() > 1) return row_id.emplace(row, row_id.size() + single_id.size()).first->second;
            v = row[0];
        }
        return single_id.emplace(v, static_cast<Label>(row_id.size() + single_id.size())).first->second;
    }

    bool read_indicator() {
        std::string_view line;
        if (!ind->next(line, gid_line)) return false;
        parse_columns(ind->path(), line, gid_line, 1, &gid, "graph id", fields);
        if (gid < 1) throw ParseError(ind->path(), gid_line, "graph id " + std::to_string(gid) + " must be >= 1");
        return true;
    }

    bool read_arc() {
        std::string_view line;
        if (!a->next(line, arc_line)) return false;
        std::int64_t rc[2];
        parse_columns(a->path(), line, arc_line, 2, rc, "node id", fields);
        for (std::int64_t x : rc)
            if (x < 1)
                throw ParseError(a->path(), arc_line,
                                 "node id " + std::to_string(x) + " out of range (ids start at 1)");
        arc_r = rc[0] - 1;
        arc_c = rc[1] - 1;
        ++stats.edge_lines;
        if (el) arc_label = label_id(*el, "edge label", "edge lines of " + a->path(), &arc_label_line);
        return true;
    }

    Graph next_graph() {
        const std::int64_t expected = static_cast<std::int64_t>(stats.graphs) + 1;
        if (gid != expected)
            throw TuOrderError(ind->path() + ":" + std::to_string(gid_line) + ": graph id " + std::to_string(gid) +
                               " where " + std::to_string(expected) +
                               " was expected: the nodes are not stored graph by graph");
        const std::uint64_t first = nodes;
        node_labels.clear();
        while (ind_ahead && gid == expected) {
            if (nl) node_labels.push_back(label_id(*nl, "node label", "nodes in " + ind->path()));
            ++nodes;
            ind_ahead = read_indicator();
        }
        const std::uint64_t end = nodes;
        if (end - first > std::numeric_limits<std::uint32_t>::max())
            throw ResourceLimit(ind->path() + ": a graph of more than 2^32 - 1 nodes");
        arcs.clear();
        arc_labels.clear();
        arc_label_lines.clear();
        bool loops = false;
        for (;;) {
            if (!arc_ahead && !(arc_ahead = read_arc())) break;
            const auto r = static_cast<std::uint64_t>(arc_r), c = static_cast<std::uint64_t>(arc_c);
            if (r >= end && c >= end) break;  // a later graph's
            arc_ahead = false;
            if (r < first && c < first)
                throw TuOrderError(a->path() + ":" + std::to_string(arc_line) +
                                   ": an edge of an earlier graph after graph " + std::to_string(expected) +
                                   "'s nodes: the edges are not stored graph by graph");
            if (r < first || c < first || r >= end || c >= end)
                throw ParseError(a->path(), arc_line,
                                 "edge " + std::to_string(r + 1) + "," + std::to_string(c + 1) + " joins graph " +
                                     std::to_string(expected) + " and another graph");
            if (r == c) {
                ++stats.self_loops;
                loops = true;
                continue;
            }
            Arc x;
            x.lo = static_cast<std::uint32_t>(std::min(r, c) - first);
            x.hi = static_cast<std::uint32_t>(std::max(r, c) - first);
            x.dir = r < c ? 1 : 2;
            x.index = static_cast<std::uint32_t>(arcs.size());
            arcs.push_back(x);
            if (el) {
                arc_labels.push_back(arc_label);
                arc_label_lines.push_back(arc_label_line);
            }
        }
        GraphBuilder builder(static_cast<VertexId>(end - first));
        bool dups = false;
        group_arcs(
            arcs, end - first, el ? arc_labels.data() : nullptr,
            [&](std::uint32_t lo, std::uint32_t hi, std::size_t forward, std::size_t backward, Label label) {
                const std::size_t d = (forward > 1 ? forward - 1 : 0) + (backward > 1 ? backward - 1 : 0);
                stats.duplicate_edge_lines += d;
                dups = dups || d > 0;
                if (forward == 0 || backward == 0) ++stats.one_direction_edges;
                if (el)
                    builder.add_edge(lo, hi, label);
                else
                    builder.add_edge(lo, hi);
            },
            [&](const Arc& f, const Arc& x) {
                throw ParseError(el->path(), arc_label_lines[x.index],
                                 label_conflict(first + f.lo + 1, first + f.hi + 1, {}, arc_labels[x.index],
                                                arc_labels[f.index], arc_label_lines[f.index]));
            });
        stats.graphs_with_self_loops += loops;
        stats.graphs_with_duplicates += dups;
        if (nl) builder.set_node_labels(node_labels);
        Graph g = builder.build();
        count_graph(g, stats);
        ++stats.graphs;
        return g;
    }

    /// The end of the indicator: nothing may be left in the other files.
    void finish() {
        finished = true;
        stats.nodes = nodes;
        if (arc_ahead || read_arc()) {
            const std::int64_t x = static_cast<std::uint64_t>(arc_r) >= nodes ? arc_r + 1 : arc_c + 1;
            throw ParseError(a->path(), arc_line,
                             "node id " + std::to_string(x) + " out of range [1," + std::to_string(nodes) +
                                 "] (nodes of " + ind->path() + ")");
        }
        std::string_view line;
        std::int64_t ln = 0;
        if (nl && nl->next(line, ln))
            throw ParseError(nl->path(), ln,
                             "more lines than the " + std::to_string(nodes) + " nodes of " + ind->path());
        if (el && stats.edge_lines > 0 && el->next(line, ln))
            throw ParseError(el->path(), ln,
                             "more lines than the " + std::to_string(stats.edge_lines) + " edge lines of " + a->path());
        if (!graph_labels.empty() && graph_labels.size() != stats.graphs)
            throw ParseError(
                gl_path, gl_last_line,
                count_mismatch(graph_labels.size(), "labels", stats.graphs, "graphs") + " of " + ind->path());
    }
};

TuGraphReader::TuGraphReader(const std::string& dir_in, const std::string& name_in, const TuReadOptions& opt)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    std::tie(m.dir, m.name) = resolve_dataset(dir_in, name_in);
    const std::string prefix = m.dir + "/" + m.name + "_";
    m.ind = std::make_unique<detail::ChunkedLines>(prefix + "graph_indicator.txt");
    m.a = std::make_unique<detail::ChunkedLines>(prefix + "A.txt");
    if (opt.node_labels && file_exists(prefix + "node_labels.txt"))
        m.nl = std::make_unique<detail::ChunkedLines>(prefix + "node_labels.txt");
    if (opt.edge_labels && file_exists(prefix + "edge_labels.txt"))
        m.el = std::make_unique<detail::ChunkedLines>(prefix + "edge_labels.txt");
    m.gl_path = prefix + "graph_labels.txt";
    if (file_exists(m.gl_path)) {
        const auto gl = int_lines(m.gl_path, "graph label");
        m.gl_last_line = gl.back().first;
        m.graph_labels.reserve(gl.size());
        for (const auto& x : gl) m.graph_labels.push_back(x.second);
    }
    m.ind_ahead = m.read_indicator();
    if (!m.ind_ahead) throw ParseError(m.ind->path(), 0, "file is empty");
}

TuGraphReader::~TuGraphReader() = default;

bool TuGraphReader::next(std::size_t max_graphs, std::vector<Graph>& out, std::size_t max_bytes) {
    Impl& m = *impl_;
    out.clear();
    const std::uint64_t start = m.a->consumed();
    while (!m.finished && out.size() < std::max<std::size_t>(1, max_graphs) &&
           (out.empty() || m.a->consumed() - start < max_bytes)) {
        if (!m.ind_ahead) {
            m.finish();
            break;
        }
        out.push_back(m.next_graph());
        if (!m.ind_ahead) m.finish();
    }
    return !out.empty();
}

const std::string& TuGraphReader::dir() const { return impl_->dir; }
const std::string& TuGraphReader::name() const { return impl_->name; }
bool TuGraphReader::at_end() const { return impl_->finished; }
bool TuGraphReader::has_node_labels() const { return impl_->nl != nullptr; }
bool TuGraphReader::has_edge_labels() const { return impl_->el != nullptr && impl_->stats.edge_lines > 0; }
const std::vector<Label>& TuGraphReader::graph_labels() const { return impl_->graph_labels; }
const TuStats& TuGraphReader::stats() const { return impl_->stats; }
std::uint64_t TuGraphReader::edge_bytes_read() const { return impl_->a->consumed(); }
std::uint64_t TuGraphReader::edge_file_size() const { return impl_->a->size(); }

void write_tu_dataset(const std::string& dir_in, const std::string& name, const std::vector<Graph>& graphs,
                      const std::vector<Label>& graph_labels, const TuWriteOptions& opt) {
    std::string dir = dir_in;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (name.empty() || name.find('/') != std::string::npos)
        throw InvalidArgument("bad TU dataset name '" + name + "'");
    if (graphs.empty()) throw InvalidArgument("write_tu_dataset: no graphs to write");
    if (!graph_labels.empty() && graph_labels.size() != graphs.size())
        throw InvalidArgument("write_tu_dataset: " + std::to_string(graph_labels.size()) + " labels for " +
                              std::to_string(graphs.size()) + " graphs");
    std::size_t total_nodes = 0;
    for (const auto& g : graphs) total_nodes += g.n();
    if (!opt.node_attributes.empty() && opt.node_attributes.size() != total_nodes)
        throw InvalidArgument("write_tu_dataset: " + std::to_string(opt.node_attributes.size()) +
                              " attribute rows for " + std::to_string(total_nodes) + " nodes");
    for (const auto& [fname, content] : opt.extra_files)
        if (fname.empty() || fname.find('/') != std::string::npos)
            throw InvalidArgument("write_tu_dataset: bad extra file name '" + fname + "'");
    const bool node_labels =
        std::any_of(graphs.begin(), graphs.end(), [](const Graph& g) { return g.has_node_labels(); });
    const bool edge_labels =
        std::any_of(graphs.begin(), graphs.end(), [](const Graph& g) { return g.has_edge_labels(); });
    std::string a, ind, nl, el, gl, na;
    std::size_t offset = 0;
    char buf[64];
    for (std::size_t gi = 0; gi < graphs.size(); ++gi) {
        const Graph& g = graphs[gi];
        for (VertexId v = 0; v < g.n(); ++v) {
            ind += std::to_string(gi + 1) + '\n';
            if (node_labels) nl += label_row_text(opt.label_rows.node, g.node_label(v)) + '\n';
            const auto nb = g.neighbors(v);
            for (std::size_t k = 0; k < nb.size(); ++k) {
                a += std::to_string(offset + v + 1) + ", " + std::to_string(offset + nb[k] + 1) + '\n';
                if (edge_labels) el += label_row_text(opt.label_rows.edge, g.arc_label(g.offsets()[v] + k)) + '\n';
            }
        }
        offset += g.n();
        if (!graph_labels.empty()) gl += std::to_string(graph_labels[gi]) + '\n';
    }
    for (const auto& row : opt.node_attributes) {
        for (std::size_t k = 0; k < row.size(); ++k) {
            std::snprintf(buf, sizeof buf, "%.17g", row[k]);
            na += (k ? ", " : "") + std::string(buf);
        }
        na += '\n';
    }
    std::vector<std::pair<std::string, std::string>> files = {{name + "_A.txt", std::move(a)},
                                                              {name + "_graph_indicator.txt", std::move(ind)}};
    if (!graph_labels.empty()) files.emplace_back(name + "_graph_labels.txt", std::move(gl));
    if (node_labels) files.emplace_back(name + "_node_labels.txt", std::move(nl));
    if (edge_labels) files.emplace_back(name + "_edge_labels.txt", std::move(el));
    if (!opt.node_attributes.empty()) files.emplace_back(name + "_node_attributes.txt", std::move(na));
    for (const auto& x : opt.extra_files) files.push_back(x);

    // Merged into an existing directory (each file replaced by rename, nothing undone when a
    // rename fails); the parent of a new directory must exist.
    AtomicDirWriter out(dir, AtomicDirOptions().set_create_parents(false).set_undo_partial_merge(false));
    for (const auto& [fname, content] : files) out.write(fname, content);
    out.commit();
    // Optional files of an earlier dataset with the same name would now be inconsistent.
    for (const char* suffix : {"_graph_labels.txt", "_node_labels.txt", "_edge_labels.txt", "_node_attributes.txt"}) {
        const std::string fname = name + suffix;
        const bool written = std::any_of(files.begin(), files.end(), [&](const auto& f) { return f.first == fname; });
        if (!written) std::remove((dir + "/" + fname).c_str());
    }
}

}  // namespace brec
