#include "python_model.hpp"

#include <algorithm>
#include <utility>

#include <torch/csrc/autograd/python_variable.h>
#include <torch/python.h>

#include "brec/core/error.hpp"
#include "brec/core/rng.hpp"
#include "brec/nn/batch.hpp"
#include "brec/nn/user_model.hpp"

namespace brec::python {
namespace {

/// A Python exception as one line: its type and message.
std::string python_error_line(const py::error_already_set& e) {
    std::string text = e.what();
    if (const auto at = text.find("\n\nAt:"); at != std::string::npos) text.resize(at);  // pybind11's traceback
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text.size() > 300 ? text.substr(0, 300) + " ..." : text;
}

/// A module's tensors: named_parameters() and named_buffers(), in their order.
struct ModuleState {
    nn::NamedTensors parameters, buffers;
};

/// Call with the GIL held.
ModuleState module_state(const py::object& module) {
    ModuleState out;
    for (auto [which, to] : {std::pair{"named_parameters", &out.parameters}, std::pair{"named_buffers", &out.buffers}})
        for (const py::handle item : module.attr(which)()) {
            const auto t = item.cast<py::tuple>();
            to->emplace_back(t[0].cast<std::string>(), t[1].cast<torch::Tensor>());
        }
    return out;
}

/// The modules of one entry: the one given (or the factory's first) and those the factory makes for
/// further workers, each used by one model at a time and reused pair after pair.
class ModulePool {
public:
    /// Call with the GIL held.
    explicit ModulePool(PythonModelSpec spec) : spec_(std::move(spec)) {
        free_.push_back(spec_.module);
        torch::NoGradGuard no_grad;
        const ModuleState first = module_state(spec_.module);
        for (const nn::NamedTensors* part : {&first.parameters, &first.buffers})
            for (const auto& [name, t] : *part) initial_.emplace_back(name, t.detach().clone());
    }
    ~ModulePool() {
        py::gil_scoped_acquire gil;
        free_.clear();
        spec_ = PythonModelSpec();
    }
    ModulePool(const ModulePool&) = delete;
    ModulePool& operator=(const ModulePool&) = delete;

    const PythonModelSpec& spec() const { return spec_; }
    std::string where() const { return spec_.name + ": "; }

    /// A module no model uses (the GIL need not be held; it is taken to call the factory).
    py::object acquire() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!free_.empty()) {
                py::object m = std::move(free_.back());  // moves hold no reference count: no GIL needed
                free_.pop_back();
                return m;
            }
        }
        py::gil_scoped_acquire gil;
        if (spec_.factory.is_none())
            throw InvalidArgument(where() +
                                  "pairs run in parallel need a module each: pass a factory (e.g. "
                                  "model=lambda: MyGnn()) or jobs=1");
        py::object m;
        try {
            m = spec_.factory();
        } catch (py::error_already_set& e) {
            throw InvalidArgument(where() + "the factory raised " + python_error_line(e));
        }
        if (!py::isinstance(m, py::module_::import("torch.nn").attr("Module")))
            throw InvalidArgument(where() + "the factory returned " +
                                  std::string(py::str(m.get_type().attr("__name__"))) + ", not a torch.nn.Module");
        return m;
    }
    /// Puts the first module's initial values into `state`: every pair starts from the same state
    /// whichever module runs it, before its weights are drawn again.
    void restore_initial(const ModuleState& state) const {
        nn::NamedTensors all = state.parameters;
        all.insert(all.end(), state.buffers.begin(), state.buffers.end());
        bool same = all.size() == initial_.size();
        for (std::size_t i = 0; same && i < all.size(); ++i)
            same = all[i].first == initial_[i].first && all[i].second.sizes() == initial_[i].second.sizes();
        if (!same)
            throw InvalidArgument(where() +
                                  "the factory's modules differ in their parameters or buffers (names or "
                                  "shapes): it must make the same module every time");
        torch::NoGradGuard no_grad;
        for (std::size_t i = 0; i < all.size(); ++i) all[i].second.copy_(initial_[i].second);
    }
    void release(py::object m) {
        std::lock_guard<std::mutex> lock(mutex_);
        free_.push_back(std::move(m));
    }

private:
    PythonModelSpec spec_;
    nn::NamedTensors initial_;  ///< the first module's parameters, then buffers, as given
    std::mutex mutex_;
    std::vector<py::object> free_;
};

class PythonModel : public GraphEmbedder {
public:
    PythonModel(std::shared_ptr<ModulePool> pool, const ModelConfig& c, ModelRandom& random)
        : pool_(std::move(pool)), config_(c), run_(random.run) {
        nn::check_input_features(c);
        module_ = pool_->acquire();
        try {
            start(random);
        } catch (...) {
            pool_->release(std::move(module_));  // back to the pool: never dropped without the GIL
            throw;
        }
    }

    ~PythonModel() override { pool_->release(std::move(module_)); }

