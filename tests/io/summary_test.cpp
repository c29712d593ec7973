// The summary object of the pair commands: counts per fine category (aliases folded into the
// official name), per group (all four always, "Other" for unknown categories) and in total, the
// header fields, and the aligned text table with and without the fine categories.
#include "brec/io/summary.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "brec/io/categories.hpp"

namespace brec {
namespace {

using nlohmann::json;

/// {"pairs", "distinguished", "reliability_failures"} as the summary writes it.
json counts(int pairs, int distinguished, int failures) {
    return {{"pairs", pairs}, {"distinguished", distinguished}, {"reliability_failures", failures}};
}

/// Six pairs over four groups, written with aliases and mixed case, plus one unknown category.
std::vector<PairOutcome> mixed_outcomes() {
    return {{0, "basic", true, false}, {1, "Basic", false, false}, {2, "str", true, true},
            {3, "cfi", false, true},   {4, "dr", true, false},     {5, "mystery", true, false}};
}

TEST(Summary, CountsPerCategoryGroupAndTotalWithAliasesFolded) {
    const json s = make_summary({"wl", "1wl", "brec_v3.tsv", 7, 1.5}, mixed_outcomes());
    EXPECT_EQ(s["command"], "wl");
    EXPECT_EQ(s["method"], "1wl");
    EXPECT_EQ(s["dataset"], "brec_v3.tsv");
    EXPECT_EQ(s["seed"], 7);
    EXPECT_DOUBLE_EQ(s["seconds"].get<double>(), 1.5);

    const json categories = {{"basic", counts(2, 1, 0)},
                             {"strongly_regular", counts(1, 1, 1)},
                             {"cfi", counts(1, 0, 1)},
                             {"distance_regular", counts(1, 1, 0)},
                             {"mystery", counts(1, 1, 0)}};
    EXPECT_EQ(s["categories"], categories) << s["categories"].dump();
    const json groups = {{"Basic", counts(2, 1, 0)},
                         {"Regular", counts(2, 2, 1)},
                         {"Extension", counts(0, 0, 0)},
                         {"CFI", counts(1, 0, 1)},
                         {"Other", counts(1, 1, 0)}};
    EXPECT_EQ(s["groups"], groups) << s["groups"].dump();
    EXPECT_EQ(s["total"], counts(6, 4, 2));
}

TEST(Summary, HasExactlyTheDocumentedKeys) {
    const json s = make_summary({"certify", "certify", "d.tsv", 0, 0.0}, mixed_outcomes());
    std::vector<std::string> keys;
    for (auto it = s.begin(); it != s.end(); ++it) keys.push_back(it.key());
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(keys, (std::vector<std::string>{"categories", "command", "dataset", "groups", "method", "seconds", "seed",
                                              "total"}));
}

TEST(Summary, NoOutcomesGivesAllFourGroupsAtZeroAndNoCategories) {
    const json s = make_summary({"eval", "gin", "", 0, 0.25}, {});
    EXPECT_TRUE(s["categories"].is_object());
    EXPECT_TRUE(s["categories"].empty());
    const json groups = {{"Basic", counts(0, 0, 0)},
                         {"Regular", counts(0, 0, 0)},
                         {"Extension", counts(0, 0, 0)},
                         {"CFI", counts(0, 0, 0)}};
    EXPECT_EQ(s["groups"], groups) << "no \"Other\" group without unknown categories";
    EXPECT_EQ(s["total"], counts(0, 0, 0));
    EXPECT_EQ(s["command"], "eval");
    EXPECT_EQ(s["method"], "gin");
    EXPECT_EQ(s["dataset"], "");
}

TEST(Summary, TheSeedKeepsAll64Bits) {
    const std::uint64_t seed = std::numeric_limits<std::uint64_t>::max();
    const json s = make_summary({"eval", "gin", "d", seed, 0.0}, {});
    EXPECT_EQ(s["seed"].get<std::uint64_t>(), seed);
    EXPECT_EQ(json::parse(s.dump())["seed"].get<std::uint64_t>(), seed) << s.dump();
}

TEST(Summary, AllFourHundredOfficialPairsAddUp) {
    // Pair id k is distinguished when k % 3 == 0 and a reliability failure when k % 7 == 0.
    std::vector<PairOutcome> outcomes;
    for (PairId id = 0; id < 400; ++id) outcomes.push_back({id, brec_category_of_id(id), id % 3 == 0, id % 7 == 0});
    const json s = make_summary({"wl", "1wl", "brec", 0, 0.0}, outcomes);
    // Counted by hand from the official id ranges (basic 0-59, regular 60-109, strongly_regular
    // 110-159, extension 160-259, cfi 260-359, four_vertex_condition 360-379, distance_regular
    // 380-399): multiples of 3 and of 7 in each range.
    EXPECT_EQ(s["categories"]["basic"], counts(60, 20, 9));
    EXPECT_EQ(s["categories"]["regular"], counts(50, 17, 7));
    EXPECT_EQ(s["categories"]["strongly_regular"], counts(50, 17, 7));
    EXPECT_EQ(s["categories"]["extension"], counts(100, 33, 15));
    EXPECT_EQ(s["categories"]["cfi"], counts(100, 33, 14));
    EXPECT_EQ(s["categories"]["four_vertex_condition"], counts(20, 7, 3));
    EXPECT_EQ(s["categories"]["distance_regular"], counts(20, 7, 3));
    EXPECT_EQ(s["groups"]["Basic"], counts(60, 20, 9));
    EXPECT_EQ(s["groups"]["Regular"], counts(140, 48, 20));
    EXPECT_EQ(s["groups"]["Extension"], counts(100, 33, 15));
    EXPECT_EQ(s["groups"]["CFI"], counts(100, 33, 14));
    EXPECT_EQ(s["groups"].size(), 4u);
    EXPECT_EQ(s["total"], counts(400, 134, 58));
}

// The table's columns: name left in 26, pairs right in 8, distinguished right in 15, failures
// right in 14 (63 in all); fine categories are indented by two.
const std::string kHeader =
    "category                     pairs  distinguished rel. failures\n"
    "---------------------------------------------------------------\n";
const std::string kRule = "---------------------------------------------------------------\n";

TEST(Summary, TableListsTheGroupsWithPairsInReportOrder) {
    const json s = make_summary({"wl", "1wl", "d", 0, 0.0}, mixed_outcomes());
    const std::string expected = kHeader +
                                 "Basic                            2              1             0\n"
                                 "Regular                          2              2             1\n"
                                 "CFI                              1              0             1\n"
                                 "Other                            1              1             0\n" +
                                 kRule + "Total                            6              4             2\n";
    EXPECT_EQ(summary_table(s, false), expected) << summary_table(s, false);
    // A summary read back from its JSON text (as `brec report` sees it) gives the same table.
    EXPECT_EQ(summary_table(json::parse(s.dump()), false), expected);
}

TEST(Summary, FineTableShowsEveryGroupAndItsCategoriesInOfficialOrder) {
    const json s = make_summary({"wl", "1wl", "d", 0, 0.0}, mixed_outcomes());
    // strongly_regular comes before distance_regular (official order, not alphabetical), and the
    // empty Extension group is shown.
    const std::string expected = kHeader +
                                 "Basic                            2              1             0\n"
                                 "  basic                          2              1             0\n"
                                 "Regular                          2              2             1\n"
                                 "  strongly_regular               1              1             1\n"
                                 "  distance_regular               1              1             0\n"
                                 "Extension                        0              0             0\n"
                                 "CFI                              1              0             1\n"
                                 "  cfi                            1              0             1\n"
                                 "Other                            1              1             0\n"
                                 "  mystery                        1              1             0\n" +
                                 kRule + "Total                            6              4             2\n";
    EXPECT_EQ(summary_table(s, true), expected) << summary_table(s, true);
}

TEST(Summary, TableOfNoPairsIsOnlyTheTotal) {
    const json s = make_summary({"wl", "1wl", "d", 0, 0.0}, {});
    EXPECT_EQ(summary_table(s, false),
              kHeader + kRule + "Total                            0              0             0\n");
    const std::string fine = summary_table(s, true);
    EXPECT_EQ(fine, kHeader +
                        "Basic                            0              0             0\n"
                        "Regular                          0              0             0\n"
                        "Extension                        0              0             0\n"
                        "CFI                              0              0             0\n" +
                        kRule + "Total                            0              0             0\n");
}

}  // namespace
}  // namespace brec
