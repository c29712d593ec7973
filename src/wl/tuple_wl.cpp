// k-WL (oblivious) and k-FWL (folklore) for k = 1, 2, 3 with a shared palette for G and H.
//
// Colours live in flat arrays indexed by tuple id (a*n^2 + b*n + c). A tuple's new colour is the
// class of the pair (old colour, H), where H is a 64-bit hash of the multiset in the definition:
//   k-FWL: H = sum over w of mix(R1[c(v[1<-w])] + ... + Rk[c(v[k<-w])]),
//   k-WL:  H = sum over i and w of mix(Ri[c(v[i<-w])]),
// with R_i[c] pseudo-random 64-bit values per position and colour (splitmix64, a bijection, so
// distinct per (i, c)) and mix() the MurmurHash3 finaliser. Sums of mixed values hash multisets.
// Exactness: old colours are kept exactly in the pair, so a partition never coarsens and stability
// is detected exactly; two different signatures with the same old colour get the same new colour
// only if their 64-bit hashes collide, which for s tuples in one old class happens with probability
// about s^2 / 2^65 per round (below 1e-6 even for 10^7 tuples in one class; below 1e-10 on every
// BREC pair). We accept this instead of sorting explicit multisets, which would cost n^(k+1) log n
// time and n^(k+1) memory per round.
// New colours are numbered by first appearance (G's tuples, then H's) through a hash table keyed
// by (old colour, H): O(n^k) per round, no sort. Numbering is not canonical for one graph alone,
// but it is shared by G and H, which is all a joint comparison needs.
// For speed, each round writes the R-values into k copies of the tuple array, laid out so that the
// loop over w reads contiguous memory; the loops over w are compiled for AVX-512 / AVX2 / generic
// x86-64 (function multi-versioning with GCC on Linux) and picked at run time.
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

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define BREC_WL_KERNEL \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), optimize("tree-vectorize")))
#else
#define BREC_WL_KERNEL
#endif

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
    return splitmix64((static_cast<std::uint64_t>(c) << 3) ^ static_cast<std::uint64_t>(i) ^ 0x5851f42d4c957f2dULL);
}

// The loops over w. Folklore: the vector of the k replaced tuples is mixed as one value.
BREC_WL_KERNEL std::uint64_t sum_mix2(const std::uint64_t* __restrict p1, const std::uint64_t* __restrict p2,
                                      std::size_t n) {
    std::uint64_t acc = 0;
    for (std::size_t w = 0; w < n; ++w) acc += fmix64(p1[w] + p2[w]);
    return acc;
}
BREC_WL_KERNEL std::uint64_t sum_mix3(const std::uint64_t* __restrict p1, const std::uint64_t* __restrict p2,
                                      const std::uint64_t* __restrict p3, std::size_t n) {
    std::uint64_t acc = 0;
    for (std::size_t w = 0; w < n; ++w) acc += fmix64(p1[w] + p2[w] + p3[w]);
    return acc;
}
// Oblivious: each position's multiset separately (the R_i differ per position).
BREC_WL_KERNEL std::uint64_t sum_mix_each2(const std::uint64_t* __restrict p1, const std::uint64_t* __restrict p2,
                                           std::size_t n) {
    std::uint64_t acc = 0;
    for (std::size_t w = 0; w < n; ++w) acc += fmix64(p1[w]) + fmix64(p2[w]);
    return acc;
}
BREC_WL_KERNEL std::uint64_t sum_mix_each3(const std::uint64_t* __restrict p1, const std::uint64_t* __restrict p2,
                                           const std::uint64_t* __restrict p3, std::size_t n) {
    std::uint64_t acc = 0;
    for (std::size_t w = 0; w < n; ++w) acc += fmix64(p1[w]) + fmix64(p2[w]) + fmix64(p3[w]);
    return acc;
}

/// Assigns new colours to (old colour, hash) signatures by first appearance: an open-addressing
/// hash table whose size follows the number of classes (not the number of tuples).
class Relabeler {
public:
    /// Relabels colours[i] := class of (colours[i], hashes[i]) for both graphs at once (their
    /// tuples and hashes are laid out G first, then H); returns the number of classes.
    std::size_t relabel(std::vector<ColorId>& colours, const std::uint64_t* hashes, std::size_t old_classes) {
        reset(std::max<std::size_t>(4 * old_classes, 1024));
        std::size_t classes = 0;
        for (std::size_t i = 0; i < colours.size(); ++i) {
            const std::uint64_t h = hashes[i];
            const ColorId c = colours[i];
            std::size_t pos = fmix64(h ^ (static_cast<std::uint64_t>(c) * 0x9e3779b97f4a7c15ULL)) & mask_;
            for (;;) {
                Slot& s = slots_[pos];
                if (s.id == kEmpty) {
                    s = {h, c, static_cast<ColorId>(classes++)};
                    colours[i] = s.id;
                    if (2 * classes > slots_.size()) grow();
                    break;
                }
                if (s.hash == h && s.colour == c) {
                    colours[i] = s.id;
                    break;
                }
                pos = (pos + 1) & mask_;
            }
        }
        return classes;
    }

private:
    static constexpr ColorId kEmpty = ~ColorId{0};
    struct Slot {
        std::uint64_t hash;
        ColorId colour;
        ColorId id;
    };
    std::vector<Slot> slots_;
    std::size_t mask_ = 0;

