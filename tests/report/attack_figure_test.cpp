// The success-rate figure of an attack run: a well-formed standalone SVG whose marks sit where the
// numbers put them (positions worked out by hand from the plot area: x from 60 to 480 px over
// budget 0 .. max budget, y from 300 px at 0 % to 40 px at 100 %), escaped labels, and errors for
// malformed curves.
#include "brec/report/attack_figure.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "brec/core/error.hpp"

namespace brec {
namespace {

/// One element of the SVG: its name, attributes (raw, still escaped) and the text between its
/// opening tag and the next tag.
struct Element {
    std::string name;
    std::map<std::string, std::string> attrs;
    std::string text;

    double num(const std::string& key) const {
        const auto it = attrs.find(key);
        if (it == attrs.end()) throw std::runtime_error("<" + name + "> has no attribute " + key);
        char* end = nullptr;
        const double v = std::strtod(it->second.c_str(), &end);
        if (*end != '\0') throw std::runtime_error("<" + name + "> " + key + "=\"" + it->second + "\" is not a number");
        return v;
    }
};

/// Whether every '&' in s starts one of the five XML entities.
bool entities_ok(const std::string& s) {
    for (std::size_t i = s.find('&'); i != std::string::npos; i = s.find('&', i + 1)) {
        bool ok = false;
        for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
            ok = ok || s.compare(i, std::strlen(e), e) == 0;
        if (!ok) return false;
    }
    return true;
}

/// Parses the SVG into its opening elements in document order, checking well-formedness on the
/// way: one root <svg> in the SVG namespace, every element closed in order, attribute values
/// quoted, no raw '<' or stray '&' in text or attributes, nothing after the root.
std::vector<Element> parse_svg(const std::string& svg) {
    std::vector<Element> out;
    std::vector<std::string> open;
    std::size_t i = 0;
    bool root_closed = false;
    Element* text_target = nullptr;  // the element whose opening tag came last
    auto fail = [&](const std::string& why) { throw std::runtime_error(why + " at byte " + std::to_string(i)); };
    while (i < svg.size()) {
        if (svg[i] != '<') {
            const std::size_t next = svg.find('<', i);
            const std::string text = svg.substr(i, next == std::string::npos ? std::string::npos : next - i);
            if (!entities_ok(text)) fail("bad entity in text");
            if ((open.empty() || root_closed) && text.find_first_not_of(" \n") != std::string::npos)
                fail("text outside the root");
            if (text_target) text_target->text += text;
            i = next == std::string::npos ? svg.size() : next;
            continue;
        }
        const std::size_t end = svg.find('>', i);
        if (end == std::string::npos) fail("unclosed tag");
        const std::string tag = svg.substr(i + 1, end - i - 1);
        if (!tag.empty() && tag[0] == '/') {
            if (open.empty() || open.back() != tag.substr(1)) fail("mismatched </" + tag.substr(1) + ">");
            open.pop_back();
            text_target = nullptr;
            if (open.empty()) root_closed = true;
            i = end + 1;
            continue;
        }
        if (root_closed) fail("a second root element");
        const bool self_closing = !tag.empty() && tag.back() == '/';
        const std::string body = self_closing ? tag.substr(0, tag.size() - 1) : tag;
        Element e;
        std::size_t k = body.find_first_of(" \n");
        e.name = body.substr(0, k);
        while (k != std::string::npos && k < body.size()) {
            k = body.find_first_not_of(" \n", k);
            if (k == std::string::npos) break;
            const std::size_t eq = body.find('=', k);
            if (eq == std::string::npos || eq + 1 >= body.size() || body[eq + 1] != '"') fail("unquoted attribute");
            const std::size_t close = body.find('"', eq + 2);
            if (close == std::string::npos) fail("unterminated attribute");
            const std::string key = body.substr(k, eq - k), value = body.substr(eq + 2, close - eq - 2);
            if (value.find('<') != std::string::npos || !entities_ok(value)) fail("bad attribute value");
            if (!e.attrs.emplace(key, value).second) fail("repeated attribute " + key);
            k = close + 1;
        }
        if (out.empty() && e.name != "svg") fail("the root is not <svg>");
        out.push_back(e);
        text_target = self_closing ? nullptr : &out.back();
        if (!self_closing) open.push_back(e.name);
        if (open.empty()) root_closed = true;  // a self-closing root
        i = end + 1;
    }
    if (!open.empty()) fail("<" + open.back() + "> never closed");
    if (out.empty()) fail("empty document");
    return out;
}

std::vector<Element> all(const std::vector<Element>& els, const std::string& name) {
    std::vector<Element> r;
    for (const auto& e : els)
        if (e.name == name) r.push_back(e);
    return r;
}

/// The two curves of the main test. Budgets up to 4: one budget unit is 420 / 4 = 105 px, one
/// percent of success 2.6 px.
std::vector<SuccessCurve> two_curves() {
    SuccessCurve gin;
    gin.label = "gin / any";
    gin.budget = {0, 1, 2, 4};
    gin.rate = {0.0, 0.25, 0.5, 1.0};
    gin.error = {0.0, 0.1, 0.2, 0.05};
    SuccessCurve odd;
    odd.label = "a<b & \"c\"";
    odd.budget = {0, 2};
    odd.rate = {0.5, 0.75};
    return {gin, odd};
}

TEST(SuccessRateSvg, IsAWellFormedStandaloneDocument) {
    const std::string svg = success_rate_svg(two_curves(), "Attack <gin> & co");
    const auto els = parse_svg(svg);
    const Element& root = els[0];
    EXPECT_EQ(root.attrs.at("xmlns"), "http://www.w3.org/2000/svg");
    // 60 + 420 + 30 wide; 40 + 260 + 50 tall plus 18 px of legend per curve.
    EXPECT_EQ(root.num("width"), 510.0);
    EXPECT_EQ(root.num("height"), 386.0);
    // The checker itself rejects what it must.
    for (const char* bad : {"<svg><g></svg>", "<svg>a < b</svg>", "<svg x=1/>", "<svg/><svg/>", "<svg>&nbsp;</svg>",
                            "<g/>", "<svg><text>x</svg>"})
        EXPECT_THROW(parse_svg(bad), std::runtime_error) << bad;
    for (const char* forbidden : {"<script", "<image", "href=", "@import", "url("})
        EXPECT_EQ(svg.find(forbidden), std::string::npos) << forbidden;
}

TEST(SuccessRateSvg, PointsLinesAndErrorBarsSitWhereTheNumbersSay) {
    const auto els = parse_svg(success_rate_svg(two_curves(), "t"));
    // x = 60 + 105 budget, y = 40 + 260 (1 - rate).
    const std::vector<std::vector<double>> want_points = {{60, 300}, {165, 235}, {270, 170},
                                                          {480, 40}, {60, 170},  {270, 105}};
    const auto circles = all(els, "circle");
    ASSERT_EQ(circles.size(), want_points.size());
    for (std::size_t i = 0; i < circles.size(); ++i) {
        EXPECT_NEAR(circles[i].num("cx"), want_points[i][0], 0.05) << i;
        EXPECT_NEAR(circles[i].num("cy"), want_points[i][1], 0.05) << i;
        EXPECT_EQ(circles[i].attrs.at("fill"), i < 4 ? "#1f77b4" : "#d62728") << i;
    }
    const auto lines = all(els, "polyline");
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].attrs.at("points"), "60.0,300.0 165.0,235.0 270.0,170.0 480.0,40.0");
    EXPECT_EQ(lines[1].attrs.at("points"), "60.0,170.0 270.0,105.0");
    EXPECT_EQ(lines[0].attrs.at("stroke"), "#1f77b4");
    EXPECT_EQ(lines[1].attrs.at("stroke"), "#d62728");
    // Error bars: vertical lines at the point's x from rate + error to rate - error, cut at 100 %
    // (the last point: 1.0 + 0.05 is drawn from 100 % down to 95 %). A zero error draws nothing,
    // nor does a curve without errors.
    std::vector<Element> bars;
    for (const auto& l : all(els, "line"))
        if (l.attrs.at("x1") == l.attrs.at("x2") && l.attrs.count("stroke") && l.attrs.at("stroke") == "#1f77b4")
            bars.push_back(l);
    ASSERT_EQ(bars.size(), 3u);
    const std::vector<std::vector<double>> want_bars = {{165, 209, 261}, {270, 118, 222}, {480, 40, 53}};
    for (std::size_t i = 0; i < bars.size(); ++i) {
        EXPECT_NEAR(bars[i].num("x1"), want_bars[i][0], 0.05) << i;
        EXPECT_NEAR(bars[i].num("y1"), want_bars[i][1], 0.05) << i;
        EXPECT_NEAR(bars[i].num("y2"), want_bars[i][2], 0.05) << i;
    }
    // The plot frame and the five horizontal grid lines at 0, 25, 50, 75 and 100 %.
    std::vector<double> grid;
    for (const auto& l : all(els, "line"))
        if (l.attrs.count("stroke") && l.attrs.at("stroke") == "#ddd") {
            EXPECT_EQ(l.num("x1"), 60.0);
            EXPECT_EQ(l.num("x2"), 480.0);
            EXPECT_EQ(l.num("y1"), l.num("y2"));
            grid.push_back(l.num("y1"));
        }
    EXPECT_EQ(grid, (std::vector<double>{300, 235, 170, 105, 40}));
}

