#pragma once
// The figure of an adversarial attack run: success rate against budget, one line per (model,
// perturbation space), with error bars.

#include <string>
#include <vector>

namespace brec {

/// One line of the figure.
struct SuccessCurve {
    std::string label;           ///< e.g. "gin / any"
    std::vector<double> budget;  ///< x (cumulative flips)
    std::vector<double> rate;    ///< y in [0, 1]
    std::vector<double> error;   ///< half-length of the error bar (e.g. sd / sqrt(seeds)); may be empty
};

/// A standalone SVG document (no scripts, no external fonts). Throws InvalidArgument for no
/// curves or a curve whose vectors differ in length.
std::string success_rate_svg(const std::vector<SuccessCurve>& curves, const std::string& title);

}  // namespace brec
