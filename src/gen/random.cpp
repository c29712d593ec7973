#include "brec/gen/random.hpp"

#include <string>

#include "brec/core/error.hpp"

namespace brec {

Graph erdos_renyi(VertexId n, double p, Rng& rng) {
    if (!(p >= 0.0 && p <= 1.0)) throw InvalidArgument("erdos_renyi: p must be in [0, 1], got " + std::to_string(p));
    std::vector<Edge> edges;
    for (VertexId u = 0; u < n; ++u)
        for (VertexId v = u + 1; v < n; ++v)
            if (rng.bernoulli(p)) edges.push_back({u, v});
    return make_graph(n, edges);
}

Graph stochastic_block_model(const std::vector<VertexId>& sizes, const std::vector<std::vector<double>>& probs,
                             Rng& rng, bool label_blocks) {
    const std::size_t b = sizes.size();
    if (probs.size() != b)
        throw InvalidArgument("stochastic_block_model: probs must be " + std::to_string(b) + " x " + std::to_string(b));
    for (std::size_t i = 0; i < b; ++i) {
        if (probs[i].size() != b) throw InvalidArgument("stochastic_block_model: probs must be square");
        for (std::size_t j = 0; j < b; ++j) {
            if (!(probs[i][j] >= 0.0 && probs[i][j] <= 1.0))
                throw InvalidArgument("stochastic_block_model: probabilities must be in [0, 1]");
            if (probs[i][j] != probs[j][i]) throw InvalidArgument("stochastic_block_model: probs must be symmetric");
        }
    }
    std::vector<std::uint32_t> block;
    for (std::size_t i = 0; i < b; ++i) block.insert(block.end(), sizes[i], static_cast<std::uint32_t>(i));
    const auto n = static_cast<VertexId>(block.size());
    GraphBuilder builder(n);
    for (VertexId u = 0; u < n; ++u)
        for (VertexId v = u + 1; v < n; ++v)
            if (rng.bernoulli(probs[block[u]][block[v]])) builder.add_edge(u, v);
    if (label_blocks) builder.set_node_labels(std::vector<Label>(block.begin(), block.end()));
    return builder.build();
}

}  // namespace brec
