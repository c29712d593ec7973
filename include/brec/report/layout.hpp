#pragma once
// Drawing pairs: vertex layouts (circular, stress majorization) and a small SVG writer that puts
// the two graphs of a pair side by side with a caption. Returns text; the CLI writes the file.
//
// @inproceedings{gansner2004graph, title={Graph drawing by stress majorization}, author={Gansner,
//   Emden R. and Koren, Yehuda and North, Stephen}, booktitle={Graph Drawing}, pages={239--250},
//   year={2004}}

#include <string>
#include <vector>

#include "brec/graph/graph.hpp"

namespace brec {

struct Point {
    double x = 0.0, y = 0.0;
};

/// Vertices evenly on the unit circle in id order. Complexity O(n).
std::vector<Point> circular_layout(const Graph& g);

/// Stress majorization (SMACOF, weights d^-2) on shortest-path distances, starting from the
/// circular layout, so the result is deterministic; disconnected parts are placed at distance
/// (diameter + 1). Scaled into the unit disc. Complexity O(iterations * n^2) plus O(n m) for
/// distances.
std::vector<Point> stress_layout(const Graph& g, int iterations = 300);

/// The two colour classes of a bipartite graph (side 0 or 1 per vertex, BFS from the smallest
/// vertex of each component), or an empty vector when g has an odd cycle or no edge.
std::vector<int> bipartition(const Graph& g);

/// Which layout a graph is drawn with.
enum class LayoutKind {
    stress,              ///< stress majorization on graph distances
    circular,            ///< evenly on a circle in id order
    circular_bipartite,  ///< on a circle, each class of the bipartition on its own arc
};

/// The caption words of a layout: "stress majorization", "circular" or
/// "circular, bipartition on two arcs".
const char* layout_name(LayoutKind kind);

/// A layout together with the decision that produced it, so that a caption naming the layout
/// cannot disagree with the drawing.
struct Layout {
    LayoutKind kind = LayoutKind::stress;
    std::vector<Point> points;  ///< one per vertex
};

/// The `brec show` rule: circular for regular graphs of degree >= 3 (a bipartite one with its two
/// classes on two arcs, each in id order), stress majorization otherwise (cycles then show as
/// rings). Complexity: that of the layout used.
Layout default_layout(const Graph& g);

/// How a pair is drawn: each graph with its default layout, or, for graphs on the same vertex ids
/// that differ in few edges (at most max(4, (m_a + m_b) / 10), as for a CFI graph and its twist),
/// both with the first graph's layout and the differing edges marked, so that the difference shows.
struct PairLayout {
    Layout a;                          ///< the first graph's layout
    Layout b;                          ///< the second's (a copy of `a` when shared)
    bool shared = false;               ///< both drawings use the same positions
    std::vector<Edge> only_a, only_b;  ///< edges of one graph only (sorted); marked when shared

    /// The layout in words (one caption line), e.g. "layout: circular" or "layout: stress
    /// majorization, same positions in both drawings; red: the 4 edges that differ".
    std::string description() const;
};

/// Decides and computes the layout of a pair. Complexity: the two layouts plus O(m log m).
PairLayout plan_pair_layout(const Graph& a, const Graph& b);

/// plan_pair_layout(a, b).description(): for a caption without a drawing.
std::string pair_layout_description(const Graph& a, const Graph& b);

/// An SVG document with both graphs side by side (titles above each, caption lines below), drawn
/// with `layout` (which must be plan_pair_layout(a, b)); the two classes of a bipartite graph get
/// two colours, and edges get lighter as the graph gets denser.
/// Throws InvalidArgument when the layout does not have one point per vertex.
std::string render_pair_svg(const Graph& a, const Graph& b, const PairLayout& layout, const std::string& title_a,
                            const std::string& title_b, const std::vector<std::string>& caption);

/// The same, with the layout planned here.
std::string render_pair_svg(const Graph& a, const Graph& b, const std::string& title_a, const std::string& title_b,
                            const std::vector<std::string>& caption);

}  // namespace brec
