#include "detail/report_tables.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "detail/format.hpp"

namespace brec::detail {
namespace {

Column left(const std::string& header, const std::string& latex = "") {
    return Column{header, latex, Align::left, false};
}
Column right(const std::string& header, const std::string& latex = "") {
    return Column{header, latex, Align::right, false};
}
Column detail_column(const std::string& header) {
    Column c = right(header);
    c.detail = true;
    return c;
}

Table cell_table(const ReportAnalysis& a) {
    const int seeds = common_seeds(a);
    Table t;
    t.columns = {left("task", "Task"), left("dir", "Dir.")};
    for (const auto& m : a.results.models) t.columns.push_back(right(m));
    for (const auto& task : a.tasks) {
        const int dv = task_digits(a, task.name);
        std::vector<Cell> row{Cell::plain(task.label()), Cell::plain(task.higher_is_better ? "max" : "min")};
        for (const auto& m : a.results.models) {
            const ReportCell* c = a.cell(task.name, m);
            if (!c) {
                row.push_back(Cell::none());
                continue;
            }
            Cell v = Cell::numeric(fixed(c->t.mean, dv));
            // One seed gives no interval: the value alone.
            if (c->values.size() >= 2) v.half_width = fixed(c->t.half_width, dv);
            v.emphasis = std::find(task.best.begin(), task.best.end(), m) != task.best.end();
            if (seeds <= 0) v.suffix += " (" + std::to_string(c->values.size()) + ")";
            if (c->reliability_failures > 0) v.suffix += " [rf " + std::to_string(c->reliability_failures) + "]";
            row.push_back(std::move(v));
        }
        t.add_row(std::move(row));
    }
    return t;
}

Table bootstrap_table(const ReportAnalysis& a) {
    Table t;
    t.columns = {left("task", "Task")};
    for (const auto& m : a.results.models) t.columns.push_back(right(m));
    if (!a.options.bootstrap) return t;
    for (const auto& task : a.tasks) {
        const int dv = task_digits(a, task.name);
        std::vector<Cell> row{Cell::plain(task.label())};
        for (const auto& m : a.results.models) {
            const ReportCell* c = a.cell(task.name, m);
            if (!c || !c->has_bootstrap) {
                row.push_back(Cell::none());
                continue;
            }
            Cell v = Cell::numeric(fixed(c->bootstrap.mean, dv));
            v.half_width = fixed(c->bootstrap.half_width, dv);
            row.push_back(std::move(v));
        }
        t.add_row(std::move(row));
    }
    return t;
}

Table protocol_table(const ReportAnalysis& a) {
    Table t;
    t.columns = {left("model", "Model"), left("protocol", "Protocol")};
    for (const auto& task : a.tasks) t.columns.push_back(right(task.label()));
    t.columns.push_back(right("total", "Total"));
    if (!a.results.both_protocols) return t;
    for (const auto& row : a.protocols) {
        // Whole counts with one seed, means with one decimal over several.
        const int digits = row.seeds > 1 ? 1 : 0;
        const auto cell = [&](const ProtocolCell& c) {
            if (!c.known) return Cell::none();
            Cell v = Cell::plain(fixed(c.distinguished, digits));
            if (c.reliability_failures > 0) v.suffix = " [rf " + std::to_string(c.reliability_failures) + "]";
            return v;
        };
        Cell name = Cell::plain(protocol_name(row.protocol));
        name.emphasis = row.protocol == a.results.protocol;  // the protocol of the cells
        std::vector<Cell> cells{Cell::plain(row.model), name};
        for (const auto& c : row.tasks) cells.push_back(cell(c));
        cells.push_back(cell(row.total));
        t.add_row(std::move(cells));
    }
    return t;
}

Table comparison_table(const ReportAnalysis& a, const TaskComparisons& tc) {
    const int dv = task_digits(a, tc.task);
    Table t;
    t.columns = {left("A"),
                 left("B"),
                 right("n", "$n$"),
                 right("mean A−B", "$\\bar d$"),
                 right("t", "$t$"),
                 right("p_t (Holm)", "$p_t$"),
                 right("W+", "$W^+$"),
                 right("p_W (Holm)", "$p_W$"),
                 right("d_z", "$d_z$"),
                 left("agreement"),
                 left("better")};
    t.columns.back().detail = true;
    for (const auto& r : tc.rows) {
        std::vector<Cell> row{Cell::plain(r.a), Cell::plain(r.b), Cell::plain(std::to_string(r.n)),
                              r.n > 0 ? Cell::plain(fixed(r.mean_difference, dv)) : Cell::none()};
        if (r.testable) {
            Cell w = Cell::plain(fixed(r.wilcoxon.statistic, 1));
            if (!r.wilcoxon.exact) {
                w.mark = "*";
                t.add_footnote("*", "normal approximation");
            }
            row.push_back(Cell::plain(fixed(r.t.statistic, 3)));
            row.push_back(Cell::plain(pvalue(r.t_holm) + " (" + pvalue(r.t.p_value) + ")"));
            row.push_back(std::move(w));
            row.push_back(Cell::plain(pvalue(r.wilcoxon_holm) + " (" + pvalue(r.wilcoxon.p_value) + ")"));
            row.push_back(Cell::plain(fixed(r.dz, 3)));
        } else {
            for (int i = 0; i < 5; ++i) row.push_back(Cell::none());
        }
        if (!r.testable) t.add_footnote("n/a", "fewer than two seeds shared by A and B, no test");
        row.push_back(Cell::plain(r.agreement));
        row.push_back(r.better.empty() ? Cell::none() : Cell::plain(r.better));
        t.add_row(std::move(row));
    }
    return t;
}

Table rank_table(const ReportAnalysis& a) {
    const auto& ra = a.ranks;
    Table t;
    t.columns = {left("model", "Model"), right("mean rank", "Mean rank")};
    for (const auto& task : ra.tasks) t.columns.push_back(detail_column(task));
    if (!ra.available) return t;
    for (int m : ra.order) {
        std::vector<Cell> row{Cell::plain(ra.models[static_cast<std::size_t>(m)]),
                              Cell::plain(fixed(ra.friedman.mean_ranks[static_cast<std::size_t>(m)], 3))};
        for (const auto& ranks : ra.ranks) row.push_back(Cell::plain(fixed(ranks[static_cast<std::size_t>(m)], 1)));
        t.add_row(std::move(row));
    }
    return t;
}

Table value_table(const ReportAnalysis& a) {
    Table t;
    t.columns = {left("task"), left("model"), right("seed"), right("value"), left("source")};
    for (const auto& c : a.cells)
        for (std::size_t i = 0; i < c.values.size(); ++i)
            t.add_row({Cell::plain(c.task), Cell::plain(c.model), Cell::plain(std::to_string(c.seeds[i])),
                       // Shortest text that reads back as the same double.
                       Cell::plain(nlohmann::json(c.values[i]).dump()), Cell::plain(c.sources[i].str())});
    return t;
}

}  // namespace

ReportTables report_tables(const ReportAnalysis& a) {
    ReportTables t;
    t.cells = cell_table(a);
    t.bootstrap = bootstrap_table(a);
    t.protocols = protocol_table(a);
    for (const auto& tc : a.comparisons) t.comparisons.push_back(comparison_table(a, tc));
    t.ranks = rank_table(a);
    t.values = value_table(a);
    return t;
}

}  // namespace brec::detail
