#include "brec/io/counting_data.hpp"

#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/io/dir_writer.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"

namespace brec {
namespace {

/// The split files, in the order the reader checks them and the writer writes them.
constexpr const char* kSplitNames[3] = {"train", "validation", "test"};

std::vector<std::size_t> read_split(const std::string& path, std::size_t graphs, std::vector<int>& owner, int split) {
    const auto lines = split_lines(read_text_file(path));
    std::vector<std::size_t> ids;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string line = trim(lines[i]);
        if (line.empty()) continue;
        std::int64_t v = 0;
        if (!parse_int64(line, v) || v < 0 || static_cast<std::uint64_t>(v) >= graphs)
            throw ParseError(path, static_cast<std::int64_t>(i) + 1,
                             "expected a graph id in 0.." + std::to_string(graphs - 1) + ", found '" + line + "'");
        if (owner[static_cast<std::size_t>(v)] >= 0)
            throw ParseError(path, static_cast<std::int64_t>(i) + 1, "graph " + line + " is in two splits");
        owner[static_cast<std::size_t>(v)] = split;
        ids.push_back(static_cast<std::size_t>(v));
    }
    return ids;
}

/// The count columns of the counts.tsv header, by name.
std::vector<std::size_t> count_columns(const std::vector<std::string>& header, const std::string& path) {
    std::vector<std::size_t> column(kCountingColumns, header.size());
    for (std::size_t c = 0; c < header.size(); ++c)
        for (std::size_t k = 0; k < kCountingColumns; ++k)
            if (header[c] == kCountingColumnNames[k]) column[k] = c;
    for (std::size_t k = 0; k < kCountingColumns; ++k)
        if (column[k] == header.size())
            throw ParseError(path, 1, std::string("no column '") + kCountingColumnNames[k] + "' in the header");
    return column;
}

std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, '\t');) out.push_back(f);
    return out;
}

}  // namespace

CountingData read_counting_data(const std::string& dir) {
    CountingData d;
    d.dir = dir;
    if (!is_directory(dir)) throw IoError("counting dataset " + dir + ": not a directory");
    const std::string g6 = dir + "/graphs.g6";
    const auto lines = split_lines(read_text_file(g6));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (trim(lines[i]).empty()) continue;
        SourcePos pos;
        pos.source = g6;
        pos.line = static_cast<std::int64_t>(i) + 1;
        d.graphs.push_back(parse_graph6_or_sparse6(trim(lines[i]), pos));
    }
    if (d.graphs.empty()) throw ParseError(g6, 0, "no graphs");
    const std::string tsv = dir + "/counts.tsv";
    const auto rows = split_lines(read_text_file(tsv));
    if (rows.empty()) throw ParseError(tsv, 0, "empty file (expected a header and one row per graph)");
    const auto column = count_columns(split_tabs(rows[0]), tsv);
    d.counts.assign(d.graphs.size(), CountingRow{});
    std::vector<char> seen(d.graphs.size(), 0);
    for (std::size_t r = 1; r < rows.size(); ++r) {
        if (trim(rows[r]).empty()) continue;
        const auto f = split_tabs(rows[r]);
        const auto line = static_cast<std::int64_t>(r) + 1;
        std::int64_t id = 0;
        if (f.empty() || !parse_int64(f[0], id) || id < 0 || static_cast<std::size_t>(id) >= d.graphs.size())
            throw ParseError(tsv, line, "expected a graph id in 0.." + std::to_string(d.graphs.size() - 1));
        const auto g = static_cast<std::size_t>(id);
        if (seen[g]) throw ParseError(tsv, line, "graph " + f[0] + " has two rows");
        seen[g] = 1;
        for (std::size_t k = 0; k < kCountingColumns; ++k) {
            const std::size_t c = column[k];
            std::int64_t v = 0;
            if (c >= f.size() || !parse_int64(f[c], v) || v < 0)
                throw ParseError(tsv, line, std::string("expected a count of ") + kCountingColumnNames[k]);
            d.counts[g][k] = static_cast<std::uint64_t>(v);
        }
    }
    for (std::size_t g = 0; g < seen.size(); ++g)
        if (!seen[g]) throw ParseError(tsv, 0, "no counts for graph " + std::to_string(g));
    std::vector<int> owner(d.graphs.size(), -1);
    d.train = read_split(dir + "/train.txt", d.graphs.size(), owner, 0);
    d.validation = read_split(dir + "/validation.txt", d.graphs.size(), owner, 1);
    d.test = read_split(dir + "/test.txt", d.graphs.size(), owner, 2);
    return d;
}

void write_counting_data(const CountingData& data, const std::string& dir, const nlohmann::ordered_json& meta) {
    const std::size_t n = data.graphs.size();
    if (n == 0) throw InvalidArgument("a counting dataset needs at least one graph");
    if (data.counts.size() != n)
        throw InvalidArgument("counting dataset: " + std::to_string(data.counts.size()) + " count rows for " +
                              std::to_string(n) + " graphs");
    const std::vector<std::size_t>* splits[3] = {&data.train, &data.validation, &data.test};
    std::vector<int> owner(n, -1);
    for (int s = 0; s < 3; ++s)
        for (std::size_t id : *splits[s]) {
            if (id >= n)
                throw InvalidArgument(std::string("counting dataset: graph id ") + std::to_string(id) + " in split " +
                                      kSplitNames[s] + " is out of range 0.." + std::to_string(n - 1));
            if (owner[id] >= 0)
                throw InvalidArgument("counting dataset: graph " + std::to_string(id) + " is listed twice (" +
                                      kSplitNames[owner[id]] + ", " + kSplitNames[s] + ")");
            owner[id] = s;
        }
    std::string g6;
    for (const Graph& g : data.graphs) g6 += to_graph6(g) + "\n";
    std::ostringstream tsv;
    tsv << "id\tsplit\tn\tm";
    for (const char* name : kCountingColumnNames) tsv << '\t' << name;
    tsv << '\n';
    for (std::size_t i = 0; i < n; ++i) {
        tsv << i << '\t' << (owner[i] >= 0 ? kSplitNames[owner[i]] : "none") << '\t' << data.graphs[i].n() << '\t'
            << data.graphs[i].m();
        for (auto c : data.counts[i]) tsv << '\t' << c;
        tsv << '\n';
    }
    AtomicDirWriter out(dir);
    out.write("graphs.g6", g6);
    out.write("counts.tsv", tsv.str());
    for (int s = 0; s < 3; ++s) {
        std::string ids;
        for (std::size_t id : *splits[s]) ids += std::to_string(id) + "\n";
        out.write(std::string(kSplitNames[s]) + ".txt", ids);
    }
    out.write("meta.json", meta.dump(1) + "\n");
    out.commit();
}

}  // namespace brec
