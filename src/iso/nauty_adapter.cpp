// The only translation unit that includes nauty. nauty is compiled with thread-local storage in
// Debian (USE_TLS), and we use its dynamic-allocation (MAXN=0) sparse interface, so concurrent
// calls from several threads are safe and nothing leaks between calls.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/iso/iso.hpp"

#define MAXN 0
#define _Thread_local thread_local
extern "C" {
#include <nauty/nausparse.h>
#include <nauty/nauty.h>
}
#undef _Thread_local

namespace brec {
namespace {

// A graph ready for nauty: possibly with edge labels expanded into colour-coded subdivision vertices.
struct Prepared {
    VertexId n = 0;           // vertices given to nauty
    VertexId original_n = 0;  // vertices of the input graph
    std::vector<std::uint32_t> offsets;
    std::vector<VertexId> adj;
    std::vector<std::int64_t> colour;  // colour per nauty vertex (0 when uncoloured)
    // Kind per nauty vertex: 0 = vertex of the input graph, 1 = edge-subdivision vertex. Colour
    // classes are (kind, colour) pairs, so the two kinds never share a class; empty = all 0.
    std::vector<std::uint8_t> kind;
};

Prepared prepare(const Graph& g, const IsoOptions& opt) {
    if (g.n() > kMaxIsoVertices)
        throw ResourceLimit("graph with " + std::to_string(g.n()) + " vertices exceeds the " +
                            std::to_string(kMaxIsoVertices) + "-vertex limit of the isomorphism module");
    Prepared p;
    p.original_n = g.n();
    // Subdivide only when some edge label is non-zero, so that an unlabelled graph and one whose
    // edge labels are all 0 (the default label) get the same certificate.
    bool edge_colours = false;
    if (opt.use_edge_labels && g.has_edge_labels())
        for (std::size_t a = 0; a < g.neighbor_array().size() && !edge_colours; ++a) edge_colours = g.arc_label(a) != 0;
    if (!edge_colours) {
        p.n = g.n();
        p.offsets = g.offsets();
        p.adj = g.neighbor_array();
        p.colour.assign(p.n, 0);
        if (opt.use_node_labels && g.has_node_labels())
            for (VertexId v = 0; v < g.n(); ++v) p.colour[v] = g.node_label(v);
        return p;
    }
    // Subdivide each edge {u,v} with label l by a new vertex x_e of colour class "edge l";
    // original vertices keep class "node label". Classes of the two kinds never mix.
    const auto edges = g.edges();
    if (g.n() + edges.size() > kMaxIsoVertices)
        throw ResourceLimit("graph with " + std::to_string(g.n()) + " vertices and " + std::to_string(edges.size()) +
                            " labelled edges exceeds the isomorphism module's limit of " +
                            std::to_string(kMaxIsoVertices) + " vertices plus edges");
    p.n = static_cast<VertexId>(g.n() + edges.size());
    std::vector<std::vector<VertexId>> lists(p.n);
    p.colour.assign(p.n, 0);
    // Colour classes are (kind, label) pairs: the labels themselves are kept (not ranked per
    // graph), so certificates of different graphs stay comparable.
    p.kind.assign(p.n, 0);
    for (VertexId v = 0; v < g.n(); ++v)
        p.colour[v] = (opt.use_node_labels && g.has_node_labels()) ? g.node_label(v) : 0;
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto [u, v] = edges[e];
        const VertexId x = static_cast<VertexId>(g.n() + e);
        lists[u].push_back(x);
        lists[v].push_back(x);
        lists[x] = {u, v};
        p.colour[x] = g.edge_label(u, v);
        p.kind[x] = 1;
    }
    p.offsets.assign(p.n + 1, 0);
    for (VertexId v = 0; v < p.n; ++v) {
        std::sort(lists[v].begin(), lists[v].end());
        p.offsets[v + 1] = p.offsets[v] + static_cast<std::uint32_t>(lists[v].size());
        p.adj.insert(p.adj.end(), lists[v].begin(), lists[v].end());
    }
    return p;
}

struct NautyRun {
    std::vector<int> lab, ptn, orbits;
    statsblk stats{};
    std::vector<VertexId> canon_adj;  // canonical graph (sorted lists)
    std::vector<std::uint32_t> canon_offsets;
};

// autom, when given, is nauty's userautomproc: called once per generator of the group found.
NautyRun run_nauty(const Prepared& p, bool want_canon, void (*autom)(int, int*, int*, int, int, int) = nullptr) {
    NautyRun r;
    const int n = static_cast<int>(p.n);
    r.lab.resize(std::max(n, 1));
    r.ptn.resize(std::max(n, 1));
    r.orbits.resize(std::max(n, 1));
    if (n == 0) {
        r.stats.grpsize1 = 1;
        r.stats.grpsize2 = 0;
        return r;
    }
    // Initial partition: vertices sorted by colour; ptn[i] = 0 ends a cell.
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    auto kind_of = [&](int v) { return p.kind.empty() ? std::uint8_t{0} : p.kind[v]; };
    auto cls = [&](int v) { return std::make_pair(kind_of(v), p.colour[v]); };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return cls(a) < cls(b); });
    for (int i = 0; i < n; ++i) {
        r.lab[i] = order[i];
        r.ptn[i] = (i + 1 < n && cls(order[i + 1]) == cls(order[i])) ? 1 : 0;
    }
    sparsegraph sg;
    SG_INIT(sg);
    std::vector<size_t> v(n);
    std::vector<int> d(n), e(p.adj.size() > 0 ? p.adj.size() : 1);
    for (int i = 0; i < n; ++i) {
        v[i] = p.offsets[i];
        d[i] = static_cast<int>(p.offsets[i + 1] - p.offsets[i]);
    }
    for (std::size_t i = 0; i < p.adj.size(); ++i) e[i] = static_cast<int>(p.adj[i]);
    sg.nv = n;
    sg.nde = p.adj.size();
    sg.v = v.data();
    sg.d = d.data();
    sg.e = e.data();
    sg.vlen = static_cast<size_t>(n);
    sg.dlen = static_cast<size_t>(n);
    sg.elen = e.size();

    sparsegraph canon;
    SG_INIT(canon);
    DEFAULTOPTIONS_SPARSEGRAPH(options);
    options.defaultptn = FALSE;
    options.getcanon = want_canon ? TRUE : FALSE;
    options.userautomproc = autom;
    const int m = SETWORDSNEEDED(n);
    nauty_check(WORDSIZE, m, n, NAUTYVERSIONID);
    sparsenauty(&sg, r.lab.data(), r.ptn.data(), r.orbits.data(), &options, &r.stats, want_canon ? &canon : nullptr);
    if (want_canon) {
        sortlists_sg(&canon);
        r.canon_offsets.assign(n + 1, 0);
        r.canon_adj.reserve(canon.nde);
        for (int i = 0; i < n; ++i) {
            for (int k = 0; k < canon.d[i]; ++k) r.canon_adj.push_back(static_cast<VertexId>(canon.e[canon.v[i] + k]));
            r.canon_offsets[i + 1] = static_cast<std::uint32_t>(r.canon_adj.size());
        }
        SG_FREE(canon);
    }
    return r;
}

