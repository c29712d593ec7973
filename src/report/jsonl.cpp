#include "detail/jsonl.hpp"

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/io/files.hpp"

namespace brec::detail {

void for_each_json_line(const std::string& text, const std::string& source, std::vector<std::string>& notes,
                        const std::function<void(const nlohmann::json&, std::int64_t)>& object) {
    const auto lines = split_lines(text);
    std::size_t last = lines.size();
    while (last > 0 && trim(lines[last - 1]).empty()) --last;
    for (std::size_t i = 0; i < last; ++i) {
        const std::string line = trim(lines[i]);
        const auto no = static_cast<std::int64_t>(i) + 1;
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            if (i + 1 == last && !text.empty() && text.back() != '\n') {
                notes.push_back(source + ":" + std::to_string(no) + ": torn last line skipped (interrupted run?)");
                continue;
            }
            throw ParseError(source, no, "expected one JSON object per line");
        }
        object(j, no);
    }
}

}  // namespace brec::detail
