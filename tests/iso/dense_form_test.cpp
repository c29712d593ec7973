// Dense-nauty canonical forms: equal exactly for isomorphic graphs (checked against the sparse
// certificates), on graphs across set-word boundaries and on hard regular graphs.
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

}  // namespace
}  // namespace brec
