#pragma once
// BREC-style pair datasets: one generator per category, verification of every pair, and the whole
// dataset with the BREC v3 composition. Generators return pairs and metadata; the files are
// written by io (DatasetDirWriter), see generate_run.hpp.
//
// Every pair is verified before it is returned (independent code paths: graph/properties.hpp,
// nauty certificates, the WL engine): the two graphs are not isomorphic, they are 1-WL-equivalent,
// they have the category's defining property, and no graph (up to isomorphism) occurs twice in the
// dataset. All randomness comes from Rng streams derived from the seed and the category, so the
// output does not depend on the number of threads.
//
// @inproceedings{wang2024towards, title={Towards Better Evaluation of GNN Expressiveness with BREC
//   Dataset}, author={Wang, Yanbo and Zhang, Muhan}, booktitle={ICLR}, year={2024}}

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

/// Version of the generators; recorded in meta.json. Bump when the output for a seed changes.
inline constexpr const char* kGeneratorVersion = "1.0.0";

/// One generated pair with its parameters (recomputed from adjacency during verification).
struct GeneratedPair {
    std::string category;  ///< fine BREC category
    std::string kind;      ///< family inside the category, e.g. "srg(25,12,5,6)", "S3", "cfi tw=2"
    Graph a, b;
    nlohmann::json params = nlohmann::json::object();
};

/// Options of generate_dataset.
struct GenerateOptions {
    std::uint64_t seed = 0;
    /// Fine categories to generate (aliases accepted); empty = all seven in BREC order.
    std::vector<std::string> categories;
    /// Number of pairs: with one category, that category's count; otherwise the total, spread over
    /// the categories in BREC v3 proportions. Negative = the BREC v3 composition.
    long long pairs = -1;
    /// CFI pairs not separated by 2-FWL whose graphs have more vertices than this are labelled by
    /// CFI theory instead of running 3-FWL (params.hardness_source records which, per pair). 2-FWL
    /// always runs. The default computes 3-FWL for every pair (cfi_max_vertices is the largest).
    std::uint32_t cfi_fwl3_max_vertices = 200;
    /// Largest CFI graph accepted (BREC's largest has 198 vertices).
    std::uint32_t cfi_max_vertices = 200;
    /// Vertices of the exhaustive basic/extension search (BREC: 10). Smaller values make tests fast.
    std::uint32_t ten_vertex_n = 10;

    GenerateOptions& with_seed(std::uint64_t s) {
        seed = s;
        return *this;
    }
    GenerateOptions& with_categories(std::vector<std::string> c) {
        categories = std::move(c);
        return *this;
    }
    GenerateOptions& with_pairs(long long p) {
        pairs = p;
        return *this;
    }
};

/// What one category produced, for the report (seconds are not written to meta.json, which must
/// be identical for identical seeds).
struct CategoryReport {
    std::string category;
    std::size_t pairs = 0;
    double seconds = 0.0;
    std::vector<std::string> kinds;  ///< "kind x count" lines
    std::string node_range;          ///< e.g. "16-36"
};

struct GeneratedDataset {
    std::uint64_t seed = 0;            ///< the seed it was generated from
    std::vector<GeneratedPair> pairs;  ///< ids are the indices
    std::vector<CategoryReport> reports;
    nlohmann::json meta;  ///< the content of meta.json
};

/// The seven fine categories with their BREC v3 pair counts, in BREC id order.
const std::vector<std::pair<std::string, std::size_t>>& default_composition();

/// The per-category counts for the options (validated: unknown category or negative count throws
/// InvalidArgument).
std::vector<std::pair<std::string, std::size_t>> resolve_composition(const GenerateOptions& opt);

/// Generates, verifies and deduplicates the dataset. Throws InvalidArgument when a category
/// cannot supply the requested number of distinct pairs (the message says how many it can),
/// Unsupported when nauty's geng is needed but missing.
GeneratedDataset generate_dataset(const GenerateOptions& opt, RunContext& ctx);

/// Checks one pair independently of its construction: not isomorphic (nauty), 1-WL-equivalent and
/// the defining property of its category/kind. Returns the recomputed parameters; throws
/// brec::Error naming the failed check.
nlohmann::json verify_pair(const GeneratedPair& pair);

}  // namespace brec
