#include "brec/gen/constructions.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/graph/properties.hpp"
#include "brec/iso/iso.hpp"
#include "gen/detail/bitgraph.hpp"
#include "gen/detail/cancel.hpp"

namespace brec {

using detail::BitGraph;
using detail::popcount64;

// ----- small building blocks -------------------------------------------------------------------

Graph cartesian_product(const Graph& g, const Graph& h) {
    const VertexId ng = g.n(), nh = h.n();
    std::vector<Edge> edges;
    for (VertexId a = 0; a < ng; ++a)
        for (VertexId b = 0; b < nh; ++b) {
            const VertexId v = a * nh + b;
            for (VertexId c : h.neighbors(b))
                if (c > b) edges.push_back({v, a * nh + c});
            for (VertexId c : g.neighbors(a))
                if (c > a) edges.push_back({v, c * nh + b});
        }
    return make_graph(ng * nh, edges);
}

Graph add_universal_vertex(const Graph& g) {
    std::vector<Edge> edges = g.edges();
    for (VertexId v = 0; v < g.n(); ++v) edges.push_back({v, g.n()});
    return make_graph(g.n() + 1, edges);
}

Graph seidel_switch(const Graph& g, const std::vector<VertexId>& subset) {
    std::vector<char> in(g.n(), 0);
    for (VertexId v : subset) {
        if (v >= g.n()) throw InvalidArgument("seidel_switch: vertex " + std::to_string(v) + " out of range");
        in[v] = 1;
    }
    std::vector<Edge> edges;
    for (VertexId u = 0; u < g.n(); ++u)
        for (VertexId v = u + 1; v < g.n(); ++v) {
            const bool e = g.has_edge(u, v);
            if (e != (in[u] != in[v])) edges.push_back({u, v});
        }
    return make_graph(g.n(), edges);
}

Graph lcf_graph(const std::vector<int>& shifts, int repeat) {
    if (shifts.empty() || repeat < 1) throw InvalidArgument("lcf_graph: empty notation");
    const auto n = static_cast<VertexId>(shifts.size() * static_cast<std::size_t>(repeat));
    GraphBuilder b(n);
    b.set_duplicates(EdgePolicy::drop);
    for (VertexId i = 0; i < n; ++i) {
        b.add_edge(i, (i + 1) % n);
        const long long j = (static_cast<long long>(i) + shifts[i % shifts.size()]) % n;
        b.add_edge(i, static_cast<VertexId>((j + n) % n));
    }
    return b.build();
}

// ----- strongly regular graphs -----------------------------------------------------------------

Graph rook_graph(VertexId m) { return cartesian_product(make_complete(m), make_complete(m)); }

Graph shrikhande_graph() {
    std::vector<Edge> edges;
    const int d[3][2] = {{0, 1}, {1, 0}, {1, 1}};
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            for (const auto& s : d) {
                const int u = a * 4 + b, v = ((a + s[0]) % 4) * 4 + (b + s[1]) % 4;
                edges.push_back({static_cast<VertexId>(std::min(u, v)), static_cast<VertexId>(std::max(u, v))});
            }
    return make_graph(16, edges);
}

namespace {

/// Ids of the pairs {i<j} of 0..m-1 in lexicographic order.
std::vector<std::pair<VertexId, VertexId>> pair_list(VertexId m) {
    std::vector<std::pair<VertexId, VertexId>> p;
    for (VertexId i = 0; i < m; ++i)
        for (VertexId j = i + 1; j < m; ++j) p.push_back({i, j});
    return p;
}

}  // namespace

Graph triangular_graph(VertexId m) {
    const auto p = pair_list(m);
    std::vector<Edge> edges;
    for (VertexId a = 0; a < p.size(); ++a)
        for (VertexId b = a + 1; b < p.size(); ++b) {
            const int shared = (p[a].first == p[b].first) + (p[a].first == p[b].second) + (p[a].second == p[b].first) +
                               (p[a].second == p[b].second);
            if (shared == 1) edges.push_back({a, b});
        }
    return make_graph(static_cast<VertexId>(p.size()), edges);
}

std::vector<Graph> chang_graphs() {
    const Graph t8 = triangular_graph(8);
    const auto p = pair_list(8);
    auto id = [&](VertexId i, VertexId j) {
        if (i > j) std::swap(i, j);
        return static_cast<VertexId>(std::find(p.begin(), p.end(), std::make_pair(i, j)) - p.begin());
    };
    const std::vector<std::vector<std::pair<VertexId, VertexId>>> sets = {
        {{0, 1}, {2, 3}, {4, 5}, {6, 7}},                                  // 4K2
        {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 0}},  // C8
        {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 3}},  // C3 + C5
    };
    std::vector<Graph> out;
    for (const auto& s : sets) {
        std::vector<VertexId> subset;
        for (const auto& [i, j] : s) subset.push_back(id(i, j));
        out.push_back(seidel_switch(t8, subset));
    }
    return out;
}

