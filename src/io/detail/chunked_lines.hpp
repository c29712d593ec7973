#pragma once
// The lines of a text file read a chunk at a time (never the whole file): the line source of the
// graph-line, TU and pair-file readers that stream.

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec::detail {

class ChunkedLines {
public:
    /// Opens `path`; IoError when it cannot be read or is a directory.
    explicit ChunkedLines(std::string path) : path_(std::move(path)) {
        size_ = readable_file_size(path_);
        file_ = std::fopen(path_.c_str(), "rb");
        if (!file_) throw IoError("cannot open " + path_ + ": " + std::strerror(errno));
    }
    ~ChunkedLines() { std::fclose(file_); }
    ChunkedLines(const ChunkedLines&) = delete;
    ChunkedLines& operator=(const ChunkedLines&) = delete;

    /// The next physical line without its '\n' and a '\r' before it (as split_lines cuts a text;
    /// valid until the next call) and its 1-based number; false at the end of the file.
    bool next_raw(std::string_view& line, std::int64_t& number) {
        for (;;) {
            const char* base = buf_.data();
            const void* nl = std::memchr(base + pos_, '\n', buf_.size() - pos_);
            if (!nl && !eof_) {
                refill();
                continue;
            }
            if (!nl && pos_ >= buf_.size()) return false;
            const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - base) : buf_.size();
            line = std::string_view(base + pos_, end - pos_);
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            consumed_ += std::min(end + 1, buf_.size()) - pos_;
            pos_ = std::min(end + 1, buf_.size());
            number = ++line_;
            return true;
        }
    }

    /// The next line that is not blank, without the blanks (' ', '\t', '\r', '\v', '\f') around it.
    bool next(std::string_view& line, std::int64_t& number) {
        while (next_raw(line, number)) {
            while (!line.empty() && is_blank(line.front())) line.remove_prefix(1);
            while (!line.empty() && is_blank(line.back())) line.remove_suffix(1);
            if (!line.empty()) return true;
        }
        return false;
    }

    const std::string& path() const { return path_; }
    /// Bytes of the lines returned so far, and the file's size when it was opened.
    std::uint64_t consumed() const { return consumed_; }
    std::uint64_t size() const { return size_; }
    bool at_end() const { return eof_ && pos_ >= buf_.size(); }

private:
    static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

    void refill() {
        constexpr std::size_t kChunk = 1 << 20;
        buf_.erase(0, pos_);
        pos_ = 0;
        const std::size_t have = buf_.size();
        buf_.resize(have + kChunk);
        const std::size_t got = std::fread(&buf_[have], 1, kChunk, file_);
        buf_.resize(have + got);
        if (got < kChunk) {
            if (std::ferror(file_)) throw IoError("error while reading " + path_);
            eof_ = true;
        }
    }

    std::string path_;
    std::FILE* file_ = nullptr;
    std::string buf_;
    std::size_t pos_ = 0;
    bool eof_ = false;
    std::int64_t line_ = 0;
    std::uint64_t consumed_ = 0, size_ = 0;
};

}  // namespace brec::detail
