#pragma once
// A neutral table: a header and rows of cells that say what they hold (text, an estimate with its
// half-width, emphasis, a footnote mark), not how a format writes it. A report builds each table
// once from its analysis; the Markdown and LaTeX writers below only choose the syntax, so the two
// documents cannot disagree on a number, on which model is best or on which cell is missing.

#include <string>
#include <utility>
#include <vector>

namespace brec {

enum class Align { left, right };

struct Column {
    std::string header;        ///< plain text
    std::string latex_header;  ///< LaTeX source of the header; empty: the plain header, escaped
    Align align = Align::right;
    /// A column of detail (per-task ranks, the name of the better model): print formats (LaTeX)
    /// leave it out so that the table fits a page; Markdown keeps it.
    bool detail = false;
};

struct Cell {
    std::string text;        ///< plain text; for an estimate, its mean
    std::string half_width;  ///< an estimate's half-width: written "mean ± half-width"; "" if none
    bool number = false;     ///< text (and half-width) is a number: LaTeX sets it in math mode
    bool emphasis = false;   ///< bold (the best mean of its task)
    std::string mark;        ///< footnote mark after the text ("*"); explained in Table::footnotes
    std::string suffix;      ///< plain text after the cell's value, never bold (" (2) [rf 3]")
    bool missing = false;    ///< no value: writers print a dash

    /// A plain text cell.
    static Cell plain(std::string text);
    /// A number (no half-width).
    static Cell numeric(std::string text);
    /// The dash of a cell without data.
    static Cell none();
};

struct Table {
    std::vector<Column> columns;
    std::vector<std::vector<Cell>> rows;  ///< each as long as `columns`
    /// (mark, meaning) of the marks used in the cells, in order of first use.
    std::vector<std::pair<std::string, std::string>> footnotes;

    /// Appends a row. Throws InvalidArgument when its length differs from the header's.
    void add_row(std::vector<Cell> row);
    /// Records that `mark` means `meaning` (once, however many cells use it).
    void add_footnote(const std::string& mark, const std::string& meaning);
};

/// Escapes the characters Markdown tables and emphasis treat specially (| * _ `).
std::string markdown_escape(const std::string& s);
/// Escapes LaTeX's special characters (_ & % # $ { } ~ ^ \).
std::string latex_escape(const std::string& s);

/// The table as a GitHub-flavoured Markdown table (header, alignment row, rows; "–" for missing).
std::string markdown_table(const Table& t);

/// The table as a booktabs tabular (\toprule, \midrule, \bottomrule; "--" for missing), without
/// its detail columns.
std::string latex_table(const Table& t);

}  // namespace brec