Graph latin_square_graph(const LatinSquare& square) {
    const auto n = static_cast<VertexId>(square.size());
    for (const auto& row : square)
        if (row.size() != n) throw InvalidArgument("latin_square_graph: the square is not n x n");
    std::vector<Edge> edges;
    for (VertexId a = 0; a < n * n; ++a)
        for (VertexId b = a + 1; b < n * n; ++b) {
            const VertexId ra = a / n, ca = a % n, rb = b / n, cb = b % n;
            if (ra == rb || ca == cb || square[ra][ca] == square[rb][cb]) edges.push_back({a, b});
        }
    return make_graph(n * n, edges);
}

void for_each_reduced_latin_square(int n, const std::function<bool(const LatinSquare&)>& visit) {
    if (n < 1 || n > 9) throw InvalidArgument("for_each_reduced_latin_square: n must be in 1..9");
    LatinSquare sq(n, std::vector<int>(n, -1));
    std::vector<unsigned> row_used(n, 0), col_used(n, 0);
    for (int i = 0; i < n; ++i) {
        sq[0][i] = i;
        sq[i][0] = i;
        row_used[0] |= 1u << i;
        col_used[i] |= 1u << i;
        row_used[i] |= 1u << i;
        col_used[0] |= 1u << i;
    }
    bool stop = false;
    std::function<void(int)> rec = [&](int cell) {
        if (stop) return;
        if (cell == n * n) {
            if (!visit(sq)) stop = true;
            return;
        }
        const int r = cell / n, c = cell % n;
        if (r == 0 || c == 0) {
            rec(cell + 1);
            return;
        }
        for (int s = 0; s < n && !stop; ++s) {
            const unsigned bit = 1u << s;
            if ((row_used[r] & bit) || (col_used[c] & bit)) continue;
            row_used[r] |= bit;
            col_used[c] |= bit;
            sq[r][c] = s;
            rec(cell + 1);
            row_used[r] &= ~bit;
            col_used[c] &= ~bit;
        }
        sq[r][c] = -1;
    };
    rec(0);
}

namespace {

bool is_prime(std::uint32_t p) {
    if (p < 2) return false;
    for (std::uint32_t d = 2; d * d <= p; ++d)
        if (p % d == 0) return false;
    return true;
}

}  // namespace

Graph paley_graph(std::uint32_t q) {
    if (q % 4 != 1) throw InvalidArgument("paley_graph: q must be 1 mod 4, got " + std::to_string(q));
    std::vector<char> square(q, 0);
    std::uint32_t p = q;
    if (is_prime(q)) {
        for (std::uint32_t x = 1; x < q; ++x) square[(static_cast<std::uint64_t>(x) * x) % q] = 1;
    } else {
        p = 0;
        for (std::uint32_t c = 3; c * c <= q; c += 2)
            if (c * c == q && is_prime(c)) p = c;
        if (p == 0)
            throw InvalidArgument("paley_graph: q = " + std::to_string(q) +
                                  " is neither a prime nor the square of an odd prime");
        // GF(p^2) = GF(p)[a] / (a^2 - r), r a non-residue; element x + y a has id x + y p.
        std::vector<char> residue(p, 0);
        for (std::uint32_t x = 1; x < p; ++x) residue[(x * x) % p] = 1;
        std::uint32_t r = 1;
        while (residue[r]) ++r;
        for (std::uint32_t x = 0; x < p; ++x)
            for (std::uint32_t y = 0; y < p; ++y) {
                if (x == 0 && y == 0) continue;
                const std::uint32_t a = (x * x + y * y % p * r) % p, b = (2 * x * y) % p;
                square[a + b * p] = 1;
            }
    }
    auto sub = [&](std::uint32_t u, std::uint32_t v) {
        if (p == q) return (u + q - v) % q;
        const std::uint32_t x = (u % p + p - v % p) % p, y = (u / p + p - v / p) % p;
        return x + y * p;
    };
    std::vector<Edge> edges;
    for (std::uint32_t u = 0; u < q; ++u)
        for (std::uint32_t v = u + 1; v < q; ++v)
            if (square[sub(u, v)]) edges.push_back({u, v});
    return make_graph(q, edges);
}

