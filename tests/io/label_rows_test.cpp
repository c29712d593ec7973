// Multi-column labels: the text of a label id as a labels-file row (the columns joined by ", ", or
// the integer itself without a table), the error for an id without a row, and the value semantics
// of LabelRows (empty, equality over both kinds).
#include "brec/io/label_rows.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "brec/core/error.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using Rows = std::vector<std::vector<Label>>;

TEST(LabelRows, WithoutATableTheLabelIsWrittenAsItself) {
    const Rows none;
    EXPECT_EQ(label_row_text(none, 0), "0");
    EXPECT_EQ(label_row_text(none, 7), "7");
    EXPECT_EQ(label_row_text(none, -3), "-3") << "single-integer labels may be negative";
    EXPECT_EQ(label_row_text(none, 1234567890123), "1234567890123");
    EXPECT_EQ(label_row_text(none, std::numeric_limits<Label>::min()), "-9223372036854775808");
}

TEST(LabelRows, WithATableTheRowOfTheIdIsJoinedByCommaBlank) {
    const Rows rows = {{3, 1}, {0}, {-2, 5, 7}, {std::numeric_limits<Label>::max(), 0}};
    EXPECT_EQ(label_row_text(rows, 0), "3, 1");
    EXPECT_EQ(label_row_text(rows, 1), "0") << "a one-column row has no separator";
    EXPECT_EQ(label_row_text(rows, 2), "-2, 5, 7");
    EXPECT_EQ(label_row_text(rows, 3), "9223372036854775807, 0");
}

TEST(LabelRows, TheTextIsThatOfTheRowNotOfTheId) {
    // Ids and columns differ everywhere here, so an implementation printing the id (or another
    // row) cannot pass.
    const Rows rows = {{10, 20}, {30, 40}};
    EXPECT_EQ(label_row_text(rows, 1), "30, 40");
    EXPECT_EQ(label_row_text(rows, 0), "10, 20");
}

TEST(LabelRows, AnIdWithoutARowIsAnInvalidArgumentThatSaysHowManyRowsThereAre) {
    const Rows rows = {{3, 1}, {0, 2}, {1, 1}};
    EXPECT_THROW(label_row_text(rows, 3), InvalidArgument);
    EXPECT_EQ(testing::error_of([&] { label_row_text(rows, 3); }),
              "label id 3 has no row (the dataset has 3 distinct label rows)");
    EXPECT_EQ(testing::error_of([&] { label_row_text(rows, -1); }),
              "label id -1 has no row (the dataset has 3 distinct label rows)")
        << "a negative id is never a row index";
    EXPECT_EQ(testing::error_of([&] { label_row_text(rows, std::numeric_limits<Label>::max()); }),
              "label id 9223372036854775807 has no row (the dataset has 3 distinct label rows)");
    EXPECT_EQ(testing::error_of([&] {
                  label_row_text(Rows{{5, 5}}, 1);
              }),
              "label id 1 has no row (the dataset has 1 distinct label rows)");
    // The last row is still reachable: the bound is exclusive.
    EXPECT_EQ(label_row_text(rows, 2), "1, 1");
}

TEST(LabelRows, EmptyOnlyWithoutEitherTable) {
    LabelRows r;
    EXPECT_TRUE(r.empty());
    r.edge = {{1, 2}};
    EXPECT_FALSE(r.empty()) << "an edge table alone makes the rows non-empty";
    r.edge.clear();
    r.node = {{0}};
    EXPECT_FALSE(r.empty()) << "a node table alone makes the rows non-empty";
    r.node.clear();
    EXPECT_TRUE(r.empty());
}

TEST(LabelRows, EqualOnlyWhenBothKindsHaveTheSameRowsInTheSameOrder) {
    LabelRows a;
    a.node = {{0, 2}, {1, 0}};
    a.edge = {{4, 1}};
    LabelRows b = a;
    EXPECT_TRUE(a == b);
    EXPECT_FALSE(a != b);

    LabelRows swapped_kinds;
    swapped_kinds.node = a.edge;
    swapped_kinds.edge = a.node;
    EXPECT_FALSE(a == swapped_kinds) << "node and edge tables are not interchangeable";
    EXPECT_TRUE(a != swapped_kinds);

    LabelRows reordered = a;
    std::swap(reordered.node[0], reordered.node[1]);
    EXPECT_TRUE(a != reordered) << "the order of the rows is the meaning of the ids";

    LabelRows one_column_differs = a;
    one_column_differs.edge[0][1] = 2;
    EXPECT_TRUE(a != one_column_differs) << "two labels are equal only if every column is";

    LabelRows no_edges = a;
    no_edges.edge.clear();
    EXPECT_TRUE(a != no_edges);
    EXPECT_TRUE(LabelRows{} == LabelRows{});
}

}  // namespace
}  // namespace brec
