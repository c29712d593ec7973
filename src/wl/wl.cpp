#include "brec/wl/wl.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include <Eigen/Dense>

#include "brec/core/error.hpp"
#include "brec/count/patterns.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/iso/iso.hpp"
#include "detail/refine.hpp"
#include "detail/tight.hpp"
#include "detail/tuple_wl.hpp"

namespace brec {
namespace {

using detail::from_outcome;
using detail::label_colours;
using detail::LabelledUnion;
using detail::rank_values;

int parse_k(const std::string& text, const std::string& name) {
    if (text.empty() || text.size() > 2 || !std::all_of(text.begin(), text.end(), ::isdigit))
        throw InvalidArgument("method '" + name + "': '" + text + "' is not a small positive integer");
    return std::stoi(text);
}

const char* kMethodList =
    "1wl, 2wl, 3wl, kwl:K, 1fwl, 2fwl, 3fwl, kfwl:K, spd, gd, s3, s4, n:K, m1, swl-vs, swl-sv, pswl-vs, pswl-sv, "
    "gswl, sswl (each [:R][:ego][:hop]), lfwl, slfwl, ngnn:R, de-ngnn:R, i2:R, drop1, gsn-e:3, gsn-e:4, kp:K, d2lwl, "
    "d2lwl+, setwl:K:C";

/// The subgraph WL classes by name.
const std::pair<const char*, SwlClass> kSwlNames[] = {
    {"swl-vs", SwlClass::swl_vs},   {"swl-sv", SwlClass::swl_sv}, {"pswl-vs", SwlClass::pswl_vs},
    {"pswl-sv", SwlClass::pswl_sv}, {"gswl", SwlClass::gswl},     {"sswl", SwlClass::sswl},
    {"lfwl", SwlClass::lfwl},       {"slfwl", SwlClass::slfwl},
};

std::vector<std::string> split_colons(const std::string& s) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const auto colon = s.find(':', start);
        parts.push_back(s.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
        if (colon == std::string::npos) return parts;
        start = colon + 1;
    }
}

/// The tight-bound methods: nullopt-like false when `name` is none of them.
bool parse_tight(const std::string& name, const std::string& raw, WlMethod& m) {
    const std::vector<std::string> parts = split_colons(name);
    const std::string& head = parts[0];
    const auto bad = [&](const std::string& why) { return InvalidArgument("WL method '" + raw + "': " + why); };
    const auto want_parts = [&](std::size_t lo, std::size_t hi, const char* form) {
        if (parts.size() < lo || parts.size() > hi) throw bad(std::string("expected ") + form);
    };
    for (const auto& [key, cls] : kSwlNames) {
        if (head != key) continue;
        m.kind = WlKind::swl;
        m.swl = cls;
        const bool folklore = cls == SwlClass::lfwl || cls == SwlClass::slfwl;
        if (folklore) want_parts(1, 1, "no parameters");
        for (std::size_t i = 1; i < parts.size(); ++i) {
            if (parts[i] == "ego" && !m.induced) {
                m.induced = true;
            } else if (parts[i] == "hop" && !m.hop) {
                m.hop = true;
            } else if (i == 1 && !parts[i].empty() && std::all_of(parts[i].begin(), parts[i].end(), ::isdigit)) {
                m.radius = parse_k(parts[i], raw);
            } else {
                throw bad("'" + parts[i] + "' is not a radius, 'ego' or 'hop' (form " + key + "[:R][:ego][:hop])");
            }
        }
        return true;
    }
    if (head == "ngnn" || head == "de-ngnn" || head == "i2") {
        want_parts(2, 2, (head + ":R").c_str());
        m.kind = head == "i2" ? WlKind::i2 : WlKind::ngnn;
        m.hop = head == "de-ngnn";
        m.radius = parse_k(parts[1], raw);
        return true;
    }
    if (head == "drop1") {
        want_parts(1, 1, "no parameters");
        m.kind = WlKind::drop1;
        return true;
    }
    if (head == "gsn-e") {
        want_parts(2, 2, "gsn-e:3 or gsn-e:4");
        m.kind = WlKind::gsn_edge;
        m.k = parse_k(parts[1], raw);
        if (m.k != 3 && m.k != 4) throw bad("pattern size must be 3 or 4");
        return true;
    }
    if (head == "kp") {
        want_parts(2, 2, "kp:K");
        m.kind = WlKind::kp;
        m.k = parse_k(parts[1], raw);
        if (m.k < 1) throw bad("K must be >= 1");
        return true;
    }
    if (head == "d2lwl" || head == "d2lwl+") {
        want_parts(1, 1, "no parameters");
        m.kind = WlKind::lwl2;
        m.k = 2;
        m.plus = head == "d2lwl+";
        return true;
    }
    if (head == "setwl") {
        want_parts(3, 3, "setwl:K:C");
        m.kind = WlKind::setwl;
        m.k = parse_k(parts[1], raw);
        m.c = parse_k(parts[2], raw);
        if (m.k < 1 || m.k > 3 || m.c < 1 || m.c > m.k) throw bad("setwl supports 1 <= C <= K <= 3");
        return true;
    }
    return false;
}

/// Combines initial colours with node labels (if any) into one dense palette.
std::vector<ColorId> with_labels(const std::vector<ColorId>& colours, const Graph& g, const Graph& h, bool use_labels) {
    const auto labels = label_colours(g, h, use_labels);
    std::vector<std::pair<ColorId, ColorId>> both(colours.size());
    for (std::size_t i = 0; i < colours.size(); ++i) both[i] = {labels[i], colours[i]};
    return rank_values(both);
}

/// The complete graph on each side with arc labels from `label(side, u, v)`.
template <typename LabelFn>
LabelledUnion complete_union(const Graph& g, const Graph& h, LabelFn label) {
    LabelledUnion u;
    u.n = g.n() + h.n();
    u.split = g.n();
    u.offsets.push_back(0);
    for (int side = 0; side < 2; ++side) {
        const VertexId n = side == 0 ? g.n() : h.n();
        const VertexId base = side == 0 ? 0 : g.n();
        for (VertexId a = 0; a < n; ++a) {
            for (VertexId b = 0; b < n; ++b) {
                if (a == b) continue;
                u.targets.push_back(base + b);
                u.labels.push_back(label(side, a, b));
            }
            u.offsets.push_back(static_cast<std::uint32_t>(u.targets.size()));
        }
    }
    return u;
}

/// Resistance distances R(a,b) = L+(a,a) + L+(b,b) - 2 L+(a,b) from the Laplacian pseudo-inverse
/// L+ = (L + J/n)^-1 - J/n (valid for connected graphs), by a Cholesky solve.
std::vector<double> resistance_distances(const Graph& g) {
    const VertexId n = g.n();
    Eigen::MatrixXd lap = Eigen::MatrixXd::Constant(n, n, 1.0 / n);
    for (VertexId v = 0; v < n; ++v) {
        lap(v, v) += g.degree(v);
        for (VertexId w : g.neighbors(v)) lap(v, w) -= 1.0;
    }
    const Eigen::MatrixXd pinv = lap.llt().solve(Eigen::MatrixXd::Identity(n, n));  // J/n cancels below
    std::vector<double> r(static_cast<std::size_t>(n) * n);
    for (VertexId a = 0; a < n; ++a)
        for (VertexId b = 0; b < n; ++b)
            r[static_cast<std::size_t>(a) * n + b] = a == b ? 0.0 : pinv(a, a) + pinv(b, b) - 2 * pinv(a, b);
    return r;
}

/// Integer ids of floating-point values of both graphs such that values closer than a tolerance
/// share an id: sort all values and start a new id where the gap to the previous value exceeds
/// 1e-8 * max(1, |value|). Unlike rounding to a grid, two values that differ only by round-off
/// (e.g. the same distance computed in a relabelled graph) can never fall on different sides of a
/// grid boundary. Assumption (it holds on every BREC graph): distinct resistance distances differ
/// by more than 1e-8 relative, while the Cholesky round-off is about 1e-13.
std::vector<std::int64_t> cluster_values(const std::vector<double>& values) {
    std::vector<std::size_t> order(values.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return values[x] < values[y]; });
    std::vector<std::int64_t> ids(values.size());
    std::int64_t id = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i > 0) {
            const double prev = values[order[i - 1]], cur = values[order[i]];
            if (cur - prev > 1e-8 * std::max(1.0, std::abs(cur))) ++id;
        }
        ids[order[i]] = id;
    }
    return ids;
}

