#pragma once
// The shipped BREC pairs and the small training settings the per-model evaluation tests share.
#include <string>

#include "brec/core/error.hpp"
#include "brec/eval/siamese.hpp"
#include "brec/io/pairs.hpp"

namespace brec::testing {

/// The official BREC v3 pairs shipped in datasets/brec (read once).
inline const PairDataset& shipped_brec_pairs() {
    static const PairDataset ds = read_pair_file(std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv");
    return ds;
}

/// One shipped BREC pair by id; InvalidArgument for an id the file lacks.
inline const GraphPairRecord& brec_pair(PairId id) {
    for (const auto& p : shipped_brec_pairs().pairs)
        if (p.id == id) return p;
    throw InvalidArgument("no pair " + std::to_string(id));
}

/// A short CPU run of `model` small enough for a unit test: 16 relabelings, d = 8, 3 layers of
/// width 16, batches of 16, 10 epochs at lr 1e-3, one thread.
inline EvalOptions small_run(const std::string& model) {
    EvalOptions o;
    o.model = model;
    o.q = 16;
    o.out_dim = 8;
    o.layers = 3;
    o.hidden = 16;
    o.batch = 16;
    o.epochs = 10;
    o.lr = 1e-3;
    o.device = "cpu";
    o.torch_threads = 1;
    return o;
}

}  // namespace brec::testing
