#include "gen/detail/ten_vertex.hpp"

#include <algorithm>
#include <atomic>
#include <map>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/rng.hpp"
#include "brec/count/patterns.hpp"
#include "brec/gen/geng.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/iso/iso.hpp"
#include "brec/wl/wl.hpp"
#include "gen/detail/cancel.hpp"

namespace brec::detail {

namespace {

template <typename T>
void insertion_sort(T* a, int len) {
    for (int i = 1; i < len; ++i) {
        T x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > x) {
            a[j + 1] = a[j];
            --j;
        }
        a[j + 1] = x;
    }
}

int count_distinct(const std::uint64_t* col, int n, std::uint64_t* scratch) {
    std::copy(col, col + n, scratch);
    insertion_sort(scratch, n);
    int d = n > 0 ? 1 : 0;
    for (int i = 1; i < n; ++i) d += scratch[i] != scratch[i - 1];
    return d;
}

/// The same refinement as wl_hash, on adjacency bit rows of a graph with at most 16 vertices.
std::uint64_t small_wl_hash(const std::uint16_t* adj, int n) {
    std::uint64_t col[16], next[16], tmp[16], scratch[16];
    for (int v = 0; v < n; ++v) col[v] = splitmix64(static_cast<std::uint64_t>(__builtin_popcount(adj[v])) + 1);
    int distinct = count_distinct(col, n, scratch);
    for (int round = 0; round <= n; ++round) {
        for (int v = 0; v < n; ++v) {
            int d = 0;
            for (unsigned bits = adj[v]; bits; bits &= bits - 1) tmp[d++] = col[__builtin_ctz(bits)];
            insertion_sort(tmp, d);
            std::uint64_t h = splitmix64(col[v] ^ 0x5bd1e9955bd1e995ULL);
            for (int i = 0; i < d; ++i) h = splitmix64(h + tmp[i]);
            next[v] = h;
        }
        std::copy(next, next + n, col);
        const int d2 = count_distinct(col, n, scratch);
        if (d2 == distinct) break;
        distinct = d2;
    }
    std::copy(col, col + n, scratch);
    insertion_sort(scratch, n);
    std::uint64_t h = splitmix64(static_cast<std::uint64_t>(n));
    for (int i = 0; i < n; ++i) h = splitmix64(h ^ scratch[i]);
    return h;
}

}  // namespace

std::uint64_t wl_hash(const Graph& g, const std::vector<std::uint64_t>& initial) {
    const VertexId n = g.n();
    std::vector<std::uint64_t> col(n), next(n), tmp, scratch;
    for (VertexId v = 0; v < n; ++v)
        col[v] = initial.empty() ? splitmix64(static_cast<std::uint64_t>(g.degree(v)) + 1) : splitmix64(initial[v]);
    auto distinct = [&]() {
        scratch = col;
        std::sort(scratch.begin(), scratch.end());
        return std::unique(scratch.begin(), scratch.end()) - scratch.begin();
    };
    auto d = distinct();
    for (VertexId round = 0; round <= n; ++round) {
        for (VertexId v = 0; v < n; ++v) {
            tmp.clear();
            for (VertexId w : g.neighbors(v)) tmp.push_back(col[w]);
            std::sort(tmp.begin(), tmp.end());
            std::uint64_t h = splitmix64(col[v] ^ 0x5bd1e9955bd1e995ULL);
            for (auto c : tmp) h = splitmix64(h + c);
            next[v] = h;
        }
        col.swap(next);
        const auto d2 = distinct();
        if (d2 == d) break;
        d = d2;
    }
    scratch = col;
    std::sort(scratch.begin(), scratch.end());
    std::uint64_t h = splitmix64(static_cast<std::uint64_t>(n));
    for (auto c : scratch) h = splitmix64(h ^ c);
    return h;
}

bool graph6_code(const char* s, std::size_t len, VertexId n, std::uint64_t& code) {
    if (n > 11 || len < 1 || static_cast<VertexId>(s[0] - 63) != n) return false;
    const std::size_t bits = static_cast<std::size_t>(n) * (n - 1) / 2;
    if (len != 1 + (bits + 5) / 6) return false;
    code = 0;
    std::size_t k = 0;
    for (std::size_t i = 1; i < len; ++i) {
        const int c = s[i] - 63;
        if (c < 0 || c > 63) return false;
        for (int b = 5; b >= 0 && k < bits; --b, ++k)
            if ((c >> b) & 1) code |= std::uint64_t{1} << k;
    }
    return true;
}

Graph graph_from_code(std::uint64_t code, VertexId n) {
    std::vector<Edge> edges;
    std::size_t k = 0;
    for (VertexId j = 1; j < n; ++j)
        for (VertexId i = 0; i < j; ++i, ++k)
            if ((code >> k) & 1) edges.push_back({i, j});
    return make_graph(n, edges);
}

