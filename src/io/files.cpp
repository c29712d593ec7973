#include "brec/io/files.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "brec/core/error.hpp"

namespace brec {

bool parse_int64(std::string_view text, std::int64_t& value) {
    if (text.empty()) return false;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (*begin == '+') {
        ++begin;
        if (begin == end || *begin == '-') return false;
    }
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(begin, end, v);
    if (ec != std::errc() || ptr != end) return false;
    value = v;
    return true;
}

std::uint64_t readable_file_size(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw IoError("cannot open " + path + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw IoError("cannot read " + path + ": it is a directory");
    return static_cast<std::uint64_t>(st.st_size);
}

std::string read_text_file(const std::string& path) {
    const std::uint64_t size = readable_file_size(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError("cannot open " + path + ": " + std::strerror(errno));
    // Reserved from the size (no regrowth copies); read to the end in case the size was not known.
    std::string text;
    if (size > 0) text.reserve(static_cast<std::size_t>(size));
    std::vector<char> buf(1 << 16);
    while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0)
        text.append(buf.data(), static_cast<std::size_t>(in.gcount()));
    if (in.bad()) throw IoError("error while reading " + path);
    return text;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

bool file_exists(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0;
}

bool is_directory(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

AtomicFileWriter::AtomicFileWriter(std::string path)
    : path_(std::move(path)), tmp_(path_ + ".tmp." + std::to_string(::getpid())) {
    struct stat st {};
    if (stat(path_.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) throw IoError("cannot write " + path_ + ": it is a directory");
        // A device or pipe (/dev/stdout, /dev/null, a FIFO) is written in place: renaming a file
        // onto it would replace the device.
        if (!S_ISREG(st.st_mode)) tmp_ = path_;
    }
    errno = 0;
    out_.open(tmp_, std::ios::binary | std::ios::trunc);
    if (!out_) throw IoError("cannot write " + path_ + ": " + std::strerror(errno));
}

AtomicFileWriter::~AtomicFileWriter() {
    if (!committed_) {
        out_.close();
        if (tmp_ != path_) std::remove(tmp_.c_str());
    }
}

void AtomicFileWriter::commit() {
    int err = 0;
    if (!out_) {
        err = errno;  // a write through stream() failed (e.g. ENOSPC)
    } else {
        errno = 0;
        out_.flush();
        if (out_) out_.close();  // close() writes what is still buffered
        if (!out_) err = errno;
    }
    if (err || !out_) {
        const std::string reason = err ? std::string(": ") + std::strerror(err) : std::string(": write failed");
        out_.close();
        if (tmp_ != path_) std::remove(tmp_.c_str());
        committed_ = true;  // nothing left to clean up
        throw IoError("cannot write " + path_ + reason);
    }
    if (tmp_ == path_) {
        committed_ = true;
        return;
    }
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(tmp_.c_str());
        throw IoError("cannot write " + path_ + ": " + reason);
    }
    committed_ = true;
}

void write_text_file_atomic(const std::string& path, const std::string& content) {
    AtomicFileWriter w(path);
    w.stream() << content;
    w.commit();
}

}  // namespace brec
