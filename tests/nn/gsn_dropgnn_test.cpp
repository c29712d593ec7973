// GSN-e and DropGNN: parameter counts worked out by hand at the BREC settings, GSN's edge
// identifiers against the brute-force orbit counts, DropGNN's drops (random, from the run
// generator), and both separating graphs 1-WL cannot before any training.
#include <gtest/gtest.h>

#include "brec/graph/algorithms.hpp"
#include "brec/nn/registry.hpp"
#include "brec/nn/structural_ids.hpp"
#include "count/count_reference.hpp"
#include "nn/model_fixtures.hpp"

namespace brec {
namespace {

ModelConfig brec_config(const std::string& name) { return testing::default_config(name); }

using testing::parameter_count;

// Linear(i, o): i·o + o; BatchNorm1d(f) (affine): 2f; an MLP Linear(i, h)-BN(h)-ReLU-Linear(h, o).
constexpr std::int64_t lin(std::int64_t i, std::int64_t o) { return i * o + o; }
constexpr std::int64_t mlp(std::int64_t i, std::int64_t h, std::int64_t o) { return lin(i, h) + 2 * h + lin(h, o); }

TEST(GsnDropGnn, ParameterCountsAtTheBrecSettings) {
    ASSERT_EQ(nn::gsn_id_width(), 561);  // Σ (cap + 1) over the 12 orbit columns
    // GSN, L4 h64 d16: layer 1 message MLP on [x_v, x_u, id] = 2 + 561 inputs, update MLP on
    // [x, m] = 65; layers 2-4 message and update MLPs on 128; a BatchNorm(64) per layer; readout
    // Linear(1, 16) + 4 Linear(64, 16).
    const std::int64_t gsn =
        mlp(563, 64, 64) + mlp(65, 64, 64) + 128 + 3 * (2 * mlp(128, 64, 64) + 128) + lin(1, 16) + 4 * lin(64, 16);
    EXPECT_EQ(gsn, 128864);
    ModelRandom r1 = make_model_random(1, torch::kCPU);
    EXPECT_EQ(parameter_count(*make_model("gsn", brec_config("gsn"), r1)), gsn);
    // DropGNN, L10 h16 d16: GIN MLP(1 → 16 → 16) then BN(16); 9 × (MLP(16 → 16 → 16) + BN(16));
    // readout Linear(1, 16) + 10 Linear(16, 16).
    const std::int64_t drop = mlp(1, 16, 16) + 32 + 9 * (mlp(16, 16, 16) + 32) + lin(1, 16) + 10 * lin(16, 16);
    EXPECT_EQ(drop, 8592);
    ModelRandom r2 = make_model_random(1, torch::kCPU);
    EXPECT_EQ(parameter_count(*make_model("dropgnn", brec_config("dropgnn"), r2)), drop);
}

/// The counts an arc's slots encode, orbit by orbit.
testing::EdgeOrbitRow decode(const nn::GsnArcs& a, std::size_t arc) {
    testing::EdgeOrbitRow row{};
    std::int64_t offset = 0;
    for (int o = 0; o < kNumEdgeOrbits; ++o) {
        row[o] = static_cast<std::uint32_t>(a.slots[arc * kNumEdgeOrbits + o] - offset);
        offset += nn::gsn_id_caps()[o] + 1;
    }
    return row;
}

TEST(GsnDropGnn, GsnEdgeIdentifiersAreTheBruteForceOrbitCounts) {
    Rng rng(5);
    std::vector<Graph> graphs = {make_complete(4),
                                 make_cycle(4),
                                 make_graph(4, {{0, 1}, {0, 2}, {0, 3}}),          // 3-star
                                 make_graph(4, {{0, 1}, {0, 2}, {1, 2}, {2, 3}}),  // paw
                                 make_petersen(),
                                 testing::random_graph(9, 0.5, rng)};
    for (const Graph& g : graphs) {
        const nn::GsnArcs a = nn::gsn_arcs(g);
        const auto want = testing::reference_edge_orbits(g);
        ASSERT_EQ(a.src.size(), 2 * g.m());
        for (std::size_t k = 0; k < a.src.size(); ++k) {
            ASSERT_TRUE(g.has_edge(static_cast<VertexId>(a.src[k]), static_cast<VertexId>(a.dst[k])));
            const Edge e{static_cast<VertexId>(std::min(a.src[k], a.dst[k])),
                         static_cast<VertexId>(std::max(a.src[k], a.dst[k]))};
            EXPECT_EQ(decode(a, k), want.at(e)) << "arc " << a.src[k] << "->" << a.dst[k];
        }
    }
    // Counts above a column's cap share its last slot: in K12 every edge lies in 10 triangles (cap 9).
    const nn::GsnArcs k12 = nn::gsn_arcs(make_complete(12));
    EXPECT_EQ(decode(k12, 0)[static_cast<int>(EdgeOrbit::triangle)], nn::gsn_id_caps()[1]);
    EXPECT_EQ(decode(k12, 0)[static_cast<int>(EdgeOrbit::clique4)], 21u);  // C(10, 2) = 45 > cap 21
}

ModelConfig small() {
    ModelConfig c;
    c.layers = 3;
    c.hidden = 16;
    c.out_dim = 8;
    return c;
}

torch::Tensor embed(const std::string& name, const std::vector<Graph>& graphs, const ModelConfig& c,
                    std::uint64_t stream = 3) {
    ModelRandom r = make_model_random(stream, torch::kCPU);
    auto m = make_model(name, c, r);
    m->set_graphs(graphs, torch::kCPU);
    m->train();
    m->forward_range(0, graphs.size());
    m->eval();
    torch::NoGradGuard no_grad;
    return m->forward_range(0, graphs.size());
}

TEST(GsnDropGnn, GsnSeparatesTheSixCycleFromTwoTrianglesBeforeTraining) {
    // 1-WL-equivalent (2-regular on 6 vertices); the triangle counts differ.
    const Graph two_triangles = make_graph(6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}});
    const auto out = embed("gsn", {make_cycle(6), two_triangles}, small());
    EXPECT_GT((out[0] - out[1]).abs().max().item<double>(), 1e-3) << out;
}

