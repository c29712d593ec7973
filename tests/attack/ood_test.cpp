// The out-of-distribution experiment: head-only retraining leaves the rest of the model as loaded,
// evaluation errors match a hand computation, and the whole experiment (library and command line)
// writes every setting, resumes without retraining and rejects bad input before writing anything.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "brec/attack/ood.hpp"
#include "brec/attack/regressor.hpp"
#include "brec/gen/count_dataset.hpp"
#include "brec/nn/registry.hpp"
#include "brec/io/files.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

namespace fs = std::filesystem;

/// Tiny ER datasets (in and out of distribution) shared by every test of this file.
class Ood : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        in_ = new std::string(testing::temp_path("ood", "er04"));
        ood_ = new std::string(testing::temp_path("ood", "er08"));
        RunContext ctx;
        for (const auto& [kind, dir] : {std::pair<std::string, std::string>{"er", *in_}, {"er-ood", *ood_}}) {
            fs::remove_all(dir);
            CountDatasetOptions o;
            o.set_kind(kind).set_seed(5).set_graphs(60);
            write_count_dataset(generate_count_dataset(o, ctx), dir);
        }
    }
    static void TearDownTestSuite() {
        fs::remove_all(*in_);
        fs::remove_all(*ood_);
        delete in_;
        delete ood_;
    }
    static RegressorSettings small(const std::string& model) {
        RegressorSettings s;
        s.model = model;
        s.epochs = 3;
        s.patience = 3;
        s.layers = 2;
        s.hidden = 8;
        s.batch = 8;
        s.lr = 1e-2;
        s.loss = default_regression_loss(model);
        return s;
    }
    static std::string* in_;
    static std::string* ood_;
};
std::string* Ood::in_ = nullptr;
std::string* Ood::ood_ = nullptr;

/// Every parameter and buffer, by name, copied.
std::map<std::string, torch::Tensor> state_of(torch::nn::Module& m) {
    std::map<std::string, torch::Tensor> out;
    for (const auto& p : m.named_parameters()) out["p:" + p.key()] = p.value().detach().clone();
    for (const auto& b : m.named_buffers()) out["b:" + b.key()] = b.value().detach().clone();
    return out;
}

TEST_F(Ood, HeadOnlyRetrainingChangesOnlyTheHead) {
    RunContext ctx;
    const CountingData in = read_counting_data(*in_), ood = read_counting_data(*ood_);
    for (const std::string model : {"gin", "ppgn", "i2_gnn"}) {
        SCOPED_TRACE(model);
        const RegressorSettings s = small(model);
        const Regressor base = train_regressor(in, s, ctx);
        const auto before = state_of(*base.model);
        RegressorStart start;
        start.from = &base;
        start.head_only = true;
        const Regressor head = train_regressor(ood, s, ctx, start);
        EXPECT_TRUE(head.head_only);
        const auto after = state_of(*head.model);
        ASSERT_EQ(before.size(), after.size());
        std::size_t head_tensors = 0, head_changed = 0, body_tensors = 0;
        for (const auto& [name, t] : before) {
            const bool in_head = is_regression_head(*base.model, name.substr(2));
            if (in_head) {
                ++head_tensors;
                head_changed += torch::equal(t, after.at(name)) ? 0 : 1;
            } else {
                ++body_tensors;
                EXPECT_TRUE(torch::equal(t, after.at(name))) << name << " changed";
            }
        }
        EXPECT_GT(head_tensors, 0u);
        EXPECT_GT(body_tensors, 0u);
        EXPECT_GT(head_changed, 0u) << "the head did not train";
        // The loaded model itself is untouched.
        for (const auto& [name, t] : state_of(*base.model)) EXPECT_TRUE(torch::equal(t, before.at(name))) << name;
    }
}

TEST_F(Ood, StartFromAnotherArchitectureOrHeadOnlyWithoutAModelIsRejected) {
    RunContext ctx;
    const CountingData in = read_counting_data(*in_);
    RegressorSettings s = small("gin");
    s.epochs = 1;
    const Regressor base = train_regressor(in, s, ctx);
    RegressorStart start;
    start.head_only = true;
    EXPECT_THROW(train_regressor(in, s, ctx, start), InvalidArgument);
    start.from = &base;
    RegressorSettings wider = s;
    wider.hidden = 16;
    EXPECT_THROW(train_regressor(in, wider, ctx, start), InvalidArgument);
}

