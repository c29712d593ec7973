#include "brec/core/error.hpp"

#include <utility>

namespace brec {
namespace {

std::string format_parse_error(const std::string& source, std::int64_t line, std::int64_t column,
                               const std::string& problem) {
    std::string msg = source;
    if (line > 0) msg += ":" + std::to_string(line);
    if (column >= 0) msg += ":" + std::to_string(column + 1);
    msg += ": " + problem;
    return msg;
}

}  // namespace

ParseError::ParseError(std::string source, std::int64_t line, const std::string& problem, std::int64_t column)
    : Error(format_parse_error(source, line, column, problem)),
      source_(std::move(source)),
      line_(line),
      column_(column),
      problem_(problem) {}

}  // namespace brec