std::optional<BlockList> steiner_triple_system(VertexId v, Rng& rng, std::size_t max_steps) {
    if (v < 3 || (v % 6 != 1 && v % 6 != 3))
        throw InvalidArgument("steiner_triple_system: v must be 1 or 3 mod 6, got " + std::to_string(v));
    // third[x*v+y]: the third point of the block on {x,y}, or -1.
    std::vector<int> third(v * v, -1);
    std::vector<int> degree(v, 0);  // blocks through each point
    const std::size_t target = static_cast<std::size_t>(v) * (v - 1) / 6;
    const int full = static_cast<int>((v - 1) / 2);
    std::size_t blocks = 0;
    std::vector<VertexId> live, partners;
    for (std::size_t step = 0; step < max_steps && blocks < target; ++step) {
        live.clear();
        for (VertexId x = 0; x < v; ++x)
            if (degree[x] < full) live.push_back(x);
        const VertexId x = live[rng.below(live.size())];
        partners.clear();
        for (VertexId y = 0; y < v; ++y)
            if (y != x && third[x * v + y] < 0) partners.push_back(y);
        const std::size_t i = rng.below(partners.size());
        std::size_t j = rng.below(partners.size() - 1);
        if (j >= i) ++j;
        const VertexId y = partners[i], z = partners[j];
        const int w = third[y * v + z];
        if (w >= 0) {  // remove the block {y, z, w}
            const auto uw = static_cast<VertexId>(w);
            third[y * v + z] = third[z * v + y] = -1;
            third[y * v + uw] = third[uw * v + y] = -1;
            third[z * v + uw] = third[uw * v + z] = -1;
            --degree[y];
            --degree[z];
            --degree[uw];
            --blocks;
        }
        third[x * v + y] = third[y * v + x] = static_cast<int>(z);
        third[x * v + z] = third[z * v + x] = static_cast<int>(y);
        third[y * v + z] = third[z * v + y] = static_cast<int>(x);
        ++degree[x];
        ++degree[y];
        ++degree[z];
        ++blocks;
    }
    if (blocks < target) return std::nullopt;
    BlockList out;
    for (VertexId x = 0; x < v; ++x)
        for (VertexId y = x + 1; y < v; ++y) {
            const int z = third[x * v + y];
            if (z > static_cast<int>(y)) out.push_back({x, y, static_cast<VertexId>(z)});
        }
    return out;
}

BlockList projective_space_pg32_triples() {
    BlockList out;
    for (VertexId a = 1; a < 16; ++a)
        for (VertexId b = a + 1; b < 16; ++b)
            if ((a ^ b) > b) out.push_back({a - 1, b - 1, (a ^ b) - 1});
    return out;
}

Graph block_graph(const BlockList& blocks, std::uint32_t meet) {
    std::vector<Edge> edges;
    for (VertexId a = 0; a < blocks.size(); ++a)
        for (VertexId b = a + 1; b < blocks.size(); ++b) {
            std::vector<VertexId> common;
            std::set_intersection(blocks[a].begin(), blocks[a].end(), blocks[b].begin(), blocks[b].end(),
                                  std::back_inserter(common));
            if (common.size() == meet) edges.push_back({a, b});
        }
    return make_graph(static_cast<VertexId>(blocks.size()), edges);
}

