// The neutral table and its two writers: one table, the same cells in Markdown and LaTeX syntax.
#include "brec/report/table.hpp"

#include <gtest/gtest.h>

#include "brec/core/error.hpp"

namespace brec {
namespace {

/// Two models on one task: an estimate in bold with a suffix, a missing cell, a footnote mark and
/// a detail column.
Table sample() {
    Table t;
    t.columns = {Column{"task", "Task", Align::left, false}, Column{"a_1", "", Align::right, false},
                 Column{"b", "$b$", Align::right, false}, Column{"note", "", Align::left, true}};
    Cell est = Cell::numeric("0.50");
    est.half_width = "0.10";
    est.emphasis = true;
    est.suffix = " (2)";
    Cell w = Cell::plain("12.0");
    w.mark = "*";
    t.add_row({Cell::plain("acc & more"), est, Cell::none(), Cell::plain("x")});
    t.add_row({Cell::plain("mae"), w, Cell::numeric("-1.00"), Cell::plain("y")});
    t.add_footnote("*", "normal approximation");
    t.add_footnote("*", "normal approximation");  // recorded once
    return t;
}

TEST(Table, MarkdownWritesEveryColumn) {
    EXPECT_EQ(markdown_table(sample()),
              "| task | a\\_1 | b | note |\n"
              "|---|---:|---:|---|\n"
              "| acc & more | **0.50 ± 0.10** (2) | – | x |\n"
              "| mae | 12.0* | -1.00 | y |\n");
    EXPECT_EQ(sample().footnotes.size(), 1u);
}

TEST(Table, LatexLeavesDetailColumnsOut) {
    EXPECT_EQ(latex_table(sample()),
              "\\begin{tabular}{lrr}\n\\toprule\nTask & a\\_1 & $b$ \\\\\n\\midrule\n"
              "acc \\& more & $\\mathbf{0.50 \\pm 0.10}$ (2) & -- \\\\\n"
              "mae & 12.0* & $-1.00$ \\\\\n"
              "\\bottomrule\n\\end{tabular}\n");
}

TEST(Table, RowsMustMatchTheHeader) {
    Table t;
    t.columns = {Column{"a", "", Align::left, false}};
    try {
        t.add_row({Cell::plain("1"), Cell::plain("2")});
        FAIL() << "no error";
    } catch (const InvalidArgument& e) {
        EXPECT_EQ(std::string(e.what()), "table row with 2 cells under 1 columns");
    }
}

TEST(Table, Escaping) {
    EXPECT_EQ(markdown_escape("a|b*c_d`e"), "a\\|b\\*c\\_d\\`e");
    EXPECT_EQ(latex_escape("50% of {x}_1 & $y ~ z^2 #\\"),
              "50\\% of \\{x\\}\\_1 \\& \\$y \\textasciitilde{} z\\textasciicircum{}2 \\#"
              "\\textbackslash{}");
}

}  // namespace
}  // namespace brec
