// Attacks on hand-made predictors whose best flip is known, and the run over trained regressors:
// spaces respected, budgets cumulative, results independent of --jobs, resume, bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "brec/attack/attack.hpp"
#include "brec/attack/regressor.hpp"
#include "brec/count/flip.hpp"
#include "brec/gen/count_dataset.hpp"
#include "brec/io/files.hpp"
#include "brec/nn/registry.hpp"
#include "common/result_lines.hpp"
#include "common/test_util.hpp"
#include "nn/cuda_check.hpp"

namespace brec {
namespace {

namespace fs = std::filesystem;

std::int64_t triangles(const Graph& g) {
    return static_cast<std::int64_t>(count_patterns(g, 3, false).total[static_cast<std::size_t>(Pattern::triangle)]);
}

/// The exact triangle count, plus `bonus` when the graph has the edge {a, b}.
CountPredictor exact_plus_edge(VertexId a, VertexId b, double bonus) {
    return [=](const std::vector<Graph>& gs) {
        std::vector<double> out;
        for (const auto& g : gs) out.push_back(static_cast<double>(triangles(g)) + (g.has_edge(a, b) ? bonus : 0.0));
        return out;
    };
}

/// 10 x the triangle count plus the edge count: the error grows fastest by creating triangles.
CountPredictor triangle_hungry() {
    return [](const std::vector<Graph>& gs) {
        std::vector<double> out;
        for (const auto& g : gs) out.push_back(10.0 * static_cast<double>(triangles(g)) + static_cast<double>(g.m()));
        return out;
    };
}

TEST(AttackSearch, GreedyFindsTheOneFlipThatFoolsTheModel) {
    const Graph g = make_path(6);  // 0-1-2-3-4-5, no triangle
    AttackSettings s;
    s.budgets = {1, 4};
    const auto r = attack_graph(g, exact_plus_edge(0, 5, 5.0), s, 7);
    EXPECT_EQ(r.loss, 0.0);
    ASSERT_EQ(r.stages.size(), 2u);
    ASSERT_EQ(r.stages[0].flips.size(), 1u);
    EXPECT_EQ(r.stages[0].flips[0], std::make_pair(VertexId{0}, VertexId{5}));
    EXPECT_DOUBLE_EQ(r.stages[0].loss, 5.0);
    EXPECT_TRUE(r.stages[0].success);
    // No other flip raises the error further: the greedy search keeps the graph.
    EXPECT_EQ(r.stages[1].flips.size(), 1u);
    EXPECT_EQ(r.stages[1].budget, 5);
}

TEST(AttackSearch, BeamFindsTheCountPreservingFlip) {
    const Graph g = make_path(6);
    for (auto space : {PerturbationSpace::count_preserving, PerturbationSpace::subgraph_preserving}) {
        AttackSettings s;
        s.space = space;
        s.budgets = {1};
        const auto r = attack_graph(g, exact_plus_edge(0, 5, 5.0), s, 1);
        ASSERT_EQ(r.stages[0].flips.size(), 1u);
        EXPECT_EQ(r.stages[0].flips[0], std::make_pair(VertexId{0}, VertexId{5}));
        EXPECT_TRUE(r.stages[0].success);
    }
}

TEST(AttackSearch, NoSuccessWhenTheModelIsExact) {
    AttackSettings s;
    s.budgets = {1, 2};
    const auto r = attack_graph(make_cycle(7), exact_plus_edge(0, 0 + 1, 0.0), s, 3);
    for (const auto& st : r.stages) EXPECT_FALSE(st.success);
}

/// Replays the flips of every stage and checks each against the space in the graph it was made in.
void expect_admissible(const Graph& g, const GraphAttackResult& r, const AttackSettings& s) {
    FlipWorkspace ws;
    for (const auto& st : r.stages) {
        Graph cur = g;
        std::int64_t count = triangles(g);
        for (const auto& [u, v] : st.flips) {
            const auto a = flip_admissibility(cur, u, v, s.pattern, ws);
            if (s.space == PerturbationSpace::count_preserving) {
                EXPECT_TRUE(a.count_preserving);
            }
            if (s.space == PerturbationSpace::subgraph_preserving) {
                EXPECT_TRUE(a.subgraph_preserving);
            }
            cur = flip_edge(cur, u, v);
            count += a.delta;
        }
        EXPECT_EQ(count, triangles(cur));
        EXPECT_EQ(st.count, count);  // the incremental count is exact
    }
}

TEST(AttackSearch, RestrictedSpacesAreRespectedAtEveryStep) {
    Rng rng(5);
    for (int trial = 0; trial < 3; ++trial) {
        const Graph g = draw_count_dataset_graph("er", rng);
        for (auto space : {PerturbationSpace::count_preserving, PerturbationSpace::subgraph_preserving}) {
            for (auto search : {SearchMethod::greedy, SearchMethod::beam}) {
                AttackSettings s;
                s.space = space;
                s.search = search;
                s.budgets = {1, 2, 2};
                s.beam_width = 3;
                const auto r = attack_graph(g, triangle_hungry(), s, static_cast<std::uint64_t>(trial));
                expect_admissible(g, r, s);
            }
        }
        AttackSettings any;
        any.budgets = {1, 2, 3};
        const auto r = attack_graph(g, triangle_hungry(), any, 11);
        expect_admissible(g, r, any);
    }
}

TEST(AttackSearch, BudgetsAreCumulative) {
    Rng rng(9);
    const Graph g = draw_count_dataset_graph("sbm", rng);
    AttackSettings s;
    s.budgets = {1, 4, 7};
    const auto r = attack_graph(g, triangle_hungry(), s, 4);
    ASSERT_EQ(r.stages.size(), 3u);
    EXPECT_EQ(r.stages[0].budget, 1);
    EXPECT_EQ(r.stages[1].budget, 5);
    EXPECT_EQ(r.stages[2].budget, 12);
    for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_LE(static_cast<int>(r.stages[k].flips.size()), r.stages[k].budget);
        if (k > 0) {
            EXPECT_GE(r.stages[k].loss, r.stages[k - 1].loss);
            // Each stage continues from the previous one's graph.
            const auto& prev = r.stages[k - 1].flips;
            ASSERT_GE(r.stages[k].flips.size(), prev.size());
            EXPECT_TRUE(std::equal(prev.begin(), prev.end(), r.stages[k].flips.begin()));
        }
    }
    // Creating triangles pays: the greedy search uses more than the first flip.
    EXPECT_GT(r.stages[2].flips.size(), 4u);
    // The same stream gives the same attack.
    const auto again = attack_graph(g, triangle_hungry(), s, 4);
    EXPECT_EQ(again.stages[2].flips, r.stages[2].flips);
}

TEST(AttackSearch, TheObjectiveChoosesTheFlip) {
    // On the path 0-1-2-3-4-5 the predictor adds 3 when edge {0, 2} is there (which closes one
    // triangle: error 3, lc 3 / 2) and 2 when {0, 5} is (no triangle: error 2, lc 2 / 1). The L1
    // objective takes the first flip, lc the second; success is judged on |f - C| for both.
    const Graph g = make_path(6);
    const CountPredictor predict = [](const std::vector<Graph>& gs) {
        std::vector<double> out;
        for (const auto& x : gs)
            out.push_back(static_cast<double>(triangles(x)) + (x.has_edge(0, 2) ? 3.0 : 0.0) +
                          (x.has_edge(0, 5) ? 2.0 : 0.0));
        return out;
    };
    AttackSettings s;
    s.budgets = {1};
    const auto l1 = attack_graph(g, predict, s, 7);
    ASSERT_EQ(l1.stages[0].flips.size(), 1u);
    EXPECT_EQ(l1.stages[0].flips[0], std::make_pair(VertexId{0}, VertexId{2}));
    EXPECT_DOUBLE_EQ(l1.stages[0].loss, 3.0);
    s.objective = RegressionLoss::lc;
    const auto lc = attack_graph(g, predict, s, 7);
    ASSERT_EQ(lc.stages[0].flips.size(), 1u);
    EXPECT_EQ(lc.stages[0].flips[0], std::make_pair(VertexId{0}, VertexId{5}));
    EXPECT_DOUBLE_EQ(lc.stages[0].loss, 2.0);  // the reported error stays |f - C|
    EXPECT_TRUE(lc.stages[0].success);
}

TEST(AttackSearch, SuccessRule) {
    AttackSettings s;
    EXPECT_TRUE(is_adversarial(0.0, 0.6, s));
    EXPECT_FALSE(is_adversarial(0.0, 0.4, s));
    EXPECT_FALSE(is_adversarial(0.3, 0.55, s));  // error not doubled
    EXPECT_TRUE(is_adversarial(0.3, 0.61, s));
    EXPECT_NEAR(attack_auc({1, 1, 1, 1}), 1.0, 1e-12);
    EXPECT_NEAR(attack_auc({0, 0, 0, 0}), 0.0, 1e-12);
}

/// A counting dataset of `graphs` graphs of `kind` (seed `seed`), written to the directory `dir`
/// (emptied first) and read back.
CountingData make_count_data(const std::string& dir, const std::string& kind, std::uint64_t seed, std::size_t graphs) {
    RunContext ctx;
    CountDatasetOptions o;
    o.set_kind(kind).set_seed(seed).set_graphs(graphs);
    fs::remove_all(dir);
    write_count_dataset(generate_count_dataset(o, ctx), dir);
    return read_counting_data(dir);
}

/// A GIN regressor small and short enough to train in a second: 2 layers of width 16, `epochs`
/// epochs on 40 training and 20 validation graphs.
RegressorSettings tiny_regressor(std::uint64_t seed, int epochs) {
    RegressorSettings s;
    s.seed = seed;
    s.epochs = epochs;
    s.layers = 2;
    s.hidden = 16;
    s.max_train = 40;
    s.max_validation = 20;
    return s;
}

/// A small SBM dataset with two quickly trained GIN regressors, shared by the run tests.
class AttackRun : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = new std::string(testing::temp_path("attack", "data"));
        models_ = new std::string(testing::temp_path("attack", "models"));
        fs::remove_all(*dir_);
        fs::remove_all(*models_);
        RunContext ctx;
        CountDatasetOptions o;
        o.set_kind("sbm").set_seed(3).set_graphs(200);
        write_count_dataset(generate_count_dataset(o, ctx), *dir_);
        const CountingData data = read_counting_data(*dir_);
        for (std::uint64_t seed : {0, 1}) save_regressor(train_regressor(data, tiny_regressor(seed, 4), ctx), *models_);
    }
    static void TearDownTestSuite() {
        fs::remove_all(*dir_);
        fs::remove_all(*models_);
        delete dir_;
        delete models_;
    }
    AttackRunOptions options(const std::string& out, int jobs) const {
        AttackRunOptions o;
        o.data = *dir_;
        o.models = *models_;
        o.seeds = {0, 1};
        o.graphs = 3;
        o.attack.budgets = {1, 2};
        o.attack.sample_edges = 10;
        // The quickly trained models count badly: accept every test graph.
        o.attack.tolerance = 1e9;
        o.out = out;
        o.jobs = jobs;
        return o;
    }
    static std::vector<std::string> sorted_lines(const std::string& path) {
        auto lines = testing::result_lines(path);
        std::sort(lines.begin(), lines.end());
        return lines;
    }
    static std::string* dir_;
    static std::string* models_;
};
std::string* AttackRun::dir_ = nullptr;
std::string* AttackRun::models_ = nullptr;

