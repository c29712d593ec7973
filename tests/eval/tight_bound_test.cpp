// Every registered model names a tight bound that brec's WL engine runs, at the model's own
// settings: the subgraph radius of the test is the model's default radius (SSWL+'s radius is a
// distance-encoding cap, so its test has the whole graph), KP-WL's K is KP-GNN's hop count.
#include <gtest/gtest.h>

#include "brec/graph/graph.hpp"
#include "brec/nn/registry.hpp"
#include "brec/wl/wl.hpp"

namespace brec {
namespace {

TEST(TightBounds, EveryModelNamesARunnableTestAtItsSettings) {
    int with_bound = 0;
    for (const ModelEntry& m : model_registry()) {
        const ModelSpec& s = m.spec;
        EXPECT_FALSE(s.tight_note.empty()) << s.name;
        if (s.tight_bound.empty()) {
            EXPECT_EQ(s.name, "osan");  // the only model no fixed test bounds
            continue;
        }
        ++with_bound;
        const WlMethod method = WlMethod::parse(s.tight_bound);
        EXPECT_EQ(method.name(), s.tight_bound) << s.name << ": not the canonical name";
        switch (method.kind) {
            case WlKind::swl:
            case WlKind::ngnn:
            case WlKind::i2:
                if (s.name == "sswl_p")
                    EXPECT_EQ(method.radius, -1);
                else
                    EXPECT_EQ(method.radius, s.defaults.radius) << s.name;
                break;
            case WlKind::kp:
                EXPECT_EQ(method.k, s.defaults.radius) << s.name;
                break;
            default:
                EXPECT_EQ(s.defaults.radius, 0) << s.name << ": a radius its tight bound does not use";
        }
        // The test runs: a 6-cycle against itself is never separated.
        EXPECT_FALSE(compare_pair(make_cycle(6), make_cycle(6), WlOptions(method)).distinguished) << s.name;
    }
    EXPECT_EQ(with_bound, static_cast<int>(model_registry().size()) - 1);
}

}  // namespace
}  // namespace brec
