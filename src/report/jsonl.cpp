#include "detail/jsonl.hpp"

#include "brec/io/results_store.hpp"

namespace brec::detail {

void for_each_json_line(const std::string& text, const std::string& source, std::vector<std::string>& notes,
                        const std::function<void(const nlohmann::json&, std::int64_t)>& object) {
    // A report may read a file that is still being written: its torn last line is skipped.
    const ResultsScan scan =
        scan_results(text, source, [&](nlohmann::json&& j, std::int64_t line) { object(j, line); });
    if (scan.torn_line > 0)
        notes.push_back(source + ":" + std::to_string(scan.torn_line) +
                        ": torn last line skipped (a run still writing, or interrupted)");
}

}  // namespace brec::detail
