#pragma once
// `brec count` as one library call: read a graph file (graph6, sparse6, edge list, TU, pair file,
// dataset JSON), count the patterns of every graph in parallel, and format the counts as an
// aligned table, JSONL or TSV, written to a string or atomically to a file.

#include <cstdint>
#include <string>
#include <vector>

#include "brec/core/run_context.hpp"
#include "brec/count/patterns.hpp"
#include "brec/io/collection.hpp"

namespace brec {

enum class CountOutput { table, jsonl, tsv };

/// Options of count_file. Defaults: every pattern, per graph, as a table on the returned text.
struct CountFileOptions {
    std::string path;                   ///< input file or TU directory
    std::string format = "auto";        ///< input format name (collection.hpp) or "auto"
    std::vector<std::string> patterns;  ///< pattern names (parse_pattern); empty = all
    bool per_node = false;              ///< one row (JSONL: one array per pattern) per vertex
    CountOutput output = CountOutput::table;
    std::string out;         ///< file written atomically; empty = text in the result
    bool one_based = false;  ///< edge-list input: 1-based vertex ids
    std::string tu_name;     ///< TU input: dataset name when a directory holds several

    CountFileOptions& set_path(std::string p) {
        path = std::move(p);
        return *this;
    }
    CountFileOptions& set_per_node(bool yes) {
        per_node = yes;
        return *this;
    }
    CountFileOptions& set_output(CountOutput o) {
        output = o;
        return *this;
    }
};

/// What count_file did.
struct CountFileRun {
    std::string input;
    GraphFormat format = GraphFormat::graph6;
    std::vector<Pattern> patterns;      ///< the columns, in the order asked for
    std::vector<std::string> ids;       ///< per graph: its index, or "<pair id>a"/"b" for pair files
    std::vector<VertexId> nodes;        ///< per graph
    std::vector<std::size_t> edges;     ///< per graph
    std::vector<PatternCounts> counts;  ///< per graph
    std::string text;                   ///< the formatted counts when no `out` was given
    std::string out;                    ///< the file written, if any
    double seconds = 0.0;
};

/// Reads the input, counts every graph on ctx.threads() threads (results in input order, the same
/// for any thread count) and formats them. Throws InvalidArgument (unknown pattern or format),
/// IoError/ParseError (the readers' messages name the file and line); with `out` nothing is left
/// behind on any error. Checks ctx for cancellation between graphs.
CountFileRun count_file(const CountFileOptions& opt, RunContext& ctx);

/// The formatted counts of a run in one of the three outputs (what count_file writes).
std::string format_counts(const CountFileRun& run, CountOutput output, bool per_node);

/// One line for people after writing a file: graphs, patterns, time and where.
std::string count_file_summary(const CountFileRun& run);

}  // namespace brec