TEST(SuccessRateSvg, AxisLabelsTitleAndLegendAreEscapedText) {
    const auto els = parse_svg(success_rate_svg(two_curves(), "Attack <gin> & co"));
    std::vector<std::string> texts;
    for (const auto& t : all(els, "text")) texts.push_back(t.text);
    auto has = [&](const std::string& s) { return std::find(texts.begin(), texts.end(), s) != texts.end(); };
    EXPECT_EQ(texts.front(), "Attack &lt;gin&gt; &amp; co");
    for (const char* pct : {"0.0%", "25.0%", "50.0%", "75.0%", "100.0%"}) EXPECT_TRUE(has(pct)) << pct;
    EXPECT_TRUE(has("budget (edge flips, cumulative)"));
    EXPECT_TRUE(has("gin / any"));
    EXPECT_TRUE(has("a&lt;b &amp; &quot;c&quot;"));
    // Budget ticks: the union of the budgets, once each, under the points (y = 300 + 16).
    std::map<std::string, double> ticks;
    for (const auto& t : all(els, "text"))
        if (t.attrs.count("y") && t.num("y") == 316.0) ticks[t.text] = t.num("x");
    EXPECT_EQ(ticks, (std::map<std::string, double>{{"0.0", 60}, {"1.0", 165}, {"2.0", 270}, {"4.0", 480}}));
    // Legend entries one below the other, 18 px apart, in curve order.
    std::vector<double> legend_y;
    for (const auto& t : all(els, "text"))
        if (t.text == "gin / any" || t.text == "a&lt;b &amp; &quot;c&quot;") legend_y.push_back(t.num("y"));
    EXPECT_EQ(legend_y, (std::vector<double>{350, 368}));
}

