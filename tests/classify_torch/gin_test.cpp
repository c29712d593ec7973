// Tests of the GIN classifier of `brec classify --model gin`: node features, permutation invariance
// of the graph embedding, a short training run on MUTAG, and the command line end to end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "brec/classify_torch/gin.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/files.hpp"
#include "brec/io/tu.hpp"
#include "brec/nn/model.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

const std::string kMutag = std::string(BREC_SOURCE_DIR) + "/datasets/tu/MUTAG";

Graph star(VertexId leaves) {
    GraphBuilder b(leaves + 1);
    for (VertexId v = 1; v <= leaves; ++v) b.add_edge(0, v);
    return b.build();
}

TEST(GinFeatures, DegreesWithoutLabelsAndOneColumnPerLabel) {
    const std::vector<Graph> plain{star(3), star(1)};
    const NodeFeatureEncoding d = node_feature_encoding(plain);
    EXPECT_FALSE(d.by_label);
    EXPECT_EQ(d.width(), 4);  // degrees 0..3
    EXPECT_EQ(d.columns(plain[0]), (std::vector<std::int64_t>{3, 1, 1, 1}));
    GraphBuilder b(3);
    b.add_edge(0, 1);
    b.set_node_labels({7, -2, 7});
    const std::vector<Graph> labelled{b.build()};
    const NodeFeatureEncoding l = node_feature_encoding(labelled);
    EXPECT_TRUE(l.by_label);
    EXPECT_EQ(l.width(), 2);
    EXPECT_EQ(l.columns(labelled[0]), (std::vector<std::int64_t>{1, 0, 1}));
    EXPECT_THROW(d.columns(star(5)), InvalidArgument);
}

TEST(GinNet, GraphEmbeddingIsInvariantUnderNodePermutations) {
    const TuDataset mutag = read_tu_dataset(kMutag);
    const NodeFeatureEncoding enc = node_feature_encoding(mutag.graphs);
    std::vector<Graph> graphs;
    Rng rng(5);
    for (std::size_t i : {0u, 17u, 101u}) {
        graphs.push_back(mutag.graphs[i]);
        graphs.push_back(permute(mutag.graphs[i], rng.permutation(mutag.graphs[i].n())));
    }
    std::vector<std::vector<std::int64_t>> columns;
    for (const Graph& g : graphs) columns.push_back(enc.columns(g));
    GinClassifierOptions opt;
    torch::Generator gen = make_generator(torch::kCPU, 3);
    GinClassifierNet net(enc.width(), 2, opt, gen);
    // A few training-mode passes so the batch norms carry non-trivial statistics.
    const GinBatch all = make_gin_batch(graphs, columns, enc.width(), {0, 1, 2, 3, 4, 5}, torch::kCPU);
    for (int k = 0; k < 3; ++k) net->forward(all);
    net->eval();
    torch::NoGradGuard no_grad;
    const auto e = net->graph_embedding(all);
    const auto scores = net->forward(all);
    for (int k = 0; k < 3; ++k) {
        EXPECT_TRUE(torch::allclose(e[2 * k], e[2 * k + 1], 1e-4, 1e-4)) << "graph " << k;
        EXPECT_TRUE(torch::allclose(scores[2 * k], scores[2 * k + 1], 1e-4, 1e-4)) << "graph " << k;
    }
    // ... and not constant: different molecules get different embeddings.
    EXPECT_FALSE(torch::allclose(e[0], e[2], 1e-3, 1e-3));
}

TEST(GinTraining, ReducesTheLossAndBeatsTheMajorityClassOnMutag) {
    const TuDataset mutag = read_tu_dataset(kMutag);
    std::vector<std::int64_t> classes;
    for (Label y : mutag.graph_labels) classes.push_back(y > 0 ? 1 : 0);
    Rng rng(stream_seed(0, 0));
    const std::vector<Fold> folds = stratified_folds(mutag.graph_labels, 2, rng);
    GinClassifierOptions opt;
    opt.epochs = 40;
    opt.warmup = 10;
    opt.lr_halving = 20;
    const GinFoldResult r =
        train_gin_fold(mutag.graphs, classes, 2, node_feature_encoding(mutag.graphs), folds[0], opt, 11);
    ASSERT_EQ(r.losses.size(), 40u);
    ASSERT_EQ(r.predictions.size(), folds[0].test.size());
    EXPECT_GE(r.epoch, 10);
    EXPECT_LT(r.losses.back(), 0.7 * r.losses.front());
    std::size_t right = 0, majority = 0;
    for (std::size_t k = 0; k < folds[0].test.size(); ++k) {
        right += r.predictions[k] == classes[folds[0].test[k]];
        majority += classes[folds[0].test[k]] == 1;  // 125 of MUTAG's 188 graphs are positive
    }
    EXPECT_GT(right, majority + 3) << right << " right vs majority " << majority << " of " << folds[0].test.size();
    // Same stream, same result.
    const GinFoldResult again =
        train_gin_fold(mutag.graphs, classes, 2, node_feature_encoding(mutag.graphs), folds[0], opt, 11);
    EXPECT_EQ(again.predictions, r.predictions);
    EXPECT_EQ(again.losses, r.losses);
}

