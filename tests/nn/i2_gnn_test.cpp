// I²-GNN (nn/models/i2_gnn.cpp) and the subgraphs it runs on (the ego_net_per_neighbour policy of
// nn/subgraphs): its four labels on a small graph worked out by hand (the released code's quirk
// included), the copies, marks, arcs and labels against a brute force on random graphs, invariance
// under relabeling, the parameter count by hand, the regression head, and the memory estimate
// against the tensors it estimates. The registry suite checks determinism, the global generator,
// gradients and invariance of the embedding; training runs are in tests/eval.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/nn/registry.hpp"
#include "brec/nn/subgraphs.hpp"
#include "common/test_graphs.hpp"
#include "nn/cuda_check.hpp"
#include "nn/memory_peak.hpp"
#include "nn/models/builtin.hpp"
#include "nn/models/i2_gnn.hpp"
#include "nn/model_fixtures.hpp"

namespace brec {
namespace {

using Label = std::array<std::int64_t, 4>;
/// (root, marked neighbour or −1, node) → its label, all in the graph's own numbering (one graph).
using LabelMap = std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, Label>;

std::vector<std::int64_t> values(const torch::Tensor& t) {
    const auto c = t.to(torch::kCPU).contiguous();
    return {c.data_ptr<std::int64_t>(), c.data_ptr<std::int64_t>() + c.numel()};
}

nn::SubgraphBatch marked_batch(const std::vector<Graph>& graphs, std::uint32_t radius) {
    return nn::make_subgraph_batch(graphs, 0, graphs.size(), nn::SubgraphPolicy::ego_net_per_neighbour, radius,
                                   torch::kCPU);
}

LabelMap label_map(const Graph& g, std::uint32_t radius) {
    const nn::SubgraphBatch b = marked_batch({g}, radius);
    const auto labels = values(models::i2_gnn_labels(b, radius));
    const auto node = values(b.copy_node), subgraph = values(b.copy_subgraph), mark = values(b.copy_mark),
               mark_distance = values(b.copy_mark_distance);
    std::vector<std::int64_t> neighbour(static_cast<std::size_t>(b.marks), -1);
    for (std::size_t c = 0; c < node.size(); ++c)
        if (mark_distance[c] == 0) neighbour[static_cast<std::size_t>(mark[c])] = node[c];
    LabelMap out;
    for (std::size_t c = 0; c < node.size(); ++c) {
        const auto key = std::make_tuple(subgraph[c], neighbour[static_cast<std::size_t>(mark[c])], node[c]);
        EXPECT_EQ(out.count(key), 0u) << "a node twice in one mark";
        out[key] = {labels[4 * c], labels[4 * c + 1], labels[4 * c + 2], labels[4 * c + 3]};
    }
    return out;
}

TEST(I2GnnLabels, SmallGraphWorkedOutByHand) {
    // A 4-cycle 0-1-2-3-0 with a pendant 4 on 2, and an isolated vertex 5.
    const Graph g = make_graph(6, {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {2, 4}});
    const LabelMap r8 = label_map(g, 8);
    // Root 0, radius 8 (the whole component). From 0: d = 0, 1, 2, 1, 3 for nodes 0..4; node 2 is
    // reached from both 1 and 3, so the quirk sets its second column to d + 1 = 3; node 4 has one
    // parent (2), so 0. Mark u = 1: d_u = 1, 0, 1, 2, 2; node 3 has parents 0 and 2 (q = 3), node 4
    // only 2 (q = 0). Columns 3 and 4 add h + 3 = 11: d_u + 12 and q_u + 11.
    EXPECT_EQ(r8.at({0, 1, 0}), (Label{1, 0, 13, 11}));
    EXPECT_EQ(r8.at({0, 1, 1}), (Label{2, 0, 12, 11}));
    EXPECT_EQ(r8.at({0, 1, 2}), (Label{3, 3, 13, 11}));
    EXPECT_EQ(r8.at({0, 1, 3}), (Label{2, 0, 14, 14}));
    EXPECT_EQ(r8.at({0, 1, 4}), (Label{4, 0, 14, 11}));
    // Mark u = 3 of root 0 mirrors mark 1.
    EXPECT_EQ(r8.at({0, 3, 1}), (Label{2, 0, 14, 14}));
    EXPECT_EQ(r8.at({0, 3, 2}), (Label{3, 3, 13, 11}));
    // Root 4 (a leaf): one mark (u = 2); node 0 is at distance 3 from 4 with parents 1 and 3 (q = 4),
    // and at distance 2 from u with the same two parents (q = 3).
    EXPECT_EQ(r8.at({4, 2, 0}), (Label{4, 4, 14, 14}));
    EXPECT_EQ(r8.at({4, 2, 4}), (Label{1, 0, 13, 11}));
    // The isolated vertex: one unmarked copy labelled with the root's pair twice, without offset.
    EXPECT_EQ(r8.at({5, -1, 5}), (Label{1, 0, 1, 0}));
    // One mark per neighbour (degrees 2, 2, 3, 2, 1) of 5 copies each, and the isolated vertex's one.
    EXPECT_EQ(r8.size(), static_cast<std::size_t>((2 + 2 + 3 + 2 + 1) * 5 + 1));

    // Radius 1, root 2: the ego-net {2, 1, 3, 4} has the edges 2-1, 2-3, 2-4 only. Mark u = 1: node 3
    // is at distance 2 from 1 inside the ego-net through 2 alone (in the whole graph also through 0,
    // which would make q = 3), so q_u = 0; offset h + 3 = 4.
    const LabelMap r1 = label_map(g, 1);
    EXPECT_EQ(r1.at({2, 1, 3}), (Label{2, 0, 7, 4}));
    EXPECT_EQ(r1.at({2, 1, 1}), (Label{2, 0, 5, 4}));
    EXPECT_EQ(r1.at({2, 1, 2}), (Label{1, 0, 6, 4}));
    EXPECT_EQ(r1.count({2, 1, 0}), 0u);
    // Radius 0: no neighbour lies in a root's ego-net, so every root keeps one unmarked copy.
    const LabelMap r0 = label_map(g, 0);
    EXPECT_EQ(r0.size(), 6u);
    EXPECT_EQ(r0.at({2, -1, 2}), (Label{1, 0, 1, 0}));
}

/// The released labelling recomputed by brute force: distances by BFS in the induced ego-net, the
/// second column from the count of neighbours one step closer.
std::pair<std::int64_t, std::int64_t> brute_pair(const Graph& ego, const std::vector<std::int32_t>& d, VertexId w) {
    int parents = 0;
    for (VertexId y : ego.neighbors(w)) parents += d[y] == d[w] - 1;
    return {d[w] + 1, parents >= 2 ? d[w] + 1 : 0};
}

TEST(I2GnnSubgraphs, CountsArcsAndLabelsMatchABruteForceOnRandomGraphs) {
    Rng rng(17);
    for (int trial = 0; trial < 8; ++trial) {
        const Graph g = testing::random_graph(static_cast<VertexId>(6 + trial), 0.15 + 0.07 * trial, rng);
        for (std::uint32_t r : {0u, 1u, 2u, 8u}) {
            std::int64_t copies = 0, marks = 0, arcs = 0;
            LabelMap expected;
            for (VertexId v = 0; v < g.n(); ++v) {
                const auto members = ego_vertices(g, v, r);
                const Graph ego = induced_subgraph(g, members);
                const auto dv = bfs_distances(ego, 0);
                std::vector<VertexId> marked;  // neighbours of v in the ego-net, as ego vertices
                for (VertexId w : ego.neighbors(0)) marked.push_back(w);
                const std::int64_t m = std::max<std::int64_t>(static_cast<std::int64_t>(marked.size()), 1);
                marks += m;
                copies += m * ego.n();
                arcs += m * 2 * static_cast<std::int64_t>(ego.m());
                for (VertexId u : marked) {
                    const auto du = bfs_distances(ego, u);
                    for (VertexId w = 0; w < ego.n(); ++w) {
                        const auto [a, b] = brute_pair(ego, dv, w);
                        const auto [c, d] = brute_pair(ego, du, w);
                        expected[{v, members[u], members[w]}] = {a, b, c + r + 3, d + r + 3};
                    }
                }
                if (marked.empty()) expected[{v, -1, v}] = {1, 0, 1, 0};
            }
            const nn::SubgraphBatch b = marked_batch({g}, r);
            EXPECT_EQ(b.copies, copies);
            EXPECT_EQ(b.marks, marks);
            EXPECT_EQ(b.copy_arcs.src.numel(), arcs);
            const nn::MarkedSubgraphCounts c = nn::count_marked_subgraphs({g}, 0, 1, r);
            EXPECT_EQ(c.copies, copies);
            EXPECT_EQ(c.marks, marks);
            EXPECT_EQ(c.arcs, arcs);
            EXPECT_EQ(c.nodes, g.n());
            EXPECT_EQ(label_map(g, r), expected) << "trial " << trial << " radius " << r;
            // Arcs never leave a mark.
            const auto mark = values(b.copy_mark), src = values(b.copy_arcs.src), dst = values(b.copy_arcs.dst);
            for (std::size_t k = 0; k < src.size(); ++k)
                ASSERT_EQ(mark[static_cast<std::size_t>(src[k])], mark[static_cast<std::size_t>(dst[k])]);
        }
    }
}

TEST(I2GnnSubgraphs, BatchesOffsetGraphsAndPoolMarksIntoRoots) {
    const std::vector<Graph> graphs{make_path(3), make_graph(2, {}), make_cycle(4)};
    const nn::SubgraphBatch b = marked_batch(graphs, 1);
    // Marks: path 1 + 2 + 1, two isolated roots 1 + 1, cycle 4 × 2.
    EXPECT_EQ(b.marks, 14);
    EXPECT_EQ(values(b.mark_subgraph), (std::vector<std::int64_t>{0, 1, 1, 2, 3, 4, 5, 5, 6, 6, 7, 7, 8, 8}));
    EXPECT_EQ(b.by_mark.groups, 14);
    EXPECT_EQ(b.marks_by_subgraph.groups, 9);
    // Copies: path balls 2, 3, 2 (marks 1, 2, 1) = 10, isolated 2, cycle 4 × 2 × 3 = 24.
    EXPECT_EQ(b.copies, 36);
    EXPECT_EQ(values(b.root_copy), (std::vector<std::int64_t>{0, 2, 8, 10, 11, 12, 18, 24, 30}));
    const auto node = values(b.copy_node);
    for (std::int64_t c : values(b.root_copy)) EXPECT_EQ(b.copy_distance[c].item<std::int64_t>(), 0);
    EXPECT_EQ(node[10], 3);
    EXPECT_EQ(node[11], 4);
    EXPECT_EQ(b.copy_mark_distance[10].item<std::int64_t>(), -1);
    // The other policies have no marks.
    EXPECT_EQ(nn::make_subgraph_batch(graphs, 0, 3, nn::SubgraphPolicy::ego_net, 1, torch::kCPU).marks, 0);
}

/// Label rows of one graph, sorted (a relabeling permutes the copies, never the labels).
std::vector<Label> sorted_labels(const Graph& g, std::uint32_t r) {
    std::vector<Label> out;
    for (const auto& [key, label] : label_map(g, r)) out.push_back(label);
    std::sort(out.begin(), out.end());
    return out;
}

ModelConfig brec_config() { return testing::default_config("i2_gnn"); }

TEST(I2Gnn, RelabelingsKeepTheLabelsAndTheEmbedding) {
    Rng rng(4);
    const Graph g = testing::random_graph(9, 0.35, rng);
    const Graph h = permute(g, rng.permutation(9));
    for (std::uint32_t r : {1u, 2u, 8u}) EXPECT_EQ(sorted_labels(g, r), sorted_labels(h, r));
    ModelRandom random = make_model_random(8, torch::kCPU);
    auto model = make_model("i2_gnn", brec_config(), random);
    const std::vector<Graph> batch{g, testing::random_graph(9, 0.35, rng), h, make_cycle(9)};
    model->set_graphs(batch, torch::kCPU);
    model->train();
    model->forward_range(0, 4);
    model->eval();
    torch::NoGradGuard no_grad;
    const auto out = model->forward_range(0, 4);
    EXPECT_TRUE(torch::allclose(out[0], out[2], 1e-4, 1e-5)) << out;
    EXPECT_FALSE(torch::allclose(out[0], out[1], 1e-4, 1e-5)) << out;
}

// Parameters at the BREC settings (h 32, L 5, d 16), by hand: per layer Embedding(50, 32) 1,600,
// GatedGraphConv weight 32·32 = 1,024 and GRUCell 2 · 96·32 + 2 · 96 = 6,336, BatchNorm1d(32) 64:
// 9,024; layers 2-5 add Linear(64, 32) 2,080: 11,104 each, 44,416; pooling MLPs 2 × 2 × 1,056 =
// 4,224; Linear(32, 16) 528; Linear(16, 16) 272; output BN without affine 0.
// 9,024 + 44,416 + 4,224 + 528 + 272 = 58,464 (the released model has 2,080 more in the unused
// Linear of layer 1). Head::regression builds the counting variant: per layer GatedGraphConv and
// GRUCell 7,360 and Embedding(100, 32) 3,200, no BatchNorm: 10,560, layers 2-5 12,640 each; the
// same pooling MLPs 4,224; head Linear(32, 32) 1,056 + Linear(32, 16) 528 + Linear(16, 1) 17:
// 10,560 + 50,560 + 4,224 + 1,601 = 66,945.
TEST(I2Gnn, ParameterCountAtTheBrecSettingsMatchesTheArchitecture) {
    ModelRandom random = make_model_random(1, torch::kCPU);
    EXPECT_EQ(testing::parameter_count(*make_model("i2_gnn", brec_config(), random)), 58464);
    ModelConfig c = brec_config();
    c.head = Head::regression;
    EXPECT_EQ(testing::parameter_count(*make_model("i2_gnn", c, random)), 66945);
}

TEST(I2Gnn, RejectsRadiiOutsideItsLabelRange) {
    ModelRandom random = make_model_random(5, torch::kCPU);
    ModelConfig c = brec_config();
    c.radius = 22;
    EXPECT_NO_THROW(make_model("i2_gnn", c, random));
    c.radius = 23;
    EXPECT_THROW(make_model("i2_gnn", c, random), InvalidArgument);
    c.radius = -1;
    EXPECT_THROW(make_model("i2_gnn", c, random), InvalidArgument);
}

TEST(I2Gnn, SeparatesTheRookGraphFromTheShrikhandeGraphBeforeTraining) {
    // srg(16, 6, 2, 2) twice, 2-FWL-equivalent. With v and u marked, the neighbours of v that are not
    // adjacent to u form a triangle in the rook graph and a path in the Shrikhande graph.
    ModelRandom random = make_model_random(5, torch::kCPU);
    ModelConfig c = brec_config();
    c.radius = 1;
    c.layers = 2;
    const auto model = make_model("i2_gnn", c, random);
    const std::vector<Graph> graphs{testing::rook_4x4(), testing::shrikhande(), testing::rook_4x4(),
                                    testing::shrikhande()};
    model->set_graphs(graphs, torch::kCPU);
    model->train();
    const auto out = model->forward_range(0, 4);
    EXPECT_FALSE(torch::allclose(out[0], out[1], 1e-4, 1e-5)) << out;
    EXPECT_TRUE(torch::allclose(out[0], out[2], 1e-4, 1e-5)) << out;
}

TEST(I2Gnn, RegressionHeadGivesOneValuePerGraphAndLearns) {
    // Triangle counts of small graphs: a few Adam steps on the L1 loss must lower it.
    Rng rng(12);
    std::vector<Graph> graphs;
    std::vector<float> counts;
    for (int i = 0; i < 8; ++i) {
        graphs.push_back(testing::random_graph(7, 0.5, rng));
        int t = 0;
        const Graph& g = graphs.back();
        for (VertexId a = 0; a < g.n(); ++a)
            for (VertexId b = a + 1; b < g.n(); ++b)
                for (VertexId d = b + 1; d < g.n(); ++d) t += g.has_edge(a, b) && g.has_edge(b, d) && g.has_edge(a, d);
        counts.push_back(static_cast<float>(t));
    }
    const auto y = torch::tensor(counts).unsqueeze(1);
    ModelConfig c;
    c.head = Head::regression;
    c.radius = 1;  // the triangle's diameter
    c.layers = 2;
    c.hidden = 16;
    ModelRandom random = make_model_random(3, torch::kCPU);
    auto model = make_model("i2_gnn", c, random);
    model->set_graphs(graphs, torch::kCPU);
    model->train();
    torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-2));
    double first = 0.0, last = 0.0;
    for (int step = 0; step < 30; ++step) {
        opt.zero_grad();
        const auto out = model->forward_range(0, graphs.size());
        ASSERT_EQ(out.sizes(), (std::vector<std::int64_t>{8, 1}));
        const auto loss = (out - y).abs().mean();
        loss.backward();
        if (step == 0) {
            for (const auto& p : model->named_parameters()) {
                ASSERT_TRUE(p.value().grad().defined()) << p.key();
                EXPECT_TRUE(torch::isfinite(p.value().grad()).all().item<bool>()) << p.key();
            }
            first = loss.item<double>();
        }
        last = loss.item<double>();
        opt.step();
    }
    EXPECT_LT(last, 0.5 * first) << first << " -> " << last;
}

