#pragma once
// Helpers shared by the WL test suites (tests/wl): one-call separation checks, small labelled
// graphs, random small pairs, and the BREC v3 pairs of the source tree with relabellings of them.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "brec/core/rng.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/graph/graph.hpp"
#include "brec/io/pairs.hpp"
#include "brec/wl/wl.hpp"
#include "common/test_graphs.hpp"

namespace brec::testing {

/// Does `method` (a WlMethod name) tell g from h, every other option at its default?
inline bool separates(const std::string& method, const Graph& g, const Graph& h) {
    return compare_pair(g, h, WlOptions(WlMethod::parse(method))).distinguished;
}

/// Two disjoint triangles: 2-regular on 6 vertices, 1-WL-equivalent to C6.
inline Graph two_triangles() { return disjoint_union(make_cycle(3), make_cycle(3)); }

/// g's edges with the node labels `labels` (one per vertex).
inline Graph with_labels(const Graph& g, std::vector<Label> labels) {
    GraphBuilder b(g.n());
    for (const auto& [u, v] : g.edges()) b.add_edge(u, v);
    b.set_node_labels(std::move(labels));
    return b.build();
}

/// n labels drawn uniformly from {0, ..., k - 1}, in vertex order.
inline std::vector<Label> random_labels(VertexId n, std::uint64_t k, Rng& rng) {
    std::vector<Label> labels(n);
    for (auto& l : labels) l = static_cast<Label>(rng.below(k));
    return labels;
}

/// Small random pairs of several kinds, chosen by trial % 5, so that both outcomes are frequent:
/// equal-degree regular graphs (often 1-WL-equivalent), G(n, 0.4) pairs, a disjoint union against
/// a connected regular graph, a sparse G(n, sparse_p) graph against a relabelling of itself, and
/// 3-regular graphs with random labels {0, 1}.
inline std::pair<Graph, Graph> random_small_pair(Rng& rng, int trial, double sparse_p) {
    const VertexId n = static_cast<VertexId>(5 + rng.below(5));
    Graph g, h;
    switch (trial % 5) {
        case 0: {
            const std::uint32_t d = (n % 2 == 0) ? 3 : 4;
            g = random_regular(n, d, rng);
            h = random_regular(n, d, rng);
            break;
        }
        case 1:
            g = random_graph(n, 0.4, rng);
            h = random_graph(n, 0.4, rng);
            break;
        case 2:
            g = disjoint_union(random_regular(4, 2, rng), random_regular(6, 3, rng));
            h = random_regular(10, 3, rng);
            break;
        case 3:
            g = random_graph(n, sparse_p, rng);
            h = permute(g, rng.permutation(n));
            break;
        default: {
            g = random_regular(6, 3, rng);
            h = random_regular(6, 3, rng);
            g = with_labels(g, random_labels(6, 2, rng));
            h = with_labels(h, random_labels(6, 2, rng));
        }
    }
    return {g, h};
}

/// What a slow reference refinement of a pair reports: the fields of WlResult it is checked against.
struct ReferenceOutcome {
    bool distinguished = false;
    int rounds = 0;
    std::size_t colours = 0;
};

/// The round loop of a slow reference that refines both graphs of a pair with one shared palette.
/// `colour` holds the two initial colourings (std::maps to colour ids) over `initial_colours`
/// colours; `round(next)` writes the next colourings into next[0] and next[1] from `colour` and
/// returns the number of colours of its palette. Stops once the colour histograms differ, after
/// `max_rounds` rounds (< 0: no limit), or after a round that leaves the number of colours unchanged.
template <typename Colouring, typename Round>
ReferenceOutcome reference_rounds(Colouring (&colour)[2], std::size_t initial_colours, int max_rounds, Round round) {
    const auto histograms_differ = [&] {
        std::map<typename Colouring::mapped_type, long> diff;
        for (const auto& [key, c] : colour[0]) ++diff[c];
        for (const auto& [key, c] : colour[1]) --diff[c];
        return std::any_of(diff.begin(), diff.end(), [](const auto& e) { return e.second != 0; });
    };
    ReferenceOutcome out;
    out.colours = initial_colours;
    out.distinguished = histograms_differ();
    while (!out.distinguished && (max_rounds < 0 || out.rounds < max_rounds)) {
        Colouring next[2];
        const std::size_t colours = round(next);
        ++out.rounds;
        const bool stable = colours == out.colours;
        out.colours = colours;
        colour[0].swap(next[0]);
        colour[1].swap(next[1]);
        out.distinguished = histograms_differ();
        if (stable) break;
    }
    return out;
}

/// Expects the engine's result to match a slow reference's outcome field by field; `what` names
/// the case in the failure messages.
inline void expect_same_outcome(const WlResult& got, const ReferenceOutcome& want, const std::string& what) {
    EXPECT_EQ(got.distinguished, want.distinguished) << what;
    EXPECT_EQ(got.rounds, want.rounds) << what;
    EXPECT_EQ(got.colours, want.colours) << what;
}

/// The BREC v3 pairs of the source tree (datasets/brec/brec_v3_pairs.tsv, 400 pairs).
inline PairDataset read_brec_v3() {
    return read_pair_file(std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv");
}

/// Which graph of a pair a relabelling check takes.
enum class PairSide { a, b };

/// One graph of a BREC pair and a random relabelling of it.
struct BrecRelabelling {
    PairId id = 0;
    Graph graph;
    Graph relabelled;
};

/// The BREC v3 pairs whose id is `offset` modulo `every` and whose graph `side` has at most `max_n`
/// vertices, in file order: that graph and a relabelling of it drawn from `rng`, one pair after the
/// other.
inline std::vector<BrecRelabelling> brec_relabellings(Rng& rng, PairSide side, PairId every, PairId offset,
                                                      VertexId max_n = std::numeric_limits<VertexId>::max()) {
    std::vector<BrecRelabelling> out;
    for (const auto& p : read_brec_v3().pairs) {
        const Graph& g = side == PairSide::a ? p.a : p.b;
        if (p.id % every != offset || g.n() > max_n) continue;
        out.push_back({p.id, g, permute(g, rng.permutation(g.n()))});
    }
    return out;
}

}  // namespace brec::testing
