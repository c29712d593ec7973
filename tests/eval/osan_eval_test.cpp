// A short training of OSAN (osan) through the evaluation loop, which hosts its sampler's own Adam and
// auxiliary loss: a Basic pair separated and reliable. Small widths, few epochs and q = 16 keep it
// to seconds.
#include <gtest/gtest.h>

#include "brec/eval/siamese.hpp"
#include "brec/io/pairs.hpp"

namespace brec {
namespace {

const GraphPairRecord& brec_pair(PairId id) {
    static const PairDataset ds = read_pair_file(std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv");
    for (const auto& p : ds.pairs)
        if (p.id == id) return p;
    throw std::runtime_error("no pair " + std::to_string(id));
}

TEST(OsanTraining, SeparatesABasicPair) {
    EvalOptions o;
    o.model = "osan";
    o.q = 16;
    o.out_dim = 8;
    o.layers = 3;
    o.hidden = 16;
    o.batch = 16;
    o.epochs = 20;
    o.device = "cpu";
    o.torch_threads = 1;
    const EvalRecord r = evaluate_pair(brec_pair(0), o, 100);
    EXPECT_EQ(r.epochs, 20);  // threshold 0: never stops early
    for (Protocol p : all_protocols()) {
        EXPECT_TRUE(r.result(p).distinguished) << to_json(r);
        EXPECT_TRUE(r.result(p).reliable) << to_json(r);
    }
}

}  // namespace
}  // namespace brec