void put_u32(std::string& s, std::uint32_t x) {
    for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((x >> (8 * i)) & 0xff));
}
void put_i64(std::string& s, std::int64_t x) {
    const auto u = static_cast<std::uint64_t>(x);
    for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((u >> (8 * i)) & 0xff));
}

void put_varint(std::string& s, std::uint64_t x) {
    while (x >= 0x80) {
        s.push_back(static_cast<char>((x & 0x7f) | 0x80));
        x >>= 7;
    }
    s.push_back(static_cast<char>(x));
}

}  // namespace

std::uint64_t Certificate::hash() const { return fnv1a(bytes); }

std::vector<VertexId> canonical_order(const Graph& g, const IsoOptions& opt) {
    const Prepared p = prepare(g, opt);
    const NautyRun r = run_nauty(p, true);
    std::vector<VertexId> out;
    out.reserve(g.n());
    for (VertexId i = 0; i < p.n; ++i)
        if (static_cast<VertexId>(r.lab[i]) < g.n()) out.push_back(static_cast<VertexId>(r.lab[i]));
    return out;
}

Certificate canonical_certificate(const Graph& g, const IsoOptions& opt) {
    const Prepared p = prepare(g, opt);
    const NautyRun r = run_nauty(p, true);
    Certificate c;
    std::string& s = c.bytes;
    s.reserve(8 + 4 * (p.n + r.canon_adj.size()) + 8 * p.n);
    put_u32(s, p.n);
    put_u32(s, p.original_n);
    // Colours in canonical order (the canonical graph alone does not carry them).
    const bool coloured = std::any_of(p.colour.begin(), p.colour.end(), [](std::int64_t x) { return x != 0; });
    const bool kinds = !p.kind.empty();
    s.push_back(static_cast<char>((coloured ? 1 : 0) | (kinds ? 2 : 0)));
    for (VertexId i = 0; i < p.n; ++i) {
        const auto v = static_cast<VertexId>(r.lab[i]);
        if (kinds) s.push_back(static_cast<char>(p.kind[v]));
        if (coloured) put_i64(s, p.colour[v]);
    }
    for (VertexId i = 0; i < p.n; ++i) put_u32(s, r.canon_offsets.empty() ? 0 : r.canon_offsets[i + 1]);
    for (VertexId x : r.canon_adj) put_u32(s, x);
    return c;
}

