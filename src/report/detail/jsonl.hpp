#pragma once
// Reading JSON lines the way every report input is read (private to the report module).

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace brec::detail {

/// Calls `object(j, line)` for every non-blank line of `text`, which must each hold one JSON
/// object. A torn last line (an interrupted run: unparsable and without a final newline) is
/// skipped and noted in `notes`; any other bad line throws ParseError naming `source` and the line.
void for_each_json_line(const std::string& text, const std::string& source, std::vector<std::string>& notes,
                        const std::function<void(const nlohmann::json&, std::int64_t)>& object);

}  // namespace brec::detail
