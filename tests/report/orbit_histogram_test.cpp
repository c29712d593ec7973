// The orbit-size histogram of `brec dedup`: one bar per size in increasing order, its title
// escaped, a log scale only when the counts span more than two decades, and bad counts refused.
#include "brec/report/orbit_histogram.hpp"

#include <gtest/gtest.h>

#include <string>

#include "brec/core/error.hpp"

namespace brec {
namespace {

std::size_t occurrences(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

TEST(OrbitHistogram, OneBarPerSizeInIncreasingOrder) {
    // Three graphs in one orbit and one alone, given out of order.
    const std::string svg = orbit_histogram_svg({{3, 1}, {1, 1}}, "t<1>");
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_EQ(occurrences(svg, "</svg>"), 1u);
    EXPECT_NE(svg.find("t&lt;1&gt;"), std::string::npos);
    EXPECT_EQ(occurrences(svg, "<title>"), 2u);
    const std::size_t one = svg.find("size 1: 1 orbits (1 graphs)");
    const std::size_t three = svg.find("size 3: 1 orbits (3 graphs)");
    ASSERT_NE(one, std::string::npos);
    ASSERT_NE(three, std::string::npos);
    EXPECT_LT(one, three);
    // The trivial orbit is blue, the others red.
    EXPECT_EQ(occurrences(svg, "fill=\"#9ecae1\""), 1u);
    EXPECT_EQ(occurrences(svg, "fill=\"#de2d26\""), 1u);
    EXPECT_EQ(svg.find("log scale"), std::string::npos);
}

TEST(OrbitHistogram, LogScaleOnlyBeyondTwoDecades) {
    // 1000 trivial orbits against 5 of size 2: 1000 >= 100 * 5, so the axis is logarithmic.
    EXPECT_NE(orbit_histogram_svg({{1, 1000}, {2, 5}}, "").find("(log scale)"), std::string::npos);
    // 499 against 5 stays linear.
    EXPECT_EQ(orbit_histogram_svg({{1, 499}, {2, 5}}, "").find("log scale"), std::string::npos);
    // An empty dataset still gives a document.
    EXPECT_EQ(occurrences(orbit_histogram_svg({}, "empty"), "</svg>"), 1u);
}

TEST(OrbitHistogram, RefusesSizeZeroAndRepeatedSizes) {
    EXPECT_THROW(orbit_histogram_svg({{0, 2}}, ""), InvalidArgument);
    try {
        orbit_histogram_svg({{2, 1}, {2, 3}}, "");
        FAIL() << "no error";
    } catch (const InvalidArgument& e) {
        EXPECT_EQ(std::string(e.what()), "orbit histogram: orbit size 2 given twice");
    }
}

}  // namespace
}  // namespace brec
