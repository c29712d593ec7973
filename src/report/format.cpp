#include "detail/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace brec::detail {

std::string fixed(double x, int digits) {
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    if (std::isnan(x)) return "nan";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, x);
    std::string s = buf;
    if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s = s.substr(1);  // no "-0.000"
    return s;
}

std::string pvalue(double p) {
    if (p == 0.0) return "0";
    if (p >= 1e-4) return fixed(p, 4);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1e", p);
    return buf;
}

std::string percent_label(double alpha) {
    const double conf = 100.0 * (1.0 - alpha);
    return conf == std::floor(conf) ? fixed(conf, 0) : fixed(conf, 1);
}

int task_digits(const ReportAnalysis& a, const std::string& task) {
    double smallest = 0.0;
    for (const auto& c : a.cells)
        if (c.task == task && c.t.mean != 0.0 && (smallest == 0.0 || std::abs(c.t.mean) < smallest))
            smallest = std::abs(c.t.mean);
    if (smallest == 0.0) return 2;
    const int d = 2 - static_cast<int>(std::floor(std::log10(smallest)));
    return std::max(2, std::min(6, d));
}

int common_seeds(const ReportAnalysis& a) {
    int s = -2;
    for (const auto& c : a.cells) {
        const int n = static_cast<int>(c.values.size());
        if (s == -2)
            s = n;
        else if (s != n)
            return -1;
    }
    return s < 0 ? -1 : s;
}

bool single_seed_cells(const ReportAnalysis& a) {
    for (const auto& c : a.cells)
        if (c.values.size() < 2) return true;
    return false;
}

std::string clique_text(const RankAnalysis& r, std::string (*escape)(const std::string&), const std::string& open,
                        const std::string& close) {
    std::string out;
    for (const auto& c : r.cliques) {
        std::string g;
        for (int m : c) g += (g.empty() ? "" : ", ") + escape(r.models[static_cast<std::size_t>(m)]);
        out += (out.empty() ? "" : "; ") + open + g + close;
    }
    return out.empty() ? "none (every pair of models differs by at least CD)" : out;
}

}  // namespace brec::detail
