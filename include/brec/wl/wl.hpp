#pragma once
// The Weisfeiler-Leman engine: does a method give different results on G and H?
// Both graphs are refined together with one shared integer palette; the colour histograms are
// compared after every round; refinement stops as soon as they differ (distinguished) or when the
// partition of the disjoint union stops refining (not distinguished).
//
// 1-WL and its variants (spd, gd, s3, s4, nk, m1) rank explicit sorted integer signatures: exact.
// k-WL / k-FWL keep the old colour exactly and replace the multiset of the definition by a 64-bit
// sum of mixed random values (src/wl/tuple_wl.cpp): a partition never coarsens, and two different
// multisets inside one colour class merge only on a 64-bit hash collision (probability about
// s^2 / 2^65 per round for a class of s tuples; below 1e-10 on every BREC pair).
// gd: resistance distances are grouped by a relative tolerance of 1e-8 (sorted values, a new group
// at every larger gap) rather than rounded to a grid, so round-off cannot split equal distances.
//
// @inproceedings{morris2019weisfeiler, title={Weisfeiler and Leman Go Neural: Higher-order Graph
//   Neural Networks}, author={Morris, Christopher and others}, booktitle={AAAI}, year={2019}}
// @article{cai1992optimal, title={An optimal lower bound on the number of variables for graph
//   identification}, author={Cai, Jin-Yi and F{\"u}rer, Martin and Immerman, Neil},
//   journal={Combinatorica}, year={1992}}

#include <cstdint>
#include <string>
#include <vector>

#include "brec/core/run_context.hpp"
#include "brec/core/types.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

enum class WlKind {
    wl1,   ///< colour refinement (1-WL)
    kwl,   ///< oblivious k-WL (Morris et al.), k >= 2
    kfwl,  ///< folklore k-FWL, k >= 1
    spd,   ///< 1-WL on the complete graph with shortest-path-distance edge labels
    gd,    ///< as spd with (SPD, resistance distance) labels; connected graphs only
    s3,    ///< 1-WL with per-node counts of connected induced 3-node patterns as initial colours
    s4,    ///< same with 4-node patterns
    nk,    ///< 1-WL with the isomorphism class of the k-hop ego-net as initial colour
    m1,    ///< node marking: multiset over v of 1-WL with v individualised, plus plain 1-WL
    // The tight bounds of the BREC models (what each design can separate at best):
    swl,       ///< the subgraph WL family of Zhang et al. 2023 (SwlClass) and LFWL(2) / SLFWL(2)
    ngnn,      ///< NGNN-WL: 1-WL inside every r-hop ball, pooled per root; DE+NGNN-WL with `hop`
    i2,        ///< I²-WL: 1-WL on r-hop ego-nets with the root and one neighbour marked
    drop1,     ///< 1-WL over every one-node-deleted subgraph (DropGNN's analysis)
    gsn_edge,  ///< 1-WL with edge-orbit counts of connected induced 3- (k = 3) or 3- and 4-vertex patterns on arcs
    kp,        ///< KP-WL: K-hop message passing by shortest-path hop with KP-GNN's peripheral information
    lwl2,      ///< δ-2-LWL (Morris et al. 2020); δ-2-LWL+ with `plus`
    setwl,     ///< (k, c)(≤)-SetWL (Zhao et al. 2022)
};

/// The equivalence classes of subgraph WL tests SWL(A, Pool) (Zhang et al. 2023, Theorem 4.6),
/// weakest first, and the localized folklore tests above them.
enum class SwlClass {
    swl_vs,   ///< local aggregation within a subgraph; vertex-subgraph pooling
    swl_sv,   ///< the same with subgraph-vertex pooling
    pswl_vs,  ///< plus the single-point term χ(v, v); vertex-subgraph pooling
    pswl_sv,  ///< the same with subgraph-vertex pooling
    gswl,     ///< local within, global across subgraphs
    sswl,     ///< local within and local across subgraphs (symmetric)
    lfwl,     ///< LFWL(2): χ(u, v) from {{(χ(u, w), χ(w, v)) : w ∈ N(v)}}
    slfwl,    ///< SLFWL(2): the same over w ∈ N(u) ∪ N(v)
};

struct WlMethod {
    WlKind kind = WlKind::wl1;
    int k = 1;                        ///< for kwl, kfwl, nk; K of kp; k of setwl; pattern size of gsn_edge
    bool mark_root = false;           ///< for nk: mark the root of each ego-net (the reference does not)
    SwlClass swl = SwlClass::swl_vs;  ///< for swl
    /// Subgraph radius of swl, ngnn, i2: every root's subgraph is its r-hop ball; -1 = the whole
    /// graph (r = ∞).
    int radius = -1;
    /// swl: the subgraph is the induced ball (vertices outside it are not in the subgraph) instead
    /// of all vertices with only the ball's edges (ESAN's "ego_nets_plus").
    bool induced = false;
    bool hop = false;   ///< swl, ngnn: the distance to the root is part of the initial colour
    bool plus = false;  ///< lwl2: δ-2-LWL+
    int c = 0;          ///< setwl: at most c connected components per set

