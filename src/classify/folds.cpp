// Stratified k-fold splits and their JSON form.
#include <algorithm>
#include <map>

#include "brec/classify/classify.hpp"
#include "brec/core/error.hpp"

namespace brec {

std::vector<Fold> stratified_folds(const std::vector<Label>& labels, std::size_t k, Rng& rng) {
    const std::size_t n = labels.size();
    if (k < 2 || k > n)
        throw InvalidArgument("stratified folds: need 2 <= folds <= graphs (" + std::to_string(n) + "), got " +
                              std::to_string(k));
    std::map<Label, std::vector<std::size_t>> by_class;  // ordered: the deal does not depend on hashing
    for (std::size_t i = 0; i < n; ++i) by_class[labels[i]].push_back(i);
    std::vector<Fold> folds(k);
    std::size_t next = 0;
    for (auto& [label, members] : by_class) {
        rng.shuffle(members);
        for (std::size_t i : members) {
            folds[next].test.push_back(i);
            next = (next + 1) % k;
        }
    }
    for (std::size_t f = 0; f < k; ++f) {
        Fold& fold = folds[f];
        fold.name = "fold " + std::to_string(f + 1);
        std::sort(fold.test.begin(), fold.test.end());
        std::vector<char> in_test(n, 0);
        for (std::size_t i : fold.test) in_test[i] = 1;
        for (std::size_t i = 0; i < n; ++i)
            if (!in_test[i]) fold.train.push_back(i);
    }
    return folds;
}

nlohmann::json folds_to_json(const std::vector<Fold>& folds) {
    nlohmann::json j = nlohmann::json::array();
    for (const Fold& f : folds) j.push_back({{"train", f.train}, {"test", f.test}});
    return j;
}

}  // namespace brec