TEST(I2Gnn, MemoryEstimateIsTheBytesOfItsTensors) {
    Rng rng(31);
    const std::vector<std::vector<Graph>> lists{
        {make_cycle(6), make_graph(3, {{0, 1}}), testing::shrikhande()},
        {testing::random_graph(12, 0.3, rng), testing::random_graph(10, 0.5, rng)},
        {testing::random_regular(14, 3, rng), make_graph(4, {})}};
    for (int radius : {0, 1, 2, 8}) {
        ModelConfig c = brec_config();
        c.radius = radius;
        for (const auto& graphs : lists) {
            const std::uint64_t real = models::i2_gnn_batch_bytes(graphs, c);
            EXPECT_GT(real, 0u);
            EXPECT_EQ(models::i2_gnn_estimate_bytes(graphs, c), real) << "radius " << radius;
        }
    }
    // Shrikhande at radius 2 (its diameter): 16 roots × 6 marks = 96 marks of 16 copies (1,536), each
    // mark with all 48 edges as 96 arcs (9,216); 16 nodes, 1 graph.
    // 56 C + 24 A + 28 M + 28 N + 12 B + 32 bytes.
    ModelConfig c = brec_config();
    c.radius = 2;
    EXPECT_EQ(models::i2_gnn_estimate_bytes({testing::shrikhande()}, c),
              56u * 1536 + 24u * 9216 + 28u * 96 + 28u * 16 + 12u + 32u);
}

