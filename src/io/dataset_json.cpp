#include "brec/io/dataset_json.hpp"

#include <algorithm>
#include <stdexcept>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec {
namespace {

constexpr const char* kFormat = "brec-dataset";
constexpr int kVersion = 1;
// A guard against a stray huge "n" allocating gigabytes (CSR offsets: 4 bytes per vertex).
constexpr std::int64_t kMaxVertices = std::int64_t{1} << 26;

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw ParseError(where, 0, what); }

std::int64_t integer(const nlohmann::json& j, const std::string& where, const std::string& what) {
    if (!j.is_number_integer()) fail(where, "expected an integer " + what + ", found " + j.dump());
    return j.get<std::int64_t>();
}

/// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1,
/// column 2: " prefix (brec names the position itself).
std::string json_message(const std::exception& e) {
    std::string what = e.what();
    if (const std::size_t tag = what.find("] "); what.rfind("[json.exception.", 0) == 0 && tag != std::string::npos)
        what.erase(0, tag + 2);
    if (what.rfind("parse error", 0) == 0)
        if (const std::size_t colon = what.find(": "); colon != std::string::npos) what.erase(0, colon + 2);
    return what;
}

/// A SAX pass that only records where (and why) the parser stops.
struct ErrorOffset : nlohmann::json_sax<nlohmann::json> {
    bool found = false;
    std::size_t offset = 0;
    std::runtime_error error{""};

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        found = true;
        // `position` counts the characters read, the offending one included.
        offset = position > 0 ? position - 1 : 0;
        error = std::runtime_error(e.what());
        return false;
    }
};

/// A "node_label_rows" / "edge_label_rows" table: non-empty rows of integers.
std::vector<std::vector<Label>> label_rows_from_json(const nlohmann::json& j, const std::string& where) {
    if (!j.is_array() || j.empty()) fail(where, "expected a non-empty array of label rows [[3, 1], ...]");
    std::vector<std::vector<Label>> rows;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string at = where + "/" + std::to_string(i);
        if (!j[i].is_array() || j[i].empty()) fail(at, "expected a label row (a non-empty array of integers)");
        std::vector<Label> row;
        for (const auto& x : j[i]) row.push_back(integer(x, at, "label column"));
        rows.push_back(std::move(row));
    }
    return rows;
}

/// Every label id of the graphs has a row in the table (when there is one).
void check_label_ids(const std::vector<Graph>& graphs, const LabelRows& rows, const std::string& base) {
    auto check = [&](Label id, std::size_t count, std::size_t graph, const char* kind) {
        if (id < 0 || static_cast<std::size_t>(id) >= count)
            fail(base + "/graphs/" + std::to_string(graph) + "/" + kind + "_labels",
                 std::string(kind) + " label " + std::to_string(id) + " has no row in \"" + kind + "_label_rows\" (" +
                     std::to_string(count) + " rows)");
    };
    for (std::size_t i = 0; i < graphs.size(); ++i) {
        if (!rows.node.empty())
            for (Label id : graphs[i].node_labels()) check(id, rows.node.size(), i, "node");
        if (!rows.edge.empty())
            for (const auto& [u, v] : graphs[i].edges()) check(graphs[i].edge_label(u, v), rows.edge.size(), i, "edge");
    }
}

nlohmann::json header() {
    nlohmann::json j = nlohmann::json::object();
    j["format"] = kFormat;
    j["version"] = kVersion;
    return j;
}

}  // namespace

nlohmann::json graph_to_json(const Graph& g) {
    nlohmann::json j = nlohmann::json::object();
    j["n"] = g.n();
    nlohmann::json edges = nlohmann::json::array();
    nlohmann::json labels = nlohmann::json::array();
    for (const auto& [u, v] : g.edges()) {
        edges.push_back({u, v});
        if (g.has_edge_labels()) labels.push_back(g.edge_label(u, v));
    }
    j["edges"] = std::move(edges);
    if (g.has_edge_labels()) j["edge_labels"] = std::move(labels);
    if (g.has_node_labels()) j["node_labels"] = g.node_labels();
    return j;
}

