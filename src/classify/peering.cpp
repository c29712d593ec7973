// Y_iso / Y_new accounting and the peering variants on one fold.
#include <limits>
#include <map>

#include "brec/classify/classify.hpp"
#include "brec/core/error.hpp"
#include "brec/dedup/split.hpp"

namespace brec {
namespace {

double fraction(std::size_t a, std::size_t b) {
    return b == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(a) / static_cast<double>(b);
}

void check_sizes(const Orbits& orbits, const std::vector<Label>& labels, const Fold& fold,
                 const std::vector<Label>& predictions) {
    if (labels.size() != orbits.orbit_of.size())
        throw InvalidArgument("classify: " + std::to_string(labels.size()) + " labels for " +
                              std::to_string(orbits.orbit_of.size()) + " graphs");
    if (predictions.size() != fold.test.size())
        throw InvalidArgument("classify: " + std::to_string(predictions.size()) + " predictions for " +
                              std::to_string(fold.test.size()) + " test graphs");
    for (const auto* part : {&fold.train, &fold.test})
        for (std::size_t i : *part)
            if (i >= labels.size())
                throw InvalidArgument("classify: graph index " + std::to_string(i) + " out of range");
}

}  // namespace

double AccuracyCounts::acc_test() const { return fraction(right_test, test); }
double AccuracyCounts::acc_iso() const { return fraction(right_iso, iso); }
double AccuracyCounts::acc_new() const { return fraction(right_new, fresh); }

std::string peering_suffix(Peering p) {
    switch (p) {
        case Peering::homogeneous:
            return "-PH";
        case Peering::majority:
            return "-P";
        case Peering::none:
            break;
    }
    return "";
}

std::vector<Label> apply_peering(const Orbits& orbits, const std::vector<Label>& labels, const Fold& fold,
                                 const std::vector<Label>& predictions, Peering peering) {
    check_sizes(orbits, labels, fold, predictions);
    std::vector<Label> out = predictions;
    if (peering == Peering::none) return out;
    // The same orbit counts and majority rule as `brec dedup --split` (dedup/split.hpp).
    const auto counts = orbit_train_labels(orbits, labels, fold);
    for (std::size_t k = 0; k < fold.test.size(); ++k) {
        const auto& c = counts[orbits.orbit_of[fold.test[k]]];
        if (c.empty()) continue;  // Y_new: the model's prediction stays
        if (peering == Peering::homogeneous) {
            if (c.size() == 1) out[k] = c.begin()->first;
            continue;
        }
        out[k] = peer_label(c, predictions[k]);
    }
    return out;
}

AccuracyCounts count_accuracy(const Orbits& orbits, const std::vector<Label>& labels, const Fold& fold,
                              const std::vector<Label>& predictions) {
    check_sizes(orbits, labels, fold, predictions);
    std::vector<char> orbit_in_train(orbits.size(), 0);
    for (std::size_t i : fold.train) orbit_in_train[orbits.orbit_of[i]] = 1;
    AccuracyCounts a;
    for (std::size_t k = 0; k < fold.test.size(); ++k) {
        const std::size_t i = fold.test[k];
        const bool iso = orbit_in_train[orbits.orbit_of[i]] != 0;
        const bool right = predictions[k] == labels[i];
        ++a.test;
        a.right_test += right;
        if (iso) {
            ++a.iso;
            a.right_iso += right;
        } else {
            ++a.fresh;
            a.right_new += right;
        }
    }
    return a;
}

}  // namespace brec
