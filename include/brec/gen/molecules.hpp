#pragma once
// Molecule-like graph datasets for measuring deduplication at scale: random trees with a valence
// cap per atom type plus a few ring closures (5- and 6-rings where possible), atom-type node
// labels, a binary target, and deliberate isomorphic copies (randomly renumbered, in shuffled
// positions), some with one atom type changed (same topology, other labelled graph) or the target
// flipped (label noise). Graph i draws from stream_seed(seed, i) and its molecule from a stream of
// its own, so a dataset depends only on the options, never on the thread count.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/rng.hpp"
#include "brec/core/run_context.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

struct MoleculeDatasetOptions {
    std::size_t graphs = 1000;
    std::uint64_t seed = 0;
    VertexId min_atoms = 10, max_atoms = 40;
    double copy_fraction = 0.3;             ///< graphs that copy an earlier graph's molecule
    double changed_atom_fraction = 0.1;     ///< copies with one atom type changed
    double flipped_target_fraction = 0.05;  ///< copies with the target flipped
};

/// Atom types (node labels): 0 C, 1 N, 2 O, 3 S, 4 Cl; their valence caps 4, 3, 2, 2, 1.
inline constexpr int kAtomTypes = 5;

/// One molecule-like graph: a random tree on min..max atoms whose degrees respect the valence caps
/// where possible, plus 0-3 ring closures; node labels are atom types. Every draw from `rng`.
/// Throws InvalidArgument unless 1 <= min_atoms <= max_atoms.
Graph random_molecule(Rng& rng, VertexId min_atoms, VertexId max_atoms);

struct MoleculeDataset {
    std::vector<Graph> graphs;
    std::vector<Label> targets;         ///< 0/1 per graph
    std::vector<std::size_t> molecule;  ///< the molecule each graph was drawn from (its first graph)
    std::size_t copies = 0;             ///< graphs that copy an earlier molecule
    std::size_t changed_atoms = 0;      ///< copies with one atom type changed
    std::size_t flipped_targets = 0;    ///< copies with the target flipped
};

/// The dataset (graphs in parallel over ctx.threads()). Throws InvalidArgument for bad options.
MoleculeDataset molecule_dataset(const MoleculeDatasetOptions& opt, RunContext& ctx);

struct MoleculeDatasetRun {
    MoleculeDatasetOptions options;
    std::string dir, name;
    std::size_t nodes = 0, edges = 0, copies = 0, changed_atoms = 0, flipped_targets = 0;
    double seconds = 0;
};

/// Writes molecule_dataset(opt) as the TU dataset DIR/NAME_* (NAME = basename of `dir`; node
/// labels = atom types, graph labels = targets), atomically (see write_tu_dataset).
MoleculeDatasetRun generate_molecule_dataset_to_directory(const MoleculeDatasetOptions& opt, const std::string& dir,
                                                          RunContext& ctx);

nlohmann::json molecule_dataset_summary_json(const MoleculeDatasetRun& run);
std::string format_molecule_dataset_summary(const MoleculeDatasetRun& run);

}  // namespace brec
