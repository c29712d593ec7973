#include "run_output.hpp"

#include <iostream>

#include "common.hpp"
#include "brec/core/error.hpp"

namespace brec::cli {

int write_run_outputs(const EvalRunResult& result, const RunOutputArgs& args) {
    const auto& shown = shown_run(result);
    write_run_files(result, args.summary_file, args.junit, args.suite, args.protocol);
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