std::vector<std::array<VertexId, 4>> gm4_sets(const Graph& g) {
    const BitGraph bg(g);
    const VertexId n = bg.n;
    const std::size_t w = bg.words;
    std::vector<std::array<VertexId, 4>> out;
    std::vector<std::uint64_t> pab(w), pabc(w), cmask(w);
    for (VertexId a = 0; a < n; ++a)
        for (VertexId b = a + 1; b < n; ++b) {
            for (std::size_t i = 0; i < w; ++i) pab[i] = bg.row(a)[i] ^ bg.row(b)[i];
            for (VertexId c = b + 1; c < n; ++c) {
                for (std::size_t i = 0; i < w; ++i) pabc[i] = pab[i] ^ bg.row(c)[i];
                for (VertexId d = c + 1; d < n; ++d) {
                    const std::uint64_t* rd = bg.row(d);
                    bool ok = true;
                    for (std::size_t i = 0; i < w && ok; ++i) {
                        std::uint64_t x = pabc[i] ^ rd[i];
                        for (VertexId t : {a, b, c, d})
                            if ((t >> 6) == i) x &= ~(std::uint64_t{1} << (t & 63));
                        ok = x == 0;
                    }
                    if (!ok) continue;
                    const VertexId q[4] = {a, b, c, d};
                    int deg0 = -1;
                    for (int s = 0; s < 4 && ok; ++s) {
                        int dg = 0;
                        for (int t = 0; t < 4; ++t)
                            if (t != s && bg.has(q[s], q[t])) ++dg;
                        if (deg0 < 0)
                            deg0 = dg;
                        else
                            ok = dg == deg0;
                    }
                    if (ok) out.push_back({a, b, c, d});
                }
            }
        }
    return out;
}

Graph gm4_switch(const Graph& g, const std::array<VertexId, 4>& c) {
    BitGraph bg(g);
    for (VertexId v = 0; v < bg.n; ++v) {
        if (v == c[0] || v == c[1] || v == c[2] || v == c[3]) continue;
        int cnt = 0;
        for (VertexId x : c) cnt += bg.has(v, x);
        if (cnt == 2)
            for (VertexId x : c) bg.flip(v, x);
    }
    return bg.to_graph();
}

// ----- two-graph closure -----------------------------------------------------------------------

namespace {

bool has_srg(const Graph& g, SrgParameters want) {
    const auto p = srg_parameters(g);
    return p && *p == want;
}

/// Sets T (|T| = 10) inducing a 3-regular subgraph of the srg(25,12,5,6) G with every outside
/// vertex having exactly 6 neighbours in T (backtracking with degree bounds).
std::vector<std::vector<VertexId>> regular_members(const Graph& g) {
    const VertexId n = g.n();
    const int size = 10, in_deg = 3, out_deg = 6;
    std::vector<int> state(n, 0);  // 0 undecided, 1 in, 2 out
    std::vector<int> cnt(n, 0), undecided_nb(n, 0);
    for (VertexId v = 0; v < n; ++v) undecided_nb[v] = static_cast<int>(g.degree(v));
    std::vector<std::vector<VertexId>> out;
    int chosen = 0;
    auto feasible = [&]() {
        for (VertexId v = 0; v < n; ++v) {
            const int hi = cnt[v] + undecided_nb[v];
            if (state[v] == 1 && (cnt[v] > in_deg || hi < in_deg)) return false;
            if (state[v] == 2 && (cnt[v] > out_deg || hi < out_deg)) return false;
            if (state[v] == 0 && (cnt[v] > out_deg || hi < in_deg)) return false;
        }
        return true;
    };
    std::function<void(VertexId)> rec = [&](VertexId i) {
        if (out.size() >= 2000) return;
        if (i == n) {
            if (chosen != size) return;
            std::vector<VertexId> t;
            for (VertexId v = 0; v < n; ++v)
                if (state[v] == 1) t.push_back(v);
            out.push_back(t);
            return;
        }
        for (VertexId w : g.neighbors(i)) --undecided_nb[w];
        for (int choice : {1, 2}) {
            if (choice == 1 && chosen == size) continue;
            if (choice == 2 && static_cast<int>(n - i - 1) < size - chosen) continue;
            state[i] = choice;
            if (choice == 1) {
                ++chosen;
                for (VertexId w : g.neighbors(i)) ++cnt[w];
            }
            if (feasible()) rec(i + 1);
            if (choice == 1) {
                --chosen;
                for (VertexId w : g.neighbors(i)) --cnt[w];
            }
            state[i] = 0;
        }
        for (VertexId w : g.neighbors(i)) ++undecided_nb[w];
    };
    rec(0);
    return out;
}

/// Graph plus one isolated vertex.
Graph add_isolated_vertex(const Graph& g) { return make_graph(g.n() + 1, g.edges()); }

/// The 25-vertex descendants of a 26-vertex graph: isolate x by switching wrt N(x), delete x.
std::vector<Graph> descendants(const Graph& h) {
    std::vector<Graph> out;
    for (VertexId x = 0; x < h.n(); ++x) {
        std::vector<VertexId> nb(h.neighbors(x).begin(), h.neighbors(x).end());
        const Graph s = seidel_switch(h, nb);
        std::vector<VertexId> keep;
        for (VertexId v = 0; v < h.n(); ++v)
            if (v != x) keep.push_back(v);
        out.push_back(induced_subgraph(s, keep));
    }
    return out;
}

}  // namespace

