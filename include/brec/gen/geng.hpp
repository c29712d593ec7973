#pragma once
// Streaming nauty's `geng` (installed as `nauty-geng` on Debian, `geng` elsewhere): its graph6
// output is read through a pipe, one line at a time, never through a temporary file.
//
// @article{mckay2014practical, title={Practical graph isomorphism, II}, author={McKay, Brendan D.
//   and Piperno, Adolfo}, journal={J. Symbolic Computation}, volume={60}, pages={94--112}, year={2014}}

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "brec/graph/graph.hpp"

namespace brec {

/// The geng executable: $BREC_GENG if set, else the first of `nauty-geng`, `geng` found on PATH.
/// Throws Unsupported("... install the Debian package 'nauty' ...") when none is found.
std::string find_geng();

/// Arguments of one geng run.
struct GengQuery {
    VertexId n = 0;
    bool connected = false;  ///< -c
    int min_degree = -1;     ///< -d (negative: not given)
    int max_degree = -1;     ///< -D
    int res = 0, mod = 1;    ///< the res/mod split: only part res of mod (for parallel streams)
    /// The command line (geng path, flags, -q, n, res/mod).
    std::string command(const std::string& geng) const;
};

/// Runs geng and calls `line` with every graph6 record (without newline); `line` returns false to
/// stop early, and may throw (e.g. when the run is cancelled). Either way geng is stopped and
/// reaped at once, without reading the rest of its output. Returns the number of records read.
/// Throws Unsupported when geng is missing and IoError when it cannot be started or, after a
/// complete read, exits with an error.
std::uint64_t stream_geng(const GengQuery& q, const std::function<bool(std::string_view)>& line);

/// Convenience: all graphs of a (small) query as Graph objects, in geng's order.
std::vector<Graph> geng_graphs(const GengQuery& q);

}  // namespace brec
