#pragma once
// Pieces of a training loop that eval's Siamese training and attack's counting regressors share:
// PyTorch's ReduceLROnPlateau (LibTorch 1.13 has none) and a copy of a module's weights (the
// best-validation checkpoint).

#include <vector>

#include <torch/torch.h>

namespace brec::nn {

/// ReduceLROnPlateau in mode min with a relative threshold of 1e-4 and no cooldown, as PyTorch's:
/// an epoch whose metric is below best · (1 − 1e-4) is the new best; after more than `patience`
/// epochs without one, every parameter group's learning rate becomes max(min_lr, lr · factor) and
/// the count starts again. PyTorch's defaults: factor 0.1, patience 10, min_lr 0.
class PlateauScheduler {
public:
    PlateauScheduler(torch::optim::Adam& optimizer, double factor = 0.1, int patience = 10, double min_lr = 0.0)
        : optimizer_(optimizer), factor_(factor), patience_(patience), min_lr_(min_lr) {}

    /// Takes one epoch's metric; returns true when it lowered the learning rate.
    bool step(double metric) {
        if (metric < best_ * (1.0 - 1e-4)) {
            best_ = metric;
            bad_ = 0;
            return false;
        }
        if (++bad_ <= patience_) return false;
        for (auto& group : optimizer_.param_groups()) {
            auto& options = static_cast<torch::optim::AdamOptions&>(group.options());
            options.lr(std::max(min_lr_, options.lr() * factor_));
        }
        bad_ = 0;
        return true;
    }

private:
    torch::optim::Adam& optimizer_;
    double factor_;
    int patience_;
    double min_lr_;
    double best_ = INFINITY;
    int bad_ = 0;
};

/// A copy of every parameter and buffer of a module, to go back to (the best-validation weights).
class WeightsCheckpoint {
public:
    /// Copies the module's current weights (replacing an earlier copy).
    void save(torch::nn::Module& module) {
        saved_.clear();
        for (const auto& p : module.parameters()) saved_.push_back(p.detach().clone());
        for (const auto& b : module.buffers()) saved_.push_back(b.detach().clone());
    }
    /// Writes the saved weights back into the module (which must be the one saved); nothing
    /// happens when nothing was saved.
    void restore(torch::nn::Module& module) const {
        if (saved_.empty()) return;
        torch::NoGradGuard no_grad;
        std::size_t k = 0;
        for (auto& p : module.parameters()) p.copy_(saved_[k++]);
        for (auto& b : module.buffers()) b.copy_(saved_[k++]);
    }

private:
    std::vector<torch::Tensor> saved_;
};

}  // namespace brec::nn
