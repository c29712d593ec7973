#pragma once
// Structural parameters that define the BREC categories, computed from adjacency alone:
// regularity, strongly regular parameters, the 4-vertex condition, distance-regularity.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {

/// srg(v, k, lambda, mu).
struct SrgParameters {
    std::uint32_t v = 0, k = 0, lambda = 0, mu = 0;
    bool operator==(const SrgParameters& o) const { return v == o.v && k == o.k && lambda == o.lambda && mu == o.mu; }
    std::string str() const;
};

/// The srg parameters if g is strongly regular (regular, not complete or empty, every adjacent pair
/// has lambda and every non-adjacent pair mu common neighbours). Complexity O(n^2 d).
std::optional<SrgParameters> srg_parameters(const Graph& g);

/// The 4-vertex condition: for every pair x != y the number of edges inside N(x) ∩ N(y) depends
/// only on whether x ~ y. Returns (edges for adjacent pairs, edges for non-adjacent pairs); nullopt
/// when the count varies, or when g has no adjacent or no non-adjacent pair. Adjacency is held as
/// bitsets: memory n^2/8 bytes, time O(n^2 c n/64) for common neighbourhoods of size c; stops at
/// the first pair that breaks the condition.
std::optional<std::pair<std::uint32_t, std::uint32_t>> four_vertex_constants(const Graph& g);

/// Intersection array {b_0..b_{d-1}; c_1..c_d} of a connected distance-regular graph.
struct IntersectionArray {
    std::vector<std::uint32_t> b, c;
    bool operator==(const IntersectionArray& o) const { return b == o.b && c == o.c; }
    std::string str() const;
    std::uint32_t diameter() const { return static_cast<std::uint32_t>(c.size()); }
};
/// The intersection array if g is connected and distance-regular. Complexity O(n^2 d).
std::optional<IntersectionArray> intersection_array(const Graph& g);

}  // namespace brec