Graph graph_from_json(const nlohmann::json& j, const std::string& where) {
    if (!j.is_object()) fail(where, "expected a graph object {\"n\": ..., \"edges\": [...]}");
    if (!j.contains("n")) fail(where, "graph has no \"n\" (vertex count)");
    const std::int64_t n = integer(j["n"], where + "/n", "vertex count");
    if (n < 0) fail(where + "/n", "vertex count " + std::to_string(n) + " is negative");
    if (n > kMaxVertices)
        throw ResourceLimit(where + "/n: vertex count " + std::to_string(n) + " exceeds the limit of " +
                            std::to_string(kMaxVertices));
    if (!j.contains("edges") || !j["edges"].is_array()) fail(where, "graph has no \"edges\" array");
    const auto& edges = j["edges"];
    const bool labelled = j.contains("edge_labels");
    if (labelled && (!j["edge_labels"].is_array() || j["edge_labels"].size() != edges.size()))
        fail(where + "/edge_labels",
             "expected an array with one label per edge (" + std::to_string(edges.size()) + ")");
    GraphBuilder b(static_cast<VertexId>(n));
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const std::string at = where + "/edges/" + std::to_string(i);
        const auto& e = edges[i];
        if (!e.is_array() || e.size() != 2) fail(at, "expected an edge [u, v], found " + e.dump());
        const std::int64_t u = integer(e[0], at, "vertex id");
        const std::int64_t v = integer(e[1], at, "vertex id");
        if (u < 0 || v < 0 || u >= n || v >= n)
            fail(at, "edge [" + std::to_string(u) + ", " + std::to_string(v) + "] has a vertex id out of range [0, " +
                         std::to_string(n) + ")");
        if (u == v) fail(at, "self-loop at vertex " + std::to_string(u) + " (simple graphs only)");
        if (labelled)
            b.add_edge(static_cast<VertexId>(u), static_cast<VertexId>(v),
                       integer(j["edge_labels"][i], where + "/edge_labels/" + std::to_string(i), "edge label"));
        else
            b.add_edge(static_cast<VertexId>(u), static_cast<VertexId>(v));
    }
    if (j.contains("node_labels")) {
        const auto& nl = j["node_labels"];
        if (!nl.is_array() || nl.size() != static_cast<std::size_t>(n))
            fail(where + "/node_labels", "expected an array with one label per vertex (" + std::to_string(n) + ")");
        std::vector<Label> labels;
        labels.reserve(nl.size());
        for (std::size_t i = 0; i < nl.size(); ++i)
            labels.push_back(integer(nl[i], where + "/node_labels/" + std::to_string(i), "node label"));
        b.set_node_labels(std::move(labels));
    }
    try {
        return b.build();
    } catch (const InvalidArgument& e) {
        fail(where + "/edges", e.what());
    }
}

nlohmann::json graphs_to_json(const std::vector<Graph>& graphs, const std::vector<Label>& graph_labels,
                              const LabelRows& label_rows) {
    if (!graph_labels.empty() && graph_labels.size() != graphs.size())
        throw InvalidArgument("graphs_to_json: " + std::to_string(graph_labels.size()) + " graph labels for " +
                              std::to_string(graphs.size()) + " graphs");
    nlohmann::json j = header();
    nlohmann::json arr = nlohmann::json::array();
    for (std::size_t i = 0; i < graphs.size(); ++i) {
        nlohmann::json g = graph_to_json(graphs[i]);
        if (!graph_labels.empty()) g["label"] = graph_labels[i];
        arr.push_back(std::move(g));
    }
    j["graphs"] = std::move(arr);
    if (!label_rows.node.empty()) j["node_label_rows"] = label_rows.node;
    if (!label_rows.edge.empty()) j["edge_label_rows"] = label_rows.edge;
    return j;
}

nlohmann::json pairs_to_json(const std::vector<GraphPairRecord>& pairs) {
    nlohmann::json j = header();
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& p : pairs)
        arr.push_back({{"id", p.id}, {"category", p.category}, {"a", graph_to_json(p.a)}, {"b", graph_to_json(p.b)}});
    j["pairs"] = std::move(arr);
    return j;
}

