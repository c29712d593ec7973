#include "brec/io/graph_lines.hpp"

#include <cerrno>
#include <cstring>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"

namespace brec {
namespace {

constexpr std::size_t kReadBlock = std::size_t{1} << 20;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

}  // namespace

GraphLineReader::GraphLineReader(const std::string& path)
    : path_(path), file_(nullptr, &std::fclose), file_size_(readable_file_size(path)) {
    file_.reset(std::fopen(path.c_str(), "rb"));
    if (!file_) throw IoError("cannot open " + path + ": " + std::strerror(errno));
}

bool GraphLineReader::fill() {
    if (eof_) return false;
    if (pos_ > 0) {
        buffer_.erase(0, pos_);
        pos_ = 0;
    }
    const std::size_t old = buffer_.size();
    buffer_.resize(old + kReadBlock);
    const std::size_t got = std::fread(&buffer_[old], 1, kReadBlock, file_.get());
    buffer_.resize(old + got);
    if (got < kReadBlock) {
        if (std::ferror(file_.get())) throw IoError("error while reading " + path_);
        eof_ = true;
    }
    return got > 0;
}

bool GraphLineReader::next(std::size_t max_records, Batch& out, std::size_t max_bytes) {
    out.text.clear();
    out.begin.assign(1, 0);
    out.line.clear();
    while (out.line.size() < max_records && out.text.size() < max_bytes) {
        std::size_t end = buffer_.find('\n', pos_);
        if (end == std::string::npos) {
            if (fill()) continue;
            if (pos_ >= buffer_.size()) break;  // end of file
            end = buffer_.size();               // a last line without a newline
        }
        ++line_;
        std::size_t b = pos_, e = end;
        const std::size_t after = std::min(end + 1, buffer_.size());
        consumed_ += after - pos_;
        pos_ = after;
        while (b < e && is_space(buffer_[b])) ++b;
        while (e > b && is_space(buffer_[e - 1])) --e;
        if (b == e || buffer_[b] == '#') continue;
        out.text.append(buffer_, b, e - b);
        out.begin.push_back(out.text.size());
        out.line.push_back(line_);
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
