// The per-category bar chart of a report as SVG.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/report/figures.hpp"
#include "detail/format.hpp"

namespace brec {

using detail::common_seeds;
using detail::fixed;
using detail::percent_label;
using detail::task_digits;

std::string category_chart_svg(const ReportAnalysis& a) {
    const auto& rs = a.results;
    const bool percent = rs.brec;
    static constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                               "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
    const int k = static_cast<int>(rs.models.size()), t_count = static_cast<int>(rs.tasks.size());
    if (k == 0 || t_count == 0) throw InvalidArgument("bar chart needs at least one task and one model");
    // Values (percent of the category's pairs for BREC), their interval, and the axis range.
    auto scale = [&](const ReportCell& c) { return percent && c.pairs > 0 ? 100.0 / c.pairs : 1.0; };
    double lo = 0.0, hi = percent ? 100.0 : 0.0;
    for (const auto& c : a.cells) {
        const double f = scale(c);
        lo = std::min(lo, f * c.t.lower());
        hi = std::max(hi, f * c.t.upper());
    }
    // A share of pairs lies in [0, 100] %: Student-t intervals reaching beyond are cut at the axis.
    if (percent) lo = 0.0, hi = 100.0;
    if (hi <= lo) hi = lo + 1.0;
    // Nice tick step.
    const double raw = (hi - lo) / 5.0;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= m * mag) {
            step = m * mag;
            break;
        }
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
    const int tick_digits = step >= 1 ? 0 : (step >= 0.1 ? 1 : (step >= 0.01 ? 2 : 4));
    const int seeds = common_seeds(a);
    const std::string title = std::string(percent ? "Distinguished pairs per category" : "Mean per task") +
                              " (mean ± " + percent_label(a.options.alpha) + "% CI over " +
                              (seeds > 0 ? std::to_string(seeds) + " seed" + (seeds == 1 ? "" : "s") : "seeds") + ")";
    const double bar_w = std::max(10.0, std::min(30.0, 200.0 / k)), group_gap = 30.0;
    const double group_w = bar_w * k + group_gap;
    // Width: the plot, the title (15 px bold, about 0.6 em per character) and the task labels.
    std::size_t longest_task = 0;
    for (const auto& t : rs.tasks) longest_task = std::max(longest_task, a.task(t).label().size());
    const double left = 70, right_margin = 30, plot_h = 300, top = 70;
    const double title_w = 9.0 * static_cast<double>(title.size()) + 40;
    double slot_w = std::max(group_w, 7.2 * static_cast<double>(longest_task) + 12);
    const double width = std::max({left + slot_w * t_count + right_margin, title_w, 460.0});
    slot_w = (width - left - right_margin) / t_count;  // the groups spread over the whole width
    const double plot_w = slot_w * t_count;
    // Legend: as many entries per row as fit.
    std::size_t longest_model = 0;
    for (const auto& m : rs.models) longest_model = std::max(longest_model, m.size());
    const double entry_w = 30 + 7.5 * static_cast<double>(longest_model);
    const int per_row = std::max(1, static_cast<int>((width - left - 20) / entry_w));
    const double legend_rows = std::ceil(static_cast<double>(k) / per_row);
    const double height = top + plot_h + 56 + 22 * legend_rows;
    auto y_of = [&](double v) { return top + (hi - std::min(hi, std::max(lo, v))) / (hi - lo) * plot_h; };
    auto num = [](double x) { return fixed(x, 2); };
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\"" << num(height)
      << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
      << "\" font-family=\"Helvetica, Arial, sans-serif\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s << "<text x=\"" << num(width / 2) << "\" y=\"26\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">"
      << xml_escape(title) << "</text>\n";
    // Grid and y axis.
    for (int i = 0; lo + i * step <= hi + step / 2; ++i) {
        const double v = lo + i * step;
        s << "<line x1=\"" << num(left) << "\" y1=\"" << num(y_of(v)) << "\" x2=\"" << num(left + plot_w) << "\" y2=\""
          << num(y_of(v)) << "\" stroke=\"#ddd\"/>\n";
        s << "<text x=\"" << num(left - 6) << "\" y=\"" << num(y_of(v) + 4)
          << "\" text-anchor=\"end\" font-size=\"11\">" << fixed(v, tick_digits) << "</text>\n";
    }
    s << "<line x1=\"" << num(left) << "\" y1=\"" << num(top) << "\" x2=\"" << num(left) << "\" y2=\""
      << num(top + plot_h) << "\" stroke=\"black\"/>\n";
    s << "<text transform=\"translate(20," << num(top + plot_h / 2)
      << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">" << (percent ? "% of pairs distinguished" : "value")
      << "</text>\n";
    const double base = y_of(std::max(lo, 0.0));
    for (int t = 0; t < t_count; ++t) {
        const std::string& task = rs.tasks[static_cast<std::size_t>(t)];
        const double centre = left + slot_w * (t + 0.5);
        const double gx = centre - bar_w * k / 2;
        for (int m = 0; m < k; ++m) {
            const ReportCell* c = a.cell(task, rs.models[static_cast<std::size_t>(m)]);
            if (!c) continue;
            const double f = scale(*c);
            const double v = f * c->t.mean, h = f * c->t.half_width;
            const double x = gx + bar_w * m, cx = x + bar_w / 2;
            const double y = y_of(v);
            s << "<rect class=\"bar\" x=\"" << num(x + 1) << "\" y=\"" << num(std::min(y, base)) << "\" width=\""
              << num(bar_w - 2) << "\" height=\"" << num(std::abs(base - y)) << "\" fill=\"" << kPalette[m % 10]
              << "\"><title>"
              << xml_escape(rs.models[static_cast<std::size_t>(m)] + " on " + task + ": " + fixed(v, 2) + " ± " +
                            fixed(h, 2) + (percent ? " %" : ""))
              << "</title></rect>\n";
            double label_y = std::min(y, base) - 4;
            if (h > 0) {
                const double y1 = y_of(v - h), y2 = y_of(v + h);
                s << "<g class=\"error\" stroke=\"black\" stroke-width=\"1.2\"><line x1=\"" << num(cx) << "\" y1=\""
                  << num(y1) << "\" x2=\"" << num(cx) << "\" y2=\"" << num(y2) << "\"/><line x1=\"" << num(cx - 4)
                  << "\" y1=\"" << num(y1) << "\" x2=\"" << num(cx + 4) << "\" y2=\"" << num(y1) << "\"/><line x1=\""
                  << num(cx - 4) << "\" y1=\"" << num(y2) << "\" x2=\"" << num(cx + 4) << "\" y2=\"" << num(y2)
                  << "\"/></g>\n";
                label_y = std::min(label_y, y2 - 4);
            }
            // The value above the bar, so that a zero is visible too.
            if (bar_w >= 14)
                s << "<text x=\"" << num(cx) << "\" y=\"" << num(label_y)
                  << "\" text-anchor=\"middle\" font-size=\"10\">"
                  << fixed(v, percent ? 0 : std::min(task_digits(a, task), 3)) << "</text>\n";
        }
        s << "<text x=\"" << num(centre) << "\" y=\"" << num(top + plot_h + 20)
          << "\" text-anchor=\"middle\" font-size=\"12\">" << xml_escape(a.task(task).label()) << "</text>\n";
    }
    s << "<line x1=\"" << num(left) << "\" y1=\"" << num(base) << "\" x2=\"" << num(left + plot_w) << "\" y2=\""
      << num(base) << "\" stroke=\"black\"/>\n";
    // Legend.
    for (int m = 0; m < k; ++m) {
        const double lx = left + (m % per_row) * entry_w, ly = top + plot_h + 50 + 22 * (m / per_row);
        s << "<rect x=\"" << num(lx) << "\" y=\"" << num(ly - 10) << "\" width=\"12\" height=\"12\" fill=\""
          << kPalette[m % 10] << "\"/><text class=\"legend\" x=\"" << num(lx + 17) << "\" y=\"" << num(ly)
          << "\" font-size=\"12\">" << xml_escape(rs.models[static_cast<std::size_t>(m)]) << "</text>\n";
    }
    s << "</svg>\n";
    return s.str();
}

}  // namespace brec