void append_compact_form(const Graph& g, const IsoOptions& opt, std::string& out) {
    const Prepared p = prepare(g, opt);
    const NautyRun r = run_nauty(p, true);
    out.push_back('c');
    put_varint(out, p.n);
    put_varint(out, p.original_n);
    // Colour classes (kind, colour) in canonical order, as runs of equal classes.
    auto kind_of = [&](int v) { return p.kind.empty() ? std::uint8_t{0} : p.kind[v]; };
    std::size_t runs = 0;
    for (VertexId i = 0; i < p.n; ++i)
        if (i == 0 || kind_of(r.lab[i]) != kind_of(r.lab[i - 1]) || p.colour[r.lab[i]] != p.colour[r.lab[i - 1]])
            ++runs;
    put_varint(out, runs);
    for (VertexId i = 0; i < p.n;) {
        const int v = r.lab[i];
        VertexId j = i + 1;
        while (j < p.n && kind_of(r.lab[j]) == kind_of(v) && p.colour[r.lab[j]] == p.colour[v]) ++j;
        out.push_back(static_cast<char>(kind_of(v)));
        const auto c = static_cast<std::uint64_t>(p.colour[v]);
        put_varint(out, (c << 1) ^ (p.colour[v] < 0 ? ~std::uint64_t{0} : 0));  // zigzag
        put_varint(out, j - i);
        i = j;
    }
    // The canonical graph: sparse lists (later neighbours, first as itself, then as deltas) when
    // they are shorter than the packed triangle. Isomorphic graphs have the same canonical graph,
    // so they make the same choice.
    std::string lists;
    for (VertexId i = 0; i < p.n; ++i) {
        const auto b = r.canon_adj.begin() + r.canon_offsets[i], e = r.canon_adj.begin() + r.canon_offsets[i + 1];
        auto later = std::upper_bound(b, e, i);
        put_varint(lists, static_cast<std::uint64_t>(e - later));
        VertexId prev = i;
        for (; later != e; ++later) {
            put_varint(lists, *later - prev);
            prev = *later;
        }
    }
    const std::uint64_t n = p.n;
    const std::uint64_t triangle = (n * (n - (n > 0)) / 2 + 7) / 8;
    if (lists.size() < triangle) {
        out.push_back('l');
        out += lists;
        return;
    }
    out.push_back('t');
    const std::size_t base = out.size();
    out.append(triangle, '\0');
    for (VertexId i = 0; i < p.n; ++i)
        for (std::uint32_t k = r.canon_offsets[i]; k < r.canon_offsets[i + 1]; ++k) {
            const VertexId j = r.canon_adj[k];
            if (j <= i) continue;
            // Bit of (i, j) in the row-by-row upper triangle.
            const std::uint64_t bit = static_cast<std::uint64_t>(i) * (2 * n - i - 1) / 2 + (j - i - 1);
            out[base + bit / 8] =
                static_cast<char>(static_cast<unsigned char>(out[base + bit / 8]) | (0x80u >> (bit % 8)));
        }
}

