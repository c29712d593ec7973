// I²-GNN as a counting regressor (attack/regressor with nn/models/i2_gnn.cpp): its subgraph depth is
// the pattern's diameter, and a trained regressor saves and loads with the same predictions.
#include <gtest/gtest.h>

#include <filesystem>

#include "brec/attack/regressor.hpp"
#include "brec/gen/count_dataset.hpp"
#include "brec/io/files.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

namespace fs = std::filesystem;

TEST(I2GnnRegressor, IsACountingModelWhoseDepthIsThePatternDiameter) {
    for (const std::string m : {"gin", "ppgn", "i2_gnn"}) EXPECT_TRUE(is_counting_model(m)) << m;
    EXPECT_FALSE(is_counting_model("ngnn"));
    EXPECT_FALSE(is_counting_model("nope"));
    EXPECT_EQ(counting_model_list(), "gin, ppgn or i2_gnn");
    EXPECT_EQ(testing::error_of([] { check_counting_model("sun"); }),
              "--model sun: counting regressors are gin, ppgn or i2_gnn");
    // Campi et al.'s settings: PPGN trains on lc, the others on L1; Table 3's triangle errors.
    EXPECT_EQ(default_regression_loss("ppgn"), RegressionLoss::lc);
    EXPECT_EQ(default_regression_loss("gin"), RegressionLoss::l1);
    EXPECT_EQ(default_regression_loss("i2_gnn"), RegressionLoss::l1);
    EXPECT_EQ(paper_test_l1("ppgn", Pattern::triangle), 0.014);
    EXPECT_EQ(paper_test_l1("gin", Pattern::triangle), 2.6);
    EXPECT_EQ(paper_test_l1("i2_gnn", Pattern::triangle), 0.0069);
    EXPECT_LT(paper_test_l1("gin", Pattern::cycle4), 0.0);
    RegressorSettings s;
    s.model = "i2_gnn";
    s.pattern = Pattern::triangle;
    EXPECT_EQ(s.config().radius, 1);
    s.pattern = Pattern::cycle4;
    EXPECT_EQ(s.config().radius, 2);
    s.pattern = Pattern::path3;
    EXPECT_EQ(s.config().radius, 3);
    s.model = "gin";
    EXPECT_EQ(s.config().radius, 0);
    EXPECT_EQ(default_regression_loss("i2_gnn"), RegressionLoss::l1);
    EXPECT_DOUBLE_EQ(paper_test_l1("i2_gnn", Pattern::triangle), 0.0069);
}

TEST(I2GnnRegressor, TrainsSavesAndLoadsWithTheSamePredictions) {
    RunContext ctx;
    CountDatasetOptions o;
    o.set_kind("sbm").set_seed(2).set_graphs(60);
    const auto dir = testing::temp_path("i2_gnn_regressor", "data");
    const auto models = testing::temp_path("i2_gnn_regressor", "models");
    fs::remove_all(dir);
    fs::remove_all(models);
    write_count_dataset(generate_count_dataset(o, ctx), dir);
    const CountingData data = read_counting_data(dir);
    RegressorSettings s;
    s.model = "i2_gnn";
    s.pattern = Pattern::triangle;
    s.epochs = 3;
    s.layers = 2;
    s.hidden = 16;
    s.max_train = 16;
    s.max_validation = 8;
    s.max_test = 8;
    const Regressor r = train_regressor(data, s, ctx);
    EXPECT_TRUE(std::isfinite(r.test_l1));
    save_regressor(r, models);
    const Regressor loaded = load_regressor(regressor_path(models, s));
    std::vector<Graph> test;
    for (std::size_t i = 0; i < 4; ++i) test.push_back(data.graphs[data.test[i]]);
    EXPECT_EQ(predict_counts(*r.model, test), predict_counts(*loaded.model, test));
    fs::remove_all(dir);
    fs::remove_all(models);
}

}  // namespace
}  // namespace brec
