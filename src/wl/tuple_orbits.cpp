// Orbits of a permutation group on k-tuples: a depth-first search from every tuple not yet
// reached, in increasing tuple id, so that orbits come out numbered by their smallest tuple.
#include "detail/tuple_orbits.hpp"

#include <string>

#include "brec/core/error.hpp"
#include "brec/iso/iso.hpp"

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

TupleOrbits automorphism_tuple_orbits(const Graph& g, int k, bool use_labels,
                                      const std::vector<Permutation>& generators, const RunContext* ctx,
                                      std::size_t search_limit) {
    const std::size_t n = g.n();
    std::size_t tuples = 1;
    for (int i = 0; i < k; ++i) tuples *= n;
    if (k < 2 || n == 0 || tuples * generators.size() < search_limit) return tuple_orbits(n, k, generators, ctx);
    // Orbits of the group on vertices, each with a transversal: move[x](a) = x for the smallest
    // vertex a of x's orbit, move[x] an element of the group (a product of generators).
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    std::vector<std::uint32_t> orbit_of(n, kNone);
    std::vector<Permutation> move(n);
    std::vector<std::vector<VertexId>> members;
    for (VertexId a = 0; a < n; ++a) {
        if (orbit_of[a] != kNone) continue;
        const auto id = static_cast<std::uint32_t>(members.size());
        members.push_back({a});
        orbit_of[a] = id;
        move[a].resize(n);
        for (VertexId v = 0; v < n; ++v) move[a][v] = v;
        for (std::size_t next = 0; next < members.back().size(); ++next) {
            const VertexId x = members.back()[next];
            for (const Permutation& s : generators) {
                const VertexId y = s[x];
                if (orbit_of[y] != kNone) continue;
                orbit_of[y] = id;
                move[y].resize(n);
                for (VertexId v = 0; v < n; ++v) move[y][v] = s[move[x][v]];
                members.back().push_back(y);
            }
        }
    }
    // g's edges with a individualised: node label 1 for a, 2 * (rank of its label, or 0) for the rest.
    std::vector<Label> labels(n, 0);
    if (use_labels && g.has_node_labels()) {
        std::vector<Label> sorted(n);
        for (VertexId v = 0; v < n; ++v) sorted[v] = g.node_label(v);
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        for (VertexId v = 0; v < n; ++v)
            labels[v] = 2 * (std::lower_bound(sorted.begin(), sorted.end(), g.node_label(v)) - sorted.begin());
    }
    const auto edges = g.edges();
    std::size_t rest = 1;  // (k-1)-tuples
    for (int i = 1; i < k; ++i) rest *= n;
    std::vector<std::size_t> place(k - 1, 1);
    for (int i = k - 3; i >= 0; --i) place[i] = place[i + 1] * n;
    TupleOrbits out;
    out.orbit.assign(tuples, 0);
    std::vector<std::uint32_t> coords(k - 1);
    for (const auto& orbit : members) {
        if (ctx) ctx->throw_if_cancelled();
        const VertexId a = orbit.front();
        GraphBuilder b(g.n());
        for (const auto& [u, v] : edges) b.add_edge(u, v);
        std::vector<Label> marked = labels;
        marked[a] = 1;
        b.set_node_labels(std::move(marked));
        const TupleOrbits after =
            tuple_orbits(n, k - 1, automorphism_generators(b.build(), IsoOptions().node_labels(true)), ctx);
        const std::size_t offset = out.first.size();
        if (offset + after.count() >= kNone) throw ResourceLimit("automorphism_tuple_orbits: too many orbits");
        for (std::size_t p = 0; p < after.count(); ++p) {
            out.first.push_back(static_cast<std::uint32_t>(a * rest + after.first[p]));
            out.size.push_back(static_cast<std::uint32_t>(orbit.size() * after.size[p]));
        }
        // The tuple (x, move[x](t)) = move[x]((a, t)) lies in the orbit of (a, t).
        for (const VertexId x : orbit) {
            const Permutation& m = move[x];
            std::uint32_t* row = out.orbit.data() + static_cast<std::size_t>(x) * rest;
            std::fill(coords.begin(), coords.end(), 0);
            std::size_t image = 0;  // id of move[x](t) among the (k-1)-tuples
            for (int i = 0; i < k - 1; ++i) image += m[0] * place[i];
            for (std::size_t t = 0; t < rest; ++t) {
                row[image] = static_cast<std::uint32_t>(offset + after.orbit[t]);
                // Next t: an odometer over the coordinates, updating the image position by position.
                for (int i = k - 2; i >= 0; --i) {
                    image -= m[coords[i]] * place[i];
                    if (++coords[i] < n) {
                        image += m[coords[i]] * place[i];
                        break;
                    }
                    coords[i] = 0;
                    image += m[0] * place[i];
                }
            }
        }
    }
    return out;
}

}  // namespace brec::detail