    void train(bool on) override {
        torch::nn::Module::train(on);
        py::gil_scoped_acquire gil;
        module_.attr("train")(on);
    }

    using torch::nn::Module::to;
    void to(torch::Device device, bool non_blocking) override {
        // torch moves a module's parameters in place (their .data), so the tensors registered
        // here follow.
        py::gil_scoped_acquire gil;
        module_.attr("to")(device.str(), py::arg("non_blocking") = non_blocking);
    }

    void set_graphs(const std::vector<Graph>& graphs, torch::Device device) override { batches_.reset(graphs, device); }

    torch::Tensor forward_range(std::size_t begin, std::size_t end) override {
        const nn::UserInputs& in = batches_.get(begin, end, [&](std::size_t s, std::size_t e) {
            return nn::make_user_inputs(batches_.graphs(), s, e, config_, batches_.device());
        });
        const PythonModelSpec& spec = pool_->spec();
        // The lock before the GIL: a pass that waits for the lock holds no GIL.
        const std::unique_lock<std::mutex> lock =
            nn::seed_global_generator(batches_.device(), stream_seed(run_.current_seed(), ++passes_));
        torch::Tensor out;
        {
            py::gil_scoped_acquire gil;
            try {
                const py::object result =
                    spec.style == ForwardStyle::tensors
                        ? module_(in.x, in.edge_index, in.batch, in.graphs)
                        : module_(spec.make_data(in.x, in.edge_index, in.batch, in.graphs, in.ptr));
                if (!THPVariable_Check(result.ptr()))
                    throw InvalidArgument(pool_->where() + "forward returned " +
                                          std::string(py::str(result.get_type().attr("__name__"))) +
                                          ", not a torch.Tensor [num_graphs, d]");
                out = THPVariable_Unpack(result.ptr());
            } catch (py::error_already_set& e) {
                if (e.matches(PyExc_KeyboardInterrupt)) {
                    if (spec.ctx) spec.ctx->cancel();
                    throw Cancelled("interrupted (KeyboardInterrupt)");
                }
                throw InvalidArgument(pool_->where() + "forward raised on " + std::to_string(in.graphs) +
                                      " graphs: " + python_error_line(e));
            }
        }
        return nn::checked_user_output(out, in.graphs, config_.out_dim, pool_->where());
    }

private:
    /// Puts the module in its pair's initial state (the first module's values, then its
    /// reset_parameters() or brec's rule) and registers its parameters.
    void start(ModelRandom& random) {
        const bool own_reset = pool_->spec().own_reset;
        ModuleState state;
        {
            // reset_parameters draws from torch's global generator: seeded from the pair's stream.
            std::unique_lock<std::mutex> lock;
            if (own_reset) lock = nn::seed_global_generator(torch::kCPU, random.init.current_seed());
            py::gil_scoped_acquire gil;
            try {
                // A module reused from the pool is still on the device of its last pair: like every
                // model's, its weights are drawn on the CPU (with the CPU's generator), then the
                // pipeline moves it to the device.
                module_.attr("to")("cpu");
                state = module_state(module_);
                pool_->restore_initial(state);
                if (own_reset) {
                    module_.attr("reset_parameters")();
                    state = module_state(module_);  // the method may have put new tensors in place
                }
            } catch (py::error_already_set& e) {
                throw InvalidArgument(pool_->where() + (own_reset ? "reset_parameters raised " : "") +
                                      python_error_line(e));
            }
        }
        if (!own_reset) nn::reinitialise_parameters(state.parameters, state.buffers, random.init);
        int k = 0;
        for (auto& [name, t] : state.parameters) {
            t.mutable_grad() = torch::Tensor();  // a reused module keeps no gradient of its last pair
            std::string safe = name;
            std::replace(safe.begin(), safe.end(), '.', '_');
            register_parameter(safe + "_" + std::to_string(k++), t, t.requires_grad());
        }
        train(is_training());
    }

    std::shared_ptr<ModulePool> pool_;
    ModelConfig config_;
    torch::Generator run_;
    std::uint64_t passes_ = 0;
    py::object module_;
    nn::RangeCache<nn::UserInputs> batches_;
};

}  // namespace

std::shared_ptr<const ModelEntry> python_model_entry(PythonModelSpec spec) {
    auto entry = std::make_shared<ModelEntry>();
    ModelSpec& s = entry->spec;
    s.name = spec.name;
    s.family = "user's Python module " + spec.name;
    s.bound_note = "unknown (a user's module)";
    s.defaults = find_model("gin").spec.defaults;
    s.module_hash = spec.module_hash;
    auto pool = std::make_shared<ModulePool>(std::move(spec));
    entry->make = [pool](const ModelConfig& c, ModelRandom& r) { return std::make_shared<PythonModel>(pool, c, r); };
    entry->check = [make = entry->make, where = pool->where()](const ModelConfig& c) {
        nn::probe_user_model(make, c, where);
    };
    return entry;
}

}  // namespace brec::python
