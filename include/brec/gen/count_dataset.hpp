#pragma once
// The synthetic datasets of the subgraph-counting experiments (Campi et al.), labelled with exact
// counts: SBM graphs (30 vertices in 3 blocks of 10, edge probability 0.2/0.3/0.4 inside the
// blocks and 0.1 between them; about 70.5 edges on average) and Erdős–Rényi graphs G(10, 0.4) (in
// distribution) and G(10, 0.8) (out of distribution), 5,000 graphs each, split 30/20/50 into
// train/validation/test as the original code does (the original's data use p = 0.4 where the paper
// says 0.3). Graph i is drawn from its own stream stream_seed(seed, i), and the split from one more
// stream, so a dataset depends only on (kind, seed, size), never on the thread count.
//
// @inproceedings{campi2023robustness, title={Expressivity of Graph Neural Networks Through the
//   Lens of Adversarial Robustness}, author={Campi, Francesco and Gosch, Lukas and Wollschl{\"a}ger,
//   Tom and Scholten, Yan and G{\"u}nnemann, Stephan}, booktitle={ICML Workshop on New Frontiers in
//   Adversarial Machine Learning}, year={2023}}

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/rng.hpp"
#include "brec/core/run_context.hpp"
#include "brec/count/patterns.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

/// Options of generate_count_dataset. Kinds: "sbm", "er" (G(10, 0.4)), "er-ood" (G(10, 0.8)).
struct CountDatasetOptions {
    std::string kind = "sbm";
    std::uint64_t seed = 0;
    std::size_t graphs = 5000;
    double train_fraction = 0.3;       ///< first round(N * 0.3) graphs of the shuffled order
    double validation_fraction = 0.2;  ///< the next round(N * 0.5) - round(N * 0.3); test = the rest

    CountDatasetOptions& set_kind(std::string k) {
        kind = std::move(k);
        return *this;
    }
    CountDatasetOptions& set_seed(std::uint64_t s) {
        seed = s;
        return *this;
    }
    CountDatasetOptions& set_graphs(std::size_t n) {
        graphs = n;
        return *this;
    }
};

/// The dataset kinds, for help texts and messages.
std::vector<std::string> count_dataset_kinds();

/// One graph of a dataset kind, every random choice from `rng`. Throws InvalidArgument for an
/// unknown kind.
Graph draw_count_dataset_graph(const std::string& kind, Rng& rng);

enum class Split : std::uint8_t { train = 0, validation = 1, test = 2 };
const char* split_name(Split s);

struct CountDataset {
    CountDatasetOptions options;
    std::vector<Graph> graphs;
    std::vector<CountArray> counts;  ///< per graph, every pattern (index = Pattern)
    std::vector<Split> split;        ///< per graph
    double seconds = 0.0;
};

/// Generates and counts a dataset on ctx.threads() threads. Throws InvalidArgument for an unknown
/// kind, a size of 0 or fractions outside [0, 1] whose sum exceeds 1; Cancelled when ctx is.
CountDataset generate_count_dataset(const CountDatasetOptions& opt, RunContext& ctx);

/// Writes DIR/graphs.g6 (graph i on line i + 1), DIR/counts.tsv (id, split, n, m and one column per
/// pattern), DIR/train.txt, DIR/validation.txt, DIR/test.txt (graph ids, ascending) and
/// DIR/meta.json. DIR is created if missing; every file is written under a temporary name first and
/// renamed at the end, and on failure nothing is left (nor a directory this call created).
/// Throws IoError.
void write_count_dataset(const CountDataset& dataset, const std::string& dir);

/// What generate_count_dataset_to_directory did.
struct CountDatasetRun {
    CountDataset dataset;
    std::string directory;
    double seconds = 0.0;
};

/// Validates the options, prepares nothing on disk until the dataset is generated, then writes it.
CountDatasetRun generate_count_dataset_to_directory(const CountDatasetOptions& opt, const std::string& dir,
                                                    RunContext& ctx);

/// meta.json of a dataset: generator, kind, parameters, seed, sizes, split sizes, mean edges and
/// mean counts per pattern.
nlohmann::ordered_json count_dataset_meta(const CountDataset& dataset);
/// A short table for people: split sizes, mean edges and mean count per pattern.
std::string format_count_dataset_summary(const CountDatasetRun& run);
/// {"command": "count", "generate": kind, "out": DIR, "seed", "graphs", "split": {...},
/// "mean_edges", "mean_counts": {...}, "seconds"}.
nlohmann::json count_dataset_summary_json(const CountDatasetRun& run);

}  // namespace brec
