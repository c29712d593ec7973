// Demšar's critical-difference diagram as SVG.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/report/figures.hpp"
#include "detail/format.hpp"

namespace brec {

using detail::fixed;

std::string cd_diagram_svg(const std::vector<std::string>& models, const std::vector<double>& mean_ranks, double cd,
                           const std::vector<std::vector<int>>& cliques, const std::string& title) {
    const int k = static_cast<int>(models.size());
    if (k < 2 || mean_ranks.size() != models.size())
        throw InvalidArgument("CD diagram needs at least 2 models, each with a mean rank");
    if (!(cd > 0) || !std::isfinite(cd))
        throw InvalidArgument("CD diagram needs a positive, finite critical difference");
    for (const auto& c : cliques)
        for (int m : c)
            if (m < 0 || m >= k)
                throw InvalidArgument("CD diagram: clique member " + std::to_string(m) + " is not a model");
    const std::vector<int> order = rank_order(mean_ranks);
    // Best half on the left (best on the top row), the rest on the right (worst on the top row).
    const int n_left = (k + 1) / 2, n_right = k - n_left;
    auto label_of = [&](int m) { return models[static_cast<std::size_t>(m)] + " (" + fixed(mean_ranks[m], 2) + ")"; };
    // Text widths are estimated at 0.62 em per character (Helvetica/Arial average is about 0.55).
    const double font = 14.0, char_w = 0.62 * font;
    double left_w = 0, right_w = 0;
    for (int i = 0; i < k; ++i) {
        const double w = char_w * static_cast<double>(label_of(order[static_cast<std::size_t>(i)]).size());
        double& side = i < n_left ? left_w : right_w;
        side = std::max(side, w);
    }
    const double margin = 16, stub = 18;  // stub: horizontal line from the axis end to the label
    const double axis_w = std::max(480.0, 90.0 * (k - 1));
    const double left = margin + left_w + 6 + stub, right = left + axis_w;
    auto x_of = [&](double r) { return left + (r - 1.0) / (k - 1) * axis_w; };
    // The CD bar has its true length in rank units even when CD exceeds the axis (k − 1).
    const double cd_end = x_of(1.0 + cd);
    const double width = std::max(right + stub + 6 + right_w, cd_end + 40) + margin;
    const double top = title.empty() ? 36.0 : 62.0;  // y of the CD bar
    const double axis_y = top + 44;
    const double lane = 10.0, row_h = 26.0;
    const double clique_y = axis_y + 16;
    const double labels_y = clique_y + lane * static_cast<double>(cliques.size()) + 12;
    const double height = labels_y + row_h * (std::max(n_left, n_right) - 1) + 22;

    std::ostringstream s;
    auto num = [](double x) { return fixed(x, 2); };
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\"" << num(height)
      << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
      << "\" font-family=\"Helvetica, Arial, sans-serif\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    if (!title.empty())
        s << "<text x=\"" << num(width / 2)
          << "\" y=\"26\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">" << xml_escape(title)
          << "</text>\n";
    // CD scale bar above the axis, starting at rank 1, with end marks.
    s << "<g stroke=\"black\" stroke-width=\"1.5\">\n";
    s << "<line class=\"cd-bar\" x1=\"" << num(x_of(1)) << "\" y1=\"" << num(top) << "\" x2=\"" << num(cd_end)
      << "\" y2=\"" << num(top) << "\"/>\n";
    for (double x : {x_of(1), cd_end})
        s << "<line x1=\"" << num(x) << "\" y1=\"" << num(top - 5) << "\" x2=\"" << num(x) << "\" y2=\"" << num(top + 5)
          << "\"/>\n";
    s << "</g>\n<text x=\"" << num((x_of(1) + cd_end) / 2) << "\" y=\"" << num(top - 9)
      << "\" text-anchor=\"middle\" font-size=\"13\">CD = " << fixed(cd, 2) << "</text>\n";
    // Mean-rank axis 1..k, ticks at integers (labelled) and halves.
    s << "<g stroke=\"black\" stroke-width=\"1.5\">\n<line class=\"axis\" x1=\"" << num(x_of(1)) << "\" y1=\""
      << num(axis_y) << "\" x2=\"" << num(x_of(k)) << "\" y2=\"" << num(axis_y) << "\"/>\n";
    for (int t = 2; t <= 2 * k; ++t) {
        const double r = t / 2.0;
        const double len = t % 2 == 0 ? 8.0 : 4.0;
        s << "<line x1=\"" << num(x_of(r)) << "\" y1=\"" << num(axis_y - len) << "\" x2=\"" << num(x_of(r))
          << "\" y2=\"" << num(axis_y) << "\"/>\n";
    }
    s << "</g>\n";
    for (int t = 1; t <= k; ++t)
        s << "<text x=\"" << num(x_of(t)) << "\" y=\"" << num(axis_y - 13)
          << "\" text-anchor=\"middle\" font-size=\"13\">" << t << "</text>\n";
    s << "<text x=\"" << num(x_of(1) - 10) << "\" y=\"" << num(axis_y + 4)
      << "\" text-anchor=\"end\" font-size=\"11\" fill=\"#555\">mean rank</text>\n";
    // One line per model from its mean rank down to its row, then out to its label.
    s << "<g stroke=\"black\" stroke-width=\"1\" fill=\"none\">\n";
    std::ostringstream labels;
    for (int i = 0; i < k; ++i) {
        const int m = order[static_cast<std::size_t>(i)];
        const bool on_left = i < n_left;
        const int row = on_left ? i : k - 1 - i;
        const double y = labels_y + row_h * row;
        const double x = x_of(mean_ranks[m]);
        const double end = on_left ? left - stub : right + stub;
        s << "<polyline points=\"" << num(x) << "," << num(axis_y) << " " << num(x) << "," << num(y) << " " << num(end)
          << "," << num(y) << "\"/>\n";
        const std::string name = xml_escape(models[static_cast<std::size_t>(m)]);
        const std::string rank = "<tspan class=\"rank\" fill=\"#555\" font-size=\"12\">";
        labels << "<text class=\"model\" x=\"" << num(on_left ? end - 6 : end + 6) << "\" y=\"" << num(y + 5)
               << "\" text-anchor=\"" << (on_left ? "end" : "start") << "\" font-size=\"" << font << "\">";
        if (on_left)
            labels << name << rank << " (" << fixed(mean_ranks[m], 2) << ")</tspan>";
        else
            labels << rank << "(" << fixed(mean_ranks[m], 2) << ") </tspan>" << name;
        labels << "</text>\n";
    }
    s << "</g>\n" << labels.str();
    // Clique bars below the axis, one lane each: models whose mean ranks differ by less than CD.
    s << "<g stroke=\"black\" stroke-width=\"4\" stroke-linecap=\"round\">\n";
    for (std::size_t c = 0; c < cliques.size(); ++c) {
        double lo = 1e300, hi = -1e300;
        for (int m : cliques[c]) {
            lo = std::min(lo, mean_ranks[static_cast<std::size_t>(m)]);
            hi = std::max(hi, mean_ranks[static_cast<std::size_t>(m)]);
        }
        const double y = clique_y + lane * static_cast<double>(c);
        s << "<line class=\"clique\" x1=\"" << num(x_of(lo) - 4) << "\" y1=\"" << num(y) << "\" x2=\""
          << num(x_of(hi) + 4) << "\" y2=\"" << num(y) << "\"/>\n";
    }
    s << "</g>\n</svg>\n";
    return s.str();
}

std::string cd_diagram_svg(const ReportAnalysis& a) {
    const auto& r = a.ranks;
    if (!r.available) throw InvalidArgument("no critical-difference diagram: " + r.reason);
    const std::string title = "Critical difference (Nemenyi, alpha = " + fixed(a.options.alpha, 2) +
                              ", N = " + std::to_string(r.tasks.size()) + " tasks)";
    return cd_diagram_svg(r.models, r.friedman.mean_ranks, r.cd, r.cliques, title);
}

}  // namespace brec
