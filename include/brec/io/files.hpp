#pragma once
// File helpers: whole-file reads with clear errors and atomic writes (no partial output files).
// Results files (JSON lines) are read and written by io/results_store.hpp.

#include <fstream>
#include <set>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "brec/core/types.hpp"

namespace brec {

/// Reads a whole file. Throws IoError("cannot open PATH: reason").
std::string read_text_file(const std::string& path);
/// The size of a file about to be read. Throws IoError("cannot open PATH: reason") when it cannot
/// be, and IoError("cannot read PATH: it is a directory") for a directory.
std::uint64_t readable_file_size(const std::string& path);
/// Splits text into lines (without the newline; a trailing '\r' is removed).
std::vector<std::string> split_lines(const std::string& text);
bool file_exists(const std::string& path);
bool is_directory(const std::string& path);
/// Parses a whole decimal integer (optional sign, no blanks, in range) into `value`; false when
/// the text is anything else. The one integer parser of every reader.
bool parse_int64(std::string_view text, std::int64_t& value);

/// Writes to PATH.tmp.<pid> and renames onto PATH on commit(); a writer destroyed without commit()
/// removes the temporary file, so a failed run leaves no partial output.
class AtomicFileWriter {
public:
    explicit AtomicFileWriter(std::string path);
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter&) = delete;
    AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

    std::ostream& stream() { return out_; }
    void commit();

private:
    std::string path_;
    std::string tmp_;
    std::ofstream out_;
    bool committed_ = false;
};

/// Writes `content` to `path` atomically.
void write_text_file_atomic(const std::string& path, const std::string& content);

}  // namespace brec
