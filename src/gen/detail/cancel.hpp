#pragma once
// Private: cancellation of long generator loops.

#include "brec/core/error.hpp"
#include "brec/core/run_context.hpp"

namespace brec::detail {

/// Throws when the caller has cancelled the run. Long loops (the geng stream, the searches, the
/// CFI hardness comparisons) call it once per iteration, so that a cancelled run stops promptly
/// and unwinds through the owners of its resources.
inline void check_cancelled(const RunContext& ctx) {
    if (ctx.cancelled()) throw Cancelled("cancelled");
}

}  // namespace brec::detail
