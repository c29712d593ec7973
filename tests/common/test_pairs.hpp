#pragma once
// Pair records built in tests from graphs at hand.

#include <string>
#include <utility>

#include "brec/graph/graph.hpp"
#include "brec/io/pairs.hpp"

namespace brec::testing {

/// The pair `id` of `category` with graphs a and b (no source line).
inline GraphPairRecord make_pair_record(PairId id, const std::string& category, Graph a, Graph b) {
    GraphPairRecord r;
    r.id = id;
    r.category = category;
    r.a = std::move(a);
    r.b = std::move(b);
    return r;
}

}  // namespace brec::testing
