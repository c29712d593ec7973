#pragma once
// Isomorphism orbits of a graph dataset and the isomorphism-bias metrics of Ivanov et al.: the
// orbit of G_i is the set of graphs of the dataset isomorphic to it (size 1 = trivial orbit).
// Orbits come from canonical certificates (nauty) grouped by value, never a test on all pairs; a
// cheap invariant first spares the certificate of every graph whose invariant is unique. A
// pairwise baseline is provided for benchmarks and cross-checks.
//
// @article{ivanov2019understanding, title={Understanding Isomorphism Bias in Graph Data Sets},
//   author={Ivanov, Sergei and Sviridov, Sergei and Burnaev, Evgeny},
//   journal={arXiv preprint arXiv:1910.12091}, year={2019}}

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "brec/core/run_context.hpp"
#include "brec/graph/graph.hpp"
#include "brec/iso/iso.hpp"

namespace brec {

/// Which isomorphism the orbits are taken under.
enum class OrbitMode {
    topology,     ///< plain graph isomorphism (labels ignored)
    node_labels,  ///< node labels are vertex colours (label-preserving isomorphism)
    edge_labels,  ///< node and edge labels preserved; labelled edges are subdivided by a vertex
                  ///< coloured with the edge label (sound: see IsoOptions::use_edge_labels)
};
std::string mode_name(OrbitMode mode);  ///< "topology", "node-labels", "edge-labels"
IsoOptions iso_options(OrbitMode mode);
/// Whether a canonical form is taken of the complement: for graphs with more than half of all
/// possible edges (nauty's refinements and search cost grow with the edges; a complete graph becomes
/// an edgeless one). Graphs that share an invariant share n and m, hence this choice, and two graphs
/// are isomorphic iff their complements are (node labels are kept). Not in edge-label mode, whose
/// labels a complement would lose.
bool use_complement(const Graph& g, OrbitMode mode);

/// A partition of the graph indices 0..N-1 into isomorphism classes, orbits numbered by first
/// member. Members are kept as one flat list (4 bytes per graph), not a list per orbit: a dataset
/// of 10^7 graphs has about as many orbits.
struct Orbits {
    std::vector<std::uint32_t> orbit_of;         ///< orbit index of every graph
    std::vector<std::uint32_t> member_list;      ///< graph indices, orbit by orbit, ascending within one
    std::vector<std::uint32_t> member_begin{0};  ///< orbit o is member_list[member_begin[o], member_begin[o + 1])

    std::size_t size() const { return member_begin.size() - 1; }
    /// The sorted members of orbit o.
    Span<const std::uint32_t> members(std::size_t o) const {
        return {member_list.data() + member_begin[o], member_begin[o + 1] - member_begin[o]};
    }
    /// The orbits of a class assignment given by one representative per graph: root[i] is the same
    /// graph for all graphs of a class. Complexity: O(N).
    static Orbits from_roots(const std::vector<std::uint32_t>& root);
};

/// Groups equal keys: graphs with equal certificates share an orbit. Deterministic.
/// Complexity: O(total certificate bytes) expected (hash map).
Orbits orbits_from_certificates(const std::vector<Certificate>& certificates);

/// The orbits: a cheap invariant per graph first (refinement_invariant: n, m, colour refinement),
/// then one canonical certificate (nauty) per graph that shares its invariant with another graph,
/// grouped by certificate within each invariant class. Both steps run in parallel over
/// ctx.threads() (progress task "dedup" counts the certificates); the result never depends on the
/// thread count and equals compute_orbits_all_certificates. Throws ResourceLimit for graphs beyond
/// the isomorphism module's limit (among those that need a certificate), Cancelled when `ctx` is
/// cancelled.
/// Complexity: O(N log N + sum of invariant costs) + one canonical labelling per graph whose
/// invariant is not unique.
Orbits compute_orbits(const std::vector<Graph>& graphs, OrbitMode mode, RunContext& ctx);

/// Reference: one canonical certificate for every graph, then a hash map (for cross-checks and
/// benchmarks). Same threading, progress and errors as compute_orbits, for every graph.
/// Complexity: N canonical labellings + O(total size).
Orbits compute_orbits_all_certificates(const std::vector<Graph>& graphs, OrbitMode mode, RunContext& ctx);

/// Baseline: are_isomorphic on every pair of graphs with equal node and edge counts, merged with
/// union-find (what a pairwise script does). `comparisons` receives the number of tests.
/// Throws Cancelled when `ctx` is cancelled.
/// Complexity: O(sum over (n,m) buckets of b^2) isomorphism tests.
Orbits compute_orbits_pairwise(const std::vector<Graph>& graphs, OrbitMode mode, RunContext& ctx,
                               std::uint64_t* comparisons = nullptr);

/// The bias metrics of a dataset with its orbits (labels may be empty: no label metrics).
struct BiasReport {
    std::size_t graphs = 0;              ///< N
    std::size_t orbits = 0;              ///< all orbits, trivial ones included
    std::size_t trivial_orbits = 0;      ///< orbits of size 1 (graphs with no isomorphic partner)
    std::size_t nontrivial_orbits = 0;   ///< orbits of size >= 2
    std::size_t isomorphic_graphs = 0;   ///< I: graphs in non-trivial orbits
    std::uint64_t isomorphic_pairs = 0;  ///< sum over orbits of s(s-1)/2
    std::uint64_t redundant_graphs = 0;  ///< N - orbits: graphs a deduplication removes
    double i_pct = 0;                    ///< 100 I / N
    double ip_pct = 0;                   ///< 100 isomorphic pairs / (N(N-1)/2)
    bool has_labels = false;
    std::size_t mismatched_graphs = 0;  ///< graphs whose orbit holds more than one target label
    std::size_t mismatched_orbits = 0;
    double mismatched_pct = 0;                          ///< 100 mismatched graphs / N
    std::map<std::size_t, std::size_t> size_histogram;  ///< orbit size -> number of orbits
};
BiasReport bias_report(const Orbits& orbits, const std::vector<Label>& labels);

/// Orbit indices sorted by size (descending), then by first member; at most `k` of them.
std::vector<std::size_t> largest_orbits(const Orbits& orbits, std::size_t k);

/// Target-label counts within an orbit (empty when there are no labels).
std::map<Label, std::size_t> orbit_label_counts(const Orbits& orbits, std::size_t orbit,
                                                const std::vector<Label>& labels);

}  // namespace brec