TEST(GinTraining, BadOptionsNameTheFlag) {
    GinClassifierOptions opt;
    opt.warmup = 400;
    EXPECT_NE(testing::error_of([&] { gin_classifier(opt); }).find("--warmup"), std::string::npos);
    opt = {};
    opt.dropout = 1.0;
    EXPECT_NE(testing::error_of([&] { gin_classifier(opt); }).find("--dropout"), std::string::npos);
}

int run_brec(const std::string& args, std::string* err = nullptr) {
    const std::string err_file = testing::fresh_temp_file("classify_torch", "stderr.txt");
    const int rc = std::system((std::string(BREC_BINARY) + " " + args + " > /dev/null 2> " + err_file).c_str());
    if (err) *err = read_text_file(err_file);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(GinCli, MutagTwoFoldsWritesRowsAndResumes) {
    const std::string out = testing::fresh_temp_file("classify_torch", "gin.jsonl");
    const std::string csv = testing::fresh_temp_file("classify_torch", "gin.csv");
    const std::string flags = " --model gin --folds 2 --seeds 0 --epochs 6 --warmup 2 --peering ph,p -q --out " + out;
    ASSERT_EQ(run_brec("classify " + kMutag + flags + " --csv " + csv + " --jobs 2"), 0);
    const auto lines = split_lines(read_text_file(out));
    ASSERT_EQ(lines.size(), 4u);  // 2 folds x {original, clean}
    for (const auto& line : lines) {
        const auto j = nlohmann::json::parse(line);
        EXPECT_EQ(j.at("model"), "gin");
        EXPECT_GE(j.at("fit").at("epoch").get<int>(), 2);
        EXPECT_EQ(j.at("fit").at("features"), "label");
        EXPECT_EQ(j.at("counts").at("test").get<int>(),
                  j.at("counts").at("iso").get<int>() + j.at("counts").at("new").get<int>());
    }
    const std::string rows = read_text_file(csv);
    EXPECT_EQ(rows.rfind("task,model,seed,value\n", 0), 0u);
    for (const char* want : {"MUTAG/acc_test,gin,0,", "MUTAG/acc_new,gin,0,", "MUTAG/acc_test,gin-PH,0,",
                             "MUTAG/acc_test,gin-P,0,", "MUTAG-clean/acc_test,gin,0,"})
        EXPECT_NE(rows.find(want), std::string::npos) << want << "\n" << rows;
    // Resume: nothing is retrained, the rows are the same (a run with --jobs 1 gives the same file).
    const std::string csv2 = testing::fresh_temp_file("classify_torch", "gin2.csv");
    std::string err;
    ASSERT_EQ(run_brec("classify " + kMutag + flags + " --resume --csv " + csv2, &err), 0) << err;
    EXPECT_EQ(read_text_file(csv2), rows);
    const std::string out3 = testing::fresh_temp_file("classify_torch", "gin3.jsonl");
    const std::string csv3 = testing::fresh_temp_file("classify_torch", "gin3.csv");
    ASSERT_EQ(run_brec("classify " + kMutag +
                       " --model gin --folds 2 --seeds 0 --epochs 6 --warmup 2 --peering ph,p -q "
                       "--out " +
                       out3 + " --csv " + csv3 + " --jobs 1"),
              0);
    EXPECT_EQ(read_text_file(csv3), rows);
    // Bad input: one line, exit 2, no file written.
    const std::string csv4 = testing::fresh_temp_file("classify_torch", "gin4.csv");
    EXPECT_EQ(run_brec("classify " + kMutag + " --model gin --epochs 5 --warmup 9 --csv " + csv4, &err), 2);
    EXPECT_NE(err.find("--warmup"), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_FALSE(file_exists(csv4));
}

}  // namespace
}  // namespace brec
