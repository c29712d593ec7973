#pragma once
// A file of graph records (graph6 or sparse6, one per line) read in batches, never whole: the
// reader of the streaming deduplication, which must not hold a 10^7-graph file in memory.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {
namespace detail {
class ChunkedLines;
}

/// Records of a graph-line file in file order. Lines are trimmed of surrounding whitespace; blank
/// lines and lines starting with '#' are skipped. read_graph_lines reads its records through this
/// reader, so record k here is graph k there.
class GraphLineReader {
public:
    /// Up to a requested number of records, with their 1-based line numbers (for errors).
    struct Batch {
        std::string text;                ///< the records back to back
        std::vector<std::size_t> begin;  ///< offset of record k in `text`; one more entry at the end
        std::vector<std::int64_t> line;  ///< line number of record k
        std::size_t size() const { return line.size(); }
        std::string_view record(std::size_t k) const {
            return std::string_view(text).substr(begin[k], begin[k + 1] - begin[k]);
        }
    };

    /// Opens `path`; throws IoError when it cannot be read or is a directory.
    explicit GraphLineReader(const std::string& path);
    /// Replaces `out` with the next records (at most `max_records`, and no more once their text
    /// reaches `max_bytes`); false when none are left. Throws IoError on a read error.
    bool next(std::size_t max_records, Batch& out, std::size_t max_bytes = static_cast<std::size_t>(-1));
    ~GraphLineReader();
    GraphLineReader(const GraphLineReader&) = delete;
    GraphLineReader& operator=(const GraphLineReader&) = delete;
    /// Records returned so far.
    std::uint64_t records() const { return records_; }
    /// Bytes of the file behind the records returned so far.
    std::uint64_t bytes_consumed() const;
    /// The size of the file when it was opened.
    std::uint64_t file_size() const;
    /// Whether every record has been returned.
    bool at_end() const;
    const std::string& path() const { return path_; }

private:
    std::string path_;
    std::unique_ptr<detail::ChunkedLines> lines_;
    std::uint64_t records_ = 0;
};

/// The graphs of a graph-line file at the given record indices (ascending), parsed as
/// read_graph_lines parses them. Throws ParseError for a bad record among them, IoError when the
/// file cannot be read, InvalidArgument when an index is beyond the last record.
std::vector<Graph> read_graph_lines_at(const std::string& path, const std::vector<std::size_t>& indices);

}  // namespace brec