TEST_F(AttackRun, JobsNeverChangeTheResultAndResumeCompletesARun) {
    RunContext ctx;
    const auto one = testing::fresh_temp_file("attack", "one.jsonl");
    const auto two = testing::fresh_temp_file("attack", "two.jsonl");
    const AttackRunResult a = run_attack(options(one, 1), ctx);
    const AttackRunResult b = run_attack(options(two, 2), ctx);
    EXPECT_EQ(sorted_lines(one).size(), 6u);
    EXPECT_EQ(sorted_lines(one), sorted_lines(two));
    // The summary and report rows (2 seeds x 2 budgets) are the run's result; the command writes them.
    EXPECT_EQ(a.report_rows, b.report_rows);
    EXPECT_EQ(std::count(a.report_rows.begin(), a.report_rows.end(), '\n'), 5) << a.report_rows;
    EXPECT_EQ(a.report_rows.rfind("task,model,seed,value,direction\n", 0), 0u);
    EXPECT_EQ(a.summary["stages"].size(), 2u);
    EXPECT_FALSE(file_exists(one + ".summary.json")) << "the library writes the records only";
    // What the command writes beside them: the summary, the report rows, and the figure of the
    // success rate with one point per budget.
    write_attack_outputs(a, options(one, 1));
    EXPECT_EQ(nlohmann::ordered_json::parse(read_text_file(one + ".summary.json")), a.summary);
    EXPECT_EQ(read_text_file(one + ".csv"), a.report_rows);
    const std::string svg = read_text_file(one + ".svg");
    EXPECT_EQ(svg.rfind("<svg", 0), 0u) << svg.substr(0, 80);
    EXPECT_NE(svg.find("gin / any"), std::string::npos);
    EXPECT_NE(svg.find("Attack success, triangle"), std::string::npos);

    // A run cut short (one graph), then resumed with all three: the same records.
    const auto part = testing::fresh_temp_file("attack", "part.jsonl");
    auto o = options(part, 2);
    o.graphs = 1;
    run_attack(o, ctx);
    EXPECT_EQ(sorted_lines(part).size(), 2u);
    o.graphs = 3;
    EXPECT_NE(testing::error_of([&] { run_attack(o, ctx); }).find("already holds results"), std::string::npos);
    o.resume = true;
    const auto r = run_attack(o, ctx);
    EXPECT_EQ(r.resumed, 2u);
    EXPECT_EQ(r.tasks, 4u);
    EXPECT_EQ(sorted_lines(part), sorted_lines(one));
    // Other settings are refused on resume.
    o.attack.budgets = {1, 3};
    EXPECT_NE(testing::error_of([&] { run_attack(o, ctx); }).find("other settings"), std::string::npos);
}

