#pragma once
// The orbit-size histogram of `brec dedup` as SVG: how many isomorphism orbits a dataset has of
// each size (size 1 = a graph with no isomorphic partner). It takes plain counts, so the report
// module does not depend on the module that computes the orbits.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace brec {

/// A self-contained SVG bar chart of (orbit size, number of orbits) pairs, one bar per size in
/// increasing order (trivial orbits in blue, the others in red), with a log scale when the counts
/// span more than two decades. Throws InvalidArgument for a size 0 or a size given twice.
/// Complexity: O(s log s) for s sizes.
std::string orbit_histogram_svg(std::vector<std::pair<std::size_t, std::size_t>> orbits_per_size,
                                const std::string& title);

}  // namespace brec
