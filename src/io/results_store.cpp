#include "brec/io/results_store.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>

#include "brec/io/files.hpp"

namespace brec {
namespace {

std::string results_file_message(ResultsFileError::Problem problem, const std::string& path) {
    if (problem == ResultsFileError::Problem::nothing_to_resume) return "resuming needs a results file";
    return path + " already holds results; resume that run or remove the file";
}

/// Size of a regular file, 0 when it is missing (directories are left to the open that follows).
std::uintmax_t regular_file_size(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return 0;
    const auto size = std::filesystem::file_size(path, ec);
    return ec ? 0 : size;
}

bool blank(const std::string& text, std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k)
        if (text[k] != ' ' && text[k] != '\t' && text[k] != '\r') return false;
    return true;
}

}  // namespace

ResultsFileError::ResultsFileError(Problem problem, std::string path)
    : InvalidArgument(results_file_message(problem, path)), problem_(problem), path_(std::move(path)) {}

ResultsFileError::ResultsFileError(std::string path, std::int64_t line, const std::string& theirs,
                                   const std::string& ours)
    : InvalidArgument(path + ":" + std::to_string(line) + ": a record of other settings (" + theirs +
                      "; this run: " + ours + "); resume with the same settings or use another results file"),
      problem_(Problem::other_settings),
      path_(std::move(path)),
      line_(line) {}

ResultsScan scan_results(const std::string& text, const std::string& source,
                         const std::function<void(nlohmann::json&&, std::int64_t)>& each) {
    ResultsScan scan;
    std::size_t start = 0;
    std::int64_t line = 0;
    while (start < text.size()) {
        ++line;
        const std::size_t newline = text.find('\n', start);
        const bool terminated = newline != std::string::npos;
        const std::size_t end = terminated ? newline : text.size();
        const std::size_t next = terminated ? newline + 1 : text.size();
        if (!blank(text, start, end)) {
            auto j = nlohmann::json::parse(text.begin() + static_cast<std::ptrdiff_t>(start),
                                           text.begin() + static_cast<std::ptrdiff_t>(end), nullptr,
                                           /*allow_exceptions=*/false);
            if (j.is_discarded() || !j.is_object()) {
                if (!terminated) {  // the torn last line of a killed writer
                    scan.torn_line = line;
                    return scan;
                }
                throw ParseError(source, line, "not a JSON object (a broken record)");
            }
            scan.unterminated = !terminated;
            ++scan.records;
            each(std::move(j), line);
        }
        scan.whole_bytes = next;
        start = next;
    }
    return scan;
}

std::vector<nlohmann::json> read_results(const std::string& path) {
    std::vector<nlohmann::json> out;
    if (!file_exists(path)) return out;
    scan_results(read_text_file(path), path, [&](nlohmann::json&& j, std::int64_t) { out.push_back(std::move(j)); });
    return out;
}

ResultsSettings::ResultsSettings(std::string ours,
                                 std::function<std::string(const nlohmann::json&, std::int64_t)> of_record)
    : of(std::move(of_record)), expected([ours = std::move(ours)](const nlohmann::json&) { return ours; }) {}

ResultsStore::ResultsStore(std::string path, bool resume, const ResultsSettings& settings,
                           const std::function<void(nlohmann::json&&, std::int64_t)>& each)
    : path_(std::move(path)) {
    if (path_.empty()) {
        if (resume) throw ResultsFileError(ResultsFileError::Problem::nothing_to_resume, path_);
        return;
    }
    if (!resume && regular_file_size(path_) > 0)
        throw ResultsFileError(ResultsFileError::Problem::would_overwrite, path_);
    ResultsScan scan;
    std::size_t size = 0;
    if (resume && file_exists(path_)) {
        // The whole file is checked before anything is changed: a refusal leaves it as it was.
        const std::string text = read_text_file(path_);
        size = text.size();
        scan = scan_results(text, path_, [&](nlohmann::json&& j, std::int64_t line) {
            if (settings.of) {
                const std::string theirs = settings.of(j, line), ours = settings.expected(j);
                if (theirs != ours) throw ResultsFileError(path_, line, theirs, ours);
            }
            if (each) each(std::move(j), line);
        });
        loaded_ = scan.records;
        if (scan.whole_bytes < size) {
            std::error_code ec;
            std::filesystem::resize_file(path_, scan.whole_bytes, ec);
            if (ec) throw IoError("cannot repair " + path_ + ": " + ec.message());
        }
    }
    // The file is opened with the first record, so that a run failing before it leaves no file (and
    // the newline a whole last record lacks is added then); one that cannot take the file fails
    // now, not after the first record's work.
    unterminated_ = scan.unterminated;
    append_ = resume;
    const std::filesystem::path parent = std::filesystem::path(path_).parent_path();
    const std::string target = file_exists(path_) ? path_ : parent.empty() ? std::string(".") : parent.string();
    if (::access(target.c_str(), W_OK) != 0) throw IoError("cannot write " + path_ + ": " + std::strerror(errno));
}

void ResultsStore::open_sink(bool append) {
    errno = 0;
    sink_.open(path_, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
    if (!sink_) throw IoError("cannot write " + path_ + ": " + std::strerror(errno));
    // A last record without its newline is whole: end its line before appending.
    if (unterminated_) sink_ << '\n' << std::flush;
    unterminated_ = false;
}

void ResultsStore::append(const nlohmann::json& record) {
    append_line(record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void ResultsStore::append(const nlohmann::ordered_json& record) {
    append_line(record.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

void ResultsStore::append_line(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (path_.empty()) return;
    if (!sink_.is_open()) open_sink(append_);
    const std::uintmax_t whole = regular_file_size(path_);
    errno = 0;
    sink_ << line << '\n';
    sink_.flush();
    if (sink_) return;
    // A full disk or a failing device: cut the torn line off, so the file keeps whole records to
    // resume from, and remove a file that holds none.
    const std::string reason = errno ? std::string(": ") + std::strerror(errno) : std::string();
    sink_.close();
    std::error_code ec;
    if (std::filesystem::is_regular_file(path_, ec)) {  // not a device or pipe
        if (whole == 0)
            std::filesystem::remove(path_, ec);
        else
            std::filesystem::resize_file(path_, whole, ec);
    }
    throw IoError("cannot write " + path_ + reason);
}

void OrderedAppender::add(std::size_t task, nlohmann::json record) {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_.emplace(task, std::move(record));
    for (auto it = waiting_.begin(); it != waiting_.end() && it->first == next_; it = waiting_.erase(it), ++next_)
        store_.append(it->second);
}

}  // namespace brec
