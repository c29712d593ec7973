#include "brec/io/categories.hpp"

#include <algorithm>

#include "brec/core/text.hpp"

namespace brec {

const std::vector<BrecCategory>& brec_categories() {
    // The one place that knows the BREC categories. The ids are those of the official BREC v3 pair
    // file (datasets/brec/brec_v3_pairs.tsv); tests check the table against that file.
    static const std::vector<BrecCategory> kTable = {
        {"basic", {}, "Basic", 0, 59},
        {"regular", {"simple_regular"}, "Regular", 60, 109},
        {"strongly_regular", {"str", "srg", "strongly-regular"}, "Regular", 110, 159},
        {"extension", {"ext"}, "Extension", 160, 259},
        {"cfi", {}, "CFI", 260, 359},
        {"four_vertex_condition", {"4vtx", "4-vertex_condition", "four-vertex-condition"}, "Regular", 360, 379},
        {"distance_regular", {"dr", "distance-regular"}, "Regular", 380, 399}};
    return kTable;
}

const BrecCategory* find_brec_category(const std::string& name) {
    const std::string low = lower(name);
    for (const auto& c : brec_categories()) {
        if (c.name == low) return &c;
        if (std::find(c.aliases.begin(), c.aliases.end(), low) != c.aliases.end()) return &c;
    }
    return nullptr;
}

std::size_t brec_v3_pair_count() {
    std::size_t total = 0;
    for (const auto& c : brec_categories()) total += c.v3_pairs();
    return total;
}

const std::vector<std::string>& brec_fine_categories() {
    static const std::vector<std::string> kFine = [] {
        std::vector<std::string> out;
        for (const auto& c : brec_categories()) out.push_back(c.name);
        return out;
    }();
    return kFine;
}

const std::vector<std::string>& brec_groups() {
    // Groups in the order of their first fine category, which is the report order.
    static const std::vector<std::string> kGroups = [] {
        std::vector<std::string> out;
        for (const auto& c : brec_categories())
            if (std::find(out.begin(), out.end(), c.group) == out.end()) out.push_back(c.group);
        return out;
    }();
    return kGroups;
}

std::string canonical_category(const std::string& name) {
    const BrecCategory* c = find_brec_category(name);
    return c ? c->name : name;
}

std::string brec_group_of(const std::string& category) {
    const BrecCategory* c = find_brec_category(category);
    return c ? c->group : "Other";
}

std::string brec_category_of_id(PairId id) {
    for (const auto& c : brec_categories())
        if (id >= c.first_id && id <= c.last_id) return c.name;
    return "unknown";
}

}  // namespace brec
