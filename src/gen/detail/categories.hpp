#pragma once
// Private: the generators of the BREC categories, one source file per category
// (category_basic_extension.cpp, category_regular.cpp, category_strongly_regular.cpp,
// category_four_vertex.cpp, category_distance_regular.cpp, category_cfi.cpp), each with the
// check of its category's defining property, and the helpers they share (category_common.cpp).
// generate.cpp composes them into a dataset, verifies every pair and deduplicates across the
// dataset.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "brec/core/rng.hpp"
#include "brec/core/run_context.hpp"
#include "brec/gen/generate.hpp"
#include "brec/graph/graph.hpp"

namespace brec::detail {

// ----- shared helpers ---------------------------------------------------------------------------

/// One family of a category when its pairs are allocated.
struct Cell {
    std::string name;
    std::size_t weight = 0;  ///< share in the default composition
    std::size_t cap = 0;     ///< most distinct pairs the family can supply
};

/// Spreads `total` pairs over the cells: exactly the weights when they sum to total, otherwise
/// proportionally (largest remainder), capped, with the overflow moved to cells with room. Throws
/// InvalidArgument naming `category` and every cell's capacity when the caps cannot reach total.
std::vector<std::size_t> allocate(const std::vector<Cell>& cells, std::size_t total, const std::string& category);

/// A pair record (parameters of the construction; verification adds the recomputed ones).
GeneratedPair make_pair_record(const std::string& category, const std::string& kind, Graph a, Graph b,
                               nlohmann::json params = nlohmann::json::object());

/// Shuffles the graphs and pairs them consecutively: `count` pairs from the first 2 * count.
/// Throws InvalidArgument naming `what` when there are fewer than 2 * count graphs.
std::vector<std::pair<Graph, Graph>> pair_up(std::vector<Graph> graphs, std::size_t count, Rng& rng,
                                             const std::string& what);

/// Graphs that are pairwise non-isomorphic, in the order they were first added.
class DistinctGraphs {
public:
    /// Adds g unless an isomorphic graph is already in; returns whether it was added.
    bool add(const Graph& g);
    /// As add(g), with g's canonical certificate computed by the caller (e.g. in parallel).
    bool add(const Graph& g, const std::string& certificate);
    /// As add(g, certificate), building g by make() only when the certificate is new.
    template <typename MakeGraph>
    bool add_built(const std::string& certificate, MakeGraph make) {
        if (!seen_.insert(certificate).second) return false;
        graphs_.push_back(make());
        return true;
    }
    std::size_t size() const { return graphs_.size(); }
    const std::vector<Graph>& graphs() const { return graphs_; }
    /// The graphs, moved out; the set is left empty.
    std::vector<Graph> take();

private:
    std::set<std::string> seen_;
    std::vector<Graph> graphs_;
};

/// Connected k-regular graphs on n vertices from geng (none when n * k is odd).
std::vector<Graph> regular_graphs(VertexId n, int k);

// ----- the categories ---------------------------------------------------------------------------

/// basic and extension share one exhaustive search over the connected graphs on
/// opt.ten_vertex_n vertices; extension picks its pairs first, basic takes from what is left.
struct TenVertexPairs {
    std::vector<GeneratedPair> basic, extension;
};
TenVertexPairs generate_basic_extension(std::size_t n_basic, std::size_t n_ext, std::uint64_t seed,
                                        const GenerateOptions& opt, RunContext& ctx);
std::vector<GeneratedPair> generate_regular(std::size_t count, std::uint64_t seed);
std::vector<GeneratedPair> generate_strongly_regular(std::size_t count, std::uint64_t seed, RunContext& ctx);
std::vector<GeneratedPair> generate_four_vertex(std::size_t count, std::uint64_t seed, RunContext& ctx);
std::vector<GeneratedPair> generate_distance_regular(std::size_t count, std::uint64_t seed, RunContext& ctx);
std::vector<GeneratedPair> generate_cfi(std::size_t count, std::uint64_t seed, const GenerateOptions& opt,
                                        RunContext& ctx);

// ----- the category checks ----------------------------------------------------------------------
// Each checks the defining property of its category from adjacency alone (independently of the
// construction), adds the recomputed parameters to `params`, and throws brec::Error starting with
// `who` and naming the failed check. Non-isomorphism and 1-WL equivalence are checked by the
// caller for every category.

void check_basic(const GeneratedPair& p, const std::string& who, nlohmann::json& params);
void check_extension(const GeneratedPair& p, const std::string& who, nlohmann::json& params);
void check_regular(const GeneratedPair& p, const std::string& who, nlohmann::json& params);
void check_strongly_regular(const GeneratedPair& p, const std::string& who, nlohmann::json& params);
void check_four_vertex(const GeneratedPair& p, const std::string& who, nlohmann::json& params);
void check_distance_regular(const GeneratedPair& p, const std::string& who, nlohmann::json& params);
void check_cfi(const GeneratedPair& p, const std::string& who, nlohmann::json& params);

}  // namespace brec::detail