TEST_F(AttackRun, TheObjectiveIsTheRegressorsTrainingLossUnlessGiven) {
    RunContext ctx;
    // The fixture's GIN regressors trained with L1: the objective is L1, and the settings id is
    // that of runs made before the objective was a setting.
    const auto l1 = testing::fresh_temp_file("attack", "objective_l1.jsonl");
    const auto a = run_attack(options(l1, 1), ctx);
    EXPECT_EQ(a.summary["objective"], "l1");
    EXPECT_EQ(testing::result_lines(l1).front().find("objective"), std::string::npos);
    // Asked for lc: another setting, recorded in the id.
    const auto lc = testing::fresh_temp_file("attack", "objective_lc.jsonl");
    auto o = options(lc, 1);
    o.objective_from_models = false;
    o.attack.objective = RegressionLoss::lc;
    EXPECT_EQ(run_attack(o, ctx).summary["objective"], "lc");
    EXPECT_NE(testing::result_lines(lc).front().find("objective-lc"), std::string::npos);
    // Regressors of one run trained with different losses: the objective must be given.
    const std::string mixed = testing::temp_path("attack", "mixed_models");
    fs::remove_all(mixed);
    fs::create_directories(mixed);
    for (std::uint64_t seed : {0, 1}) {
        RegressorSettings s = tiny_regressor(seed, 1);
        s.loss = seed == 0 ? RegressionLoss::l1 : RegressionLoss::lc;
        save_regressor(train_regressor(read_counting_data(*dir_), s, ctx), mixed);
    }
    o = options(testing::fresh_temp_file("attack", "objective_mixed.jsonl"), 1);
    o.models = mixed;
    EXPECT_NE(testing::error_of([&] { run_attack(o, ctx); }).find("give the objective"), std::string::npos);
    o.objective_from_models = false;
    EXPECT_NO_THROW(run_attack(o, ctx));
}

