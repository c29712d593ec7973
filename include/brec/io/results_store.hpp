#pragma once
// The results store: the one JSON-lines results file of every command that writes records as it
// goes (wl, certify, eval, rpc, classify, attack run, attack ood). One writer and one reader, so
// that every command follows one policy:
//  * an existing non-empty file is never overwritten: it is resumed (with --resume) or refused;
//  * resuming reads the whole file first; a record of other settings refuses the file with one
//    line, a broken line that is not the last is a ParseError naming file and line, and in both
//    cases the file is left byte for byte as it was;
//  * the torn last line of a killed run (bytes after the last newline that are no JSON object) is
//    cut off, and a whole last record without its newline is ended, before anything is appended;
//  * records are appended whole and flushed one by one, from any thread.

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"

namespace brec {

/// A results file that cannot be used as asked. The message of nothing_to_resume and
/// would_overwrite names no command-line flag, so a front end may rephrase them from problem()
/// and path(); other_settings is a whole one-line message "PATH:LINE: ...".
class ResultsFileError : public InvalidArgument {
public:
    enum class Problem {
        nothing_to_resume,  ///< resuming was asked for without a results file
        would_overwrite,    ///< the file holds results and resuming was not asked for
        other_settings,     ///< the file holds a record of other settings (line())
    };
    ResultsFileError(Problem problem, std::string path);
    /// other_settings: the record at `line` has settings `theirs`, the run `ours`.
    ResultsFileError(std::string path, std::int64_t line, const std::string& theirs, const std::string& ours);
    Problem problem() const { return problem_; }
    const std::string& path() const { return path_; }
    std::int64_t line() const { return line_; }

private:
    Problem problem_;
    std::string path_;
    std::int64_t line_ = 0;
};

/// What a scan of results text found besides the records.
struct ResultsScan {
    std::size_t records = 0;
    std::size_t whole_bytes = 0;  ///< leading bytes that hold whole lines (all but a torn tail)
    std::int64_t torn_line = 0;   ///< line number of a torn last line; 0 if there is none
    bool unterminated = false;    ///< the last whole record lacks its newline
};

/// The one reader of results text: calls `each(record, line)` for every JSON object, in file order
/// (1-based line numbers; blank lines are skipped). A line that is not a JSON object throws
/// ParseError(source, line) unless it is the unterminated last line, which a killed writer tears:
/// that one is reported in ResultsScan::torn_line and not passed on. Exceptions of `each`
/// propagate.
ResultsScan scan_results(const std::string& text, const std::string& source,
                         const std::function<void(nlohmann::json&& record, std::int64_t line)>& each);

/// Every record of a results file in file order (none when the file is missing); a torn last
/// line is skipped. Throws ParseError for a broken line, IoError when the file cannot be read.
std::vector<nlohmann::json> read_results(const std::string& path);

/// The settings a resumed file must share with the run: the text of a record's settings (throws
/// ParseError for a record it cannot read) and the run's text for that record. A record whose
/// text differs refuses the file with ResultsFileError(other_settings), naming both.
struct ResultsSettings {
    std::function<std::string(const nlohmann::json& record, std::int64_t line)> of;
    std::function<std::string(const nlohmann::json& record)> expected;

    ResultsSettings() = default;
    /// Every record of the run has the settings `ours`.
    ResultsSettings(std::string ours, std::function<std::string(const nlohmann::json&, std::int64_t)> of_record);
    ResultsSettings(std::function<std::string(const nlohmann::json&, std::int64_t)> of_record,
                    std::function<std::string(const nlohmann::json&)> ours)
        : of(std::move(of_record)), expected(std::move(ours)) {}
};

class ResultsStore {
public:
    /// `path` empty: nothing is read or written (`resume` then throws ResultsFileError). Without
    /// `resume`, a non-empty existing file throws ResultsFileError(would_overwrite) and an empty or
    /// missing one is (re)created (a missing one with the first record, so that a run failing
    /// before it leaves no file). With `resume`, the file (if any) is read and checked whole
    /// first: each record passes `settings`, then goes to `each(record, line)`, which keeps what
    /// the caller needs and may throw ParseError; only then is a torn tail cut and the file opened
    /// for appending. Throws IoError when the file cannot be read or written.
    ResultsStore(std::string path, bool resume, const ResultsSettings& settings,
                 const std::function<void(nlohmann::json&& record, std::int64_t line)>& each);
    ResultsStore(const ResultsStore&) = delete;
    ResultsStore& operator=(const ResultsStore&) = delete;

    /// Appends one record as a whole line and flushes it. Thread-safe. On a failed write (a full
    /// disk) the partial line is cut off again (a file left without any record is removed) and
    /// IoError is thrown.
    void append(const nlohmann::json& record);
    /// The same, for a record kept in insertion order.
    void append(const nlohmann::ordered_json& record);

    const std::string& path() const { return path_; }
    /// Records read from the file at construction.
    std::size_t loaded() const { return loaded_; }

private:
    void append_line(const std::string& line);
    void open_sink(bool append);

    std::string path_;
    std::size_t loaded_ = 0;
    bool unterminated_ = false;
    bool append_ = false;
    std::ofstream sink_;
    std::mutex mutex_;
};

/// Appends the records of tasks 0, 1, 2, ... of a parallel run in task order, whatever order they
/// finish in: the file then never depends on the number of threads, and a killed run leaves a
/// prefix of the tasks. A record waits in memory until every record before it has been appended.
/// Thread-safe.
class OrderedAppender {
public:
    explicit OrderedAppender(ResultsStore& store) : store_(store) {}
    void add(std::size_t task, nlohmann::json record);

private:
    ResultsStore& store_;
    std::size_t next_ = 0;
    std::map<std::size_t, nlohmann::json> waiting_;
    std::mutex mutex_;
};

}  // namespace brec
