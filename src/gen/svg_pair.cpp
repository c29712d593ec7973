// A minimal SVG writer for `brec show`: two panels, straight edges, numbered vertices (small graphs).
#include <cstdio>
#include <sstream>

#include "brec/gen/layout.hpp"

namespace brec {
namespace {

std::string escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            default: o += c;
        }
    }
    return o;
}

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

void panel(std::ostringstream& out, const Graph& g, double ox, double oy, double size, const std::string& title) {
    const auto pos = default_layout(g);
    const double r = size * 0.42, cx = ox + size / 2, cy = oy + size / 2;
    const double dot = g.n() <= 40 ? 7.0 : g.n() <= 100 ? 4.0 : 2.5;
    out << "<text x=\"" << num(cx) << "\" y=\"" << num(oy + 16) << "\" text-anchor=\"middle\" font-size=\"15\">"
        << escape(title) << "</text>\n<g stroke=\"#555\" stroke-width=\"" << (g.n() <= 40 ? 1.2 : 0.5) << "\">\n";
    for (const auto& [u, v] : g.edges())
        out << "<line x1=\"" << num(cx + r * pos[u].x) << "\" y1=\"" << num(cy + 10 + r * pos[u].y) << "\" x2=\""
            << num(cx + r * pos[v].x) << "\" y2=\"" << num(cy + 10 + r * pos[v].y) << "\"/>\n";
    out << "</g>\n<g fill=\"#3b6fb6\" stroke=\"#fff\" stroke-width=\"1\">\n";
    for (VertexId v = 0; v < g.n(); ++v)
        out << "<circle cx=\"" << num(cx + r * pos[v].x) << "\" cy=\"" << num(cy + 10 + r * pos[v].y) << "\" r=\"" << dot
            << "\"/>\n";
    out << "</g>\n";
    if (g.n() <= 30) {
        out << "<g font-size=\"8\" fill=\"#fff\" text-anchor=\"middle\">\n";
        for (VertexId v = 0; v < g.n(); ++v)
            out << "<text x=\"" << num(cx + r * pos[v].x) << "\" y=\"" << num(cy + 13 + r * pos[v].y) << "\">" << v
                << "</text>\n";
        out << "</g>\n";
    }
}

}  // namespace

std::string render_pair_svg(const Graph& a, const Graph& b, const std::string& title_a,
                            const std::string& title_b, const std::vector<std::string>& caption) {
    const double size = 420, width = 2 * size, height = size + 30 + 18.0 * caption.size();
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""
        << num(width) << "\" height=\"" << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
        << "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
    panel(out, a, 0, 0, size, title_a);
    panel(out, b, size, 0, size, title_b);
    double y = size + 30;
    for (const auto& line : caption) {
        out << "<text x=\"" << num(width / 2) << "\" y=\"" << num(y) << "\" text-anchor=\"middle\" font-size=\"13\">"
            << escape(line) << "</text>\n";
        y += 18;
    }
    out << "</svg>\n";
    return out.str();
}

}  // namespace brec