namespace {

/// The dataset held by a parsed document (see parse_dataset_json).
JsonDataset dataset_from_json(const nlohmann::json& doc, const std::string& source) {
    if (!doc.is_object()) fail(source, "expected a JSON object with \"graphs\" or \"pairs\"");
    if (doc.contains("format") && doc["format"] != kFormat)
        fail(source, "\"format\" is " + doc["format"].dump() + ", expected \"" + kFormat + "\"");
    if (doc.contains("version") && (!doc["version"].is_number_integer() || doc["version"] != kVersion))
        fail(source, "unsupported \"version\" " + doc["version"].dump() + " (this brec reads 1)");
    JsonDataset out;
    const bool has_graphs = doc.contains("graphs"), has_pairs = doc.contains("pairs");
    if (has_graphs == has_pairs) fail(source, "expected exactly one of \"graphs\" and \"pairs\" at the top level");
    const std::string base = source + ": ";
    if (has_graphs) {
        const auto& arr = doc["graphs"];
        if (!arr.is_array()) fail(base + "/graphs", "expected an array of graphs");
        std::size_t with_label = 0;
        for (const auto& g : arr) with_label += g.is_object() && g.contains("label") ? 1 : 0;
        if (with_label != 0 && with_label != arr.size())
            fail(base + "/graphs", "either every graph has a \"label\" or none has (" + std::to_string(with_label) +
                                       " of " + std::to_string(arr.size()) + " have one)");
        for (std::size_t i = 0; i < arr.size(); ++i) {
            const std::string where = base + "/graphs/" + std::to_string(i);
            out.graphs.push_back(graph_from_json(arr[i], where));
            if (with_label) out.graph_labels.push_back(integer(arr[i]["label"], where + "/label", "graph label"));
        }
        if (doc.contains("node_label_rows"))
            out.label_rows.node = label_rows_from_json(doc["node_label_rows"], base + "/node_label_rows");
        if (doc.contains("edge_label_rows"))
            out.label_rows.edge = label_rows_from_json(doc["edge_label_rows"], base + "/edge_label_rows");
        check_label_ids(out.graphs, out.label_rows, base);
        return out;
    }
    out.paired = true;
    const auto& arr = doc["pairs"];
    if (!arr.is_array()) fail(base + "/pairs", "expected an array of pairs");
    std::vector<PairId> ids;
    for (std::size_t i = 0; i < arr.size(); ++i) {
        const std::string where = base + "/pairs/" + std::to_string(i);
        const auto& p = arr[i];
        if (!p.is_object() || !p.contains("id") || !p.contains("category") || !p.contains("a") || !p.contains("b"))
            fail(where, "expected a pair {\"id\", \"category\", \"a\", \"b\"}");
        GraphPairRecord rec;
        rec.id = integer(p["id"], where + "/id", "pair id");
        if (rec.id < 0) fail(where + "/id", "pair id " + std::to_string(rec.id) + " is negative");
        if (!p["category"].is_string() || p["category"].get<std::string>().empty())
            fail(where + "/category", "expected a non-empty category string");
        rec.category = p["category"].get<std::string>();
        rec.a = graph_from_json(p["a"], where + "/a");
        rec.b = graph_from_json(p["b"], where + "/b");
        ids.push_back(rec.id);
        out.pairs.push_back(std::move(rec));
    }
    std::sort(ids.begin(), ids.end());
    const auto dup = std::adjacent_find(ids.begin(), ids.end());
    if (dup != ids.end()) fail(base + "/pairs", "pair id " + std::to_string(*dup) + " is repeated");
    return out;
}

}  // namespace

nlohmann::json parse_json_document(const std::string& text, const std::string& source) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        // A syntax error (parse_error) knows its byte offset, a number beyond the range of a
        // double (out_of_range, e.g. 1e999) does not: a second pass finds the offset of either.
        ErrorOffset at;
        nlohmann::json::sax_parse(text, &at);
        if (!at.found) throw ParseError(source, 0, "invalid JSON: " + json_message(e));
        const std::size_t offset = std::min(at.offset, text.size());
        const auto begin = text.begin(), stop = begin + static_cast<std::ptrdiff_t>(offset);
        const auto line = 1 + std::count(begin, stop, '\n');
        const std::size_t nl = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
        const std::size_t column = nl == std::string::npos ? offset : offset - nl - 1;
        throw ParseError(source, line, "invalid JSON: " + json_message(at.error), static_cast<std::int64_t>(column));
    }
}

JsonDataset parse_dataset_json(const std::string& text, const std::string& source) {
    const nlohmann::json doc = parse_json_document(text, source);
    try {
        return dataset_from_json(doc, source);
    } catch (const nlohmann::json::exception& e) {
        // The checks above leave nlohmann nothing to object to; should a value slip past them,
        // it is still bad input, not an internal error.
        fail(source, "invalid dataset JSON: " + json_message(e));
    }
}

JsonDataset read_dataset_json(const std::string& path) { return parse_dataset_json(read_text_file(path), path); }

void write_json_file(const std::string& path, const nlohmann::json& j) {
    // Top-level arrays get one element per line; everything else is compact.
    std::string text;
    if (j.is_object()) {
        text = "{";
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            text += first ? "\n" : ",\n";
            first = false;
            text += nlohmann::json(it.key()).dump() + ": ";
            if (it->is_array() && !it->empty()) {
                text += "[\n";
                for (std::size_t i = 0; i < it->size(); ++i)
                    text += "  " + (*it)[i].dump() + (i + 1 < it->size() ? ",\n" : "\n");
                text += "]";
            } else {
                text += it->dump();
            }
        }
        text += "\n}\n";
    } else {
        text = j.dump() + "\n";
    }
    write_text_file_atomic(path, text);
}

}  // namespace brec
