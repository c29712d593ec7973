#include "brec/io/label_rows.hpp"

#include "brec/core/error.hpp"

namespace brec {

std::string label_row_text(const std::vector<std::vector<Label>>& rows, Label label) {
    if (rows.empty()) return std::to_string(label);
    if (label < 0 || static_cast<std::size_t>(label) >= rows.size())
        throw InvalidArgument("label id " + std::to_string(label) + " has no row (the dataset has " +
                              std::to_string(rows.size()) + " distinct label rows)");
    std::string text;
    for (Label column : rows[static_cast<std::size_t>(label)])
        text += (text.empty() ? "" : ", ") + std::to_string(column);
    return text;
}

}  // namespace brec
