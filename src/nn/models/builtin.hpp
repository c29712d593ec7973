#pragma once
// The built-in models (private to nn). Adding a model: write src/nn/models/NAME.cpp defining
// `ModelEntry NAME_model()` in brec::models, and add one line X(NAME) to BREC_BUILTIN_MODELS.

#include "brec/nn/registry.hpp"

// clang-format off
#define BREC_BUILTIN_MODELS(X) \
    X(gin)                     \
    X(ppgn)
// clang-format on

namespace brec::models {

#define BREC_DECLARE_MODEL(name) ModelEntry name##_model();
BREC_BUILTIN_MODELS(BREC_DECLARE_MODEL)
#undef BREC_DECLARE_MODEL

/// The models of the BREC study that brec does not implement yet (named in error messages).
const std::vector<std::string>& planned_models();

}  // namespace brec::models
