#pragma once
// The user's own model: a TorchScript module loaded from a file (private to nn; the registry
// resolves "torchscript:FILE" names through it).

#include <string>

#include <torch/script.h>

#include "brec/nn/registry.hpp"

namespace brec::models {

/// The registry entry of the TorchScript module in `path`, loaded and checked once per process
/// (the entry lives as long as the process). Throws IoError for a missing file and InvalidArgument
/// for a file that is not a TorchScript module or whose forward does not have the interface.
const ModelEntry& torchscript_model(const std::string& path);

/// How many operations (aten::matmul, aten::bmm, aten::conv2d) of the module's forward in `path` run
/// as brec's (rewrite_products when it was loaded through torchscript_model).
int torchscript_rewritten(const std::string& path);

/// Inlines forward's calls of submodules and functions into forward's graph and replaces its
/// aten::matmul / aten::bmm / aten::conv2d nodes by brec::matmul / brec::bmm / brec::conv2d
/// (nn_kernels::batched_matmul and nn_kernels::conv2d, with torch's own as fallback); returns how
/// many. In place: the graph belongs to the module's class, so every deep copy of `module` runs the
/// rewritten forward. Call before forward first runs.
int rewrite_products(torch::jit::Module& module);

}  // namespace brec::models
