// Orbits of a permutation group on k-tuples: a depth-first search from every tuple not yet
// reached, in increasing tuple id, so that orbits come out numbered by their smallest tuple.
#include "detail/tuple_orbits.hpp"

#include <string>

#include "brec/core/error.hpp"

namespace brec::detail {

TupleOrbits tuple_orbits(std::size_t n, int k, const std::vector<Permutation>& generators, const RunContext* ctx) {
    if (k < 1) throw InvalidArgument("tuple_orbits needs k >= 1, got k = " + std::to_string(k));
    std::size_t tuples = 1;
    for (int i = 0; i < k; ++i) {
        tuples *= n;
        if (tuples >= (std::size_t{1} << 32))
            throw ResourceLimit("tuple_orbits: " + std::to_string(n) + "^" + std::to_string(k) +
                                " tuples do not fit 32-bit ids");
    }
    for (const Permutation& p : generators)
        if (p.size() != n)
            throw InvalidArgument("tuple_orbits: a generator does not act on " + std::to_string(n) + " vertices");
    // scaled[g][i][v] = p_g(v) * n^(k-1-i): the contribution of position i to the image's id.
    std::vector<std::vector<std::uint32_t>> scaled(generators.size(), std::vector<std::uint32_t>(k * n));
    std::vector<std::size_t> place(k, 1);
    for (int i = k - 2; i >= 0; --i) place[i] = place[i + 1] * n;
    for (std::size_t g = 0; g < generators.size(); ++g)
        for (int i = 0; i < k; ++i)
            for (std::size_t v = 0; v < n; ++v)
                scaled[g][i * n + v] = static_cast<std::uint32_t>(generators[g][v] * place[i]);
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    TupleOrbits out;
    out.orbit.assign(tuples, kNone);
    std::vector<std::uint32_t> stack;
    std::uint32_t coords[8];
    std::vector<std::uint32_t> coord_buffer(k > 8 ? k : 0);
    std::uint32_t* c = k > 8 ? coord_buffer.data() : coords;
    for (std::size_t start = 0; start < tuples; ++start) {
        if (out.orbit[start] != kNone) continue;
        const auto id = static_cast<std::uint32_t>(out.first.size());
        if (ctx && (id & 4095) == 0) ctx->throw_if_cancelled();
        out.first.push_back(static_cast<std::uint32_t>(start));
        std::uint32_t size = 1;
        out.orbit[start] = id;
        stack.assign(1, static_cast<std::uint32_t>(start));
        while (!stack.empty()) {
            std::size_t t = stack.back();
            stack.pop_back();
            for (int i = k - 1; i >= 0; --i) {
                c[i] = static_cast<std::uint32_t>(t % n);
                t /= n;
            }
            for (const auto& s : scaled) {
                std::uint32_t image = 0;
                for (int i = 0; i < k; ++i) image += s[i * n + c[i]];
                if (out.orbit[image] == kNone) {
                    out.orbit[image] = id;
                    ++size;
                    stack.push_back(image);
                }
            }
        }
        out.size.push_back(size);
    }
    return out;
}

}  // namespace brec::detail
