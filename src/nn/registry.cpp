#include "brec/nn/registry.hpp"

#include <iomanip>
#include <sstream>

#include "brec/core/error.hpp"
#include "nn/models/builtin.hpp"
#include "nn/models/torchscript.hpp"

namespace brec {

const std::vector<ModelEntry>& model_registry() {
#define BREC_LIST_MODEL(name) models::name##_model(),
    static const std::vector<ModelEntry> kModels = {BREC_BUILTIN_MODELS(BREC_LIST_MODEL)};
#undef BREC_LIST_MODEL
    return kModels;
}

std::vector<std::string> model_names() {
    std::vector<std::string> names;
    for (const auto& m : model_registry()) names.push_back(m.spec.name);
    return names;
}

namespace {

std::string joined_names() {
    std::string out;
    for (const auto& n : model_names()) out += (out.empty() ? "" : ", ") + n;
    return out;
}

}  // namespace

bool is_torchscript_model(const std::string& name) { return name.rfind(kTorchScriptPrefix, 0) == 0; }

const ModelEntry& find_model(const std::string& name) {
    if (is_torchscript_model(name))
        return models::torchscript_model(name.substr(std::string(kTorchScriptPrefix).size()));
    for (const auto& m : model_registry())
        if (m.spec.name == name) return m;
    throw InvalidArgument("unknown model '" + name + "' (available: " + joined_names() + ")");
}

std::shared_ptr<GraphEmbedder> make_model(const std::string& name, const ModelConfig& config, ModelRandom& random) {
    return make_model(find_model(name), config, random);
}

std::shared_ptr<GraphEmbedder> make_model(const ModelEntry& entry, const ModelConfig& requested, ModelRandom& random) {
    ModelConfig config = requested;
    if (config.head == Head::regression) {
        config.out_dim = 1;
        config.output_norm = false;
    }
    if (config.layers < 1 || config.hidden < 1 || config.out_dim < 1)
        throw InvalidArgument("model sizes must be positive (layers " + std::to_string(config.layers) + ", hidden " +
                              std::to_string(config.hidden) + ", output " + std::to_string(config.out_dim) + ")");
    return entry.make(config, random);
}

void check_model(const std::string& name, const ModelConfig& config) { check_model(find_model(name), config); }

void check_model(const ModelEntry& entry, const ModelConfig& config) {
    if (entry.check) entry.check(config);
}

std::string describe_models() {
    std::ostringstream out;
    const auto row = [&](const std::vector<std::string>& cells) {
        static const int kWidth[] = {12, 4, 4, 5, 8, 8, 4, 5, 6, 6, 16, 26};
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (i < sizeof kWidth / sizeof *kWidth)
                out << std::left << std::setw(kWidth[i]) << cells[i];
            else
                out << cells[i];
        }
        out << '\n';
    };
    const auto num = [](double x) {
        std::ostringstream s;
        s << x;
        return s.str();
    };
    row({"model", "r", "L", "h", "lr", "wd", "b", "E", "t", "bound", "tight bound", "BREC paper B/R/E/C=total",
         "family"});
    for (const auto& m : model_registry()) {
        const ModelSpec& s = m.spec;
        const Hyper& h = s.defaults;
        const std::string paper = s.paper.known()
                                      ? std::to_string(s.paper.basic) + "/" + std::to_string(s.paper.regular) + "/" +
                                            std::to_string(s.paper.extension) + "/" + std::to_string(s.paper.cfi) +
                                            "=" + std::to_string(s.paper.total())
                                      : "-";
        row({s.name, h.radius ? std::to_string(h.radius) : "-", std::to_string(h.layers), std::to_string(h.hidden),
             num(h.lr), num(h.weight_decay), std::to_string(h.batch), std::to_string(h.epochs), num(h.loss_threshold),
             s.bound.empty() ? "-" : s.bound, s.tight_bound.empty() ? "-" : s.tight_bound, paper, s.family});
    }
    out << "\nbound: the WL level that bounds the model (brec certify's levels); tight bound: the test exactly as\n"
           "powerful as its design at these settings (brec wl --method NAME; brec certify --tests NAME).\n";
    out << "\nYour own model: torchscript:FILE, a module saved with torch.jit.script(model).save(FILE) whose\n"
           "forward(x: Tensor[N, F] float32, edge_index: Tensor[2, E] int64 (both directions), batch: Tensor[N]\n"
           "int64 (graph of each node), num_graphs: int) returns Tensor[num_graphs, d]; GIN's settings by default.\n";
    return out.str();
}

}  // namespace brec
