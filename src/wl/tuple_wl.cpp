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
//
// Orbit reduction (k >= 2). Tuples in one orbit of Aut(G) acting on k-tuples have the same colour
// in every round, and the very same 64-bit H: the atomic type is invariant under automorphisms
// (node labels too, when they are used, as the group then preserves them), and if c is invariant
// after round r, then for an automorphism s, H(s t) = sum over w of mix(... Ri[c(s(t)[i<-w])] ...)
// = sum over u = s^-1(w) of mix(... Ri[c(s(t[i<-u]))] ...) = H(t), since w -> s^-1(w) is a
// bijection and c(s x) = c(x); so (old colour, H) and the new colour agree too. Hence each round
// needs H only once per orbit (at its smallest tuple), reading the colours of the k n replaced
// tuples through the orbit of every tuple, and a histogram counts each orbit with its size. Colour
// numbers are the same as without the reduction, bit for bit: classes are numbered in order of
// first appearance, and the first tuple of a class is the smallest tuple of its orbit, so scanning
// the orbits in order of their smallest tuple meets the classes in the same order as scanning all
// tuples. The results (distinguished, rounds, colours) are therefore identical, hash collisions
// included. The generators of Aut(G) come from nauty; the orbits on triples are those of the
// stabiliser of each vertex orbit's smallest vertex on pairs (nauty again, with that vertex
// individualised), spread over the vertex orbit (tuple_orbits.hpp): O(n^3) and a few nauty runs,
// once per graph. After that a round costs O(orbits k n) instead of O(n^(k+1)). CFI graphs, with
// their many flip automorphisms, have 50 to 7000 times fewer orbits on triples than triples. See
// use_orbits() for when a graph takes this path.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/rng.hpp"
#include "brec/iso/iso.hpp"
#include "detail/refine.hpp"
#include "detail/tuple_orbits.hpp"
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
// The same sums on the orbit path: o_i[w] is the orbit of the tuple with position i replaced by w,
// r_i[orbit] that orbit's R-value at position i.
BREC_WL_KERNEL std::uint64_t gather_mix2(const std::uint64_t* __restrict r1, const std::uint64_t* __restrict r2,
                                         const std::uint32_t* __restrict o1, const std::uint32_t* __restrict o2,
                                         std::size_t n) {
    std::uint64_t acc = 0;
    for (std::size_t w = 0; w < n; ++w) acc += fmix64(r1[o1[w]] + r2[o2[w]]);
    return acc;
}
BREC_WL_KERNEL std::uint64_t gather_mix3(const std::uint64_t* __restrict r1, const std::uint64_t* __restrict r2,
                                         const std::uint64_t* __restrict r3, const std::uint32_t* __restrict o1,
                                         const std::uint32_t* __restrict o2, const std::uint32_t* __restrict o3,
                                         std::size_t n) {
    std::uint64_t acc = 0;
    for (std::size_t w = 0; w < n; ++w) acc += fmix64(r1[o1[w]] + r2[o2[w]] + r3[o3[w]]);
    return acc;
}
BREC_WL_KERNEL std::uint64_t gather_mix_each2(const std::uint64_t* __restrict r1, const std::uint64_t* __restrict r2,
                                              const std::uint32_t* __restrict o1, const std::uint32_t* __restrict o2,
                                              std::size_t n) {
    std::uint64_t acc = 0;
    for (std::size_t w = 0; w < n; ++w) acc += fmix64(r1[o1[w]]) + fmix64(r2[o2[w]]);
    return acc;
}
BREC_WL_KERNEL std::uint64_t gather_mix_each3(const std::uint64_t* __restrict r1, const std::uint64_t* __restrict r2,
                                              const std::uint64_t* __restrict r3, const std::uint32_t* __restrict o1,
                                              const std::uint32_t* __restrict o2, const std::uint32_t* __restrict o3,
                                              std::size_t n) {
    std::uint64_t acc = 0;
    for (std::size_t w = 0; w < n; ++w) acc += fmix64(r1[o1[w]]) + fmix64(r2[o2[w]]) + fmix64(r3[o3[w]]);
    return acc;
}