    /// Parses "1wl", "2wl", "3wl", "kwl:K", "1fwl", "2fwl", "3fwl", "kfwl:K", "spd", "gd", "s3",
    /// "s4", "n:K", "m1", and the tight bounds: "swl-vs", "swl-sv", "pswl-vs", "pswl-sv", "gswl",
    /// "sswl" (each with an optional ":R" radius, then ":ego" for induced balls and ":hop" for the
    /// distance to the root), "lfwl", "slfwl", "ngnn:R", "de-ngnn:R", "i2:R", "drop1", "gsn-e:3",
    /// "gsn-e:4", "kp:K", "d2lwl", "d2lwl+", "setwl:K:C". Throws InvalidArgument with the list of
    /// valid names.
    static WlMethod parse(const std::string& name);
    std::string name() const;
};

struct WlOptions {
    WlMethod method;
    /// Stop after this many refinement rounds (< 0: until stable). SPD-WL and GD-WL use 10 in the
    /// BREC reference when this is left at its default of -1 and `reference_rounds` is true.
    int max_rounds = -1;
    bool reference_rounds = true;
    /// Use node labels of the graphs as initial colours.
    bool use_node_labels = true;
    /// Threads inside one comparison (k-WL / k-FWL parallelise over tuples).
    int threads = 1;
    /// k-WL / k-FWL: a graph with many automorphisms (3-tuples only) is refined on the orbits of its
    /// automorphism group on tuples, which gives the same result faster (CFI graphs: 50 to 7000
    /// times fewer orbits than triples). false keeps every graph on the plain path (for timings
    /// and cross-checks).
    bool use_automorphisms = true;

    WlOptions() = default;
    explicit WlOptions(WlMethod m) : method(m) {}
    WlOptions& rounds(int r) {
        max_rounds = r;
        return *this;
    }
};

struct WlResult {
    bool distinguished = false;
    int rounds = 0;           ///< refinement rounds performed
    std::size_t colours = 0;  ///< colours in the shared palette at the end
    double seconds = 0.0;
};

/// Runs one WL-family test on the pair (G, H). Complexity: 1-WL O((n+m) log n) per round;
/// k-WL / k-FWL O(n^(k+1)) per round with flat arrays.
/// @param ctx optional: k-WL / k-FWL report each refinement round to it as a progress step and
///        stop with Cancelled soon after it is cancelled (a 3-FWL round on n = 198 takes seconds).
/// @throws InvalidArgument for bad k, Unsupported for gd on disconnected graphs, ResourceLimit
///         when the tuple space would not fit in memory, Cancelled when `ctx` was cancelled.
WlResult compare_pair(const Graph& g, const Graph& h, const WlOptions& options, const RunContext* ctx = nullptr);

/// Stable 1-WL colouring of a single graph from given initial colours (empty = node labels or 1).
/// Colours are dense ids 0..c-1 assigned by sorting signatures (canonical for the graph alone).
std::vector<ColorId> refine_1wl(const Graph& g, const std::vector<ColorId>& initial = {}, int* rounds = nullptr);

/// Are G and H 1-WL-equivalent (joint refinement to stability)?
bool wl1_equivalent(const Graph& g, const Graph& h);

/// Per-pair hardness certificate: the smallest level that distinguishes the pair
/// (values are the Morris k-WL level: 1-WL, 3-WL = 2-FWL, 4-WL = 3-FWL).
enum class Hardness { wl1 = 1, fwl2 = 3, fwl3 = 4, beyond = 5 };
struct HardnessResult {
    Hardness level = Hardness::beyond;
    std::vector<WlResult> steps;  ///< 1-WL, 2-FWL, 3-FWL results as far as run
};
/// Runs 1-WL, 2-FWL (= 3-WL), 3-FWL (= 4-WL) in turn until one distinguishes; `max_fwl` caps it.
/// `threads` parallelise one k-FWL run; `ctx` (optional) gets progress and may cancel, as for
/// compare_pair. Throws Cancelled when `ctx` was cancelled.
HardnessResult certify_hardness(const Graph& g, const Graph& h, int max_fwl = 3, int threads = 1,
                                const RunContext* ctx = nullptr);
std::string hardness_name(Hardness h);  ///< "1-WL", "3-WL (2-FWL)", "4-WL (3-FWL)", "beyond 4-WL"

}  // namespace brec
