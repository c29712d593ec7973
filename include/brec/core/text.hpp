#pragma once
// Small text helpers shared by the readers, by the modules that write XML (SVG, JUnit) and by the
// modules that render their results as text tables for the command line.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace brec {

/// s without leading and trailing white space (std::isspace).
std::string trim(const std::string& s);

/// s in lower case (ASCII, std::tolower).
std::string lower(std::string s);

/// FNV-1a, 64 bit: a stable fingerprint of bytes (certificates, canonical settings text).
std::uint64_t fnv1a(const std::string& bytes);

/// Escapes &, <, > and " for XML text and attribute values.
std::string xml_escape(const std::string& s);

/// A duration for people: "0.42s", "12.3s", "4m05s", "2h07m".
std::string format_seconds(double seconds);

/// `value` with exactly `digits` decimals ("%.*f"), e.g. format_fixed(2.345, 1) == "2.3".
std::string format_fixed(double value, int digits);

/// An aligned plain-text table: the first column left-aligned, the others right-aligned, a rule
/// under the header and wherever add_rule() was called.
class TextTable {
public:
    explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
    /// Adds a row; missing cells are blank, cells beyond the header are ignored.
    void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    void add_rule() { rows_.push_back({}); }
    std::string str() const;

private:
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace brec
