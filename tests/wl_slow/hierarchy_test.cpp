// The tight-bound tests' hierarchy on every one of the 400 BREC pairs (a few minutes on one core;
// the unit suite checks a quarter of the pairs): for each relation "A ⪯ B", every pair A separates
// is separated by B, and no test separates a pair's first graph from a random relabeling of it.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "brec/core/rng.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/pairs.hpp"
#include "brec/wl/wl.hpp"

namespace brec {
namespace {

TEST(TightBoundHierarchy, HoldsOnEveryBrecPair) {
    const auto ds = read_pair_file(std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv");
    const std::vector<std::pair<std::string, std::string>> relations = {
        {"1wl", "swl-vs"},          {"swl-vs", "pswl-vs"},   {"pswl-vs", "swl-sv"},
        {"swl-sv", "pswl-sv"},      {"pswl-sv", "gswl"},     {"gswl", "sswl"},
        {"sswl", "slfwl"},          {"slfwl", "2fwl"},       {"swl-vs", "lfwl"},
        {"lfwl", "slfwl"},          {"swl-vs:6", "swl-vs"},  {"gswl:6", "gswl"},
        {"gswl:6:ego:hop", "gswl"}, {"ngnn:1", "de-ngnn:1"}, {"ngnn:8", "de-ngnn:8"},
        {"de-ngnn:8", "i2:8"},      {"drop1", "m1"},         {"d2lwl", "d2lwl+"},
        {"d2lwl+", "2fwl"},         {"setwl:3:2", "2fwl"},   {"kp:2", "kp:8"},
        {"gsn-e:3", "gsn-e:4"}};
    std::map<std::string, std::set<PairId>> separated;
    std::set<std::string> methods;
    for (const auto& [a, b] : relations) methods.insert({a, b});
    Rng rng(31);
    for (const auto& p : ds.pairs) {
        const Graph relabeled = permute(p.a, rng.permutation(p.a.n()));
        for (const auto& m : methods) {
            const WlOptions o(WlMethod::parse(m));
            if (compare_pair(p.a, p.b, o).distinguished) separated[m].insert(p.id);
            EXPECT_FALSE(compare_pair(p.a, relabeled, o).distinguished) << m << " separates a relabeling of " << p.id;
        }
    }
    for (const auto& [weaker, stronger] : relations)
        for (PairId id : separated[weaker])
            EXPECT_TRUE(separated[stronger].count(id))
                << weaker << " separates pair " << id << ", " << stronger << " not";
}

}  // namespace
}  // namespace brec