WlResult run_distance_wl(const Graph& g, const Graph& h, const WlOptions& opt, bool resistance) {
    if (resistance && (!is_connected(g) || !is_connected(h)))
        throw Unsupported("GD-WL (resistance distance) needs connected graphs");
    const auto dg = all_pairs_distances(g), dh = all_pairs_distances(h);
    std::vector<std::int64_t> rg, rh;
    if (resistance) {
        // Cluster the distances of both graphs together, then split back.
        std::vector<double> all_r = resistance_distances(g);
        const std::size_t split = all_r.size();
        const std::vector<double> r_h = resistance_distances(h);
        all_r.insert(all_r.end(), r_h.begin(), r_h.end());
        const std::vector<std::int64_t> ids = cluster_values(all_r);
        rg.assign(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(split));
        rh.assign(ids.begin() + static_cast<std::ptrdiff_t>(split), ids.end());
    }
    // Arc labels: rank (spd, resistance) jointly so they fit 32 bits.
    std::vector<std::pair<std::int64_t, std::int64_t>> all;
    auto spd = [&](int side, VertexId a, VertexId b) -> std::int64_t {
        const auto& d = side == 0 ? dg : dh;
        const VertexId n = side == 0 ? g.n() : h.n();
        const auto x = d[static_cast<std::size_t>(a) * n + b];
        return x < 0 ? 0 : x;  // 0 for unreachable, as the reference
    };
    auto res = [&](int side, VertexId a, VertexId b) -> std::int64_t {
        if (!resistance) return 0;
        const VertexId n = side == 0 ? g.n() : h.n();
        return (side == 0 ? rg : rh)[static_cast<std::size_t>(a) * n + b];
    };
    for (int side = 0; side < 2; ++side) {
        const VertexId n = side == 0 ? g.n() : h.n();
        for (VertexId a = 0; a < n; ++a)
            for (VertexId b = 0; b < n; ++b)
                if (a != b) all.push_back({spd(side, a, b), res(side, a, b)});
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    auto label = [&](int side, VertexId a, VertexId b) {
        const std::pair<std::int64_t, std::int64_t> key{spd(side, a, b), res(side, a, b)};
        return static_cast<std::uint32_t>(std::lower_bound(all.begin(), all.end(), key) - all.begin());
    };
    const LabelledUnion u = complete_union(g, h, label);
    int rounds = opt.max_rounds;
    if (rounds < 0 && opt.reference_rounds) rounds = 10;
    return from_outcome(detail::refine_union(u, label_colours(g, h, opt.use_node_labels), rounds));
}

WlResult run_pattern_wl(const Graph& g, const Graph& h, const WlOptions& opt, int size) {
    const auto cg = count_patterns(g, size), ch = count_patterns(h, size);
    // The induced patterns only (the non-induced 3-star is a function of degrees).
    std::vector<std::array<std::uint64_t, kNumPatterns>> values;
    values.reserve(cg.per_node.size() + ch.per_node.size());
    for (const auto* c : {&cg, &ch})
        for (const auto& row : c->per_node) {
            std::array<std::uint64_t, kNumPatterns> induced{};
            std::copy(row.begin(), row.begin() + kNumPatterns, induced.begin());
            values.push_back(induced);
        }
    const auto initial = with_labels(rank_values(values), g, h, opt.use_node_labels);
    return from_outcome(detail::refine_union(detail::make_union(g, h), initial, opt.max_rounds));
}

WlResult run_ego_wl(const Graph& g, const Graph& h, const WlOptions& opt) {
    std::vector<Certificate> certs;
    certs.reserve(g.n() + h.n());
    IsoOptions iso;
    iso.use_node_labels = true;
    for (const Graph* x : {&g, &h})
        for (VertexId v = 0; v < x->n(); ++v) {
            const auto vertices = ego_vertices(*x, v, static_cast<std::uint32_t>(opt.method.k));
            Graph ego = induced_subgraph(*x, vertices);
            // Colour the ego-net: node labels (if used) and, optionally, the root.
            GraphBuilder b(ego.n());
            for (const auto& [a, c] : ego.edges()) b.add_edge(a, c);
            std::vector<Label> labels(ego.n(), 0);
            for (VertexId i = 0; i < ego.n(); ++i) {
                const Label base = opt.use_node_labels ? ego.node_label(i) : 0;
                labels[i] = 2 * base + ((opt.method.mark_root && i == 0) ? 1 : 0);
            }
            b.set_node_labels(labels);
            certs.push_back(canonical_certificate(b.build(), iso));
        }
    const auto initial = with_labels(rank_values(certs), g, h, opt.use_node_labels);
    return from_outcome(detail::refine_union(detail::make_union(g, h), initial, opt.max_rounds));
}

WlResult run_marking_wl(const Graph& g, const Graph& h, const WlOptions& opt) {
    // Plain 1-WL first.
    WlResult plain = from_outcome(
        detail::refine_union(detail::make_union(g, h), label_colours(g, h, opt.use_node_labels), opt.max_rounds));
    if (plain.distinguished || g.n() != h.n()) {
        plain.distinguished = true;
        return plain;
    }
    // One big joint refinement of n marked copies of G and n marked copies of H, so colours are
    // comparable across all copies; each copy's invariant is its sorted colour histogram.
    const VertexId n = g.n();
    LabelledUnion u;
    u.n = 2 * n * n;
    u.split = n * n;
    u.offsets.push_back(0);
    std::vector<std::uint64_t> initial;
    initial.reserve(u.n);
    const auto base_colours = label_colours(g, h, opt.use_node_labels);
    for (int side = 0; side < 2; ++side) {
        const Graph& x = side == 0 ? g : h;
        for (VertexId copy = 0; copy < n; ++copy) {
            const VertexId base = (side * n + copy) * n;
            for (VertexId v = 0; v < n; ++v) {
                for (VertexId w : x.neighbors(v)) u.targets.push_back(base + w);
                u.offsets.push_back(static_cast<std::uint32_t>(u.targets.size()));
                initial.push_back(2 * static_cast<std::uint64_t>(base_colours[side * n + v]) + (v == copy ? 1 : 0));
            }
        }
    }
    detail::RefineOutcome o = detail::refine_union(u, detail::dense_rank(initial), opt.max_rounds, /*compare=*/false);
    std::vector<std::vector<ColorId>> invariants[2];
    for (int side = 0; side < 2; ++side)
        for (VertexId copy = 0; copy < n; ++copy) {
            const auto begin = o.final_colours.begin() + static_cast<std::ptrdiff_t>((side * n + copy) * n);
            std::vector<ColorId> hist(begin, begin + n);
            std::sort(hist.begin(), hist.end());
            invariants[side].push_back(std::move(hist));
        }
    for (auto& inv : invariants) std::sort(inv.begin(), inv.end());
    WlResult r;
    r.distinguished = invariants[0] != invariants[1];
    r.rounds = std::max(plain.rounds, o.rounds);
    r.colours = o.colours;
    return r;
}

/// k-WL runs for k = 2, 3 and k-FWL for k = 1, 2, 3 (the tuple tests' memory grows as n^k).
WlMethod checked_k(WlMethod m, const std::string& raw) {
    if (m.kind == WlKind::kwl && (m.k < 2 || m.k > 3))
        throw InvalidArgument("WL method '" + raw + "': k-WL supports k = 2, 3, got k = " + std::to_string(m.k) +
                              " (1wl is colour refinement)");
    if (m.kind == WlKind::kfwl && (m.k < 1 || m.k > 3))
        throw InvalidArgument("WL method '" + raw + "': k-FWL supports k = 1, 2, 3, got k = " + std::to_string(m.k));
    return m;
}

}  // namespace

