// Where a regressor's training starts: fresh weights, a trained model's weights, or only its
// regression head trained (the rest frozen, its modules in eval mode).
#include <algorithm>

#include "brec/attack/regressor.hpp"
#include "brec/core/error.hpp"
#include "detail/fine_tune.hpp"

namespace brec {

bool is_regression_head(const GraphEmbedder& model, const std::string& name) {
    // The first component of the name: a top-level module (or parameter) of the model.
    const std::string top = name.substr(0, name.find('.'));
    const auto head = model.regression_head();
    return std::find(head.begin(), head.end(), top) != head.end();
}

namespace {

/// Copies `from`'s parameters and buffers into `to` (built with the same settings).
void copy_state(torch::nn::Module& from, torch::nn::Module& to) {
    torch::NoGradGuard no_grad;
    const auto src = from.named_parameters();
    for (auto& p : to.named_parameters()) p.value().copy_(src[p.key()]);
    const auto src_buffers = from.named_buffers();
    for (auto& b : to.named_buffers()) b.value().copy_(src_buffers[b.key()]);
}

}  // namespace

namespace detail {

void apply_start(GraphEmbedder& model, const RegressorSettings& s, const RegressorStart& start) {
    if (start.head_only && !start.from)
        throw InvalidArgument("training only the regression head needs a trained model to start from");
    if (!start.from) return;
    const RegressorSettings& f = start.from->settings;
    if (f.model != s.model || f.pattern != s.pattern || f.layers != s.layers || f.hidden != s.hidden)
        throw InvalidArgument("cannot start " + s.name() + " (layers " + std::to_string(s.layers) + ", hidden " +
                              std::to_string(s.hidden) + ") from " + f.name() + " (layers " + std::to_string(f.layers) +
                              ", hidden " + std::to_string(f.hidden) + ")");
    copy_state(*start.from->model, model);
    if (!start.head_only) return;
    std::size_t head = 0;
    for (auto& p : model.named_parameters()) {
        const bool in_head = is_regression_head(model, p.key());
        p.value().set_requires_grad(in_head);
        head += in_head ? 1 : 0;
    }
    if (head == 0) throw InvalidArgument("model " + s.model + " has no regression head to train alone");
}

void set_training_mode(GraphEmbedder& model, const RegressorStart& start) {
    model.train();
    if (!start.head_only) return;
    for (auto& child : model.named_children())
        if (!is_regression_head(model, child.key())) child.value()->eval();
}

}  // namespace detail
}  // namespace brec
