// A short training of OSAN (osan) through the evaluation loop, which hosts its sampler's own Adam and
// auxiliary loss: a Basic pair separated and reliable. Small widths, few epochs and q = 16 keep it
// to seconds.
#include <gtest/gtest.h>

#include "brec/eval/siamese.hpp"
#include "brec/io/pairs.hpp"
#include "eval/brec_pair_fixtures.hpp"

namespace brec {
namespace {

TEST(OsanTraining, SeparatesABasicPair) {
    EvalOptions o = testing::small_run("osan");
    o.epochs = 20;
    o.lr.reset();  // the model's own learning rate (1e-3), as before
    const EvalRecord r = evaluate_pair(testing::brec_pair(0), o, 100);
    EXPECT_EQ(r.epochs, 20);  // threshold 0: never stops early
    for (Protocol p : all_protocols()) {
        EXPECT_TRUE(r.result(p).distinguished) << to_json(r);
        EXPECT_TRUE(r.result(p).reliable) << to_json(r);
    }
}

}  // namespace
}  // namespace brec