TEST(SuccessRateSvg, SmallBudgetsKeepAUnitAxis) {
    // Budgets below 1 are drawn on an axis from 0 to 1 (never stretched): budget 0.5 sits mid-way.
    SuccessCurve c;
    c.label = "x";
    c.budget = {0, 0.5};
    c.rate = {0.2, 0.4};
    const auto circles = all(parse_svg(success_rate_svg({c}, "")), "circle");
    ASSERT_EQ(circles.size(), 2u);
    EXPECT_NEAR(circles[1].num("cx"), 270.0, 0.05);
    EXPECT_NEAR(circles[1].num("cy"), 40 + 260 * 0.6, 0.05);
}

TEST(SuccessRateSvg, MalformedCurvesAreRejected) {
    EXPECT_THROW(success_rate_svg({}, "t"), InvalidArgument);
    SuccessCurve c;
    c.label = "gin / any";
    c.budget = {0, 1, 2};
    c.rate = {0, 1};
    try {
        success_rate_svg({c}, "t");
        FAIL() << "no error";
    } catch (const InvalidArgument& e) {
        EXPECT_EQ(std::string(e.what()), "success-rate figure: curve 'gin / any' has vectors of different lengths");
    }
    c.rate = {0, 0.5, 1};
    c.error = {0.1};
    EXPECT_THROW(success_rate_svg({c}, "t"), InvalidArgument);
    c.error = {0.1, 0.1, 0.1};
    EXPECT_NO_THROW(success_rate_svg({c}, "t"));
}

}  // namespace
}  // namespace brec
