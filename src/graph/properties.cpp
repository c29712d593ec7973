#include "brec/graph/properties.hpp"

#include <algorithm>

#include "brec/graph/algorithms.hpp"

namespace brec {
namespace {

std::uint32_t common_neighbours(const Graph& g, VertexId x, VertexId y) {
    const auto a = g.neighbors(x), b = g.neighbors(y);
    std::uint32_t c = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i] < b[j])
            ++i;
        else if (b[j] < a[i])
            ++j;
        else {
            ++c;
            ++i;
            ++j;
        }
    }
    return c;
}

std::string join(const std::vector<std::uint32_t>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s;
}

}  // namespace

std::string SrgParameters::str() const {
    return "srg(" + std::to_string(v) + "," + std::to_string(k) + "," + std::to_string(lambda) + "," +
           std::to_string(mu) + ")";
}

std::string IntersectionArray::str() const { return "{" + join(b) + ";" + join(c) + "}"; }

std::optional<SrgParameters> srg_parameters(const Graph& g) {
    const VertexId n = g.n();
    if (n < 3 || !g.is_regular()) return std::nullopt;
    const std::uint32_t k = g.degree(0);
    if (k == 0 || k == n - 1) return std::nullopt;
    std::int64_t lambda = -1, mu = -1;
    for (VertexId x = 0; x < n; ++x)
        for (VertexId y = x + 1; y < n; ++y) {
            const std::int64_t c = common_neighbours(g, x, y);
            std::int64_t& slot = g.has_edge(x, y) ? lambda : mu;
            if (slot < 0)
                slot = c;
            else if (slot != c)
                return std::nullopt;
        }
    if (lambda < 0 || mu < 0) return std::nullopt;
    return SrgParameters{n, k, static_cast<std::uint32_t>(lambda), static_cast<std::uint32_t>(mu)};
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> four_vertex_constants(const Graph& g) {
    // Adjacency rows as bitsets: the common neighbourhood of x and y is one AND per word, and the
    // edges inside it are counted twice as the sum over its members z of |N(z) ∩ common|.
    const VertexId n = g.n();
    const std::size_t words = (static_cast<std::size_t>(n) + 63) / 64;
    std::vector<std::uint64_t> rows(static_cast<std::size_t>(n) * words, 0);
    for (VertexId v = 0; v < n; ++v)
        for (VertexId w : g.neighbors(v)) rows[v * words + (w >> 6)] |= std::uint64_t{1} << (w & 63);
    std::vector<std::uint64_t> common(words);
    std::int64_t adj = -1, non = -1;
    for (VertexId x = 0; x < n; ++x) {
        const std::uint64_t* rx = rows.data() + x * words;
        for (VertexId y = x + 1; y < n; ++y) {
            const std::uint64_t* ry = rows.data() + y * words;
            for (std::size_t i = 0; i < words; ++i) common[i] = rx[i] & ry[i];
            std::int64_t twice = 0;
            for (std::size_t i = 0; i < words; ++i)
                for (std::uint64_t bits = common[i]; bits; bits &= bits - 1) {
                    const std::size_t z = i * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
                    const std::uint64_t* rz = rows.data() + z * words;
                    for (std::size_t j = 0; j < words; ++j) twice += __builtin_popcountll(rz[j] & common[j]);
                }
            const bool adjacent = (rx[y >> 6] >> (y & 63)) & 1u;
            std::int64_t& slot = adjacent ? adj : non;
            if (slot < 0)
                slot = twice / 2;
            else if (slot != twice / 2)
                return std::nullopt;
        }
    }
    if (adj < 0 || non < 0) return std::nullopt;
    return std::make_pair(static_cast<std::uint32_t>(adj), static_cast<std::uint32_t>(non));
}

std::optional<IntersectionArray> intersection_array(const Graph& g) {
    const VertexId n = g.n();
    if (n < 2 || !is_connected(g)) return std::nullopt;
    const auto dist = all_pairs_distances(g);
    std::int32_t diam = 0;
    for (auto d : dist) diam = std::max(diam, d);
    // b_i = neighbours of y at distance i+1 from x, c_i = neighbours at distance i-1, for dist(x,y)=i.
    std::vector<std::int64_t> b(diam + 1, -1), c(diam + 1, -1);
    for (VertexId x = 0; x < n; ++x)
        for (VertexId y = 0; y < n; ++y) {
            const std::int32_t i = dist[static_cast<std::size_t>(x) * n + y];
            std::int64_t bi = 0, ci = 0;
            for (VertexId z : g.neighbors(y)) {
                const std::int32_t dz = dist[static_cast<std::size_t>(x) * n + z];
                if (dz == i + 1)
                    ++bi;
                else if (dz == i - 1)
                    ++ci;
            }
            if (b[i] < 0)
                b[i] = bi;
            else if (b[i] != bi)
                return std::nullopt;
            if (c[i] < 0)
                c[i] = ci;
            else if (c[i] != ci)
                return std::nullopt;
        }
    IntersectionArray a;
    for (std::int32_t i = 0; i < diam; ++i) a.b.push_back(static_cast<std::uint32_t>(b[i]));
    for (std::int32_t i = 1; i <= diam; ++i) a.c.push_back(static_cast<std::uint32_t>(c[i]));
    return a;
}

}  // namespace brec
