#pragma once
// The records of a results file as compact JSON text, for tests that look for fields in them.

#include <string>
#include <vector>

#include "brec/io/results_store.hpp"

namespace brec::testing {

/// Every record of the results file `path` (read by the results store's reader), dumped compactly.
inline std::vector<std::string> result_lines(const std::string& path) {
    std::vector<std::string> out;
    for (const auto& j : read_results(path)) out.push_back(j.dump());
    return out;
}

}  // namespace brec::testing