TEST_F(AttackRun, ResumeAfterAKillMidRecordGivesTheUninterruptedRecords) {
    RunContext ctx;
    const auto whole = testing::fresh_temp_file("attack", "whole.jsonl");
    run_attack(options(whole, 1), ctx);
    const std::string text = read_text_file(whole);
    const auto lines = split_lines(text);
    ASSERT_EQ(lines.size(), 6u);
    // What a SIGKILL leaves: two records, then the third without its newline (the stream writes
    // a long record and its newline separately) or cut in the middle.
    const std::size_t two = lines[0].size() + lines[1].size() + 2;
    for (const std::string& tail : {lines[2], lines[2].substr(0, lines[2].size() / 2)}) {
        const auto cut = testing::fresh_temp_file("attack", "cut.jsonl");
        write_text_file_atomic(cut, text.substr(0, two) + tail);
        auto o = options(cut, 1);
        o.resume = true;
        run_attack(o, ctx);
        EXPECT_EQ(read_text_file(cut), text) << "tail of " << tail.size() << " bytes: every record once, whole";
    }
}

TEST_F(AttackRun, BadInputFailsBeforeWritingAnything) {
    RunContext ctx;
    const auto out = testing::fresh_temp_file("attack", "bad.jsonl");
    auto o = options(out, 1);
    o.seeds = {0, 7};  // no model for seed 7
    EXPECT_NE(testing::error_of([&] { run_attack(o, ctx); }).find("seed 7"), std::string::npos);
    EXPECT_FALSE(file_exists(out));
    o = options(out, 1);
    o.data = *dir_ + "_missing";
    EXPECT_THROW(run_attack(o, ctx), IoError);
    EXPECT_FALSE(file_exists(out));
    o = options(out, 1);
    o.attack.budgets = {0};
    EXPECT_THROW(run_attack(o, ctx), InvalidArgument);
    EXPECT_FALSE(file_exists(out));
}