TEST(GsnDropGnn, DropGnnDrawsFromItsRunGeneratorAndSeparatesWhatGinCannot) {
    const std::vector<Graph> graphs = {make_cycle(6), make_graph(6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}})};
    // Same stream: the same draws, so the same outputs; another stream: other draws.
    const auto a = embed("dropgnn", graphs, small(), 3), b = embed("dropgnn", graphs, small(), 3);
    EXPECT_TRUE(torch::equal(a, b));
    EXPECT_FALSE(torch::equal(a, embed("dropgnn", graphs, small(), 4)));
    // With drops they are told apart (the drops break the symmetry differently in a 6-cycle and in
    // two triangles): the mean over passes differs far beyond the passes' spread.
    ModelRandom r = make_model_random(3, torch::kCPU);
    auto m = make_model("dropgnn", small(), r);
    m->set_graphs(graphs, torch::kCPU);
    m->train();
    m->forward_range(0, 2);
    m->eval();
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> passes;
    for (int i = 0; i < 30; ++i) passes.push_back(m->forward_range(0, 2));
    const auto all = torch::stack(passes).to(torch::kDouble);
    EXPECT_FALSE(torch::equal(passes[0], passes[1]));
    const auto mean = all.mean(0), se = all.std(0) / std::sqrt(30.0);
    const auto z = (mean[0] - mean[1]).abs() / (se[0].pow(2) + se[1].pow(2) + 1e-12).sqrt();
    EXPECT_GT(z.max().item<double>(), 5.0) << mean;
}

}  // namespace
}  // namespace brec
