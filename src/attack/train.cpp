// brec attack train: every (pattern, seed) regressor of a request, trained or (resuming) loaded.
#include <iomanip>
#include <sstream>

#include "brec/attack/regressor.hpp"
#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/nn/device.hpp"

namespace brec {

std::vector<TrainedRegressor> train_regressors(const RegressorTrainRequest& request, RunContext& ctx,
                                               const std::function<void(const TrainedRegressor&)>& on_done) {
    auto settings_for = [&](Pattern p, std::uint64_t seed) {
        RegressorSettings s = request.settings;
        s.pattern = p;
        s.seed = seed;
        return s;
    };
    // Before any training: no model file is overwritten, and one kept by resume was trained as asked.
    for (Pattern p : request.patterns)
        for (auto seed : request.seeds) {
            const RegressorSettings s = settings_for(p, seed);
            const std::string path = regressor_path(request.out, s);
            if (!file_exists(path)) continue;
            if (!request.resume) throw InvalidArgument(path + " exists (resume to skip trained models)");
            check_regressor_file(path, s);
        }
    const torch::Device device = parse_device(request.device);
    const CountingData data = read_counting_data(request.data);
    set_cpu_threads(ctx.threads());
    std::vector<TrainedRegressor> done;
    for (Pattern p : request.patterns)
        for (auto seed : request.seeds) {
            const RegressorSettings s = settings_for(p, seed);
            const std::string path = regressor_path(request.out, s);
            TrainedRegressor row;
            Regressor r;
            if (request.resume && file_exists(path)) {
                r = load_regressor(path, device);
                row.loaded = true;
                ctx.info("attack train: " + path + " exists, skipped");
            } else {
                r = train_regressor(data, s, ctx, {}, device);
                save_regressor(r, request.out);
            }
            row.settings = s;
            row.epochs_run = r.epochs_run;
            row.validation_loss = r.validation_loss;
            row.test_l1 = r.test_l1;
            row.test_lc = r.test_lc;
            if (on_done) on_done(row);
            done.push_back(row);
        }
    return done;
}

std::string regressor_table_header() {
    std::ostringstream out;
    out << std::left << std::setw(10) << "model" << std::setw(18) << "pattern" << std::setw(6) << "seed" << std::setw(8)
        << "epochs" << std::setw(12) << "val_loss" << std::setw(10) << "test_l1" << std::setw(10) << "test_lc"
        << "paper_l1\n";
    return out.str();
}

std::string regressor_table_row(const TrainedRegressor& r) {
    const RegressorSettings& s = r.settings;
    const double paper = paper_test_l1(s.model, s.pattern);
    std::ostringstream out;
    out << std::left << std::setw(10) << s.model << std::setw(18) << pattern_name(s.pattern) << std::setw(6) << s.seed
        << std::setw(8) << r.epochs_run << std::setw(12) << std::setprecision(4) << r.validation_loss << std::setw(10)
        << r.test_l1 << std::setw(10) << r.test_lc << (paper >= 0 ? std::to_string(paper).substr(0, 5) : "-") << '\n';
    return out.str();
}

}  // namespace brec