TwoGraphClosure two_graph_closure(RunContext& ctx) {
    const SrgParameters p25{25, 12, 5, 6}, p26{26, 10, 3, 4};
    // Every graph carries its canonical certificate from the moment it is made: it is computed once
    // per candidate (in parallel), then used for the closure's dedup and for the final order.
    struct Item {
        std::string cert;
        Graph g;
        bool is26;
    };
    std::vector<Item> level;
    std::set<std::string> seen;
    auto admit = [&](Item it, std::vector<Item>& into) {
        if (seen.insert(it.cert).second) into.push_back(std::move(it));
    };
    auto item = [](Graph g, bool is26) {
        std::string cert = canonical_certificate(g).bytes;
        return Item{std::move(cert), std::move(g), is26};
    };
    // Seeds. The STS(13) seed comes from a fixed stream, independent of any user seed, so that
    // the closure (and its order) is a constant of the library.
    constexpr std::uint64_t kSts13Stream = 13;
    admit(item(paley_graph(25), false), level);
    admit(
        item(latin_square_graph({{0, 1, 2, 3, 4}, {1, 0, 3, 4, 2}, {2, 3, 4, 0, 1}, {3, 4, 1, 2, 0}, {4, 2, 0, 1, 3}}),
             false),
        level);
    {
        Rng rng(stream_seed(kSts13Stream, kSts13Stream));
        std::optional<BlockList> sts;
        while (!sts) sts = steiner_triple_system(13, rng);
        admit(item(complement(block_graph(*sts)), true), level);
    }
    std::vector<Item> all = level;
    while (!level.empty()) {
        std::vector<std::vector<Item>> produced(level.size());
        parallel_for(level.size(), ctx.threads(), [&](std::size_t i) {
            detail::check_cancelled(ctx);
            const Item& it = level[i];
            std::vector<std::pair<Graph, bool>> made;
            if (it.is26) {
                for (Graph& d : descendants(it.g))
                    if (has_srg(d, p25)) made.push_back({std::move(d), false});
            } else {
                const Graph plus = add_isolated_vertex(it.g);
                for (const auto& t : regular_members(it.g)) {
                    Graph s = seidel_switch(plus, t);
                    if (has_srg(s, p26)) made.push_back({std::move(s), true});
                }
            }
            for (const auto& c : gm4_sets(it.g)) {
                Graph s = gm4_switch(it.g, c);
                if (has_srg(s, it.is26 ? p26 : p25)) made.push_back({std::move(s), it.is26});
            }
            // Drop duplicates within this item here, in parallel; the merge below drops the rest.
            std::set<std::string> local;
            for (auto& [g, is26] : made) {
                Item x = item(std::move(g), is26);
                if (local.insert(x.cert).second) produced[i].push_back(std::move(x));
            }
        });
        std::vector<Item> next;
        for (auto& out : produced)
            for (auto& x : out) admit(std::move(x), next);
        all.insert(all.end(), next.begin(), next.end());
        level = std::move(next);
        ctx.progress("two-graph closure", all.size(), all.size() + level.size());
    }
    std::sort(all.begin(), all.end(), [](const Item& a, const Item& b) { return a.cert < b.cert; });
    TwoGraphClosure result;
    for (auto& it : all) (it.is26 ? result.srg26 : result.srg25).push_back(std::move(it.g));
    return result;
}

