#pragma once
// Eight-float vectors for nn's fused CPU kernels (private to nn): GCC's vector extensions, so one
// source compiles to AVX2 + FMA in an x86-64-v3 clone and to SSE in the default one, and the
// kernels read as scalar arithmetic. A file that includes this compiles with -ffp-contract=fast
// (src/CMakeLists.txt), so a·b + c becomes one FMA in the x86-64-v3 clone; the default clone has
// no FMA and rounds those products separately.

#include <cstdint>

// The vectors never cross a call that is not inlined (the kernels take and return pointers): no
// ABI concern. The warning is off for the rest of the including file, which is the file's kernels.
#pragma GCC diagnostic ignored "-Wpsabi"

// A kernel built twice: x86-64-v3 (AVX2 and FMA) and the default, picked at load time.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define BREC_SIMD_KERNEL __attribute__((optimize("O3"), target_clones("arch=x86-64-v3", "default")))
#else
#define BREC_SIMD_KERNEL
#endif

#define BREC_SIMD_INLINE inline __attribute__((always_inline))
// The same for a lambda inside a kernel: inlined, it is built for the kernel's instruction set.
#define BREC_SIMD_INLINE_LAMBDA __attribute__((always_inline))

namespace brec::nn::simd {

typedef float Vec __attribute__((vector_size(32)));
/// The same, for loads and stores at any float address.
typedef float VecU __attribute__((vector_size(32), aligned(4)));
/// Lane masks of comparisons (true is −1) and integer lanes.
typedef std::int32_t VecI __attribute__((vector_size(32)));
constexpr int kLanes = 8;

BREC_SIMD_INLINE Vec splat(float f) { return Vec{} + f; }
BREC_SIMD_INLINE Vec load(const float* p) { return *reinterpret_cast<const VecU*>(p); }
BREC_SIMD_INLINE void store(float* p, Vec v) { *reinterpret_cast<VecU*>(p) = v; }

/// n <= 8 values at `p` as a vector (a last partial one padded with zeros), and back.
BREC_SIMD_INLINE Vec load(const float* p, std::int64_t n) {
    if (n == kLanes) return load(p);
    Vec v{};
    for (std::int64_t i = 0; i < n; ++i) v[i] = p[i];
    return v;
}
BREC_SIMD_INLINE void store(float* p, Vec v, std::int64_t n) {
    if (n == kLanes) return store(p, v);
    for (std::int64_t i = 0; i < n; ++i) p[i] = v[i];
}

/// a where `mask` is true, b elsewhere.
BREC_SIMD_INLINE Vec select(VecI mask, Vec a, Vec b) {
    return reinterpret_cast<Vec>((reinterpret_cast<VecI>(a) & mask) | (reinterpret_cast<VecI>(b) & ~mask));
}

}  // namespace brec::nn::simd