TEST(I2Gnn, TrainingEstimateIsNearTheMeasuredPeakOfATrainingStep) {
    // What `brec eval --max-memory` compares: the estimate of one training batch against the peak
    // of the CPU tensors of a real step (model, prepared batch, forward, backward, Adam), at the BREC
    // settings (radius 8, 5 layers, width 32) on 16-graph batches and at a small configuration;
    // the ratio must lie in [0.9, 1.25] (measured: 1.03 to 1.08).
    Rng rng(12);
    const Graph rook = testing::rook_4x4(), shrikhande = testing::shrikhande();
    const Graph cubic = testing::random_regular(20, 3, rng), sparse = testing::random_graph(16, 0.2, rng);
    std::vector<Graph> strongly_regular, mixed;
    for (int k = 0; k < 8; ++k) {
        strongly_regular.insert(strongly_regular.end(), {rook, shrikhande});
        mixed.insert(mixed.end(), {cubic, sparse});
    }
    ModelConfig small = brec_config();
    small.radius = 2;
    small.layers = 3;
    const ModelEntry& entry = find_model("i2_gnn");
    ASSERT_TRUE(static_cast<bool>(entry.estimate_bytes));
    for (const auto& [c, batch] : std::vector<std::pair<ModelConfig, std::vector<Graph>>>{
             {brec_config(), strongly_regular}, {brec_config(), mixed}, {small, mixed}}) {
        const auto measured = static_cast<double>(testing::measured_training_step("i2_gnn", batch, c));
        const auto estimate = static_cast<double>(entry.estimate_bytes(batch, c));
        EXPECT_GT(estimate / measured, 0.9) << "estimate " << estimate << " measured " << measured;
        EXPECT_LT(estimate / measured, 1.25) << "estimate " << estimate << " measured " << measured;
        std::cout << "radius " << c.radius << " L " << c.layers << ": estimate " << estimate << " B, measured peak "
                  << measured << " B, ratio " << estimate / measured << "\n";
    }
}

