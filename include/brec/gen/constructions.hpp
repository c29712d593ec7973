#pragma once
// Explicit algebraic and combinatorial constructions behind the BREC "regular" families:
// strongly regular graphs (rook/Shrikhande, T(8)/Chang, Latin-square graphs, Paley graphs, block
// graphs of Steiner triple systems), switchings that preserve the spectrum (Seidel, Godsil-McKay),
// the symplectic graph Sp(6,2), and distance-regular graphs (generalized hexagon GH(2,2) and its
// dual, incidence graphs of symmetric designs, Taylor graphs, Hamming vs Doob).
// Everything is computed here; nothing is downloaded. The counts each recipe reaches are checked by
// the tests (tests/gen/constructions_test.cpp).
//
// @article{godsil1982constructing, title={Constructing cospectral graphs}, author={Godsil, C. D.
//   and McKay, B. D.}, journal={Aequationes Mathematicae}, volume={25}, pages={257--268}, year={1982}}
// @article{stinson1985hill, title={Hill-climbing algorithms for the construction of combinatorial
//   designs}, author={Stinson, D. R.}, journal={Annals of Discrete Mathematics}, volume={26},
//   pages={321--334}, year={1985}}
// @book{brouwer1989distance, title={Distance-Regular Graphs}, author={Brouwer, A. E. and Cohen,
//   A. M. and Neumaier, A.}, publisher={Springer}, year={1989}}

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "brec/core/rng.hpp"
#include "brec/core/run_context.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

/// Blocks of a design on points 0..v-1 (each block sorted).
using BlockList = std::vector<std::vector<VertexId>>;
/// A Latin square as rows of symbols 0..n-1.
using LatinSquare = std::vector<std::vector<int>>;

// ----- small building blocks -------------------------------------------------------------------

/// Cartesian product G □ H: (g,h) ~ (g',h') iff (g=g' and h~h') or (h=h' and g~g').
/// Vertex (g,h) gets id g * H.n() + h. Complexity O(|G||H| + |E|).
Graph cartesian_product(const Graph& g, const Graph& h);
/// Adds one vertex (id n) adjacent to every vertex (the BREC "virtual node").
Graph add_universal_vertex(const Graph& g);
/// Seidel switching with respect to `subset`: edges and non-edges between the subset and its
/// complement are exchanged.
Graph seidel_switch(const Graph& g, const std::vector<VertexId>& subset);
/// Graph from an LCF notation [shifts]^repeat on n = shifts.size() * repeat vertices.
Graph lcf_graph(const std::vector<int>& shifts, int repeat);

// ----- strongly regular graphs -----------------------------------------------------------------

/// The m×m rook's graph K_m □ K_m (L2(m)); m = 4 gives srg(16,6,2,2).
Graph rook_graph(VertexId m);
/// The Shrikhande graph Cayley(Z4×Z4, {±(0,1), ±(1,0), ±(1,1)}), srg(16,6,2,2).
Graph shrikhande_graph();
/// The triangular graph T(m) = line graph of K_m; m = 8 gives srg(28,12,6,4).
Graph triangular_graph(VertexId m);
/// The three Chang graphs: T(8) Seidel-switched with respect to the K8-edges of 4K2, C8 and
/// C3 ∪ C5. All srg(28,12,6,4), pairwise non-isomorphic and not isomorphic to T(8).
std::vector<Graph> chang_graphs();
/// Latin-square graph of an n×n Latin square: cells adjacent if they share a row, a column or a
/// symbol; srg(n², 3(n-1), n, 6).
Graph latin_square_graph(const LatinSquare& square);
/// Visits every reduced Latin square of order n (first row and column 0..n-1) by backtracking;
/// the visitor returns false to stop. n = 5: 56 squares, n = 6: 9408. Complexity: the count.
void for_each_reduced_latin_square(int n, const std::function<bool(const LatinSquare&)>& visit);
/// Paley graph of order q ≡ 1 (mod 4), for q prime or q = p² with p an odd prime. Throws
/// InvalidArgument for other q.
Graph paley_graph(std::uint32_t q);
/// A Steiner triple system STS(v) (v ≡ 1, 3 mod 6) by Stinson's hill-climbing; nullopt when
/// `max_steps` steps did not complete it.
std::optional<BlockList> steiner_triple_system(VertexId v, Rng& rng, std::size_t max_steps = 1000000);
/// PG(3,2) as an STS(15): points are the nonzero vectors of GF(2)^4, lines {a, b, a^b}.
BlockList projective_space_pg32_triples();
/// Block graph of a design: blocks adjacent iff they meet in exactly `meet` points.
Graph block_graph(const BlockList& blocks, std::uint32_t meet = 1);

