#include "brec/report/table.hpp"

#include <algorithm>

#include "brec/core/error.hpp"

namespace brec {

Cell Cell::plain(std::string text) {
    Cell c;
    c.text = std::move(text);
    return c;
}

Cell Cell::numeric(std::string text) {
    Cell c;
    c.text = std::move(text);
    c.number = true;
    return c;
}

Cell Cell::none() {
    Cell c;
    c.missing = true;
    return c;
}

void Table::add_row(std::vector<Cell> row) {
    if (row.size() != columns.size())
        throw InvalidArgument("table row with " + std::to_string(row.size()) + " cells under " +
                              std::to_string(columns.size()) + " columns");
    rows.push_back(std::move(row));
}

void Table::add_footnote(const std::string& mark, const std::string& meaning) {
    const auto same = [&](const auto& f) { return f.first == mark; };
    if (std::none_of(footnotes.begin(), footnotes.end(), same)) footnotes.emplace_back(mark, meaning);
}

std::string markdown_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '|' || c == '*' || c == '_' || c == '`') o += '\\';
        o += c;
    }
    return o;
}

std::string latex_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '_':
                o += "\\_";
                break;
            case '&':
                o += "\\&";
                break;
            case '%':
                o += "\\%";
                break;
            case '#':
                o += "\\#";
                break;
            case '$':
                o += "\\$";
                break;
            case '{':
                o += "\\{";
                break;
            case '}':
                o += "\\}";
                break;
            case '~':
                o += "\\textasciitilde{}";
                break;
            case '^':
                o += "\\textasciicircum{}";
                break;
            case '\\':
                o += "\\textbackslash{}";
                break;
            default:
                o += c;
        }
    }
    return o;
}

namespace {

std::string markdown_cell(const Cell& c) {
    if (c.missing) return "–";
    std::string core = markdown_escape(c.text);
    if (!c.half_width.empty()) core += " ± " + markdown_escape(c.half_width);
    if (c.emphasis) core = "**" + core + "**";
    // Marks are written as they are: a lone "*" after a number is not read as emphasis.
    return core + c.mark + markdown_escape(c.suffix);
}

std::string latex_cell(const Cell& c) {
    if (c.missing) return "--";
    std::string core;
    if (c.number) {
        core = latex_escape(c.text);
        if (!c.half_width.empty()) core += " \\pm " + latex_escape(c.half_width);
        core = "$" + (c.emphasis ? "\\mathbf{" + core + "}" : core) + "$";
    } else {
        core = latex_escape(c.text);
        if (!c.half_width.empty()) core += " $\\pm$ " + latex_escape(c.half_width);
        if (c.emphasis) core = "\\textbf{" + core + "}";
    }
    return core + latex_escape(c.mark) + latex_escape(c.suffix);
}

}  // namespace

std::string markdown_table(const Table& t) {
    std::string o = "|";
    for (const auto& c : t.columns) o += " " + markdown_escape(c.header) + " |";
    o += "\n|";
    for (const auto& c : t.columns) o += c.align == Align::right ? "---:|" : "---|";
    o += "\n";
    for (const auto& row : t.rows) {
        o += "|";
        for (const auto& cell : row) o += " " + markdown_cell(cell) + " |";
        o += "\n";
    }
    return o;
}

std::string latex_table(const Table& t) {
    std::string spec, header;
    for (const auto& c : t.columns) {
        if (c.detail) continue;
        header += (spec.empty() ? "" : " & ") + (c.latex_header.empty() ? latex_escape(c.header) : c.latex_header);
        spec += c.align == Align::right ? "r" : "l";
    }
    std::string o = "\\begin{tabular}{" + spec + "}\n\\toprule\n" + header + " \\\\\n\\midrule\n";
    for (const auto& row : t.rows) {
        std::string line;
        bool first = true;
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (t.columns[i].detail) continue;
            line += (first ? "" : " & ") + latex_cell(row[i]);
            first = false;
        }
        o += line + " \\\\\n";
    }
    return o + "\\bottomrule\n\\end{tabular}\n";
}

}  // namespace brec
