// The pair drawing of `brec show`: two panels, straight edges, numbered vertices (small graphs).
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/report/layout.hpp"

namespace brec {
namespace {

constexpr const char* kSideColour[2] = {"#3b6fb6", "#e07b28"};
constexpr const char* kDiffColour = "#d62728";

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

/// Draws one graph into the square panel at (ox, oy): positions fitted to the panel by their
/// bounding box, edges fading with density, differing edges in red on top.
void panel(std::ostringstream& out, const Graph& g, const std::vector<Point>& pos, const std::vector<Edge>& highlight,
           double ox, double oy, double size, const std::string& title) {
    const double r = size * 0.42, cx = ox + size / 2, cy = oy + size / 2 + 10;
    double lox = 0, hix = 0, loy = 0, hiy = 0;
    for (std::size_t v = 0; v < pos.size(); ++v) {
        lox = v == 0 ? pos[v].x : std::min(lox, pos[v].x);
        hix = v == 0 ? pos[v].x : std::max(hix, pos[v].x);
        loy = v == 0 ? pos[v].y : std::min(loy, pos[v].y);
        hiy = v == 0 ? pos[v].y : std::max(hiy, pos[v].y);
    }
    const double half = std::max(hix - lox, hiy - loy) / 2;
    const double scale = half > 1e-12 ? r / half : 0.0, mx = (lox + hix) / 2, my = (loy + hiy) / 2;
    auto px = [&](VertexId v) { return num(cx + scale * (pos[v].x - mx)); };
    auto py = [&](VertexId v) { return num(cy + scale * (pos[v].y - my)); };
    const std::size_t m = g.m();
    const double width = m <= 100 ? 1.2 : m <= 400 ? 0.8 : 0.5;
    const double opacity = std::clamp(100.0 / static_cast<double>(std::max<std::size_t>(m, 1)), 0.15, 1.0);
    const double dot = g.n() <= 40 ? 7.0 : g.n() <= 100 ? 4.0 : 2.5;
    out << "<text x=\"" << num(cx) << "\" y=\"" << num(oy + 16) << "\" text-anchor=\"middle\" font-size=\"15\">"
        << xml_escape(title) << "</text>\n<g stroke=\"#444\" stroke-width=\"" << num(width) << "\" stroke-opacity=\""
        << num(opacity) << "\">\n";
    for (const auto& [u, v] : g.edges()) {
        if (std::binary_search(highlight.begin(), highlight.end(), Edge{u, v})) continue;
        out << "<line x1=\"" << px(u) << "\" y1=\"" << py(u) << "\" x2=\"" << px(v) << "\" y2=\"" << py(v) << "\"/>\n";
    }
    out << "</g>\n";
    if (!highlight.empty()) {
        out << "<g stroke=\"" << kDiffColour << "\" stroke-width=\"2.5\">\n";
        for (const auto& [u, v] : highlight)
            out << "<line x1=\"" << px(u) << "\" y1=\"" << py(u) << "\" x2=\"" << px(v) << "\" y2=\"" << py(v)
                << "\"/>\n";
        out << "</g>\n";
    }
    const auto side = bipartition(g);
    out << "<g stroke=\"#fff\" stroke-width=\"1\">\n";
    for (VertexId v = 0; v < g.n(); ++v)
        out << "<circle cx=\"" << px(v) << "\" cy=\"" << py(v) << "\" r=\"" << num(dot) << "\" fill=\""
            << kSideColour[side.empty() ? 0 : side[v]] << "\"/>\n";
    out << "</g>\n";
    if (g.n() <= 40) {
        out << "<g font-size=\"8\" fill=\"#fff\" text-anchor=\"middle\">\n";
        for (VertexId v = 0; v < g.n(); ++v)
            out << "<text x=\"" << px(v) << "\" y=\"" << num(cy + 3 + scale * (pos[v].y - my)) << "\">" << v
                << "</text>\n";
        out << "</g>\n";
    }
}

}  // namespace

PairLayout plan_pair_layout(const Graph& a, const Graph& b) {
    PairLayout plan;
    plan.a = default_layout(a);
    if (a.n() == b.n() && a.n() > 0) {
        auto ea = a.edges(), eb = b.edges();
        std::set_difference(ea.begin(), ea.end(), eb.begin(), eb.end(), std::back_inserter(plan.only_a));
        std::set_difference(eb.begin(), eb.end(), ea.begin(), ea.end(), std::back_inserter(plan.only_b));
        const std::size_t diff = plan.only_a.size() + plan.only_b.size();
        plan.shared = diff > 0 && diff <= std::max<std::size_t>(4, (ea.size() + eb.size()) / 10);
    }
    plan.b = plan.shared ? plan.a : default_layout(b);
    return plan;
}

std::string PairLayout::description() const {
    const std::string la = layout_name(a.kind), lb = layout_name(b.kind);
    std::string s = "layout: " + (la == lb ? la : la + " / " + lb);
    const std::size_t diff = only_a.size() + only_b.size();
    if (shared)
        s += ", same positions in both drawings; red: " +
             (diff == 1 ? std::string("the edge that differs") : "the " + std::to_string(diff) + " edges that differ");
    return s;
}

std::string pair_layout_description(const Graph& a, const Graph& b) { return plan_pair_layout(a, b).description(); }

std::string render_pair_svg(const Graph& a, const Graph& b, const PairLayout& layout, const std::string& title_a,
                            const std::string& title_b, const std::vector<std::string>& caption) {
    if (layout.a.points.size() != a.n() || layout.b.points.size() != b.n())
        throw InvalidArgument("pair drawing: the layout does not have one point per vertex");
    const double size = 420, width = 2 * size, height = size + 30 + 18.0 * caption.size();
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
           "width=\""
        << num(width) << "\" height=\"" << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
        << "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
    // Differing edges are only meaningful (and only marked) when both drawings share positions.
    const std::vector<Edge> none;
    panel(out, a, layout.a.points, layout.shared ? layout.only_a : none, 0, 0, size, title_a);
    panel(out, b, layout.b.points, layout.shared ? layout.only_b : none, size, 0, size, title_b);
    double y = size + 30;
    for (const auto& line : caption) {
        out << "<text x=\"" << num(width / 2) << "\" y=\"" << num(y) << "\" text-anchor=\"middle\" font-size=\"13\">"
            << xml_escape(line) << "</text>\n";
        y += 18;
    }
    out << "</svg>\n";
    return out.str();
}

std::string render_pair_svg(const Graph& a, const Graph& b, const std::string& title_a, const std::string& title_b,
                            const std::vector<std::string>& caption) {
    return render_pair_svg(a, b, plan_pair_layout(a, b), title_a, title_b, caption);
}

}  // namespace brec
