#include "brec/gen/molecules.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/tu.hpp"
#include "brec/iso/iso.hpp"
#include "common/temp_cleanup.hpp"

namespace brec {
namespace {

bool connected(const Graph& g) {
    const auto d = bfs_distances(g, 0);
    for (auto x : d)
        if (x < 0) return false;
    return true;
}

TEST(MoleculeGraph, ConnectedWithinSizeRingAndLabelBounds) {
    Rng rng(3);
    std::size_t rings = 0, over_valence = 0;
    const std::uint32_t valence[kAtomTypes] = {4, 3, 2, 2, 1};
    for (int t = 0; t < 500; ++t) {
        const Graph g = random_molecule(rng, 10, 40);
        ASSERT_GE(g.n(), 10u);
        ASSERT_LE(g.n(), 40u);
        ASSERT_TRUE(connected(g)) << t;
        ASSERT_TRUE(g.has_node_labels());
        ASSERT_GE(g.m() + 1, g.n());
        ASSERT_LE(g.m() + 1 - g.n(), 3u);  // at most three ring closures
        rings += g.m() + 1 - g.n();
        for (VertexId v = 0; v < g.n(); ++v) {
            ASSERT_GE(g.node_label(v), 0);
            ASSERT_LT(g.node_label(v), kAtomTypes);
            over_valence += g.degree(v) > valence[g.node_label(v)] ? 1 : 0;
        }
    }
    EXPECT_GT(rings, 300u);         // about 1.5 closures asked for per molecule
    EXPECT_LT(over_valence, 100u);  // caps are exceeded only when every earlier atom is saturated
    EXPECT_THROW(random_molecule(rng, 5, 4), InvalidArgument);
}

TEST(MoleculeDataset, DeterministicForAnyThreadCountAndCopiesAreIsomorphic) {
    MoleculeDatasetOptions opt;
    opt.graphs = 600;
    opt.seed = 4;
    opt.min_atoms = 5;
    opt.max_atoms = 12;
    opt.changed_atom_fraction = 0.3;
    opt.flipped_target_fraction = 0.2;
    RunContext one, two;
    two.set_threads(2);
    const MoleculeDataset a = molecule_dataset(opt, one), b = molecule_dataset(opt, two);
    ASSERT_EQ(a.graphs.size(), 600u);
    EXPECT_EQ(a.targets, b.targets);
    EXPECT_EQ(a.molecule, b.molecule);
    for (std::size_t i = 0; i < a.graphs.size(); ++i) ASSERT_EQ(a.graphs[i], b.graphs[i]) << i;
    // A copy has its molecule's topology; with node labels it differs exactly when an atom changed.
    std::size_t copies = 0, label_differs = 0, target_differs = 0;
    const IsoOptions labels = IsoOptions().node_labels(true);
    for (std::size_t i = 0; i < a.graphs.size(); ++i) {
        const std::size_t j = a.molecule[i];
        ASSERT_LE(j, i);
        if (j == i) continue;
        ASSERT_EQ(a.molecule[j], j);  // copies point at a molecule's first graph
        ++copies;
        ASSERT_TRUE(are_isomorphic(a.graphs[i], a.graphs[j])) << i;
        label_differs += are_isomorphic(a.graphs[i], a.graphs[j], labels) ? 0 : 1;
        target_differs += a.targets[i] != a.targets[j] ? 1 : 0;
    }
    EXPECT_EQ(copies, a.copies);
    EXPECT_EQ(label_differs, a.changed_atoms);
    EXPECT_EQ(target_differs, a.flipped_targets);
    EXPECT_NEAR(static_cast<double>(copies), 0.3 * 600, 50);
    EXPECT_GT(a.changed_atoms, 20u);
    EXPECT_GT(a.flipped_targets, 10u);
    // Graph i depends on (seed, i) only: a larger dataset starts with the same graphs.
    opt.graphs = 700;
    const MoleculeDataset c = molecule_dataset(opt, one);
    for (std::size_t i = 0; i < a.graphs.size(); ++i) ASSERT_EQ(a.graphs[i], c.graphs[i]) << i;
}

TEST(MoleculeDataset, WrittenTuDatasetReadsBackUnchanged) {
    const std::string dir = ::testing::TempDir() + "brec_molecules_" + std::to_string(::getpid()) + "/MOL";
    ASSERT_EQ(std::system(("mkdir -p '" + dir.substr(0, dir.size() - 4) + "'").c_str()), 0);
    MoleculeDatasetOptions opt;
    opt.graphs = 120;
    opt.seed = 8;
    RunContext ctx;
    const MoleculeDatasetRun run = generate_molecule_dataset_to_directory(opt, dir, ctx);
    EXPECT_EQ(run.name, "MOL");
    const TuDataset back = read_tu_dataset(dir);
    const MoleculeDataset d = molecule_dataset(opt, ctx);
    ASSERT_EQ(back.graphs.size(), 120u);
    EXPECT_EQ(back.graph_labels, d.targets);
    std::size_t nodes = 0;
    for (std::size_t i = 0; i < d.graphs.size(); ++i) {
        ASSERT_EQ(back.graphs[i], d.graphs[i]) << i;
        nodes += d.graphs[i].n();
    }
    EXPECT_EQ(run.nodes, nodes);
    EXPECT_EQ(molecule_dataset_summary_json(run)["graphs"], 120);
    opt.graphs = 0;
    EXPECT_THROW(generate_molecule_dataset_to_directory(opt, dir + "2", ctx), InvalidArgument);
}

}  // namespace
}  // namespace brec