/// Assigns new colours to (old colour, hash) signatures by first appearance: an open-addressing
/// hash table whose size follows the number of classes (not the number of tuples).
class Relabeler {
public:
    /// Starts a round: forgets every signature.
    void start(std::size_t old_classes) {
        reset(std::max<std::size_t>(4 * old_classes, 1024));
        classes_ = 0;
    }
    /// Relabels colours[i] := class of (colours[i], hashes[i]) for i < count, numbering classes not
    /// seen before in this round by first appearance (G's entries go first, then H's).
    void relabel(ColorId* colours, const std::uint64_t* hashes, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) {
            const std::uint64_t h = hashes[i];
            const ColorId c = colours[i];
            std::size_t pos = fmix64(h ^ (static_cast<std::uint64_t>(c) * 0x9e3779b97f4a7c15ULL)) & mask_;
            for (;;) {
                Slot& s = slots_[pos];
                if (s.id == kEmpty) {
                    s = {h, c, static_cast<ColorId>(classes_++)};
                    colours[i] = s.id;
                    if (2 * classes_ > slots_.size()) grow();
                    break;
                }
                if (s.hash == h && s.colour == c) {
                    colours[i] = s.id;
                    break;
                }
                pos = (pos + 1) & mask_;
            }
        }
    }
    /// Classes numbered in this round so far.
    std::size_t classes() const { return classes_; }

private:
    static constexpr ColorId kEmpty = ~ColorId{0};
    struct Slot {
        std::uint64_t hash;
        ColorId colour;
        ColorId id;
    };
    std::vector<Slot> slots_;
    std::size_t mask_ = 0;
    std::size_t classes_ = 0;

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
    // The orbit path (orbits.count() > 0): orbits.orbit[t] is the orbit of tuple t, so that for a
    // tuple (a, b, c) the orbits of (a, b, w) over w are a contiguous row of it; replaced[j] holds
    // the orbits of the tuples with position j replaced by w as contiguous rows too:
    //   k = 3: replaced[0][(b*n+c)*n+w] = orbit(w,b,c), replaced[1][(a*n+c)*n+w] = orbit(a,w,c);
    //   k = 2: replaced[0][b*n+w] = orbit(w,b).
    TupleOrbits orbits;
    std::vector<std::uint32_t> replaced[2];

    bool reduced() const { return orbits.count() > 0; }
    /// Colours kept for this graph: one per orbit, or one per tuple.
    std::size_t entries() const { return reduced() ? orbits.count() : tuples; }
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

// Orbit path thresholds (see use_orbits()).
constexpr std::size_t kOrbitMinVertices = 32;
constexpr std::size_t kOrbitMinShrink = 4;

/// Decides whether graph s runs on the orbits of Aut(G) on k-tuples and, if so, prepares them.
/// Automatic rule (deterministic, per graph): k = 3 (2-FWL's n^3 rounds are cheap already), at
/// least kOrbitMinVertices vertices (below, a whole run takes about as long as nauty), a
/// non-trivial group, and at most 1 / kOrbitMinShrink as many orbits as tuples (a round on the
/// orbit path reads its colours through the orbit table, which is slower per element than the
/// plain path's contiguous rows). The cost of trying is one nauty run, and for the orbits O(n^k)
/// and one nauty run per vertex orbit (or O(n^k |generators|) where that is smaller; at most
/// n - 1 generators, so always less than one plain round).
/// Returns whether the orbit path is taken.
bool use_orbits(Side& s, int k, bool use_labels, TupleOrbitMode mode, const RunContext* ctx) {
    if (mode == TupleOrbitMode::never || k < 2 || s.n == 0) return false;
    if (mode == TupleOrbitMode::automatic && (k < 3 || s.n < kOrbitMinVertices)) return false;
    const auto generators = automorphism_generators(*s.g, IsoOptions().node_labels(use_labels));
    if (mode == TupleOrbitMode::automatic && generators.empty()) return false;
    TupleOrbits orbits = automorphism_tuple_orbits(*s.g, k, use_labels, generators, ctx);
    if (mode == TupleOrbitMode::automatic && orbits.count() * kOrbitMinShrink > s.tuples) return false;
    s.orbits = std::move(orbits);
    const std::size_t n = s.n, nn = n * n;
    const std::uint32_t* orbit = s.orbits.orbit.data();
    if (k == 2) {
        s.replaced[0].resize(nn);
        for (std::size_t a = 0; a < n; ++a)
            for (std::size_t b = 0; b < n; ++b) s.replaced[0][b * n + a] = orbit[a * n + b];
        return true;
    }
    s.replaced[0].resize(s.tuples);
    s.replaced[1].resize(s.tuples);
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b)
            for (std::size_t c = 0; c < n; ++c) {
                const std::uint32_t o = orbit[a * nn + b * n + c];
                s.replaced[1][a * nn + c * n + b] = o;
                s.replaced[0][b * nn + c * n + a] = o;
            }
    return true;
}

