#pragma once
// What `brec info` reports about a pair dataset: sizes and defining parameters per category, and
// graphs that occur more than once (found by canonical certificates, never by all-pairs tests).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/run_context.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

struct CategoryInfo {
    std::string name;
    std::size_t pairs = 0;
    std::uint32_t min_n = 0, max_n = 0;
    std::size_t min_m = 0, max_m = 0;
    std::size_t connected_graphs = 0;
    std::size_t regular_graphs = 0;
    /// Parameter label -> number of pairs, e.g. "(n,k)=(10,4)", "srg(25,12,5,6)",
    /// "drg{9,8,6;1,3,9}", "4vtx(30,45)". Only for regular graphs.
    std::map<std::string, std::size_t> parameters;
    PairId first_id = 0, last_id = 0;
};

/// A graph that occurs several times: where (pair id and side 'a' or 'b').
struct RepeatedGraph {
    std::vector<std::pair<PairId, char>> occurrences;
};

struct DatasetInfo {
    std::string path;
    std::size_t pairs = 0;
    std::size_t graphs = 0;
    std::vector<CategoryInfo> categories;  ///< in order of first appearance
    std::vector<RepeatedGraph> repeated;   ///< graphs seen more than once
    std::vector<PairId> isomorphic_pairs;  ///< pairs whose two graphs are isomorphic (invalid)
    /// One line per problem found (a repeated graph, an isomorphic pair), for the log.
    std::vector<std::string> warnings;
};

/// Summarises the selected pairs, in parallel over ctx.threads() (progress task "info").
/// Parameters of regular graphs are computed from adjacency; repeated graphs are found by
/// canonical certificates. Throws Cancelled when `ctx` is cancelled.
/// Complexity: one canonical labelling and one parameter analysis per graph.
DatasetInfo describe_pairs(const PairDataset& ds, const std::vector<std::size_t>& indices, RunContext& ctx);

/// The JSON form of `brec info --json`: {command, dataset, pairs, graphs, categories{NAME: {pairs,
/// ids, nodes, edges, connected_graphs, regular_graphs, parameters}}, repeated_graphs,
/// isomorphic_pairs}.
nlohmann::json to_json(const DatasetInfo& info);

/// The human form: sizes, a per-category table, the parameters of regular pairs and the
/// repeated graphs.
std::string dataset_info_text(const DatasetInfo& info);

}  // namespace brec
