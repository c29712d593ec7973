#include "brec/report/orbit_histogram.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"

namespace brec {

std::string orbit_histogram_svg(std::vector<std::pair<std::size_t, std::size_t>> orbits_per_size,
                                const std::string& title) {
    auto& h = orbits_per_size;
    std::sort(h.begin(), h.end());
    for (std::size_t i = 0; i < h.size(); ++i) {
        if (h[i].first == 0) throw InvalidArgument("orbit histogram: an orbit has at least one graph");
        if (i > 0 && h[i].first == h[i - 1].first)
            throw InvalidArgument("orbit histogram: orbit size " + std::to_string(h[i].first) + " given twice");
    }
    const double width = 640, height = 360, left = 70, right = 20, top = 40, bottom = 60;
    const double plot_w = width - left - right, plot_h = height - top - bottom;
    std::size_t max_count = 1, min_count = 0;
    for (const auto& [s, c] : h) {
        max_count = std::max(max_count, c);
        min_count = min_count == 0 ? c : std::min(min_count, c);
    }
    const bool log_scale = max_count >= 100 * std::max<std::size_t>(1, min_count);
    auto y_of = [&](double c) {
        const double f = log_scale ? std::log10(1.0 + c) / std::log10(1.0 + static_cast<double>(max_count))
                                   : c / static_cast<double>(max_count);
        return top + plot_h * (1.0 - f);
    };
    char buf[512];
    std::string svg;
    std::snprintf(buf, sizeof buf,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                  "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
                  width, height, width, height);
    svg += buf;
    svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    std::snprintf(buf, sizeof buf, "<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">", width / 2);
    svg += buf + xml_escape(title) + "</text>\n";
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n"
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                  left, top, left, top + plot_h, left, top + plot_h, left + plot_w, top + plot_h);
    svg += buf;
    // Y ticks.
    std::vector<double> ticks;
    if (log_scale) {
        for (double t = 1; t <= static_cast<double>(max_count); t *= 10) ticks.push_back(t);
    } else {
        const double stepv = std::max(1.0, std::ceil(static_cast<double>(max_count) / 5.0));
        for (double t = 0; t <= static_cast<double>(max_count); t += stepv) ticks.push_back(t);
    }
    for (double t : ticks) {
        std::snprintf(buf, sizeof buf,
                      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>"
                      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n",
                      left, y_of(t), left + plot_w, y_of(t), left - 6, y_of(t) + 4, t);
        svg += buf;
    }
    const std::size_t bars = std::max<std::size_t>(1, h.size());
    const double slot = plot_w / static_cast<double>(bars);
    std::size_t k = 0;
    for (const auto& [s, c] : h) {
        const double x = left + slot * static_cast<double>(k) + slot * 0.1, y = y_of(static_cast<double>(c));
        std::snprintf(buf, sizeof buf,
                      "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                      "<title>size %zu: %zu orbits (%zu graphs)</title></rect>\n",
                      x, y, slot * 0.8, top + plot_h - y, s == 1 ? "#9ecae1" : "#de2d26", s, c, s * c);
        svg += buf;
        std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%zu</text>\n",
                      x + slot * 0.4, top + plot_h + 16, s);
        svg += buf;
        if (bars <= 40) {
            std::snprintf(buf, sizeof buf,
                          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%zu</text>\n",
                          x + slot * 0.4, y - 3, c);
            svg += buf;
        }
        ++k;
    }
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">orbit size (1 = trivial)</text>\n"
                  "<text x=\"16\" y=\"%.0f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.0f)\">"
                  "number of orbits%s</text>\n",
                  left + plot_w / 2, height - 20, top + plot_h / 2, top + plot_h / 2, log_scale ? " (log scale)" : "");
    svg += buf;
    svg += "</svg>\n";
    return svg;
}

}  // namespace brec