WlMethod WlMethod::parse(const std::string& raw) {
    std::string name = raw;
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    WlMethod m;
    if (name == "1wl" || name == "wl") return m;
    if (name == "spd") return m.kind = WlKind::spd, m;
    if (name == "gd") return m.kind = WlKind::gd, m;
    if (name == "s3") return m.kind = WlKind::s3, m;
    if (name == "s4") return m.kind = WlKind::s4, m;
    if (name == "m1") return m.kind = WlKind::m1, m;
    if (parse_tight(name, raw, m)) return m;
    const auto colon = name.find(':');
    if (colon != std::string::npos) {
        const std::string head = name.substr(0, colon), tail = name.substr(colon + 1);
        if (head == "kwl") return m.kind = WlKind::kwl, m.k = parse_k(tail, raw), checked_k(m, raw);
        if (head == "kfwl") return m.kind = WlKind::kfwl, m.k = parse_k(tail, raw), checked_k(m, raw);
        if (head == "n") return m.kind = WlKind::nk, m.k = parse_k(tail, raw), m;
    }
    if (name.size() == 3 && std::isdigit(static_cast<unsigned char>(name[0])) && name.substr(1) == "wl") {
        m.k = name[0] - '0';
        m.kind = m.k == 1 ? WlKind::wl1 : WlKind::kwl;
        return checked_k(m, raw);
    }
    if (name.size() == 4 && std::isdigit(static_cast<unsigned char>(name[0])) && name.substr(1) == "fwl") {
        m.kind = WlKind::kfwl;
        m.k = name[0] - '0';
        return checked_k(m, raw);
    }
    throw InvalidArgument("unknown WL method '" + raw + "' (known: " + kMethodList + ")");
}