Graph symplectic_graph(int m) {
    if (m < 1 || m > 5) throw InvalidArgument("symplectic_graph: m must be in 1..5");
    const VertexId count = (1u << (2 * m)) - 1;
    auto form = [m](unsigned x, unsigned y) {
        int s = 0;
        for (int i = 0; i < m; ++i) s += ((x >> i) & 1) * ((y >> (i + m)) & 1) + ((x >> (i + m)) & 1) * ((y >> i) & 1);
        return s & 1;
    };
    std::vector<Edge> edges;
    for (unsigned x = 1; x <= count; ++x)
        for (unsigned y = x + 1; y <= count; ++y)
            if (form(x, y) == 0) edges.push_back({x - 1, y - 1});
    return make_graph(count, edges);
}

// ----- distance-regular graphs -----------------------------------------------------------------

Graph tutte_12_cage() {
    return lcf_graph({17, 27, -13, -59, -35, 35, -11, 13, -53, 53, -27, 21, 57, 11, -21, -57, 59, -17}, 7);
}

std::pair<Graph, Graph> generalized_hexagon_pair() {
    const Graph cage = tutte_12_cage();
    const auto dist0 = bfs_distances(cage, 0);
    std::vector<VertexId> id(cage.n());
    std::vector<VertexId> count(2, 0);
    for (VertexId v = 0; v < cage.n(); ++v) id[v] = count[dist0[v] & 1]++;
    Graph out[2];
    for (int side = 0; side < 2; ++side) {
        GraphBuilder b(count[side]);
        b.set_duplicates(EdgePolicy::drop);
        for (VertexId v = 0; v < cage.n(); ++v) {
            if ((dist0[v] & 1) != side) continue;
            for (VertexId w : cage.neighbors(v))
                for (VertexId x : cage.neighbors(w))
                    if (x != v) b.add_edge(id[v], id[x]);
        }
        out[side] = b.build();
    }
    return {out[0], out[1]};
}

