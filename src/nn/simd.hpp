#pragma once
// Vectors of N floats for nn's fused CPU kernels (private to nn): GCC's vector extensions, so one
// source compiles to the instruction set of each build of a kernel, and the kernels read as scalar
// arithmetic. Every kernel works lane by lane (a lane is a channel), so the width changes how many
// channels one instruction takes, never a channel's arithmetic: the builds give the same bits
// where they have the same instructions. A file that includes this compiles with
// -ffp-contract=fast (src/CMakeLists.txt), so a·b + c becomes one FMA in the x86-64-v4 and v3
// builds; the default one has no FMA and rounds those products separately.
//
// The fused GIN layers run 16 floats per vector where the CPU has AVX-512 (dispatch below), 8
// elsewhere. The GRU's gates run 8 (built for x86-64-v3 and the default).

#include <cstdint>

// The vectors never cross a call that is not inlined (the kernels take and return pointers): no
// ABI concern. The warning is off for the rest of the including file, which is the file's kernels.
#pragma GCC diagnostic ignored "-Wpsabi"

// A kernel of 16-float vectors built for x86-64-v4 (AVX-512), and one of 8-float vectors built twice,
// for x86-64-v3 (AVX2 and FMA) and the default, picked at load time (see dispatch below).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define BREC_SIMD_WIDE_KERNEL __attribute__((optimize("O3"), target("arch=x86-64-v4")))
#define BREC_SIMD_KERNEL __attribute__((optimize("O3"), target_clones("arch=x86-64-v3", "default")))
#else
#define BREC_SIMD_WIDE_KERNEL
#define BREC_SIMD_KERNEL
#endif

#define BREC_SIMD_INLINE inline __attribute__((always_inline))
// The same for a lambda inside a kernel: inlined, it is built for the kernel's instruction set.
#define BREC_SIMD_INLINE_LAMBDA __attribute__((always_inline))

namespace brec::nn::simd {

/// The vector types of N floats (GCC takes a vector's size from a constant, not a template
/// parameter).
template <int N>
struct Types;
template <>
struct Types<8> {
    typedef float Vec __attribute__((vector_size(32)));
    typedef float VecU __attribute__((vector_size(32), aligned(4)));
    typedef std::int32_t VecI __attribute__((vector_size(32)));
};
template <>
struct Types<16> {
    typedef float Vec __attribute__((vector_size(64)));
    typedef float VecU __attribute__((vector_size(64), aligned(4)));
    typedef std::int32_t VecI __attribute__((vector_size(64)));
};

/// Vectors of N floats (Vec), the same for loads and stores at any float address (VecU), lane
/// masks of comparisons (true is −1) and integer lanes (VecI), and what the kernels do with them.
template <int N>
struct Width {
    using Vec = typename Types<N>::Vec;
    using VecU = typename Types<N>::VecU;
    using VecI = typename Types<N>::VecI;
    static constexpr int kLanes = N;

    static BREC_SIMD_INLINE Vec splat(float f) { return Vec{} + f; }
    static BREC_SIMD_INLINE Vec load(const float* p) { return *reinterpret_cast<const VecU*>(p); }
    static BREC_SIMD_INLINE void store(float* p, Vec v) { *reinterpret_cast<VecU*>(p) = v; }

    /// n <= N values at `p` as a vector (a last partial one padded with zeros), and back.
    static BREC_SIMD_INLINE Vec load(const float* p, std::int64_t n) {
        if (n == N) return load(p);
        Vec v{};
        for (std::int64_t i = 0; i < n; ++i) v[i] = p[i];
        return v;
    }
    static BREC_SIMD_INLINE void store(float* p, Vec v, std::int64_t n) {
        if (n == N) return store(p, v);
        for (std::int64_t i = 0; i < n; ++i) p[i] = v[i];
    }

    /// a where `mask` is true, b elsewhere.
    static BREC_SIMD_INLINE Vec select(VecI mask, Vec a, Vec b) {
        return reinterpret_cast<Vec>((reinterpret_cast<VecI>(a) & mask) | (reinterpret_cast<VecI>(b) & ~mask));
    }
};

/// Whether the CPU runs x86-64-v4 (AVX-512 with its 32 vector registers).
BREC_SIMD_INLINE bool has_x86_64_v4() {
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
    return __builtin_cpu_supports("x86-64-v4");
#else
    return false;
#endif
}

template <typename Kernel>
BREC_SIMD_WIDE_KERNEL void run_wide(Kernel& kernel) {
    kernel(Width<16>{});
}
template <typename Kernel>
BREC_SIMD_KERNEL void run_narrow(Kernel& kernel) {
    kernel(Width<8>{});
}

/// kernel(Width<16>{}) built for x86-64-v4 where the CPU runs it, else kernel(Width<8>{}) built for
/// x86-64-v3 or the default. `kernel` is an always-inlined generic lambda, so its body is built
/// for each. The width is chosen per build rather than left to target_clones, because GCC 12 makes
/// some operations of 16-float vectors one lane at a time outside AVX-512 (in the x86-64-v3 clone,
/// a fused GIN layer ran 12x slower).
///
/// GCC 13.3 stops with an internal compiler error (in do_store_flag) on the 16-float kernels'
/// compare-and-select; built with GCC 13, the layers run the 8-float kernel on every CPU.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 13
#define BREC_SIMD_HAS_WIDE 0
#else
#define BREC_SIMD_HAS_WIDE 1
#endif
template <typename Kernel>
void dispatch(Kernel&& kernel) {
#if BREC_SIMD_HAS_WIDE
    if (has_x86_64_v4()) {
        run_wide(kernel);
        return;
    }
#endif
    run_narrow(kernel);
}

}  // namespace brec::nn::simd