void DenseCanoniser::append_form(const DenseRows& g, std::string& out) {
    static_assert(sizeof(setword) == sizeof(std::uint64_t), "nauty must be built with 64-bit set words");
    const int n = static_cast<int>(g.n);
    const int m = static_cast<int>(g.words);
    out.push_back('d');
    if (g.n < 255) {
        out.push_back(static_cast<char>(g.n));
    } else {
        out.push_back(static_cast<char>(255));
        put_u32(out, g.n);
    }
    if (n <= 1) return;
    lab_.resize(n);
    ptn_.resize(n);
    orbits_.resize(n);
    canon_.resize(g.bits.size());
    DEFAULTOPTIONS_GRAPH(options);
    options.getcanon = TRUE;
    statsblk stats;
    // nauty does not write to g when no vertex invariant is asked for; its prototype is not const.
    auto* rows = reinterpret_cast<graph*>(const_cast<std::uint64_t*>(g.bits.data()));
    densenauty(rows, lab_.data(), ptn_.data(), orbits_.data(), &options, &stats, m, n,
               reinterpret_cast<graph*>(canon_.data()));
    // Row i contributes its bits for columns i+1 .. n-1, most significant first.
    std::uint64_t acc = 0;  // pending bits, left-aligned count `have`
    int have = 0;
    auto flush = [&]() {
        while (have >= 8) {
            out.push_back(static_cast<char>(acc >> 56));
            acc <<= 8;
            have -= 8;
        }
    };
    for (int i = 0; i + 1 < n; ++i) {
        const std::uint64_t* row = canon_.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(m);
        for (int c = i + 1; c < n;) {
            // Up to 32 columns from one word at a time, starting at column c.
            const int word = c >> 6, off = c & 63;
            const int take = std::min({32, 64 - off, n - c});
            const std::uint64_t chunk = (row[word] << off) >> (64 - take);
            acc |= chunk << (64 - have - take);
            have += take;
            flush();
            c += take;
        }
    }
    if (have > 0) out.push_back(static_cast<char>(acc >> 56));
}

Graph canonical_graph(const Graph& g, const IsoOptions& opt) {
    // The order honours every option, edge labels included: the relative order of the original
    // vertices in a canonical labelling of the subdivided graph is itself canonical.
    const auto order = canonical_order(g, opt);
    Permutation perm(g.n());
    for (VertexId i = 0; i < g.n(); ++i) perm[order[i]] = i;
    return permute(g, perm);
}

bool are_isomorphic(const Graph& g, const Graph& h, const IsoOptions& opt) {
    if (g.n() != h.n() || g.m() != h.m()) return false;
    if (g.degree_sequence() != h.degree_sequence()) return false;
    return canonical_certificate(g, opt) == canonical_certificate(h, opt);
}

double AutomorphismInfo::order() const {
    // The group order is an integer: undo the rounding error of the mantissa normalisation
    // (1.2 * 10^2 is not exactly 120 in binary) whenever the value is exactly representable.
    const double o = mantissa * std::pow(10.0, exponent);
    return (std::isfinite(o) && o < 9007199254740992.0) ? std::round(o) : o;
}

std::string AutomorphismInfo::order_text() const {
    const double o = order();
    if (exponent < 15 && std::isfinite(o)) {
        std::ostringstream ss;
        ss.precision(0);
        ss << std::fixed << std::round(o);
        return ss.str();
    }
    std::ostringstream ss;
    ss.precision(6);
    ss << mantissa << "e" << exponent;
    return ss.str();
}

AutomorphismInfo automorphisms(const Graph& g, const IsoOptions& opt) {
    const Prepared p = prepare(g, opt);
    const NautyRun r = run_nauty(p, false);
    AutomorphismInfo info;
    info.mantissa = r.stats.grpsize1;
    info.exponent = r.stats.grpsize2;
    // Normalise mantissa to [1,10).
    while (info.mantissa >= 10.0) {
        info.mantissa /= 10.0;
        ++info.exponent;
    }
    info.orbits.resize(g.n());
    std::vector<bool> rep(g.n(), false);
    for (VertexId v = 0; v < g.n(); ++v) {
        info.orbits[v] = static_cast<VertexId>(r.orbits[v]);
        if (info.orbits[v] == v) rep[v] = true;
    }
    info.num_orbits = static_cast<std::size_t>(std::count(rep.begin(), rep.end(), true));
    return info;
}

namespace {

// nauty's userautomproc takes no user pointer, so the generators of the call in progress on this
// thread are collected through this pointer; automorphism_generators() sets it for the duration of
// one nauty call only (nauty itself keeps its state thread-local too).
thread_local std::vector<Permutation>* t_generators = nullptr;

void collect_generator(int /*count*/, int* perm, int* /*orbits*/, int /*numorbits*/, int /*stabvertex*/, int n) {
    if (t_generators) t_generators->emplace_back(perm, perm + n);
}

}  // namespace

std::vector<Permutation> automorphism_generators(const Graph& g, const IsoOptions& opt) {
    const Prepared p = prepare(g, opt);
    std::vector<Permutation> gens;
    struct Scope {
        std::vector<Permutation>* saved;
        ~Scope() { t_generators = saved; }
    } scope{t_generators};
    t_generators = &gens;
    run_nauty(p, false, &collect_generator);
    // Subdivision vertices (edge labels) come after the original ones and never map onto them.
    for (Permutation& perm : gens) perm.resize(g.n());
    return gens;
}

}  // namespace brec
