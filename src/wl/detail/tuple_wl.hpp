#pragma once
#include "brec/core/run_context.hpp"
#include "brec/wl/wl.hpp"

namespace brec::detail {

/// k-WL (folklore = false, k = 2, 3) or k-FWL (folklore = true, k = 1, 2, 3) on the pair. With a
/// context, every round is reported as progress (a step of unknown count) and cancellation is
/// checked between blocks of tuples: Cancelled is thrown within a fraction of a round.
WlResult run_tuple_wl(const Graph& g, const Graph& h, int k, bool folklore, int max_rounds, bool use_labels,
                      int threads, const RunContext* ctx = nullptr);

}  // namespace brec::detail
