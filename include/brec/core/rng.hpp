#pragma once
// Deterministic random numbers. std distributions differ between standard libraries, so the few
// distributions we need are implemented here on top of std::mt19937_64 (whose output is specified).

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace brec {

__extension__ typedef unsigned __int128 Uint128;  // GCC/Clang extension, for Lemire's method

/// SplitMix64 finaliser: a bijective 64-bit mixer used to derive independent streams.
inline std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// The seed of stream `stream_id` of a run seeded with `seed`; results never depend on threads.
inline std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream_id) {
    return splitmix64(seed ^ splitmix64(stream_id + 0x632be59bd9b4e019ULL));
}

/// A seeded generator with portable distributions.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : engine_(seed) {}

    std::uint64_t next() { return engine_(); }

    /// Uniform integer in [0, bound) without modulo bias (Lemire's method). bound must be > 0.
    std::uint64_t below(std::uint64_t bound) {
        // 128-bit multiply with rejection of the biased low range.
        Uint128 m = static_cast<Uint128>(engine_()) * bound;
        std::uint64_t low = static_cast<std::uint64_t>(m);
        if (low < bound) {
            const std::uint64_t threshold = (0 - bound) % bound;
            while (low < threshold) {
                m = static_cast<Uint128>(engine_()) * bound;
                low = static_cast<std::uint64_t>(m);
            }
        }
        return static_cast<std::uint64_t>(m >> 64);
    }

    /// Uniform double in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

    /// Standard normal variate (Box-Muller; the second value is cached).
    double normal() {
        if (has_spare_) {
            has_spare_ = false;
            return spare_;
        }
        double u1 = 0.0;
        do {
            u1 = uniform();
        } while (u1 <= 0.0);
        const double u2 = uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        spare_ = r * std::sin(2.0 * M_PI * u2);
        has_spare_ = true;
        return r * std::cos(2.0 * M_PI * u2);
    }

    bool bernoulli(double p) { return uniform() < p; }

    /// Fisher-Yates shuffle.
    template <typename T>
    void shuffle(std::vector<T>& v) {
        for (std::size_t i = v.size(); i > 1; --i) {
            const std::size_t j = static_cast<std::size_t>(below(i));
            std::swap(v[i - 1], v[j]);
        }
    }

    /// A uniformly random permutation of 0..n-1.
    std::vector<std::uint32_t> permutation(std::uint32_t n) {
        std::vector<std::uint32_t> p(n);
        for (std::uint32_t i = 0; i < n; ++i) p[i] = i;
        shuffle(p);
        return p;
    }

    std::mt19937_64& engine() { return engine_; }

private:
    std::mt19937_64 engine_;
    bool has_spare_ = false;
    double spare_ = 0.0;
};

}  // namespace brec
