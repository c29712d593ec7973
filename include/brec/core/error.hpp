#pragma once
// The exception hierarchy of the library. The library throws; only main() catches.

#include <cstdint>
#include <stdexcept>
#include <string>

namespace brec {

/// Base of every exception the library throws.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& what) : std::runtime_error(what) {}
};

/// Malformed input data. The message names the source, the line (1-based, 0 if unknown),
/// the column or byte offset where known, and what was expected.
class ParseError : public Error {
public:
    ParseError(std::string source, std::int64_t line, const std::string& problem, std::int64_t column = -1);

    const std::string& source() const { return source_; }
    std::int64_t line() const { return line_; }
    std::int64_t column() const { return column_; }
    const std::string& problem() const { return problem_; }

private:
    std::string source_;
    std::int64_t line_;
    std::int64_t column_;
    std::string problem_;
};

/// A bad argument from the caller (an unknown model, a shard 5/4, k out of range, ...).
class InvalidArgument : public Error {
public:
    explicit InvalidArgument(const std::string& what) : Error(what) {}
};

/// A valid request that this build or algorithm cannot serve (e.g. no LibTorch, disconnected graph for GD-WL).
class Unsupported : public Error {
public:
    explicit Unsupported(const std::string& what) : Error(what) {}
};

/// A request that would exceed a size limit (memory, vertex count for nauty, ...).
class ResourceLimit : public Error {
public:
    explicit ResourceLimit(const std::string& what) : Error(what) {}
};

/// A file that cannot be opened, read or written.
class IoError : public Error {
public:
    explicit IoError(const std::string& what) : Error(what) {}
};

/// The caller cancelled the run through its RunContext (e.g. the user pressed Ctrl-C). Not a
/// failure of the input: work finished before the cancellation has been kept where the function
/// documents it (e.g. the records of a results file).
class Cancelled : public Error {
public:
    explicit Cancelled(const std::string& what = "cancelled") : Error(what) {}
};

}  // namespace brec

/// Internal invariant check: on with BREC_EXPENSIVE_CHECKS or in Debug builds; never for user input.
#if defined(BREC_EXPENSIVE_CHECKS) || !defined(NDEBUG)
#define BREC_ASSERT(cond)                                                                                             \
    do {                                                                                                              \
        if (!(cond))                                                                                                  \
            throw ::brec::Error(std::string("internal error: assertion failed: ") + #cond + " at " + __FILE__ + ":" + \
                                std::to_string(__LINE__));                                                            \
    } while (0)
#else
#define BREC_ASSERT(cond) \
    do {                  \
    } while (0)
#endif
