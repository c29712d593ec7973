// Success rate vs budget as SVG.
#include "brec/report/attack_figure.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"

namespace brec {
namespace {

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

}  // namespace

std::string success_rate_svg(const std::vector<SuccessCurve>& curves, const std::string& title) {
    if (curves.empty()) throw InvalidArgument("success-rate figure: no curves");
    double max_x = 1.0;
    for (const auto& c : curves) {
        if (c.budget.size() != c.rate.size() || (!c.error.empty() && c.error.size() != c.rate.size()))
            throw InvalidArgument("success-rate figure: curve '" + c.label + "' has vectors of different lengths");
        for (double x : c.budget) max_x = std::max(max_x, x);
    }
    static const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
    const double left = 60, top = 40, width = 420, height = 260;
    const double legend_h = 18.0 * static_cast<double>(curves.size());
    auto px = [&](double x) { return left + width * x / max_x; };
    auto py = [&](double y) { return top + height * (1.0 - y); };
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(left + width + 30) << "\" height=\""
      << num(top + height + 50 + legend_h) << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s << "<text x=\"" << num(left) << "\" y=\"20\" font-size=\"14\">" << xml_escape(title) << "</text>\n";
    for (int i = 0; i <= 4; ++i) {
        const double y = i / 4.0;
        s << "<line x1=\"" << num(left) << "\" x2=\"" << num(left + width) << "\" y1=\"" << num(py(y)) << "\" y2=\""
          << num(py(y)) << "\" stroke=\"#ddd\"/>\n";
        s << "<text x=\"" << num(left - 6) << "\" y=\"" << num(py(y) + 4) << "\" text-anchor=\"end\">" << num(100 * y)
          << "%</text>\n";
    }
    s << "<rect x=\"" << num(left) << "\" y=\"" << num(top) << "\" width=\"" << num(width) << "\" height=\""
      << num(height) << "\" fill=\"none\" stroke=\"black\"/>\n";
    std::vector<double> ticks;
    for (const auto& c : curves) ticks.insert(ticks.end(), c.budget.begin(), c.budget.end());
    std::sort(ticks.begin(), ticks.end());
    ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
    for (double x : ticks)
        s << "<text x=\"" << num(px(x)) << "\" y=\"" << num(top + height + 16) << "\" text-anchor=\"middle\">" << num(x)
          << "</text>\n";
    s << "<text x=\"" << num(left + width / 2) << "\" y=\"" << num(top + height + 34)
      << "\" text-anchor=\"middle\">budget (edge flips, cumulative)</text>\n";
    for (std::size_t k = 0; k < curves.size(); ++k) {
        const auto& c = curves[k];
        const char* colour = kColours[k % 6];
        s << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"";
        for (std::size_t i = 0; i < c.rate.size(); ++i)
            s << (i ? " " : "") << num(px(c.budget[i])) << "," << num(py(c.rate[i]));
        s << "\"/>\n";
        for (std::size_t i = 0; i < c.rate.size(); ++i) {
            s << "<circle cx=\"" << num(px(c.budget[i])) << "\" cy=\"" << num(py(c.rate[i])) << "\" r=\"3\" fill=\""
              << colour << "\"/>\n";
            if (!c.error.empty() && c.error[i] > 0)
                s << "<line x1=\"" << num(px(c.budget[i])) << "\" x2=\"" << num(px(c.budget[i])) << "\" y1=\""
                  << num(py(std::min(1.0, c.rate[i] + c.error[i]))) << "\" y2=\""
                  << num(py(std::max(0.0, c.rate[i] - c.error[i]))) << "\" stroke=\"" << colour << "\"/>\n";
        }
        const double ly = top + height + 50 + 18.0 * static_cast<double>(k);
        s << "<line x1=\"" << num(left) << "\" x2=\"" << num(left + 20) << "\" y1=\"" << num(ly - 4) << "\" y2=\""
          << num(ly - 4) << "\" stroke=\"" << colour << "\" stroke-width=\"2\"/><text x=\"" << num(left + 26)
          << "\" y=\"" << num(ly) << "\">" << xml_escape(c.label) << "</text>\n";
    }
    s << "</svg>\n";
    return s.str();
}

}  // namespace brec
