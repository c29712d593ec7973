#pragma once
#include "brec/wl/wl.hpp"

namespace brec::detail {

/// k-WL (folklore = false, k = 2, 3) or k-FWL (folklore = true, k = 1, 2, 3) on the pair.
WlResult run_tuple_wl(const Graph& g, const Graph& h, int k, bool folklore, int max_rounds,
                      bool use_labels, int threads);

}  // namespace brec::detail
