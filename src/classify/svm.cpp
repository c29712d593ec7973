// Graph kernels (WL subtree, vertex histogram) and a C-SVM on the precomputed kernel (libsvm).
#include <algorithm>
#include <cmath>
#include <map>

#include <svm.h>

#include "brec/classify/classify.hpp"
#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/wl/features.hpp"

namespace brec {
namespace {

void silent(const char*) {}

/// A libsvm problem over a subset of the dataset: row r holds (0, r + 1) and then the kernel
/// values against the training subset, as libsvm's PRECOMPUTED kernel expects.
struct SvmRows {
    std::vector<std::vector<svm_node>> rows;
    std::vector<svm_node*> pointers;
    std::vector<double> y;
};

std::vector<svm_node> kernel_row(const KernelMatrix& k, std::size_t i, const std::vector<std::size_t>& train,
                                 double serial) {
    std::vector<svm_node> row(train.size() + 2);
    row[0] = svm_node{0, serial};
    for (std::size_t j = 0; j < train.size(); ++j) row[j + 1] = svm_node{static_cast<int>(j + 1), k(i, train[j])};
    row[train.size() + 1] = svm_node{-1, 0.0};
    return row;
}

/// Trains on `train` with C and predicts `test`.
std::vector<Label> train_predict(const KernelMatrix& k, const std::vector<Label>& labels,
                                 const std::vector<std::size_t>& train, const std::vector<std::size_t>& test,
                                 double c) {
    SvmRows p;
    p.rows.reserve(train.size());
    for (std::size_t r = 0; r < train.size(); ++r) {
        p.rows.push_back(kernel_row(k, train[r], train, static_cast<double>(r + 1)));
        p.y.push_back(static_cast<double>(labels[train[r]]));
    }
    for (auto& row : p.rows) p.pointers.push_back(row.data());
    svm_problem prob{};
    prob.l = static_cast<int>(train.size());
    prob.y = p.y.data();
    prob.x = p.pointers.data();
    svm_parameter param{};
    param.svm_type = C_SVC;
    param.kernel_type = PRECOMPUTED;
    param.C = c;
    param.eps = 1e-3;
    param.cache_size = 100;
    param.shrinking = 1;
    param.probability = 0;
    param.nr_weight = 0;
    if (const char* err = svm_check_parameter(&prob, &param)) throw InvalidArgument(std::string("libsvm: ") + err);
    svm_model* model = svm_train(&prob, &param);
    std::vector<Label> out;
    out.reserve(test.size());
    for (std::size_t i : test) {
        const auto row = kernel_row(k, i, train, 0.0);
        out.push_back(static_cast<Label>(std::lround(svm_predict(model, row.data()))));
    }
    svm_free_and_destroy_model(&model);
    return out;
}

}  // namespace

KernelMatrix normalised_gram(const std::vector<FeatureRow>& rows, int threads) {
    KernelMatrix k;
    k.n = rows.size();
    k.values.assign(k.n * k.n, 0.0);
    std::vector<double> diag(k.n);
    for (std::size_t i = 0; i < k.n; ++i) diag[i] = feature_dot(rows[i], rows[i]);
    parallel_for(k.n, threads, [&](std::size_t i) {
        for (std::size_t j = i; j < k.n; ++j) {
            double v;
            if (i == j)
                v = 1.0;
            else if (diag[i] <= 0 || diag[j] <= 0)
                v = 0.0;
            else
                v = feature_dot(rows[i], rows[j]) / std::sqrt(diag[i] * diag[j]);
            k.values[i * k.n + j] = v;
            k.values[j * k.n + i] = v;
        }
    });
    return k;
}

KernelMatrix graph_kernel(const std::vector<Graph>& graphs, const std::string& model, int wl_rounds, int threads) {
    if (model == "wl") return normalised_gram(wl_subtree_features(graphs, wl_rounds, true), threads);
    if (model == "vh") return normalised_gram(wl_subtree_features(graphs, 0, true), threads);
    throw InvalidArgument("unknown kernel model '" + model + "': use wl or vh");
}

SvmFit svm_fit_predict(const KernelMatrix& kernel, const std::vector<Label>& labels,
                       const std::vector<std::size_t>& train, const std::vector<std::size_t>& test,
                       const std::vector<double>& c_grid, std::size_t inner_folds, Rng& rng) {
    if (c_grid.empty()) throw InvalidArgument("SVM: the C grid is empty");
    for (double c : c_grid)
        if (!(c > 0)) throw InvalidArgument("SVM: every C must be > 0, got " + std::to_string(c));
    // libsvm prints through a process-wide function pointer; a no-op printer is idempotent.
    svm_set_print_string_function(&silent);
    SvmFit fit;
    fit.c = *std::min_element(c_grid.begin(), c_grid.end());
    if (c_grid.size() > 1 && inner_folds >= 2 && train.size() >= inner_folds) {
        std::vector<Label> train_labels;
        for (std::size_t i : train) train_labels.push_back(labels[i]);
        const std::vector<Fold> inner = stratified_folds(train_labels, inner_folds, rng);
        std::vector<double> grid = c_grid;
        std::sort(grid.begin(), grid.end());
        double best = -1;
        for (double c : grid) {
            std::size_t right = 0, total = 0;
            for (const Fold& f : inner) {
                std::vector<std::size_t> tr, va;
                for (std::size_t r : f.train) tr.push_back(train[r]);
                for (std::size_t r : f.test) va.push_back(train[r]);
                const auto pred = train_predict(kernel, labels, tr, va, c);
                for (std::size_t q = 0; q < va.size(); ++q) right += pred[q] == labels[va[q]];
                total += va.size();
            }
            const double acc = static_cast<double>(right) / static_cast<double>(total);
            if (acc > best) {
                best = acc;
                fit.c = c;
            }
        }
    }
    fit.predictions = train_predict(kernel, labels, train, test, fit.c);
    return fit;
}

}  // namespace brec