std::string WlMethod::name() const {
    switch (kind) {
        case WlKind::wl1:
            return "1wl";
        case WlKind::kwl:
            return std::to_string(k) + "wl";
        case WlKind::kfwl:
            return std::to_string(k) + "fwl";
        case WlKind::spd:
            return "spd";
        case WlKind::gd:
            return "gd";
        case WlKind::s3:
            return "s3";
        case WlKind::s4:
            return "s4";
        case WlKind::nk:
            return "n:" + std::to_string(k) + (mark_root ? "+root" : "");
        case WlKind::m1:
            return "m1";
        case WlKind::swl: {
            std::string out;
            for (const auto& [key, cls] : kSwlNames)
                if (cls == swl) out = key;
            if (radius >= 0) out += ":" + std::to_string(radius);
            if (induced) out += ":ego";
            if (hop) out += ":hop";
            return out;
        }
        case WlKind::ngnn:
            return std::string(hop ? "de-ngnn:" : "ngnn:") + std::to_string(radius);
        case WlKind::i2:
            return "i2:" + std::to_string(radius);
        case WlKind::drop1:
            return "drop1";
        case WlKind::gsn_edge:
            return "gsn-e:" + std::to_string(k);
        case WlKind::kp:
            return "kp:" + std::to_string(k);
        case WlKind::lwl2:
            return plus ? "d2lwl+" : "d2lwl";
        case WlKind::setwl:
            return "setwl:" + std::to_string(k) + ":" + std::to_string(c);
    }
    return "?";
}