TenVertexPool build_ten_vertex_pool(VertexId n, RunContext& ctx) {
    if (n < 4 || n > 11)
        throw InvalidArgument("the exhaustive search supports 4..11 vertices, got " + std::to_string(n));
    const int parts = std::max(1, ctx.threads());
    std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> found(parts);
    std::vector<std::uint64_t> streamed(parts, 0);
    std::atomic<std::uint64_t> total{0};
    parallel_for(static_cast<std::size_t>(parts), parts, [&](std::size_t part) {
        GengQuery q;
        q.n = n;
        q.connected = true;
        q.res = static_cast<int>(part);
        q.mod = parts;
        auto& out = found[part];
        std::uint16_t adj[16];
        streamed[part] = stream_geng(q, [&](std::string_view line) {
            std::uint64_t code = 0;
            if (!graph6_code(line.data(), line.size(), n, code))
                throw IoError("geng produced an unexpected record '" + std::string(line) + "'");
            std::fill(adj, adj + n, 0);
            std::size_t k = 0;
            for (VertexId j = 1; j < n; ++j)
                for (VertexId i = 0; i < j; ++i, ++k)
                    if ((code >> k) & 1) {
                        adj[i] |= static_cast<std::uint16_t>(1u << j);
                        adj[j] |= static_cast<std::uint16_t>(1u << i);
                    }
            bool regular = true;
            for (VertexId v = 1; v < n && regular; ++v)
                regular = __builtin_popcount(adj[v]) == __builtin_popcount(adj[0]);
            if (!regular) out.push_back({small_wl_hash(adj, static_cast<int>(n)), code});
            const std::uint64_t t = ++total;
            if ((t & 0xFFFFF) == 0) ctx.progress("geng -c " + std::to_string(n), t, 0);
            // A cancelled run stops here with an exception, during which stream_geng stops and
            // reaps geng (stopping by returning false would leave a silently truncated pool).
            check_cancelled(ctx);
            return true;
        });
    });
    TenVertexPool pool;
    pool.n = n;
    for (auto s : streamed) pool.streamed += s;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> all;
    {
        std::size_t size = 0;
        for (auto& f : found) size += f.size();
        all.reserve(size);
        for (auto& f : found) {
            all.insert(all.end(), f.begin(), f.end());
            std::vector<std::pair<std::uint64_t, std::uint64_t>>().swap(f);
        }
    }
    std::sort(all.begin(), all.end());
    // Hash groups with at least two members.
    std::vector<std::pair<std::size_t, std::size_t>> groups;
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i + 1;
        while (j < all.size() && all[j].first == all[i].first) ++j;
        if (j - i >= 2) {
            groups.push_back({i, j});
            pool.candidates += j - i;
        }
        i = j;
    }
    std::vector<std::vector<std::vector<std::uint64_t>>> split(groups.size());
    parallel_for(groups.size(), ctx.threads(), [&](std::size_t gi) {
        check_cancelled(ctx);
        const auto [begin, end] = groups[gi];
        std::vector<Graph> reps;
        std::vector<std::vector<std::uint64_t>> classes;
        for (std::size_t i = begin; i < end; ++i) {
            Graph g = graph_from_code(all[i].second, n);
            std::size_t c = 0;
            while (c < reps.size() && !wl1_equivalent(reps[c], g)) ++c;
            if (c == reps.size()) {
                reps.push_back(std::move(g));
                classes.emplace_back();
            }
            classes[c].push_back(all[i].second);
        }
        for (auto& cl : classes)
            if (cl.size() >= 2) split[gi].push_back(std::move(cl));
    });
    for (auto& s : split)
        for (auto& cl : s) pool.classes.push_back(std::move(cl));
    return pool;
}

std::vector<std::vector<std::uint64_t>> extension_subclasses(const std::vector<std::uint64_t>& cls, VertexId n,
                                                             const std::string& kind) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> keyed;
    for (std::uint64_t code : cls) {
        const Graph g = graph_from_code(code, n);
        std::vector<std::uint64_t> init(n);
        if (kind == "S3" || kind == "S4") {
            const auto counts = count_patterns(g, kind == "S3" ? 3 : 4);
            for (VertexId v = 0; v < n; ++v) {
                std::uint64_t h = 0x1234567ULL;
                for (int p = 0; p < kNumPatterns; ++p) h = splitmix64(h + counts.per_node[v][p]);
                init[v] = h;
            }
        } else if (kind == "N1") {
            // An isomorphism-invariant key of the ego-net (coarser than its nauty certificate,
            // which is fine: candidate pairs are verified with the WL engine's n:1 afterwards).
            for (VertexId v = 0; v < n; ++v) init[v] = wl_hash(induced_subgraph(g, ego_vertices(g, v, 1)));
        } else {
            throw InvalidArgument("extension_subclasses: unknown kind '" + kind + "'");
        }
        keyed.push_back({wl_hash(g, init), code});
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<std::vector<std::uint64_t>> out;
    for (std::size_t i = 0; i < keyed.size();) {
        std::size_t j = i + 1;
        while (j < keyed.size() && keyed[j].first == keyed[i].first) ++j;
        if (j - i >= 2) {
            std::vector<std::uint64_t> sub;
            for (std::size_t t = i; t < j; ++t) sub.push_back(keyed[t].second);
            out.push_back(std::move(sub));
        }
        i = j;
    }
    return out;
}

}  // namespace brec::detail
