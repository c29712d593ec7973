#pragma once
// The built-in models (private to nn). Adding a model: write src/nn/models/NAME.cpp defining
// `ModelEntry NAME_model()` in brec::models, and add one line X(NAME) to BREC_BUILTIN_MODELS.

#include "brec/nn/registry.hpp"

// clang-format off
#define BREC_BUILTIN_MODELS(X) \
    X(gin)                     \
    X(ppgn)                    \
    X(ngnn)                    \
    X(de_ngnn)                 \
    X(ds_gnn)                  \
    X(dss_gnn)                 \
    X(sun)                     \
    X(gnn_ak)                  \
    X(kp_gnn)                  \
    X(i2_gnn)                  \
    X(lgnn2)                   \
    X(graphormer)              \
    X(kc_setgnn)               \
    X(gsn)                     \
    X(dropgnn)                 \
    X(sswl_p)                  \
    X(osan)
// clang-format on

namespace brec::models {

#define BREC_DECLARE_MODEL(name) ModelEntry name##_model();
BREC_BUILTIN_MODELS(BREC_DECLARE_MODEL)
#undef BREC_DECLARE_MODEL

}  // namespace brec::models