/// The Godsil-McKay switching sets of size 4: C inducing a regular subgraph such that every vertex
/// outside C has 0, 2 or 4 neighbours in C. Sorted lexicographically. Complexity O(n^4 n/64).
std::vector<std::array<VertexId, 4>> gm4_sets(const Graph& g);
/// GM switching on a 4-set: every outside vertex with exactly 2 neighbours in C has its adjacency to
/// C complemented. Preserves the spectrum (hence srg parameters).
Graph gm4_switch(const Graph& g, const std::array<VertexId, 4>& c);

/// Results of the two-graph closure of srg(25,12,5,6) and srg(26,10,3,4).
struct TwoGraphClosure {
    std::vector<Graph> srg25;  ///< pairwise non-isomorphic srg(25,12,5,6), sorted by certificate
    std::vector<Graph> srg26;  ///< pairwise non-isomorphic srg(26,10,3,4), sorted by certificate
};
/// Closure of the seeds (Paley(25), the non-cyclic LS(5) graph, the complement of an STS(13)
/// block graph) under descendants of 26-point graphs, regular members of the switching class of
/// G + isolated vertex, and GM4 switching. Reaches all 15 srg(25,12,5,6) and all 10 srg(26,10,3,4).
/// Deterministic (the STS(13) seed comes from a fixed internal stream); parallel over the graphs of
/// one BFS level with ctx.threads(). Complexity: seconds.
TwoGraphClosure two_graph_closure(RunContext& ctx);

/// The symplectic graph Sp(2m,2): nonzero vectors of GF(2)^(2m), x ~ y iff the symplectic form
/// vanishes. m = 3: srg(63,30,13,15) with the 4-vertex condition.
Graph symplectic_graph(int m = 3);

// ----- distance-regular graphs -----------------------------------------------------------------

/// The Tutte 12-cage (126 vertices, cubic, girth 12) from its LCF notation.
Graph tutte_12_cage();
/// GH(2,2) and its dual: the distance-2 graphs on the two colour classes of the Tutte 12-cage;
/// both distance-regular {6,4,4;1,1,3} on 63 vertices and not isomorphic.
std::pair<Graph, Graph> generalized_hexagon_pair();
/// A symmetric 2-(v,k,λ) design by randomized depth-first search (block 0 = {0..k-1}, branching on
/// the point with fewest candidate blocks); nullopt when `node_limit` search nodes did not suffice.
/// Needs v <= 32.
std::optional<BlockList> random_symmetric_design(VertexId v, VertexId k, VertexId lambda, Rng& rng,
                                                 std::size_t node_limit = 200000);
/// The development of a difference set D mod v: blocks D + i.
BlockList cyclic_design(const std::vector<VertexId>& difference_set, VertexId v);
/// Complementary design: every block replaced by its complement in 0..v-1.
BlockList complement_design(const BlockList& blocks, VertexId v);
/// Point-block incidence graph: points 0..v-1, blocks v..v+b-1.
Graph incidence_graph(const BlockList& blocks, VertexId v);
/// Taylor graph (antipodal double cover) of a graph G on n vertices: (x,s) with s in {0,1},
/// (x,s) ~ (y,t) iff (s = t and x ~ y) or (s != t and x !~ y, x != y). Regular two-graphs give
/// distance-regular graphs of diameter 3.
Graph taylor_double_cover(const Graph& g);
/// The Hamming graph H(d,q) = K_q □ ... □ K_q.
Graph hamming_graph(int d, VertexId q);
/// The Doob-type graph Shrikhande □ K4, distance-regular like H(3,4) but not isomorphic to it.
Graph shrikhande_times_k4();

}  // namespace brec
