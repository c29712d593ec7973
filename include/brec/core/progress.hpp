#pragma once
// Progress of long runs on stderr, shared by the command line and the Python package.

#include "brec/core/run_context.hpp"

namespace brec {

/// A progress sink that writes to stderr, throttled: about 10 updates a second as one redrawn line
/// on a terminal, a plain line every 10 s otherwise (a log file, a batch job). A step of unknown
/// count (total 0, e.g. a refinement round inside one pair) is shown after the current task instead
/// of replacing it. Thread-safe.
ProgressSink stderr_progress();

}  // namespace brec