    void reset(std::size_t want) {
        std::size_t cap = 1024;
        while (cap < want) cap *= 2;
        slots_.assign(cap, Slot{0, 0, kEmpty});
        mask_ = cap - 1;
    }
    void grow() {
        std::vector<Slot> old;
        old.swap(slots_);
        slots_.assign(old.size() * 2, Slot{0, 0, kEmpty});
        mask_ = slots_.size() - 1;
        for (const Slot& s : old) {
            if (s.id == kEmpty) continue;
            std::size_t pos = fmix64(s.hash ^ (static_cast<std::uint64_t>(s.colour) * 0x9e3779b97f4a7c15ULL)) & mask_;
            while (slots_[pos].id != kEmpty) pos = (pos + 1) & mask_;
            slots_[pos] = s;
        }
    }
};

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

/// Throws Cancelled when the run has been cancelled; cheap enough for every block of tuples.
inline void check_cancelled(const RunContext* ctx) {
    if (ctx) ctx->throw_if_cancelled();
}

// One round's H values of one graph, written to hashes[0, s.tuples).
void compute_hashes(const Side& s, int k, bool folklore, const std::vector<ColorId>& colours, std::uint64_t* hashes,
                    std::vector<std::uint64_t> (&copies)[3], int threads, const RunContext* ctx) {
    const std::size_t n = s.n;
    const std::size_t N = s.tuples;
    std::fill(hashes, hashes + N, 0);
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
            check_cancelled(ctx);
            const std::uint64_t* p2 = copies[1].data() + a * n;
            for (std::size_t b = 0; b < n; ++b) {
                const std::uint64_t* p1 = copies[0].data() + b * n;
                hashes[a * n + b] = folklore ? sum_mix2(p1, p2, n) : sum_mix_each2(p1, p2, n);
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
    // Blocked over a and c so that a row of copies[0] (fixed b, c) is reused for kTileA values of a
    // while in L1, and the kTileA x kTileC rows of copies[1] stay in L2: memory traffic drops by
    // about kTileA against the plain a-b-c loop.
    constexpr std::size_t kTileA = 8, kTileC = 16;
    const std::size_t a_tiles = (n + kTileA - 1) / kTileA;
    parallel_for(a_tiles, threads, [&](std::size_t tile) {
        check_cancelled(ctx);
        const std::size_t a0 = tile * kTileA, a1 = std::min(n, a0 + kTileA);
        for (std::size_t c0 = 0; c0 < n; c0 += kTileC) {
            const std::size_t c1 = std::min(n, c0 + kTileC);
            for (std::size_t b = 0; b < n; ++b)
                for (std::size_t c = c0; c < c1; ++c) {
                    const std::uint64_t* p1 = copies[0].data() + b * nn + c * n;
                    for (std::size_t a = a0; a < a1; ++a) {
                        const std::uint64_t* p2 = copies[1].data() + a * nn + c * n;
                        const std::uint64_t* p3 = copies[2].data() + a * nn + b * n;
                        hashes[a * nn + b * n + c] = folklore ? sum_mix3(p1, p2, p3, n) : sum_mix_each3(p1, p2, p3, n);
                    }
                }
        }
    });
}

}  // namespace

WlResult run_tuple_wl(const Graph& g, const Graph& h, int k, bool folklore, int max_rounds, bool use_labels,
                      int threads, const RunContext* ctx) {
    const auto start = std::chrono::steady_clock::now();
    if (k < 1 || k > 3)
        throw InvalidArgument(std::string(folklore ? "k-FWL" : "k-WL") +
                              " supports k = " + (folklore ? "1, 2, 3" : "2, 3") + ", got k = " + std::to_string(k));
    if (!folklore && k < 2) throw InvalidArgument("k-WL needs k >= 2 (use 1wl for colour refinement)");
    const std::size_t max_n = std::max(g.n(), h.n());
    const std::size_t tuples = power(max_n, k);
    // Peak memory: about 28 + 8k bytes per tuple of one graph (colours of both graphs, a copy of
    // one side, hashes of both, k R-value copies), e.g. 0.4 GB for 3-FWL at n = 198.
    if (tuples > (std::size_t{1} << 28))
        throw ResourceLimit(std::to_string(k) + (folklore ? "-FWL" : "-WL") + " on " + std::to_string(max_n) +
                            " vertices needs " + std::to_string(tuples) + " tuples per graph; the limit is 2^28");
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
        // The hashes of both graphs in one array (G's tuples, then H's), as the colours.
        std::vector<std::uint64_t> hashes(2 * N);
        std::vector<std::uint64_t> copies[3];
        std::vector<ColorId> own;
        Relabeler relabeler;
        // A round of 3-FWL on n = 198 takes seconds: each one is a progress step.
        const std::string task =
            std::to_string(k) + (folklore ? "-FWL" : "-WL") + " (n = " + std::to_string(max_n) + ") round";
        while (max_rounds < 0 || result.rounds < max_rounds) {
            if (ctx) ctx->progress(task, static_cast<std::size_t>(result.rounds) + 1, 0);
            for (int side = 0; side < 2; ++side) {
                own.assign(colours.begin() + static_cast<std::ptrdiff_t>(side * N),
                           colours.begin() + static_cast<std::ptrdiff_t>((side + 1) * N));
                compute_hashes(sides[side], k, folklore, own, hashes.data() + side * N, copies, threads, ctx);
            }
            const std::size_t new_classes = relabeler.relabel(colours, hashes.data(), classes);
            ++result.rounds;
            const bool stable = new_classes == classes;
            classes = new_classes;
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
