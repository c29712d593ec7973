#pragma once
// Private: the ids of the random streams of the generators. Each category draws its randomness
// from its own seed, category_seed(user seed, its CategoryStream), and inside the category from
// sub-streams of that seed with the ids below, so categories are independent of each other, of the
// composition and of the thread count.
//
// Changing any value here changes the datasets generated for every seed: bump kGeneratorVersion
// (generate.hpp) if you must.

#include <cstdint>

#include "brec/core/rng.hpp"

namespace brec::detail {

/// Stream of a category (or, for basic and extension, of their shared exhaustive search).
enum class CategoryStream : std::uint64_t {
    basic_extension = 1,
    regular = 2,
    strongly_regular = 3,
    // Id 4 is not used by any category.
    cfi = 5,
    four_vertex_condition = 6,
    distance_regular = 7,
};

/// The seed a category derives all its random choices from.
inline std::uint64_t category_seed(std::uint64_t seed, CategoryStream s) {
    return stream_seed(seed, static_cast<std::uint64_t>(s));
}

// Sub-streams of a category's seed.
/// basic: which 1-WL classes and members are paired.
inline constexpr std::uint64_t kBasicPicks = 1000;
/// extension: S3/N1/S4 pair picks and the regular bases of the virtual-node pairs.
inline constexpr std::uint64_t kExtensionPicks = 1001;
/// regular: shuffle that pairs the graphs of each (n,k).
inline constexpr std::uint64_t kRegularPairing = 2;
/// strongly_regular: shuffle that pairs the graphs of each srg family.
inline constexpr std::uint64_t kSrgPairing = 3;
/// strongly_regular: STS(15) hill-climbing try i uses stream kSrgSts15Tries + i.
inline constexpr std::uint64_t kSrgSts15Tries = 35000000;
/// cfi: which base graphs of each treewidth tier are used.
inline constexpr std::uint64_t kCfiBases = 5;
/// four_vertex_condition: shuffle that pairs the graphs.
inline constexpr std::uint64_t kFourVertexPairing = 6;
/// distance_regular: shuffle that pairs the graphs of each family.
inline constexpr std::uint64_t kDrPairing = 7;
/// distance_regular: seed of the symmetric-design searches; try i of a 2-(v,k,λ) search uses
/// stream (v << 40) + (k << 32) + i of that seed.
inline constexpr std::uint64_t kDrDesigns = 7007;

}  // namespace brec::detail
