// Dense-nauty canonical forms and compact (coloured) forms: equal exactly for isomorphic graphs
// (checked against the sparse certificates), on graphs across set-word boundaries, with node and
// edge labels, and on hard regular graphs.
#include <gtest/gtest.h>

#include "brec/core/rng.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/iso/iso.hpp"
#include "common/test_graphs.hpp"

namespace brec {
namespace {

std::string form_of(const Graph& g) {
    DenseCanoniser c;
    std::string out;
    c.append_form(dense_rows(g), out);
    return out;
}

Graph shuffled(const Graph& g, Rng& rng) {
    const auto perm = rng.permutation(g.n());
    return permute(g, Permutation(perm.begin(), perm.end()));
}

TEST(DenseForm, EqualForRelabellingsAndAgreesWithCertificates) {
    Rng rng(17);
    DenseCanoniser canoniser;  // one object for all graphs: buffers are reused
    for (VertexId n : {2u, 3u, 7u, 9u, 40u, 63u, 64u, 65u, 130u}) {
        std::vector<Graph> graphs;
        for (int k = 0; k < 6; ++k) graphs.push_back(testing::random_graph(n, n < 10 ? 0.5 : 0.1, rng));
        graphs.push_back(shuffled(graphs[0], rng));
        graphs.push_back(shuffled(graphs[3], rng));
        std::vector<std::string> forms;
        for (const Graph& g : graphs) {
            forms.emplace_back();
            canoniser.append_form(dense_rows(g), forms.back());
        }
        for (std::size_t i = 0; i < graphs.size(); ++i)
            for (std::size_t j = 0; j < graphs.size(); ++j)
                ASSERT_EQ(forms[i] == forms[j], canonical_certificate(graphs[i]) == canonical_certificate(graphs[j]))
                    << n << " " << i << " " << j;
        EXPECT_EQ(forms[6], forms[0]);
        EXPECT_EQ(forms[7], forms[3]);
        // 'd', one byte of n, the upper triangle packed 8 bits to a byte.
        EXPECT_EQ(forms[0].size(), 2 + (static_cast<std::size_t>(n) * (n - 1) / 2 + 7) / 8);
    }
}

TEST(DenseForm, SeparatesHardRegularGraphs) {
    // The 4x4 rook's graph and the Shrikhande graph: strongly regular with the same parameters.
    Rng rng(2);
    const Graph rook = testing::rook_4x4(), shri = testing::shrikhande();
    EXPECT_NE(form_of(rook), form_of(shri));
    EXPECT_EQ(form_of(rook), form_of(shuffled(rook, rng)));
    EXPECT_EQ(form_of(shri), form_of(shuffled(shri, rng)));
}

TEST(DenseForm, TinyAndLargeSizes) {
    EXPECT_EQ(form_of(Graph()), std::string("d") + '\0');
    EXPECT_EQ(form_of(make_graph(1, {})), std::string("d") + '\1');
    // K2 and its complement differ in the single bit of the triangle.
    EXPECT_NE(form_of(make_graph(2, {{0, 1}})), form_of(make_graph(2, {})));
    // n >= 255 takes the long size field.
    const Graph big = make_graph(300, {{0, 299}});
    const std::string f = form_of(big);
    EXPECT_EQ(static_cast<unsigned char>(f[1]), 255u);
    Rng rng(4);
    EXPECT_EQ(form_of(shuffled(big, rng)), f);
}

/// g with random node labels from {0..k-1} (k > 0) and edge labels from {0..e-1} (e > 0).
Graph with_random_labels(const Graph& g, int k, int e, Rng& rng) {
    GraphBuilder b(g.n());
    for (const auto& [u, v] : g.edges())
        b.add_edge(u, v, e > 1 ? static_cast<Label>(rng.below(static_cast<std::uint64_t>(e))) : 0);
    std::vector<Label> labels(g.n());
    for (auto& x : labels) x = k > 1 ? static_cast<Label>(rng.below(static_cast<std::uint64_t>(k))) - 1 : 0;  // -1 too
    b.set_node_labels(labels);
    return b.build();
}

std::string compact_of(const Graph& g, const IsoOptions& opt) {
    std::string out;
    append_compact_form(g, opt, out);
    return out;
}

TEST(CompactForm, AgreesWithCertificatesUnderEveryLabelMode) {
    Rng rng(23);
    const IsoOptions modes[] = {IsoOptions(), IsoOptions().node_labels(true),
                                IsoOptions().node_labels(true).edge_labels(true)};
    for (VertexId n : {1u, 2u, 5u, 8u, 12u, 30u, 70u}) {
        for (double p : {0.15, 0.6}) {
            // Few labels and a small graph make many isomorphic pairs among unrelated graphs.
            std::vector<Graph> graphs;
            for (int k = 0; k < 8; ++k)
                graphs.push_back(with_random_labels(testing::random_graph(n, p, rng), 2, 2, rng));
            for (int k = 0; k < 4; ++k) graphs.push_back(shuffled(graphs[static_cast<std::size_t>(k)], rng));
            for (const IsoOptions& opt : modes) {
                std::vector<std::string> forms;
                std::vector<Certificate> certs;
                for (const Graph& g : graphs) {
                    forms.push_back(compact_of(g, opt));
                    certs.push_back(canonical_certificate(g, opt));
                }
                for (std::size_t i = 0; i < graphs.size(); ++i)
                    for (std::size_t j = 0; j < graphs.size(); ++j)
                        ASSERT_EQ(forms[i] == forms[j], certs[i] == certs[j]) << n << " " << p << " " << i << " " << j;
                for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(forms[8 + k], forms[k]);
            }
        }
    }
}

TEST(CompactForm, LabelsMatterOnlyWhenAsked) {
    const Graph path = make_graph(3, {{0, 1}, {1, 2}});
    GraphBuilder end_b(3), mid_b(3);
    for (auto* b : {&end_b, &mid_b}) {
        b->add_edge(0, 1, 0);
        b->add_edge(1, 2, 5);
    }
    end_b.set_node_labels({7, 0, 0});  // the labelled vertex at an end of the path
    mid_b.set_node_labels({0, 7, 0});  // in the middle
    const Graph end = end_b.build(), mid = mid_b.build();
    const IsoOptions topo, nodes = IsoOptions().node_labels(true),
                           edges = IsoOptions().node_labels(true).edge_labels(true);
    EXPECT_EQ(compact_of(end, topo), compact_of(path, topo));
    EXPECT_EQ(compact_of(mid, topo), compact_of(path, topo));
    EXPECT_NE(compact_of(end, nodes), compact_of(mid, nodes));
    // Edge label 5 sits next to the labelled end vertex in `end` only after relabelling: compare
    // a graph with the labels of its two edges swapped.
    GraphBuilder swapped_b(3);
    swapped_b.add_edge(0, 1, 5);
    swapped_b.add_edge(1, 2, 0);
    swapped_b.set_node_labels({7, 0, 0});
    const Graph swapped = swapped_b.build();
    EXPECT_EQ(compact_of(end, nodes), compact_of(swapped, nodes));
    EXPECT_NE(compact_of(end, edges), compact_of(swapped, edges));
}

TEST(CompactForm, NearTheGraph6SizeOfSparseAndDenseGraphs) {
    Rng rng(5);
    // graph6: 1 byte of n (below 63) plus ceil(n(n-1)/2 / 6) bytes; the form adds its header and
    // one colour run.
    for (VertexId n : {20u, 40u, 60u}) {
        const Graph dense = testing::random_graph(n, 0.5, rng);
        const std::size_t g6 = 1 + (static_cast<std::size_t>(n) * (n - 1) / 2 + 5) / 6;
        EXPECT_LE(compact_of(dense, {}).size(), g6 + 8) << n;
    }
    // A long cycle: lists (about one byte per vertex) instead of the n^2/16-byte triangle.
    std::vector<std::pair<VertexId, VertexId>> cycle;
    for (VertexId v = 0; v < 1000; ++v) cycle.emplace_back(v, (v + 1) % 1000);
    const std::string f = compact_of(make_graph(1000, cycle), {});
    EXPECT_LT(f.size(), 2100u);
    EXPECT_GT(f.size(), 1000u);
}

}  // namespace
}  // namespace brec
