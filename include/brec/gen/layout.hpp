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

/// Circular for regular graphs, stress otherwise (the `brec show` rule).
std::vector<Point> default_layout(const Graph& g);

/// An SVG document with both graphs side by side (titles above each, caption lines below).
std::string render_pair_svg(const Graph& a, const Graph& b, const std::string& title_a,
                            const std::string& title_b, const std::vector<std::string>& caption);

}  // namespace brec