std::optional<BlockList> random_symmetric_design(VertexId v, VertexId k, VertexId lambda, Rng& rng,
                                                 std::size_t node_limit) {
    if (v > 32 || k >= v || lambda >= k ||
        static_cast<std::uint64_t>(lambda) * (v - 1) != static_cast<std::uint64_t>(k) * (k - 1))
        throw InvalidArgument("random_symmetric_design: need v <= 32 and lambda (v-1) = k (k-1)");
    using Mask = std::uint32_t;
    const Mask block0 = k == 32 ? ~Mask{0} : ((Mask{1} << k) - 1);
    // Candidates: k-sets meeting block 0 in lambda points.
    std::vector<Mask> cands;
    {
        std::vector<Mask> inner, outer;
        for (Mask m = 0; m < (Mask{1} << k); ++m)
            if (static_cast<VertexId>(popcount64(m)) == lambda) inner.push_back(m);
        const VertexId rest = v - k;
        for (Mask m = 0; m < (Mask{1} << rest); ++m)
            if (static_cast<VertexId>(popcount64(m)) == k - lambda) outer.push_back(m << k);
        cands.reserve(inner.size() * outer.size());
        for (Mask a : inner)
            for (Mask b : outer) cands.push_back(a | b);
    }
    rng.shuffle(cands);
    std::vector<int> need(v, static_cast<int>(k));
    for (VertexId p = 0; p < k; ++p) --need[p];
    std::vector<Mask> chosen{block0};
    std::size_t nodes = 0;
    bool aborted = false;
    std::function<bool(const std::vector<Mask>&)> rec = [&](const std::vector<Mask>& cs) -> bool {
        if (chosen.size() == v) return true;
        if (++nodes > node_limit) {
            aborted = true;
            return false;
        }
        std::vector<int> count(v, 0);
        for (Mask c : cs)
            for (Mask bits = c; bits; bits &= bits - 1) ++count[__builtin_ctz(bits)];
        int best = -1;
        for (VertexId p = 0; p < v; ++p) {
            if (need[p] == 0) continue;
            if (count[p] < need[p]) return false;
            if (best < 0 || count[p] < count[best]) best = static_cast<int>(p);
        }
        if (best < 0) return false;
        const Mask pbit = Mask{1} << best;
        std::vector<char> excluded(cs.size(), 0);  // earlier branches at this node
        for (std::size_t ci = 0; ci < cs.size(); ++ci) {
            const Mask c = cs[ci];
            if (!(c & pbit)) continue;
            Mask full = 0;
            for (Mask bits = c; bits; bits &= bits - 1) {
                const int p = __builtin_ctz(bits);
                if (--need[p] == 0) full |= Mask{1} << p;
            }
            std::vector<Mask> next;
            for (std::size_t di = 0; di < cs.size(); ++di) {
                const Mask d = cs[di];
                if (di == ci || excluded[di] || (d & full) || static_cast<VertexId>(popcount64(d & c)) != lambda)
                    continue;
                next.push_back(d);
            }
            chosen.push_back(c);
            if (rec(next)) return true;
            chosen.pop_back();
            for (Mask bits = c; bits; bits &= bits - 1) ++need[__builtin_ctz(bits)];
            if (aborted) return false;
            excluded[ci] = 1;
        }
        return false;
    };
    if (!rec(cands)) return std::nullopt;
    BlockList out;
    for (Mask c : chosen) {
        std::vector<VertexId> b;
        for (Mask bits = c; bits; bits &= bits - 1) b.push_back(static_cast<VertexId>(__builtin_ctz(bits)));
        out.push_back(b);
    }
    std::sort(out.begin(), out.end());
    return out;
}

BlockList cyclic_design(const std::vector<VertexId>& difference_set, VertexId v) {
    BlockList out;
    for (VertexId i = 0; i < v; ++i) {
        std::vector<VertexId> b;
        for (VertexId d : difference_set) b.push_back((d + i) % v);
        std::sort(b.begin(), b.end());
        out.push_back(b);
    }
    return out;
}

BlockList complement_design(const BlockList& blocks, VertexId v) {
    BlockList out;
    for (const auto& b : blocks) {
        std::vector<VertexId> c;
        for (VertexId p = 0; p < v; ++p)
            if (!std::binary_search(b.begin(), b.end(), p)) c.push_back(p);
        out.push_back(c);
    }
    return out;
}

Graph incidence_graph(const BlockList& blocks, VertexId v) {
    std::vector<Edge> edges;
    for (VertexId j = 0; j < blocks.size(); ++j)
        for (VertexId p : blocks[j]) {
            if (p >= v) throw InvalidArgument("incidence_graph: point " + std::to_string(p) + " out of range");
            edges.push_back({p, v + j});
        }
    return make_graph(v + static_cast<VertexId>(blocks.size()), edges);
}

Graph taylor_double_cover(const Graph& g) {
    const VertexId n = g.n();
    std::vector<Edge> edges;
    for (VertexId x = 0; x < n; ++x)
        for (VertexId y = x + 1; y < n; ++y) {
            if (g.has_edge(x, y)) {
                edges.push_back({x, y});
                edges.push_back({n + x, n + y});
            } else {
                edges.push_back({x, n + y});
                edges.push_back({y, n + x});
            }
        }
    return make_graph(2 * n, edges);
}

Graph hamming_graph(int d, VertexId q) {
    if (d < 1) throw InvalidArgument("hamming_graph: d must be >= 1");
    Graph g = make_complete(q);
    for (int i = 1; i < d; ++i) g = cartesian_product(g, make_complete(q));
    return g;
}

Graph shrikhande_times_k4() { return cartesian_product(shrikhande_graph(), make_complete(4)); }

}  // namespace brec
