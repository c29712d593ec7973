#pragma once
// The BREC categories in one table: for each of the seven fine categories, in official (id) order,
// its name, the aliases accepted on the command line, its report group and its id range in the
// BREC v3 pair file. Every other view of the categories (fine names, groups, aliases, the category
// of an official id, the v3 composition of `brec generate`) is derived from this table.
//
// @inproceedings{wang2024towards, title={Towards Better Evaluation of GNN Expressiveness with BREC
//   Dataset}, author={Wang, Yanbo and Zhang, Muhan}, booktitle={ICLR}, year={2024}}

#include <cstddef>
#include <string>
#include <vector>

#include "brec/core/types.hpp"

namespace brec {

/// One fine BREC category.
struct BrecCategory {
    std::string name;                  ///< official fine name, e.g. "strongly_regular"
    std::vector<std::string> aliases;  ///< other accepted names, lower case, e.g. "str", "srg"
    std::string group;                 ///< report group: "Basic", "Regular", "Extension" or "CFI"
    PairId first_id = 0;               ///< first id in the BREC v3 pair file
    PairId last_id = 0;                ///< last id in the BREC v3 pair file (inclusive)

    /// Number of pairs of the category in BREC v3.
    std::size_t v3_pairs() const { return static_cast<std::size_t>(last_id - first_id + 1); }
};

/// The seven fine categories in official order (basic 0-59, regular 60-109, strongly_regular
/// 110-159, extension 160-259, cfi 260-359, four_vertex_condition 360-379, distance_regular
/// 380-399). Their id ranges are contiguous and cover 0..399.
const std::vector<BrecCategory>& brec_categories();
/// The category whose name or alias is `name` (case-insensitive), or nullptr.
const BrecCategory* find_brec_category(const std::string& name);
/// Number of pairs in BREC v3 (400).
std::size_t brec_v3_pair_count();

/// The seven fine BREC category names in official order.
const std::vector<std::string>& brec_fine_categories();
/// The four top groups in report order: Basic, Regular, Extension, CFI.
const std::vector<std::string>& brec_groups();
/// Group of a fine category or alias ("regular", "strongly_regular", "four_vertex_condition",
/// "distance_regular" -> "Regular"); unknown categories map to "Other".
std::string brec_group_of(const std::string& category);
/// Canonical fine name for a fine name or an accepted alias ("str" -> "strongly_regular", "4vtx",
/// "dr", ...; case-insensitive); returns the input unchanged when it is neither.
std::string canonical_category(const std::string& name);
/// Fine category of a pair id of the official BREC v3 file; "unknown" outside 0..399.
std::string brec_category_of_id(PairId id);

}  // namespace brec
