#include "brec/io/summary.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "brec/io/pairs.hpp"

namespace brec {
namespace {

nlohmann::json zero() { return {{"pairs", 0}, {"distinguished", 0}, {"reliability_failures", 0}}; }

void add(nlohmann::json& slot, const PairOutcome& o) {
    slot["pairs"] = slot["pairs"].get<int>() + 1;
    slot["distinguished"] = slot["distinguished"].get<int>() + (o.distinguished ? 1 : 0);
    slot["reliability_failures"] = slot["reliability_failures"].get<int>() + (o.reliability_failure ? 1 : 0);
}

std::vector<std::string> ordered_categories(const nlohmann::json& cats) {
    std::vector<std::string> out;
    for (const auto& f : brec_fine_categories())
        if (cats.contains(f)) out.push_back(f);
    for (auto it = cats.begin(); it != cats.end(); ++it)
        if (std::find(out.begin(), out.end(), it.key()) == out.end()) out.push_back(it.key());
    return out;
}

}  // namespace

nlohmann::json make_summary(const SummaryHeader& header, const std::vector<PairOutcome>& outcomes) {
    nlohmann::json s;
    s["command"] = header.command;
    s["method"] = header.method;
    s["dataset"] = header.dataset;
    s["seed"] = header.seed;
    nlohmann::json cats = nlohmann::json::object();
    nlohmann::json groups = nlohmann::json::object();
    for (const auto& g : brec_groups()) groups[g] = zero();
    nlohmann::json total = zero();
    for (const auto& o : outcomes) {
        const std::string c = canonical_category(o.category);
        if (!cats.contains(c)) cats[c] = zero();
        add(cats[c], o);
        const std::string g = brec_group_of(c);
        if (!groups.contains(g)) groups[g] = zero();
        add(groups[g], o);
        add(total, o);
    }
    s["categories"] = cats;
    s["groups"] = groups;
    s["total"] = total;
    s["seconds"] = header.seconds;
    return s;
}

std::string summary_table(const nlohmann::json& summary, bool fine) {
    std::ostringstream out;
    auto row = [&](const std::string& name, const nlohmann::json& v, int indent) {
        out << std::string(indent, ' ') << std::left << std::setw(26 - indent) << name << std::right << std::setw(8)
            << v["pairs"].get<int>() << std::setw(15) << v["distinguished"].get<int>() << std::setw(14)
            << v["reliability_failures"].get<int>() << '\n';
    };
    out << std::left << std::setw(26) << "category" << std::right << std::setw(8) << "pairs" << std::setw(15)
        << "distinguished" << std::setw(14) << "rel. failures" << '\n'
        << std::string(63, '-') << '\n';
    const auto& groups = summary["groups"];
    const auto cats = ordered_categories(summary["categories"]);
    std::vector<std::string> group_order = brec_groups();
    for (auto it = groups.begin(); it != groups.end(); ++it)
        if (std::find(group_order.begin(), group_order.end(), it.key()) == group_order.end())
            group_order.push_back(it.key());
    for (const auto& g : group_order) {
        const auto& v = groups[g];
        if (v["pairs"].get<int>() == 0 && !fine) continue;
        row(g, v, 0);
        if (!fine) continue;
        for (const auto& c : cats)
            if (brec_group_of(c) == g) row(c, summary["categories"][c], 2);
    }
    out << std::string(63, '-') << '\n';
    row("Total", summary["total"], 0);
    return out.str();
}

}  // namespace brec