TEST(RegressionHead, IsTheFinalMlpOfEachCountingModel) {
    ModelConfig c;
    c.head = Head::regression;
    c.layers = 2;
    c.hidden = 8;
    c.radius = 1;
    ModelRandom random = make_model_random(1, torch::kCPU);
    // Parameters in the head, by hand: gin and ppgn final_mlp = Linear(k, 4) + Linear(4, 1) with
    // k = 8 + 4 (gin: the two layers' widths) and 2 (8 + 4) (ppgn: diagonal and off-diagonal sums);
    // i2_gnn fc1 Linear(8, 32) + fc2 Linear(32, 16) + fc3 Linear(16, 1).
    const std::map<std::string, std::int64_t> expected{
        {"gin", 12 * 4 + 4 + 4 + 1}, {"ppgn", 24 * 4 + 4 + 4 + 1}, {"i2_gnn", 8 * 32 + 32 + 32 * 16 + 16 + 16 + 1}};
    for (const auto& [name, count] : expected) {
        SCOPED_TRACE(name);
        const auto model = make_model(name, c, random);
        std::int64_t in_head = 0;
        for (const auto& p : model->named_parameters())
            if (is_regression_head(*model, p.key())) in_head += p.value().numel();
        EXPECT_EQ(in_head, count);
    }
    const auto gin = make_model("gin", c, random);
    EXPECT_TRUE(is_regression_head(*gin, "final_mlp.2.bias"));
    EXPECT_FALSE(is_regression_head(*gin, "conv1_1.weight"));
    EXPECT_FALSE(is_regression_head(*gin, "eps0"));
    // A model built for embeddings declares no head.
    c.head = Head::embedding;
    const auto embedding = make_model("gin", c, random);
    EXPECT_TRUE(embedding->regression_head().empty());
    EXPECT_FALSE(is_regression_head(*embedding, "head.weight"));
}

TEST_F(Ood, EvaluationMatchesTheErrorsOfTheModelsOwnOutputs) {
    RunContext ctx;
    const CountingData in = read_counting_data(*in_), ood = read_counting_data(*ood_);
    const Regressor r = train_regressor(in, small("gin"), ctx);
    const std::vector<std::size_t> ids(ood.test.begin(), ood.test.begin() + 5);
    // By hand: one forward pass over the five graphs, errors summed here.
    std::vector<Graph> graphs;
    for (auto i : ids) graphs.push_back(ood.graphs[i]);
    torch::NoGradGuard no_grad;
    r.model->eval();
    r.model->set_graphs(graphs, torch::kCPU);
    const auto out = r.model->forward_range(0, graphs.size()).reshape({-1});
    double l1 = 0.0, lc = 0.0, mean = 0.0;
    for (std::size_t k = 0; k < ids.size(); ++k) {
        const double y = static_cast<double>(ood.counts[ids[k]][static_cast<std::size_t>(Pattern::triangle)]);
        const double e = std::abs(out[static_cast<long>(k)].item<double>() - y);
        l1 += e / 5.0;
        lc += e / (y + 1.0) / 5.0;
        mean += y / 5.0;
    }
    const RegressorError e = evaluate_regressor(*r.model, ood, ids, Pattern::triangle);
    EXPECT_EQ(e.graphs, 5u);
    EXPECT_NEAR(e.l1, l1, 1e-5 * (1.0 + l1));
    EXPECT_NEAR(e.lc, lc, 1e-5 * (1.0 + lc));
    EXPECT_NEAR(e.mean_count, mean, 1e-12);
    EXPECT_GT(e.l1, 0.0);
}

std::map<std::string, fs::file_time_type> mtimes(const std::string& dir) {
    std::map<std::string, fs::file_time_type> out;
    for (const auto& f : fs::recursive_directory_iterator(dir))
        if (f.is_regular_file() && f.path().extension() != ".jsonl" && f.path().extension() != ".csv")
            out[f.path().string()] = f.last_write_time();
    return out;
}

std::vector<std::string> sorted_lines(const std::string& path) {
    auto lines = split_lines(read_text_file(path));
    lines.erase(std::remove(lines.begin(), lines.end(), std::string()), lines.end());
    std::sort(lines.begin(), lines.end());
    return lines;
}

