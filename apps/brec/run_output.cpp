#include "run_output.hpp"

#include <iostream>

#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec::cli {
namespace {

/// JSON text; a path that is not UTF-8 is written with U+FFFD in its place.
std::string dump_json(const nlohmann::json& j, int indent = -1) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

nlohmann::json read_baseline(const std::string& path) {
    if (path.empty()) return nullptr;
    nlohmann::json baseline = nlohmann::json::parse(read_text_file(path), nullptr, false);
    if (baseline.is_discarded()) throw ParseError(path, 0, "not JSON");
    baseline_regressions(baseline, nlohmann::json{{"categories", nlohmann::json::object()}}, path);
    return baseline;
}

int write_run_outputs(const EvalRunResult& result, const RunOutputArgs& args) {
    const auto& shown = result.runs[result.best_reliable < result.runs.size() ? result.best_reliable : 0];
    if (!args.summary_file.empty()) write_text_file_atomic(args.summary_file, dump_json(result.summary, 1) + "\n");
    if (!args.junit.empty())
        write_text_file_atomic(args.junit, junit_xml(shown.records, args.suite, result.seconds, args.protocol));
    if (args.json) {
        for (const auto& r : shown.records) print_json_line(to_json(r));
        print_json_line(result.summary);
    } else {
        std::cout << evaluation_text(result, args.model, args.pairs, args.fine);
    }
    if (args.baseline_json.is_null()) return 0;
    const auto worse = baseline_regressions(args.baseline_json, result.summary, args.baseline, args.protocol);
    for (const auto& w : worse) std::cerr << "brec: regression against " << args.baseline << ": " << w << '\n';
    return worse.empty() ? 0 : 3;
}

}  // namespace brec::cli