// One round's H values of a graph on the orbit path: hashes[i] for orbit i, from the colours of the
// orbits (colours[i]); r_values is scratch space.
void compute_orbit_hashes(const Side& s, int k, bool folklore, const ColorId* colours, std::uint64_t* hashes,
                          std::vector<std::uint64_t> (&r_values)[3], int threads, const RunContext* ctx) {
    const std::size_t n = s.n, nn = n * n, count = s.orbits.count();
    for (int i = 0; i < k; ++i) {
        r_values[i].resize(count);
        for (std::size_t o = 0; o < count; ++o) r_values[i][o] = position_value(colours[o], i);
    }
    const std::uint64_t* r0 = r_values[0].data();
    const std::uint64_t* r1 = r_values[1].data();
    const std::uint64_t* r2 = r_values[2].data();
    const std::uint32_t* orbit = s.orbits.orbit.data();
    constexpr std::size_t kBlock = 256;
    parallel_for((count + kBlock - 1) / kBlock, threads, [&](std::size_t block) {
        check_cancelled(ctx);
        const std::size_t end = std::min(count, (block + 1) * kBlock);
        for (std::size_t o = block * kBlock; o < end; ++o) {
            const std::size_t t = s.orbits.first[o];
            if (k == 2) {
                const std::size_t a = t / n, b = t % n;
                const std::uint32_t* o1 = s.replaced[0].data() + b * n;
                const std::uint32_t* o2 = orbit + a * n;
                hashes[o] = folklore ? gather_mix2(r0, r1, o1, o2, n) : gather_mix_each2(r0, r1, o1, o2, n);
            } else {
                const std::size_t a = t / nn, b = (t / n) % n, c = t % n;
                const std::uint32_t* o1 = s.replaced[0].data() + b * nn + c * n;
                const std::uint32_t* o2 = s.replaced[1].data() + a * nn + c * n;
                const std::uint32_t* o3 = orbit + a * nn + b * n;
                hashes[o] =
                    folklore ? gather_mix3(r0, r1, r2, o1, o2, o3, n) : gather_mix_each3(r0, r1, r2, o1, o2, o3, n);
            }
        }
    });
}

/// Do the colour histograms of the two graphs agree? colours[side] has one entry per tuple, or per
/// orbit on the orbit path, where an orbit counts with its size. O(entries + classes).
bool histograms_agree(const Side (&sides)[2], const std::vector<ColorId> (&colours)[2], std::size_t classes) {
    std::vector<std::int64_t> diff(classes, 0);
    for (int side = 0; side < 2; ++side) {
        const std::int64_t sign = side == 0 ? 1 : -1;
        const Side& s = sides[side];
        const std::vector<ColorId>& c = colours[side];
        if (s.reduced())
            for (std::size_t o = 0; o < c.size(); ++o) diff[c[o]] += sign * s.orbits.size[o];
        else
            for (ColorId x : c) diff[x] += sign;
    }
    return std::all_of(diff.begin(), diff.end(), [](std::int64_t d) { return d == 0; });
}

}  // namespace

