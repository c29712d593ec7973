#pragma once
// A user's Python torch.nn.Module as a brec model: brec's trainer and RPC test run it exactly as a
// built-in model; Python runs only its forward passes (and reset_parameters).
//
// Forward: forward(x, edge_index, batch, num_graphs) (the interface of brec/nn/user_model.hpp), or,
// when forward takes one argument, forward(data) with a batch object carrying x, edge_index, batch,
// num_graphs and ptr (torch_geometric.data.Batch when PyG is importable, else a plain namespace).
//
// Fresh weights per pair: the module's own top-level reset_parameters() when it defines one, run
// with torch's global generator seeded from the pair's stream; else brec's rule for every parameter
// (nn::reinitialise_parameters) drawn from the pair's generator. Never a mix.
//
// Threads and the GIL: the trainer runs without the GIL; a forward pass takes it. Forward passes of
// Python modules take turns (one lock, taken before the GIL) with torch's global generator seeded
// from the pair's stream, so a forward that draws random numbers (dropout) gives the same draws
// whatever --jobs; backward passes and optimiser steps run in parallel. With jobs > 1 every worker
// needs a module of its own: `factory` makes them (one per worker, reused pair after pair).

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "brec/core/run_context.hpp"
#include "brec/nn/registry.hpp"

namespace brec::python {

namespace py = pybind11;

/// How brec calls the module's forward.
enum class ForwardStyle { tensors, data };

/// What the entry of a Python module is made from.
struct PythonModelSpec {
    std::string name;         ///< the records' model name ("python:NAME")
    std::string module_hash;  ///< part of the settings id (the module's class source, repr and shapes)
    ForwardStyle style = ForwardStyle::tensors;
    bool own_reset = false;  ///< the module defines a top-level reset_parameters()
    py::object module;       ///< the module given, or the factory's first module
    py::object factory;      ///< None, or a callable returning a fresh module (needed for jobs > 1)
    py::object make_data;    ///< forward(data) style: a callable (x, edge_index, batch, num_graphs, ptr) -> batch
    /// Cancelled (and so recorded as interrupted, not as a fault) when a forward raises
    /// KeyboardInterrupt.
    RunContext* ctx = nullptr;
};

/// The registry entry of a Python module; its `check` is nn::probe_user_model. Call with the GIL
/// held; the entry's functions take the GIL themselves. The modules it holds are released with the
/// GIL when the last copy of the entry goes.
std::shared_ptr<const ModelEntry> python_model_entry(PythonModelSpec spec);

}  // namespace brec::python
