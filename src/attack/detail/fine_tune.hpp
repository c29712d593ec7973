#pragma once
// Where a regressor's training starts (private to attack): from fresh weights, from a trained
// model's weights, or training only the regression head of one (the ood_head setting of
// `brec attack ood`).

#include "brec/attack/regressor.hpp"

namespace brec::detail {

/// Checks that `start` fits the settings, then loads its weights into `model` and, for head-only
/// training, turns off the gradients of every parameter outside the head. InvalidArgument when
/// head-only training has no model to start from, the models differ in kind or size, or the model
/// has no regression head.
void apply_start(GraphEmbedder& model, const RegressorSettings& s, const RegressorStart& start);

/// Training mode for an epoch: the whole model, or with a frozen body only the head.
void set_training_mode(GraphEmbedder& model, const RegressorStart& start);

}  // namespace brec::detail