WlResult run_tuple_wl(const Graph& g, const Graph& h, int k, bool folklore, int max_rounds, bool use_labels,
                      int threads, const RunContext* ctx, TupleOrbitMode orbit_mode, TupleOrbitUse* orbit_use) {
    const auto start = std::chrono::steady_clock::now();
    if (k < 1 || k > 3)
        throw InvalidArgument(std::string(folklore ? "k-FWL" : "k-WL") +
                              " supports k = " + (folklore ? "1, 2, 3" : "2, 3") + ", got k = " + std::to_string(k));
    if (!folklore && k < 2) throw InvalidArgument("k-WL needs k >= 2 (use 1wl for colour refinement)");
    const std::size_t max_n = std::max(g.n(), h.n());
    const std::size_t tuples = power(max_n, k);
    // Peak memory: about 28 + 8k bytes per tuple of one graph (colours of both graphs, a copy of
    // one side, hashes of both, k R-value copies), e.g. 0.4 GB for 3-FWL at n = 198; a graph on the
    // orbit path needs 4k bytes per tuple (the orbit tables) instead.
    if (tuples > (std::size_t{1} << 28))
        throw ResourceLimit(std::to_string(k) + (folklore ? "-FWL" : "-WL") + " on " + std::to_string(max_n) +
                            " vertices needs " + std::to_string(tuples) + " tuples per graph; the limit is 2^28");
    WlResult result;
    if (orbit_use) *orbit_use = TupleOrbitUse{};
    Side sides[2] = {{&g, g.n(), power(g.n(), k), {}, {}, {}}, {&h, h.n(), power(h.n(), k), {}, {}, {}}};
    if (sides[0].tuples != sides[1].tuples) {
        result.distinguished = true;  // different vertex counts
        result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return result;
    }
    const std::string name = std::to_string(k) + (folklore ? "-FWL" : "-WL");
    for (int side = 0; side < 2; ++side)
        if (use_orbits(sides[side], k, use_labels, orbit_mode, ctx)) {
            if (orbit_use) orbit_use->orbits[side] = sides[side].orbits.count();
            if (ctx)
                ctx->debug(name + ": " + (side == 0 ? "G" : "H") + " runs on " +
                           std::to_string(sides[side].orbits.count()) + " orbits of Aut on its " +
                           std::to_string(sides[side].tuples) + " tuples");
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
    const std::size_t entries[2] = {sides[0].entries(), sides[1].entries()};
    // Initial colours: atomic types (of every tuple, or of every orbit's smallest tuple), ranked
    // jointly; the ranks depend only on the set of types, which the orbits do not change.
    std::vector<std::uint64_t> keys(entries[0] + entries[1]);
    for (int side = 0; side < 2; ++side) {
        const Side& s = sides[side];
        VertexId t[3] = {0, 0, 0};
        for (std::size_t e = 0; e < entries[side]; ++e) {
            std::size_t rest = s.reduced() ? s.orbits.first[e] : e;
            for (int i = k - 1; i >= 0; --i) {
                t[i] = static_cast<VertexId>(rest % s.n);
                rest /= s.n;
            }
            keys[side * entries[0] + e] = atomic_type(*s.g, t, k, label_ids[side]);
        }
        if (k == 1 && folklore) sides[side].adj = s.g->adjacency_matrix();
    }
    std::size_t classes = 0;
    std::vector<ColorId> colours[2];
    {
        std::vector<ColorId> ranked = dense_rank(keys, &classes);
        colours[0].assign(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(entries[0]));
        colours[1].assign(ranked.begin() + static_cast<std::ptrdiff_t>(entries[0]), ranked.end());
    }
    keys.clear();
    keys.shrink_to_fit();
    if (!histograms_agree(sides, colours, classes)) {
        result.distinguished = true;
    } else {
        std::vector<std::uint64_t> hashes[2];
        std::vector<std::uint64_t> copies[3];
        Relabeler relabeler;
        // A round of 3-FWL on n = 198 takes seconds: each one is a progress step.
        const std::string task = name + " (n = " + std::to_string(max_n) + ") round";
        while (max_rounds < 0 || result.rounds < max_rounds) {
            if (ctx) ctx->progress(task, static_cast<std::size_t>(result.rounds) + 1, 0);
            for (int side = 0; side < 2; ++side) {
                hashes[side].resize(entries[side]);
                if (sides[side].reduced())
                    compute_orbit_hashes(sides[side], k, folklore, colours[side].data(), hashes[side].data(), copies,
                                         threads, ctx);
                else
                    compute_hashes(sides[side], k, folklore, colours[side], hashes[side].data(), copies, threads, ctx);
            }
            relabeler.start(classes);
            for (int side = 0; side < 2; ++side)
                relabeler.relabel(colours[side].data(), hashes[side].data(), entries[side]);
            const std::size_t new_classes = relabeler.classes();
            ++result.rounds;
            const bool stable = new_classes == classes;
            classes = new_classes;
            if (!histograms_agree(sides, colours, classes)) {
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
