// The BREC category table: names, aliases, groups and id ranges, checked against the shipped
// official pair file (datasets/brec/brec_v3_pairs.tsv), and the functions derived from the table.
#include "brec/io/categories.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "brec/io/pairs.hpp"

namespace brec {
namespace {

const std::string kBrecPairs = std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv";

TEST(BrecCategories, TableIsTheOfficialLayout) {
    const std::vector<std::string> names = {
        "basic", "regular", "strongly_regular", "extension", "cfi", "four_vertex_condition", "distance_regular"};
    const auto& table = brec_categories();
    ASSERT_EQ(table.size(), names.size());
    const std::map<std::string, std::pair<PairId, PairId>> ranges = {{"basic", {0, 59}},
                                                                     {"regular", {60, 109}},
                                                                     {"strongly_regular", {110, 159}},
                                                                     {"extension", {160, 259}},
                                                                     {"cfi", {260, 359}},
                                                                     {"four_vertex_condition", {360, 379}},
                                                                     {"distance_regular", {380, 399}}};
    PairId next = 0;
    for (std::size_t i = 0; i < table.size(); ++i) {
        EXPECT_EQ(table[i].name, names[i]);
        EXPECT_EQ(table[i].first_id, next) << table[i].name << ": ranges must be contiguous";
        EXPECT_EQ(std::make_pair(table[i].first_id, table[i].last_id), ranges.at(table[i].name));
        next = table[i].last_id + 1;
    }
    EXPECT_EQ(brec_v3_pair_count(), 400u);
    EXPECT_EQ(brec_fine_categories(), names);
    // BREC v3 (Wang and Zhang, ICLR 2024): 60 / 50 / 50 / 100 / 100 / 20 / 20 pairs.
    std::vector<std::size_t> counts;
    for (const auto& c : table) counts.push_back(c.v3_pairs());
    EXPECT_EQ(counts, (std::vector<std::size_t>{60, 50, 50, 100, 100, 20, 20}));
}

TEST(BrecCategories, IdRangesAgreeWithTheShippedPairFile) {
    const PairDataset ds = read_pair_file(kBrecPairs);
    ASSERT_EQ(ds.pairs.size(), brec_v3_pair_count());
    std::map<std::string, std::size_t> per_category;
    for (const auto& p : ds.pairs) {
        EXPECT_EQ(brec_category_of_id(p.id), p.category) << "pair " << p.id;
        EXPECT_EQ(canonical_category(p.category), p.category) << "file uses the official names";
        ++per_category[p.category];
    }
    for (const auto& c : brec_categories()) EXPECT_EQ(per_category[c.name], c.v3_pairs()) << c.name;
    EXPECT_EQ(brec_category_of_id(-1), "unknown");
    EXPECT_EQ(brec_category_of_id(400), "unknown");
}

TEST(BrecCategories, GroupsAreTheFourReportGroups) {
    EXPECT_EQ(brec_groups(), (std::vector<std::string>{"Basic", "Regular", "Extension", "CFI"}));
    // BREC's "Regular" group is 140 pairs: simple regular, strongly regular, 4-vertex condition
    // and distance-regular.
    std::map<std::string, std::size_t> size;
    for (const auto& c : brec_categories()) size[c.group] += c.v3_pairs();
    EXPECT_EQ(size,
              (std::map<std::string, std::size_t>{{"Basic", 60}, {"Regular", 140}, {"Extension", 100}, {"CFI", 100}}));
    EXPECT_EQ(brec_group_of("regular"), "Regular");
    EXPECT_EQ(brec_group_of("four_vertex_condition"), "Regular");
    EXPECT_EQ(brec_group_of("dr"), "Regular");
    EXPECT_EQ(brec_group_of("cfi"), "CFI");
    EXPECT_EQ(brec_group_of("extension"), "Extension");
    EXPECT_EQ(brec_group_of("basic"), "Basic");
    EXPECT_EQ(brec_group_of("frobnicate"), "Other");
}

TEST(BrecCategories, AliasesResolveCaseInsensitively) {
    const std::map<std::string, std::string> want = {{"str", "strongly_regular"},
                                                     {"SRG", "strongly_regular"},
                                                     {"strongly-regular", "strongly_regular"},
                                                     {"4vtx", "four_vertex_condition"},
                                                     {"4-vertex_condition", "four_vertex_condition"},
                                                     {"four-vertex-condition", "four_vertex_condition"},
                                                     {"dr", "distance_regular"},
                                                     {"distance-regular", "distance_regular"},
                                                     {"simple_regular", "regular"},
                                                     {"ext", "extension"},
                                                     {"CFI", "cfi"},
                                                     {"Basic", "basic"}};
    for (const auto& [alias, name] : want) {
        EXPECT_EQ(canonical_category(alias), name) << alias;
        const BrecCategory* c = find_brec_category(alias);
        ASSERT_NE(c, nullptr) << alias;
        EXPECT_EQ(c->name, name);
    }
    // Unknown names come back unchanged (the callers report them with their own context).
    EXPECT_EQ(canonical_category("Frobnicate"), "Frobnicate");
    EXPECT_EQ(find_brec_category("frobnicate"), nullptr);
    // No alias is claimed twice, and no alias is another category's name.
    std::set<std::string> seen;
    for (const auto& c : brec_categories()) EXPECT_TRUE(seen.insert(c.name).second) << c.name;
    for (const auto& c : brec_categories())
        for (const auto& a : c.aliases) EXPECT_TRUE(seen.insert(a).second) << a;
}

}  // namespace
}  // namespace brec
