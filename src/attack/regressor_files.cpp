// A regressor's two files: NAME.pt (the weights, LibTorch's archive) and NAME.json (settings and
// training results; written last, so its presence marks a complete model).
#include <cstdio>
#include <sstream>

#include "brec/attack/regressor.hpp"
#include "brec/core/error.hpp"
#include "brec/io/dir_writer.hpp"
#include "brec/io/files.hpp"
#include "brec/nn/device.hpp"
#include "brec/nn/registry.hpp"

namespace brec {

nlohmann::ordered_json regressor_json(const Regressor& r) {
    const auto& s = r.settings;
    nlohmann::ordered_json j;
    j["model"] = s.model;
    j["pattern"] = pattern_name(s.pattern);
    j["seed"] = s.seed;
    j["layers"] = s.layers;
    j["hidden"] = s.hidden;
    j["loss"] = regression_loss_name(s.loss);
    j["lr"] = s.lr;
    j["batch"] = s.batch;
    j["epochs"] = s.epochs;
    j["patience"] = s.patience;
    j["lr_factor"] = s.lr_factor;
    j["lr_patience"] = s.lr_patience;
    j["min_lr"] = s.min_lr;
    j["max_train"] = s.max_train;
    j["max_validation"] = s.max_validation;
    j["max_test"] = s.max_test;
    j["epochs_run"] = r.epochs_run;
    j["best_epoch"] = r.best_epoch;
    if (s.max_seconds > 0.0) {
        j["max_seconds"] = s.max_seconds;
        j["time_limited"] = r.time_limited;
    }
    j["validation_loss"] = r.validation_loss;
    j["validation_l1"] = r.validation_l1;
    j["test_l1"] = r.test_l1;
    j["test_lc"] = r.test_lc;
    j["seconds"] = r.seconds;
    j["device"] = module_device(*r.model).str();
    if (!r.init_from.empty()) {
        j["init_from"] = r.init_from;
        j["trained"] = r.head_only ? "head" : "all";
    }
    return j;
}

std::string regressor_path(const std::string& dir, const RegressorSettings& settings) {
    return dir + "/" + settings.name() + ".json";
}

void save_regressor(const Regressor& r, const std::string& dir) {
    make_directories(dir);
    const std::string stem = dir + "/" + r.settings.name();
    const std::string tmp = stem + ".pt.tmp";
    {
        torch::serialize::OutputArchive archive;
        r.model->save(archive);
        try {
            archive.save_to(tmp);
        } catch (const c10::Error& e) {
            throw IoError("cannot write " + tmp + ": " + e.what_without_backtrace());
        }
    }
    if (std::rename(tmp.c_str(), (stem + ".pt").c_str()) != 0) throw IoError("cannot rename " + tmp);
    // The JSON last: its presence marks a complete model (what --resume looks for).
    write_text_file_atomic(stem + ".json", regressor_json(r).dump(2) + "\n");
}

void check_regressor_file(const std::string& path, const RegressorSettings& s) {
    const auto j = nlohmann::json::parse(read_text_file(path), nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw ParseError(path, 0, "not a JSON object");
    const nlohmann::json want = {{"model", s.model},
                                 {"layers", s.layers},
                                 {"hidden", s.hidden},
                                 {"loss", regression_loss_name(s.loss)},
                                 {"lr", s.lr},
                                 {"batch", s.batch},
                                 {"epochs", s.epochs},
                                 {"patience", s.patience},
                                 {"lr_patience", s.lr_patience}};
    for (const auto& [key, value] : want.items())
        if (!j.contains(key) || j[key] != value)
            throw InvalidArgument(path + " was trained with " + key + " " + (j.contains(key) ? j[key].dump() : "?") +
                                  ", this run asks for " + value.dump() + " (another --out, or the same flags)");
    // A model stopped by its time limit is complete for that limit only: under another one it
    // would have trained for another number of epochs.
    const double limit = j.value("max_seconds", 0.0);
    if (j.value("time_limited", false) && limit != s.max_seconds) {
        const auto seconds = [](double v) {
            std::ostringstream out;
            out << v;
            return out.str();
        };
        throw InvalidArgument(path + " stopped at --max-seconds " + seconds(limit) + " after " +
                              std::to_string(j.value("epochs_run", 0)) + " of " + std::to_string(s.epochs) +
                              " epochs; this run asks for " +
                              (s.max_seconds > 0.0 ? "--max-seconds " + seconds(s.max_seconds) : "no time limit") +
                              " (another --out, or the same flags)");
    }
}

Regressor load_regressor(const std::string& json_path, torch::Device device) {
    const auto text = read_text_file(json_path);
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw ParseError(json_path, 0, "not a JSON object");
    Regressor r;
    auto& s = r.settings;
    try {
        s.model = j.at("model").get<std::string>();
        s.pattern = parse_pattern(j.at("pattern").get<std::string>());
        s.seed = j.at("seed").get<std::uint64_t>();
        s.layers = j.at("layers").get<int>();
        s.hidden = j.at("hidden").get<int>();
        s.loss = parse_regression_loss(j.at("loss").get<std::string>());
        r.test_l1 = j.value("test_l1", 0.0);
        r.test_lc = j.value("test_lc", 0.0);
        r.validation_loss = j.value("validation_loss", 0.0);
        r.validation_l1 = j.value("validation_l1", 0.0);
        r.epochs_run = j.value("epochs_run", 0);
        r.best_epoch = j.value("best_epoch", 0);
        s.max_seconds = j.value("max_seconds", 0.0);
        r.time_limited = j.value("time_limited", false);
        r.seconds = j.value("seconds", 0.0);
        r.init_from = j.value("init_from", std::string());
        r.head_only = j.value("trained", std::string()) == "head";
    } catch (const nlohmann::json::exception& e) {
        throw ParseError(json_path, 0, std::string("bad regressor settings: ") + e.what());
    } catch (const InvalidArgument& e) {
        throw ParseError(json_path, 0, e.what());
    }
    ModelRandom random = make_model_random(0, torch::kCPU);
    r.model = make_model(s.model, s.config(), random);
    std::string pt = json_path;
    if (pt.size() > 5 && pt.compare(pt.size() - 5, 5, ".json") == 0) pt.resize(pt.size() - 5);
    pt += ".pt";
    if (!file_exists(pt)) throw IoError("cannot open " + pt + ": missing (the parameters of " + json_path + ")");
    try {
        torch::serialize::InputArchive archive;
        // Mapped to the CPU first: the file may come from a CUDA device this machine lacks.
        archive.load_from(pt, torch::Device(torch::kCPU));
        r.model->load(archive);
    } catch (const c10::Error& e) {
        throw ParseError(pt, 0, std::string("not the parameters of this model: ") + e.what_without_backtrace());
    }
    r.model->to(device);
    r.model->eval();
    return r;
}

}  // namespace brec
