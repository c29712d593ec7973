#include "brec/io/graph_lines.hpp"

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"
#include "detail/chunked_lines.hpp"

namespace brec {

GraphLineReader::GraphLineReader(const std::string& path)
    : path_(path), lines_(std::make_unique<detail::ChunkedLines>(path)) {}

GraphLineReader::~GraphLineReader() = default;

std::uint64_t GraphLineReader::bytes_consumed() const { return lines_->consumed(); }
std::uint64_t GraphLineReader::file_size() const { return lines_->size(); }
bool GraphLineReader::at_end() const { return lines_->at_end(); }

bool GraphLineReader::next(std::size_t max_records, Batch& out, std::size_t max_bytes) {
    out.text.clear();
    out.begin.assign(1, 0);
    out.line.clear();
    std::string_view line;
    std::int64_t number = 0;
    while (out.line.size() < max_records && out.text.size() < max_bytes && lines_->next(line, number)) {
        if (line[0] == '#') continue;
        out.text.append(line);
        out.begin.push_back(out.text.size());
        out.line.push_back(number);
    }
    records_ += out.line.size();
    return !out.line.empty();
}

std::vector<Graph> read_graph_lines_at(const std::string& path, const std::vector<std::size_t>& indices) {
    std::vector<Graph> out;
    out.reserve(indices.size());
    GraphLineReader reader(path);
    GraphLineReader::Batch batch;
    std::size_t base = 0, next = 0;
    while (next < indices.size() && reader.next(1 << 14, batch)) {
        for (; next < indices.size() && indices[next] < base + batch.size(); ++next) {
            const std::size_t k = indices[next] - base;
            out.push_back(parse_graph6_or_sparse6(batch.record(k), SourcePos{path, batch.line[k]}));
        }
        base += batch.size();
    }
    if (next < indices.size())
        throw InvalidArgument(path + ": no graph " + std::to_string(indices[next]) + " (the file has " +
                              std::to_string(base) + ")");
    return out;
}

}  // namespace brec