TEST_F(AttackRun, SavedRegressorLoadsWithTheSamePredictions) {
    const CountingData data = read_counting_data(*dir_);
    RegressorSettings s;
    s.seed = 1;
    const auto r = load_regressor(regressor_path(*models_, s));
    EXPECT_EQ(r.settings.layers, 2);
    EXPECT_EQ(r.settings.hidden, 16);
    std::vector<Graph> test;
    for (std::size_t i = 0; i < 5; ++i) test.push_back(data.graphs[data.test[i]]);
    const auto a = predict_counts(*r.model, test);
    const auto b = predict_counts(*load_regressor(regressor_path(*models_, s)).model, test);
    EXPECT_EQ(a, b);
}

TEST_F(AttackRun, ResumedTrainingKeepsOnlyModelsTrainedAsAsked) {
    RegressorTrainRequest request;
    request.data = *dir_;
    request.out = *models_;
    request.settings = tiny_regressor(0, 4);
    request.patterns = {Pattern::triangle};
    request.seeds = {0, 1};
    request.resume = true;
    request.device = "cpu";
    RunContext ctx;
    const auto rows = train_regressors(request, ctx);  // both files fit: loaded, nothing trained
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_TRUE(rows[0].loaded && rows[1].loaded);
    EXPECT_EQ(rows[1].settings.seed, 1u);
    EXPECT_EQ(regressor_table_row(rows[1]).rfind("gin       triangle          1     4", 0), 0u)
        << regressor_table_row(rows[1]);
    request.settings.hidden = 32;
    try {
        train_regressors(request, ctx);
        ADD_FAILURE() << "a model file of width 16 was kept for a width-32 run";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("hidden 16, this run asks for 32"), std::string::npos) << e.what();
    }
    request.resume = false;
    request.settings.hidden = 16;
    EXPECT_THROW(train_regressors(request, ctx), InvalidArgument);  // would overwrite
}

TEST_F(AttackRun, ModelFileRecordsItsDevice) {
    RegressorSettings s;
    s.seed = 0;
    const auto j = nlohmann::json::parse(read_text_file(regressor_path(*models_, s)));
    EXPECT_EQ(j.at("device"), "cpu");
}

TEST_F(AttackRun, CudaModelsMatchTheCpuAndTrainTheSameWay) {
    const auto device = testing::cuda_check_device();
    if (!device) GTEST_SKIP() << testing::kNoCudaDevice;
    const CountingData data = read_counting_data(*dir_);
    RegressorSettings s;
    s.seed = 1;
    std::vector<Graph> test;
    for (std::size_t i = 0; i < 20; ++i) test.push_back(data.graphs[data.test[i]]);
    // A model file written on the CPU predicts on CUDA as on the CPU.
    const auto cpu = predict_counts(*load_regressor(regressor_path(*models_, s)).model, test);
    const auto on_cuda = load_regressor(regressor_path(*models_, s), *device);
    EXPECT_EQ(on_cuda.model->parameters().front().device(), *device);
    const auto cuda = predict_counts(*on_cuda.model, test);
    ASSERT_EQ(cuda.size(), cpu.size());
    for (std::size_t i = 0; i < cpu.size(); ++i) EXPECT_NEAR(cuda[i], cpu[i], 1e-4 * (1.0 + std::abs(cpu[i])));
    // One epoch on CUDA starts from the CPU's initial weights and takes the same steps, so it
    // ends within float rounding of the CPU's epoch; its file loads back on the CPU.
    RunContext ctx;
    s = tiny_regressor(7, 1);
    const Regressor a = train_regressor(data, s, ctx);
    const Regressor b = train_regressor(data, s, ctx, {}, *device);
    EXPECT_NEAR(b.validation_l1, a.validation_l1, 1e-3 * (1.0 + a.validation_l1));
    const auto dir = testing::temp_path("attack", "cuda_models");
    fs::remove_all(dir);
    save_regressor(b, dir);
    EXPECT_EQ(nlohmann::json::parse(read_text_file(regressor_path(dir, s))).at("device"), device->str());
    const auto back = predict_counts(*load_regressor(regressor_path(dir, s)).model, test);
    const auto there = predict_counts(*b.model, test);
    for (std::size_t i = 0; i < back.size(); ++i) EXPECT_NEAR(back[i], there[i], 1e-4 * (1.0 + std::abs(there[i])));
    fs::remove_all(dir);
}

