#pragma once
// The user's own model: a TorchScript module loaded from a file (private to nn; the registry
// resolves "torchscript:FILE" names through it).

#include <string>

#include "brec/nn/registry.hpp"

namespace brec::models {

/// The registry entry of the TorchScript module in `path`, loaded and checked once per process
/// (the entry lives as long as the process). Throws IoError for a missing file and InvalidArgument
/// for a file that is not a TorchScript module or whose forward does not have the interface.
const ModelEntry& torchscript_model(const std::string& path);

/// The probe of check_model for the module in `path` (loaded through torchscript_model).
void check_torchscript_model(const std::string& path, const ModelConfig& config);

}  // namespace brec::models
