// k-WL (oblivious) and k-FWL (folklore) for k = 1, 2, 3 with a shared palette for G and H.
//
// Colours live in flat arrays indexed by tuple id (a*n^2 + b*n + c). A tuple's new colour is the
// rank of (old colour, H), where H is a 64-bit hash of the multiset in the definition:
//   k-FWL: H = sum over w of mix(R1[c(v[1<-w])] + ... + Rk[c(v[k<-w])]),
//   k-WL:  H = sum over i and w of mix(Ri[c(v[i<-w])]),
// with R_i[c] independent pseudo-random 64-bit values per position and colour, and mix() the
// MurmurHash3 finaliser. Sums of mixed values hash multisets; two different multisets collide with
// probability about 2^-64, so results are exact for all practical purposes, and old colours are
// kept exactly, so a partition never coarsens and stability is detected exactly.
// For speed, each round writes the R-values into k copies of the tuple array, laid out so that the
// loop over w reads contiguous memory.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/rng.hpp"
#include "detail/refine.hpp"
#include "detail/tuple_wl.hpp"

namespace brec::detail {
namespace {

inline std::uint64_t fmix64(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/// Random value of colour c at position i (independent of the round).
inline std::uint64_t position_value(std::uint32_t c, int i) {
    return splitmix64((static_cast<std::uint64_t>(c) << 3) ^ static_cast<std::uint64_t>(i) ^
                      0x5851f42d4c957f2dULL);
}

std::size_t power(std::size_t n, int k) {
    std::size_t r = 1;
    for (int i = 0; i < k; ++i) r *= n;
    return r;
}

/// Atomic type of a tuple: for every pair of positions, equal / adjacent / neither, plus node labels.
std::uint64_t atomic_type(const Graph& g, const VertexId* t, int k, const std::vector<std::uint64_t>& label_ids) {
    std::uint64_t code = 0;
    for (int i = 0; i < k; ++i)
        for (int j = i + 1; j < k; ++j) {
            const std::uint64_t rel = t[i] == t[j] ? 0 : (g.has_edge(t[i], t[j]) ? 1 : 2);
            code = code * 3 + rel;
        }
    if (!label_ids.empty())
        for (int i = 0; i < k; ++i) code = fmix64(code * 0x9e3779b97f4a7c15ULL + label_ids[t[i]] + 1);
    return code;
}

struct Side {
    const Graph* g;
    std::size_t n;
    std::size_t tuples;
    std::vector<std::uint8_t> adj;  // dense adjacency (k = 1 folklore only)
};

// One round's H values of one graph.
void compute_hashes(const Side& s, int k, bool folklore, const std::vector<ColorId>& colours,
                    std::vector<std::uint64_t>& hashes, std::vector<std::uint64_t> (&copies)[3],
                    int threads) {
    const std::size_t n = s.n;
    const std::size_t N = s.tuples;
    hashes.assign(N, 0);
    if (n == 0) return;
    for (int i = 0; i < k; ++i) copies[i].resize(N);
    if (k == 1) {
        for (std::size_t w = 0; w < n; ++w) copies[0][w] = position_value(colours[w], 0);
        const std::uint64_t type_value[3] = {fmix64(101), fmix64(202), fmix64(303)};
        parallel_for(n, threads, [&](std::size_t v) {
            std::uint64_t acc = 0;
            const std::uint8_t* row = s.adj.data() + v * n;
            if (folklore) {
                for (std::size_t w = 0; w < n; ++w) {
                    const int t = (w == v) ? 0 : (row[w] ? 1 : 2);
                    acc += fmix64(copies[0][w] + type_value[t]);
                }
            } else {
                for (std::size_t w = 0; w < n; ++w) acc += fmix64(copies[0][w]);
            }
            hashes[v] = acc;
        });
        return;
    }
    if (k == 2) {
        // copies[1][a*n+w] = R1[c(a,w)] (position 2 replaced); copies[0][b*n+w] = R0[c(w,b)].
        parallel_for(n, threads, [&](std::size_t a) {
            for (std::size_t w = 0; w < n; ++w) {
                copies[1][a * n + w] = position_value(colours[a * n + w], 1);
                copies[0][a * n + w] = position_value(colours[w * n + a], 0);
            }
        });
        parallel_for(n, threads, [&](std::size_t a) {
            const std::uint64_t* p2 = copies[1].data() + a * n;
            for (std::size_t b = 0; b < n; ++b) {
                const std::uint64_t* p1 = copies[0].data() + b * n;
                std::uint64_t acc = 0;
                if (folklore) {
                    for (std::size_t w = 0; w < n; ++w) acc += fmix64(p1[w] + p2[w]);
                } else {
                    for (std::size_t w = 0; w < n; ++w) acc += fmix64(p1[w]) + fmix64(p2[w]);
                }
                hashes[a * n + b] = acc;
            }
        });
        return;
    }
    // k == 3: copies[2][(a*n+b)*n+w] = R2[c(a,b,w)], copies[1][(a*n+c)*n+w] = R1[c(a,w,c)],
    //         copies[0][(b*n+c)*n+w] = R0[c(w,b,c)].
    const std::size_t nn = n * n;
    parallel_for(n, threads, [&](std::size_t a) {
        for (std::size_t b = 0; b < n; ++b)
            for (std::size_t c = 0; c < n; ++c) {
                copies[2][a * nn + b * n + c] = position_value(colours[a * nn + b * n + c], 2);
                copies[1][a * nn + c * n + b] = position_value(colours[a * nn + b * n + c], 1);
                copies[0][b * nn + c * n + a] = position_value(colours[a * nn + b * n + c], 0);
            }
    });
    parallel_for(n, threads, [&](std::size_t a) {
        for (std::size_t b = 0; b < n; ++b) {
            const std::uint64_t* p3 = copies[2].data() + a * nn + b * n;
            for (std::size_t c = 0; c < n; ++c) {
                const std::uint64_t* p2 = copies[1].data() + a * nn + c * n;
                const std::uint64_t* p1 = copies[0].data() + b * nn + c * n;
                std::uint64_t acc = 0;
                if (folklore) {
                    for (std::size_t w = 0; w < n; ++w) acc += fmix64(p1[w] + p2[w] + p3[w]);
                } else {
                    for (std::size_t w = 0; w < n; ++w) acc += fmix64(p1[w]) + fmix64(p2[w]) + fmix64(p3[w]);
                }
                hashes[a * nn + b * n + c] = acc;
            }
        }
    });
}

}  // namespace

WlResult run_tuple_wl(const Graph& g, const Graph& h, int k, bool folklore, int max_rounds,
                      bool use_labels, int threads) {
    const auto start = std::chrono::steady_clock::now();
    if (k < 1 || k > 3)
        throw InvalidArgument(std::string(folklore ? "k-FWL" : "k-WL") + " supports k = " +
                              (folklore ? "1, 2, 3" : "2, 3") + ", got k = " + std::to_string(k));
    if (!folklore && k < 2) throw InvalidArgument("k-WL needs k >= 2 (use 1wl for colour refinement)");
    const std::size_t max_n = std::max(g.n(), h.n());
    const std::size_t tuples = power(max_n, k);
    // Peak memory is about (4 + 8 + 8k) bytes per tuple of the larger graph plus the joint sort.
    if (tuples > (std::size_t{1} << 28))
        throw ResourceLimit(std::to_string(k) + (folklore ? "-FWL" : "-WL") + " on " +
                            std::to_string(max_n) + " vertices needs " + std::to_string(tuples) +
                            " tuples per graph; the limit is 2^28");
    WlResult result;
    Side sides[2] = {{&g, g.n(), power(g.n(), k), {}}, {&h, h.n(), power(h.n(), k), {}}};
    if (sides[0].tuples != sides[1].tuples) {
        result.distinguished = true;  // different vertex counts
        result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return result;
    }
    // Dense ids of node labels shared by both graphs.
    std::vector<std::uint64_t> label_ids[2];
    if (use_labels && (g.has_node_labels() || h.has_node_labels())) {
        std::vector<std::uint64_t> all;
        for (const Side& s : sides)
            for (VertexId v = 0; v < s.g->n(); ++v) all.push_back(static_cast<std::uint64_t>(s.g->node_label(v)));
        const auto ranked = dense_rank(all);
        std::size_t pos = 0;
        for (int side = 0; side < 2; ++side)
            for (VertexId v = 0; v < sides[side].g->n(); ++v) label_ids[side].push_back(ranked[pos++]);
    }
    const std::size_t N = sides[0].tuples;
    // Initial colours: atomic types, ranked jointly.
    std::vector<std::uint64_t> keys(2 * N);
    for (int side = 0; side < 2; ++side) {
        const Side& s = sides[side];
        VertexId t[3] = {0, 0, 0};
        for (std::size_t id = 0; id < N; ++id) {
            std::size_t rest = id;
            for (int i = k - 1; i >= 0; --i) {
                t[i] = static_cast<VertexId>(rest % s.n);
                rest /= s.n;
            }
            keys[side * N + id] = atomic_type(*s.g, t, k, label_ids[side]);
        }
        if (k == 1 && folklore) sides[side].adj = s.g->adjacency_matrix();
    }
    std::size_t classes = 0;
    std::vector<ColorId> colours = dense_rank(keys, &classes);
    keys.clear();
    keys.shrink_to_fit();
    auto histograms_differ = [&]() { return !histograms_equal(colours, static_cast<VertexId>(N), classes); };
    // colours holds both graphs: [0, N) for G, [N, 2N) for H. histograms_equal takes VertexId split;
    // tuple counts are below 2^28, so they fit.
    if (histograms_differ()) {
        result.distinguished = true;
    } else {
        std::vector<std::uint64_t> hashes[2];
        std::vector<std::uint64_t> copies[3];
        std::vector<ColorId> own;
        std::vector<std::pair<ColorId, std::uint64_t>> sig(2 * N);
        while (max_rounds < 0 || result.rounds < max_rounds) {
            for (int side = 0; side < 2; ++side) {
                own.assign(colours.begin() + static_cast<std::ptrdiff_t>(side * N),
                           colours.begin() + static_cast<std::ptrdiff_t>((side + 1) * N));
                compute_hashes(sides[side], k, folklore, own, hashes[side], copies, threads);
            }
            for (int side = 0; side < 2; ++side)
                for (std::size_t id = 0; id < N; ++id)
                    sig[side * N + id] = {colours[side * N + id], hashes[side][id]};
            std::vector<std::pair<ColorId, std::uint64_t>> sorted = sig;
            std::sort(sorted.begin(), sorted.end());
            sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
            for (std::size_t i = 0; i < 2 * N; ++i)
                colours[i] = static_cast<ColorId>(std::lower_bound(sorted.begin(), sorted.end(), sig[i]) - sorted.begin());
            ++result.rounds;
            const bool stable = sorted.size() == classes;
            classes = sorted.size();
            if (histograms_differ()) {
                result.distinguished = true;
                break;
            }
            if (stable) break;
        }
    }
    result.colours = classes;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace brec::detail