TEST_F(Ood, ExperimentWritesEverySettingAndResumesWithoutRetraining) {
    RunContext ctx;
    ctx.set_log([](LogLevel, const std::string&) {}, LogLevel::off);
    OodRequest r;
    r.in = *in_;
    r.ood = *ood_;
    r.out = testing::temp_path("ood", "run");
    fs::remove_all(r.out);
    r.settings = small("gin");
    r.patterns = {Pattern::triangle};
    r.seeds = {0, 1};
    const OodResult result = run_ood(r, ctx);
    const auto rows = sorted_lines(r.out + "/ood.jsonl");
    ASSERT_EQ(rows.size(), 8u);
    std::map<std::string, int> per_setting;
    for (const auto& line : rows) {
        const auto j = nlohmann::json::parse(line);
        ++per_setting[j.at("setting").get<std::string>()];
        EXPECT_GE(j.at("l1").get<double>(), 0.0);
        EXPECT_TRUE(file_exists(j.at("model_file").get<std::string>()));
    }
    for (const auto& s : ood_settings()) EXPECT_EQ(per_setting[s], 2) << s;
    EXPECT_EQ(result.rows.size(), 8u);
    EXPECT_NE(ood_run_text(result, r).find("ood_head"), std::string::npos) << ood_run_text(result, r);
    const auto csv = split_lines(result.report_rows);
    EXPECT_EQ(csv[0], "task,model,seed,value,direction");
    EXPECT_NE(std::find_if(csv.begin(), csv.end(),
                           [](const std::string& l) { return l.rfind("triangle/ood_head_lc,gin,1,", 0) == 0; }),
              csv.end());
    const auto head = load_regressor(r.out + "/head/gin_triangle_seed1.json");
    EXPECT_TRUE(head.head_only);
    EXPECT_EQ(head.init_from, r.out + "/in/gin_triangle_seed1.json");

    // Without --resume nothing is overwritten; with it, nothing is retrained and the rows stay.
    EXPECT_THROW(run_ood(r, ctx), InvalidArgument);
    const auto files = mtimes(r.out);
    EXPECT_EQ(files.size(), 12u);  // 3 directories x 2 seeds x (.pt, .json)
    r.resume = true;
    run_ood(r, ctx);
    EXPECT_EQ(mtimes(r.out), files);
    EXPECT_EQ(sorted_lines(r.out + "/ood.jsonl"), rows);

    // A row lost (cut short by a kill) is measured again from the saved models, identically.
    auto kept = read_text_file(r.out + "/ood.jsonl");
    const auto cut = kept.rfind('\n', kept.size() - 2);
    write_text_file_atomic(r.out + "/ood.jsonl", kept.substr(0, cut + 1) + "{\"model\":\"gin\",\"pat");
    run_ood(r, ctx);
    EXPECT_EQ(mtimes(r.out), files);
    EXPECT_EQ(sorted_lines(r.out + "/ood.jsonl"), rows);

    // Resuming with other training settings is refused before anything changes.
    r.settings.hidden = 16;
    EXPECT_THROW(run_ood(r, ctx), InvalidArgument);
    EXPECT_EQ(sorted_lines(r.out + "/ood.jsonl"), rows);
    fs::remove_all(r.out);
}

TEST_F(Ood, BadInputFailsBeforeWritingAnything) {
    RunContext ctx;
    OodRequest r;
    r.in = *in_;
    r.ood = *ood_;
    r.out = testing::temp_path("ood", "bad");
    fs::remove_all(r.out);
    r.settings = small("gin");
    r.patterns = {Pattern::triangle};
    r.seeds = {0};
    OodRequest missing = r;
    missing.ood = r.out + "_nowhere";
    EXPECT_THROW(run_ood(missing, ctx), IoError);
    OodRequest same_kind = r;
    same_kind.ood = *in_ + "/";
    EXPECT_THROW(run_ood(same_kind, ctx), InvalidArgument);
    OodRequest swapped = r;
    std::swap(swapped.in, swapped.ood);
    EXPECT_THROW(run_ood(swapped, ctx), InvalidArgument);
    OodRequest no_models = r;
    no_models.in_models = r.out + "_models";
    EXPECT_THROW(run_ood(no_models, ctx), IoError);
    OodRequest wrong_model = r;
    wrong_model.settings.model = "sswl_p";
    EXPECT_THROW(run_ood(wrong_model, ctx), InvalidArgument);
    EXPECT_FALSE(fs::exists(r.out));
}

struct Exit {
    int code = -1;
    std::string err;
};

Exit run_brec(const std::string& args) {
    const std::string err = testing::temp_path("ood", "stderr.txt");
    const int status = std::system((std::string(BREC_BINARY) + " " + args + " >/dev/null 2>" + err).c_str());
    Exit e;
    e.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    e.err = file_exists(err) ? read_text_file(err) : "";
    return e;
}

TEST_F(Ood, CommandLineRejectsBadInputWithOneLineAndRunsTheExperiment) {
    const std::string out = testing::temp_path("ood", "cli");
    fs::remove_all(out);
    const std::string base = "attack ood --in " + *in_ + " --ood " + *ood_ + " --out " + out;
    for (const std::string bad : {" --pattern hexagon", " --model sswl_p", " --seeds x"}) {
        const Exit e = run_brec(base + bad);
        EXPECT_EQ(e.code, 2) << bad << ": " << e.err;
        EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << e.err;
    }
    const Exit missing = run_brec("attack ood --in " + out + "_none --ood " + *ood_ + " --out " + out);
    EXPECT_EQ(missing.code, 2) << missing.err;
    EXPECT_NE(missing.err.find(out + "_none"), std::string::npos) << missing.err;
    EXPECT_FALSE(fs::exists(out));
    const std::string run = base + " --seeds 0 --epochs 2 --layers 2 --hidden 8 --quiet";
    ASSERT_EQ(run_brec(run).code, 0);
    EXPECT_EQ(sorted_lines(out + "/ood.jsonl").size(), 4u);
    EXPECT_EQ(run_brec(run).code, 2);  // exists, no --resume
    EXPECT_EQ(run_brec(run + " --resume").code, 0);
    const Exit help = run_brec("attack ood --help");
    EXPECT_EQ(help.code, 0);
    fs::remove_all(out);
}

}  // namespace
}  // namespace brec