TEST(I2Gnn, EmbedsMixedBatchesAndAGraphAloneAsInItsBatch) {
    // Different sizes, a disconnected graph and an edgeless one (unmarked copies only) in one batch.
    Rng rng(6);
    const std::vector<Graph> graphs{make_cycle(6),
                                    disjoint_union(make_cycle(3), make_cycle(3)),
                                    testing::random_graph(9, 0.3, rng),
                                    make_graph(4, {}),
                                    make_path(5),
                                    testing::shrikhande()};
    ModelConfig c = brec_config();
    c.radius = 2;
    c.layers = 2;
    c.hidden = 8;
    c.out_dim = 5;
    ModelRandom random = make_model_random(2, torch::kCPU);
    auto model = make_model("i2_gnn", c, random);
    model->set_graphs(graphs, torch::kCPU);
    model->train();
    const auto all = model->forward_range(0, graphs.size());
    EXPECT_EQ(all.sizes(), (std::vector<std::int64_t>{6, 5}));
    EXPECT_TRUE(torch::isfinite(all).all().item<bool>());
    EXPECT_FALSE(torch::allclose(all[0], all[1], 1e-4, 1e-5)) << all;  // C6 against 2 × C3
    model->eval();
    torch::NoGradGuard no_grad;
    const auto one = model->forward_range(3, 5);
    const auto batch = model->forward_range(0, 6);
    EXPECT_TRUE(torch::allclose(one, batch.slice(0, 3, 5), 1e-4, 1e-5)) << one << batch;
}

TEST(I2Gnn, CudaGivesTheCpuEmbeddingsAndGradients) {
    const auto device = testing::cuda_check_device();
    if (!device) GTEST_SKIP() << testing::kNoCudaDevice;
    Rng rng(7);
    const std::vector<Graph> graphs{make_cycle(6), testing::random_graph(9, 0.3, rng), make_graph(4, {}),
                                    testing::shrikhande()};
    ModelConfig c = brec_config();
    c.radius = 2;
    c.layers = 2;
    c.hidden = 8;
    testing::expect_cuda_matches_cpu("i2_gnn", c, graphs, *device);
}

}  // namespace
}  // namespace brec
