#include "brec/gen/molecules.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/text.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/tu.hpp"

namespace brec {
namespace {

constexpr std::uint32_t kValence[kAtomTypes] = {4, 3, 2, 2, 1};
// Cumulative atom-type frequencies in thousandths: C 72 %, N 12 %, O 10 %, S 3 %, Cl 3 %.
constexpr std::uint32_t kCumulative[kAtomTypes] = {720, 840, 940, 970, 1000};
// Molecules draw from streams of their own, apart from the graphs' streams.
constexpr std::uint64_t kMoleculeStreams = 0x6d6f6c6563756c65ULL;

Label draw_atom(Rng& rng) {
    const auto x = static_cast<std::uint32_t>(rng.below(1000));
    Label t = 0;
    while (x >= kCumulative[t]) ++t;
    return t;
}

/// Graph `g` with its node labels replaced.
Graph relabelled_atoms(const Graph& g, std::vector<Label> labels) {
    GraphBuilder b(g.n());
    for (const auto& [u, v] : g.edges()) b.add_edge(u, v);
    b.set_node_labels(std::move(labels));
    return b.build();
}

/// The target of a molecule: parity of (rings + nitrogen atoms).
Label molecule_target(const Graph& g) {
    std::size_t nitrogen = 0;
    for (VertexId v = 0; v < g.n(); ++v) nitrogen += g.node_label(v) == 1 ? 1 : 0;
    const std::size_t rings = g.m() + 1 - g.n();  // molecules are connected
    return static_cast<Label>((rings + nitrogen) % 2);
}

}  // namespace

Graph random_molecule(Rng& rng, VertexId min_atoms, VertexId max_atoms) {
    if (min_atoms < 1 || min_atoms > max_atoms)
        throw InvalidArgument("molecule sizes need 1 <= min <= max atoms, got " + std::to_string(min_atoms) + ".." +
                              std::to_string(max_atoms));
    const auto n = static_cast<VertexId>(min_atoms + rng.below(max_atoms - min_atoms + 1));
    std::vector<Label> atom(n);
    std::vector<std::vector<VertexId>> adj(n);
    auto spare = [&](VertexId v) { return adj[v].size() < kValence[atom[v]]; };
    atom[0] = 0;
    for (VertexId v = 1; v < n; ++v) {
        atom[v] = draw_atom(rng);
        // A parent with a free valence, by rejection; any earlier atom when all are saturated.
        VertexId u = static_cast<VertexId>(rng.below(v));
        for (int tries = 0; tries < 32 && !spare(u); ++tries) u = static_cast<VertexId>(rng.below(v));
        adj[u].push_back(v);
        adj[v].push_back(u);
    }
    // Ring closures: from a random atom with a free valence to one 4 or 5 bonds away (a 5- or
    // 6-ring), also with a free valence.
    const auto rings = static_cast<int>(rng.below(4));
    std::vector<std::int32_t> dist(n);
    std::vector<VertexId> queue, far;
    for (int r = 0; r < rings; ++r) {
        const auto s = static_cast<VertexId>(rng.below(n));
        if (!spare(s)) continue;
        std::fill(dist.begin(), dist.end(), -1);
        queue.assign(1, s);
        dist[s] = 0;
        far.clear();
        for (std::size_t q = 0; q < queue.size(); ++q) {
            const VertexId x = queue[q];
            if ((dist[x] == 4 || dist[x] == 5) && spare(x)) far.push_back(x);
            if (dist[x] == 5) continue;
            for (VertexId y : adj[x])
                if (dist[y] < 0) {
                    dist[y] = dist[x] + 1;
                    queue.push_back(y);
                }
        }
        if (far.empty()) continue;
        const VertexId t = far[rng.below(far.size())];
        adj[s].push_back(t);
        adj[t].push_back(s);
    }
    GraphBuilder b(n);
    for (VertexId v = 0; v < n; ++v)
        for (VertexId w : adj[v])
            if (v < w) b.add_edge(v, w);
    b.set_node_labels(std::move(atom));
    return b.build();
}

MoleculeDataset molecule_dataset(const MoleculeDatasetOptions& opt, RunContext& ctx) {
    for (double p : {opt.copy_fraction, opt.changed_atom_fraction, opt.flipped_target_fraction})
        if (!(p >= 0.0 && p <= 1.0)) throw InvalidArgument("molecule dataset fractions must lie in [0, 1]");
    if (opt.min_atoms < 1 || opt.min_atoms > opt.max_atoms)
        throw InvalidArgument("molecule sizes need 1 <= min <= max atoms");
    const std::size_t n = opt.graphs;
    MoleculeDataset d;
    d.graphs.resize(n);
    d.targets.resize(n);
    d.molecule.resize(n);
    // Which graphs are copies, and of which molecule: the first draw of each graph's stream.
    std::vector<std::uint8_t> copy(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        Rng rng(stream_seed(opt.seed, i));
        d.molecule[i] = i;
        if (i > 0 && rng.bernoulli(opt.copy_fraction)) {
            d.molecule[i] = d.molecule[rng.below(i)];
            copy[i] = 1;
        }
    }
    std::vector<std::uint8_t> changed(n, 0), flipped(n, 0);
    constexpr std::size_t kChunk = 256;
    parallel_for((n + kChunk - 1) / kChunk, ctx.threads(), [&](std::size_t c) {
        ctx.throw_if_cancelled();
        for (std::size_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
            Rng mol_rng(stream_seed(opt.seed ^ kMoleculeStreams, d.molecule[i]));
            Graph g = random_molecule(mol_rng, opt.min_atoms, opt.max_atoms);
            Label target = molecule_target(g);
            if (copy[i]) {
                Rng rng(stream_seed(opt.seed, i));
                rng.bernoulli(opt.copy_fraction);  // the draws of the first pass
                rng.below(i);
                g = permute(g, rng.permutation(g.n()));
                if (rng.bernoulli(opt.changed_atom_fraction)) {
                    std::vector<Label> labels = g.node_labels();
                    const auto v = static_cast<VertexId>(rng.below(g.n()));
                    labels[v] = static_cast<Label>((labels[v] + 1 + rng.below(kAtomTypes - 1)) % kAtomTypes);
                    g = relabelled_atoms(g, std::move(labels));
                    changed[i] = 1;
                }
                if (rng.bernoulli(opt.flipped_target_fraction)) {
                    target = 1 - target;
                    flipped[i] = 1;
                }
            }
            d.graphs[i] = std::move(g);
            d.targets[i] = target;
        }
    });
    for (std::size_t i = 0; i < n; ++i) {
        d.copies += copy[i];
        d.changed_atoms += changed[i];
        d.flipped_targets += flipped[i];
    }
    return d;
}

MoleculeDatasetRun generate_molecule_dataset_to_directory(const MoleculeDatasetOptions& opt, const std::string& dir,
                                                          RunContext& ctx) {
    const auto t0 = std::chrono::steady_clock::now();
    if (opt.graphs == 0) throw InvalidArgument("a molecule dataset needs at least one graph");
    MoleculeDatasetRun run;
    run.options = opt;
    run.dir = dir;
    std::string trimmed = dir;
    while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
    run.name = trimmed.substr(trimmed.find_last_of('/') == std::string::npos ? 0 : trimmed.find_last_of('/') + 1);
    MoleculeDataset d = molecule_dataset(opt, ctx);
    for (const Graph& g : d.graphs) {
        run.nodes += g.n();
        run.edges += g.m();
    }
    run.copies = d.copies;
    run.changed_atoms = d.changed_atoms;
    run.flipped_targets = d.flipped_targets;
    ctx.throw_if_cancelled();
    write_tu_dataset(trimmed, run.name, d.graphs, d.targets);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return run;
}

nlohmann::json molecule_dataset_summary_json(const MoleculeDatasetRun& run) {
    return {{"command", "generate"},
            {"kind", "molecules"},
            {"dir", run.dir},
            {"name", run.name},
            {"seed", run.options.seed},
            {"graphs", run.options.graphs},
            {"atoms", {run.options.min_atoms, run.options.max_atoms}},
            {"nodes", run.nodes},
            {"edges", run.edges},
            {"copies", run.copies},
            {"changed_atoms", run.changed_atoms},
            {"flipped_targets", run.flipped_targets},
            {"seconds", run.seconds}};
}

std::string format_molecule_dataset_summary(const MoleculeDatasetRun& run) {
    std::ostringstream out;
    out << "molecule-like TU dataset " << run.name << " written to " << run.dir << " (seed " << run.options.seed
        << "): " << run.options.graphs << " graphs, " << run.nodes << " nodes, " << run.edges << " edges; "
        << run.copies << " copies of earlier molecules (" << run.changed_atoms << " with one atom type changed, "
        << run.flipped_targets << " with the target flipped); " << format_seconds(run.seconds) << "\n";
    return out.str();
}

}  // namespace brec