WlResult compare_pair(const Graph& g, const Graph& h, const WlOptions& opt, const RunContext* ctx) {
    const auto start = std::chrono::steady_clock::now();
    const auto orbit_mode = opt.use_automorphisms ? detail::TupleOrbitMode::automatic : detail::TupleOrbitMode::never;
    WlResult r;
    switch (opt.method.kind) {
        case WlKind::wl1:
            r = from_outcome(detail::refine_union(detail::make_union(g, h), label_colours(g, h, opt.use_node_labels),
                                                  opt.max_rounds));
            break;
        case WlKind::kwl:
            r = detail::run_tuple_wl(g, h, opt.method.k, false, opt.max_rounds, opt.use_node_labels, opt.threads, ctx,
                                     orbit_mode);
            break;
        case WlKind::kfwl:
            r = detail::run_tuple_wl(g, h, opt.method.k, true, opt.max_rounds, opt.use_node_labels, opt.threads, ctx,
                                     orbit_mode);
            break;
        case WlKind::spd:
            r = run_distance_wl(g, h, opt, false);
            break;
        case WlKind::gd:
            r = run_distance_wl(g, h, opt, true);
            break;
        case WlKind::s3:
            r = run_pattern_wl(g, h, opt, 3);
            break;
        case WlKind::s4:
            r = run_pattern_wl(g, h, opt, 4);
            break;
        case WlKind::nk:
            if (opt.method.k < 1) throw InvalidArgument("n:K needs K >= 1");
            r = run_ego_wl(g, h, opt);
            break;
        case WlKind::m1:
            r = run_marking_wl(g, h, opt);
            break;
        case WlKind::swl:
            r = detail::run_swl(g, h, opt);
            break;
        case WlKind::ngnn:
            r = detail::run_ngnn_wl(g, h, opt);
            break;
        case WlKind::i2:
            r = detail::run_i2_wl(g, h, opt);
            break;
        case WlKind::drop1:
            r = detail::run_drop_wl(g, h, opt);
            break;
        case WlKind::gsn_edge:
            r = detail::run_gsn_edge_wl(g, h, opt);
            break;
        case WlKind::kp:
            r = detail::run_kp_wl(g, h, opt);
            break;
        case WlKind::lwl2:
            r = detail::run_local_2wl(g, h, opt);
            break;
        case WlKind::setwl:
            r = detail::run_set_wl(g, h, opt);
            break;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

std::vector<ColorId> refine_1wl(const Graph& g, const std::vector<ColorId>& initial, int* rounds) {
    detail::LabelledUnion u = detail::make_union(g, Graph());
    std::vector<ColorId> colours = initial;
    if (colours.empty()) {
        colours.resize(g.n());
        for (VertexId v = 0; v < g.n(); ++v) colours[v] = static_cast<ColorId>(g.node_label(v));
    } else if (colours.size() != g.n()) {
        throw InvalidArgument("refine_1wl: initial colouring has " + std::to_string(colours.size()) + " entries for " +
                              std::to_string(g.n()) + " vertices");
    }
    auto o = detail::refine_union(u, colours, -1, /*compare=*/false);
    if (rounds) *rounds = o.rounds;
    return o.final_colours;
}

bool wl1_equivalent(const Graph& g, const Graph& h) {
    return !compare_pair(g, h, WlOptions(WlMethod::parse("1wl"))).distinguished;
}

HardnessResult certify_hardness(const Graph& g, const Graph& h, int max_fwl, int threads, const RunContext* ctx) {
    HardnessResult out;
    WlOptions o1(WlMethod::parse("1wl"));
    out.steps.push_back(compare_pair(g, h, o1));
    if (out.steps.back().distinguished) {
        out.level = Hardness::wl1;
        return out;
    }
    for (int k = 2; k <= max_fwl; ++k) {
        WlOptions ok(WlMethod::parse(std::to_string(k) + "fwl"));
        ok.threads = threads;
        out.steps.push_back(compare_pair(g, h, ok, ctx));
        if (out.steps.back().distinguished) {
            out.level = k == 2 ? Hardness::fwl2 : Hardness::fwl3;
            return out;
        }
    }
    out.level = Hardness::beyond;
    return out;
}

std::string hardness_name(Hardness h) {
    switch (h) {
        case Hardness::wl1:
            return "1-WL";
        case Hardness::fwl2:
            return "3-WL (2-FWL)";
        case Hardness::fwl3:
            return "4-WL (3-FWL)";
        case Hardness::beyond:
            return "beyond 4-WL";
    }
    return "?";
}

}  // namespace brec