TEST(Regressor, TrainingReducesValidationL1) {
    RunContext ctx;
    const auto dir = testing::temp_path("attack", "train");
    const CountingData data = make_count_data(dir, "sbm", 1, 300);
    RegressorSettings s;
    s.epochs = 25;
    s.patience = 25;
    s.layers = 2;
    s.hidden = 16;
    s.max_train = 90;
    s.max_validation = 40;
    s.max_test = 40;
    const Regressor trained = train_regressor(data, s, ctx);
    // The same architecture and seed, untrained.
    ModelRandom random = make_model_random(stream_seed(s.seed, 0x6d6f64656cULL), torch::kCPU);
    auto fresh = make_model(s.model, s.config(), random);
    std::vector<Graph> val;
    double untrained = 0.0;
    const auto p = static_cast<std::size_t>(s.pattern);
    for (std::size_t i = 0; i < 40; ++i) val.push_back(data.graphs[data.validation[i]]);
    const auto pred = predict_counts(*fresh, val);
    for (std::size_t i = 0; i < 40; ++i)
        untrained += std::abs(pred[i] - static_cast<double>(data.counts[data.validation[i]][p])) / 40.0;
    EXPECT_LT(trained.validation_l1, 0.5 * untrained);
    EXPECT_GT(trained.best_epoch, 1);
    fs::remove_all(dir);
}

TEST(Regressor, TimeLimitStopsAfterAnEpochAndIsRecorded) {
    RunContext ctx;
    const auto dir = testing::temp_path("attack", "time_limit");
    const CountingData data = make_count_data(dir, "er", 2, 40);
    RegressorSettings s;
    s.epochs = 50;
    s.patience = 50;
    s.layers = 2;
    s.hidden = 8;
    s.max_seconds = 1e-9;  // past after the first epoch
    const Regressor r = train_regressor(data, s, ctx);
    EXPECT_TRUE(r.time_limited);
    EXPECT_EQ(r.epochs_run, 1);
    EXPECT_EQ(r.best_epoch, 1);
    save_regressor(r, dir + "/models");
    const Regressor back = load_regressor(regressor_path(dir + "/models", s));
    EXPECT_TRUE(back.time_limited);
    EXPECT_EQ(back.settings.max_seconds, 1e-9);
    // Resuming keeps it under the same limit only: without one, or with another, it would have
    // trained longer.
    const auto path = regressor_path(dir + "/models", s);
    EXPECT_NO_THROW(check_regressor_file(path, s));
    for (const double other : {0.0, 60.0}) {
        RegressorSettings t = s;
        t.max_seconds = other;
        try {
            check_regressor_file(path, t);
            ADD_FAILURE() << "a model stopped at --max-seconds 1e-09 was kept for " << other;
        } catch (const InvalidArgument& e) {
            EXPECT_NE(
                std::string(e.what()).find("stopped at --max-seconds 1e-09 after 1 of 50 epochs; this run asks for " +
                                           std::string(other > 0 ? "--max-seconds 60" : "no time limit")),
                std::string::npos)
                << e.what();
        }
    }
    // Without a limit the JSON carries neither key.
    s.max_seconds = 0.0;
    s.epochs = 2;
    const Regressor full = train_regressor(data, s, ctx);
    EXPECT_FALSE(full.time_limited);
    EXPECT_EQ(full.epochs_run, 2);
    EXPECT_FALSE(regressor_json(full).contains("time_limited"));
    s.max_seconds = -1.0;
    EXPECT_THROW(train_regressor(data, s, ctx), InvalidArgument);
    fs::remove_all(dir);
}

TEST(Regressor, ReaderNamesTheFileAndLine) {
    const auto dir = testing::temp_path("attack", "broken");
    fs::remove_all(dir);
    RunContext ctx;
    CountDatasetOptions o;
    o.set_kind("er").set_seed(1).set_graphs(20);
    write_count_dataset(generate_count_dataset(o, ctx), dir);
    write_text_file_atomic(dir + "/test.txt", "99\n");
    const auto msg = testing::error_of([&] { read_counting_data(dir); });
    EXPECT_NE(msg.find("test.txt:1:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'99'"), std::string::npos) << msg;
    fs::remove_all(dir);
}

}  // namespace
}  // namespace brec
