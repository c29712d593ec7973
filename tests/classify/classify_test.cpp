// Tests of the classify module: folds, Y_iso / Y_new against the dedup orbits, peering, kernels +
// SVM, Claim 7.1 of Ivanov et al. (2019) on every fold, and `brec classify` end to end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "brec/classify/classify.hpp"
#include "brec/dedup/orbits.hpp"
#include "brec/dedup/split.hpp"
#include "brec/io/files.hpp"
#include "brec/wl/features.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

const std::string kMutag = std::string(BREC_SOURCE_DIR) + "/datasets/tu/MUTAG";

Graph path(VertexId n, Label node_label = -1) {
    GraphBuilder b(n);
    for (VertexId v = 0; v + 1 < n; ++v) b.add_edge(v, v + 1);
    if (node_label >= 0) b.set_node_labels(std::vector<Label>(n, node_label));
    return b.build();
}
Graph cycle(VertexId n) {
    GraphBuilder b(n);
    for (VertexId v = 0; v < n; ++v) b.add_edge(v, (v + 1) % n);
    return b.build();
}
Graph star(VertexId leaves) {
    GraphBuilder b(leaves + 1);
    for (VertexId v = 1; v <= leaves; ++v) b.add_edge(0, v);
    return b.build();
}

/// 0,1: triangles; 2,3,4: paths on 3 vertices (mixed labels); 5: a star K_1,3; 6: a path on 4.
struct Fixture {
    std::vector<Graph> graphs{cycle(3), cycle(3), path(3), path(3), path(3), star(3), path(4)};
    std::vector<Label> labels{0, 0, 1, 1, 0, 1, 0};
    Orbits orbits;
    RunContext ctx;
    Fixture() { orbits = compute_orbits(graphs, OrbitMode::topology, ctx); }
};

TEST(ClassifySplit, YIsoAndYNewFollowTheDedupOrbits) {
    Fixture f;
    ASSERT_EQ(f.orbits.size(), 4u);
    Fold fold{"fold", {0, 2, 6}, {1, 3, 4, 5}};
    const std::vector<Label> pred{0, 0, 0, 0};  // right on 1 and 4, wrong on 3 and 5
    const AccuracyCounts a = count_accuracy(f.orbits, f.labels, fold, pred);
    EXPECT_EQ(a.test, 4u);
    EXPECT_EQ(a.iso, 3u);    // 1 (triangle), 3 and 4 (paths): isomorphic to training graphs 0 and 2
    EXPECT_EQ(a.fresh, 1u);  // the star
    EXPECT_EQ(a.right_iso, 2u);
    EXPECT_EQ(a.right_new, 0u);
    // The same fold through the dedup module's split analysis (what `brec dedup --split
    // --predictions` reports).
    Predictions p;
    for (std::size_t k = 0; k < fold.test.size(); ++k) p.by_fold.resize(1), p.by_fold[0][fold.test[k]] = pred[k];
    const FoldReport r = analyse_fold(f.orbits, f.labels, fold, 0, &p);
    EXPECT_EQ(r.y_iso, a.iso);
    EXPECT_EQ(r.y_new, a.fresh);
    EXPECT_DOUBLE_EQ(r.acc_test, a.acc_test());
    EXPECT_DOUBLE_EQ(r.acc_iso, a.acc_iso());
    EXPECT_TRUE(std::isnan(a.acc_new()) == false);
    EXPECT_DOUBLE_EQ(r.acc_new, a.acc_new());
}

TEST(ClassifySplit, PeeringVariants) {
    Fixture f;
    Fold fold{"fold", {0, 2, 3, 6}, {1, 4, 5}};
    const std::vector<Label> wrong{1, 1, 0};  // every prediction wrong
    // Triangle 1: training triangle 0 has label 0 (homogeneous) -> PH copies 0 (right).
    // Path 4 (label 0): training paths 2, 3 both carry 1 -> PH copies 1 (still wrong, the orbit's
    // labels are mixed across train and test).
    const auto ph = apply_peering(f.orbits, f.labels, fold, wrong, Peering::homogeneous);
    EXPECT_EQ(ph, (std::vector<Label>{0, 1, 0}));
    const auto p = apply_peering(f.orbits, f.labels, fold, wrong, Peering::majority);
    EXPECT_EQ(p, (std::vector<Label>{0, 1, 0}));
    EXPECT_EQ(apply_peering(f.orbits, f.labels, fold, wrong, Peering::none), wrong);
    // A homogeneous Y_iso (every orbit's labels agree): peering is right on all of Y_iso.
    std::vector<Label> agreeing{0, 0, 1, 1, 1, 1, 0};
    const auto ph2 = apply_peering(f.orbits, agreeing, fold, {1, 0, 0}, Peering::homogeneous);
    const AccuracyCounts a = count_accuracy(f.orbits, agreeing, fold, ph2);
    EXPECT_EQ(a.iso, 2u);
    EXPECT_DOUBLE_EQ(a.acc_iso(), 1.0);
    const AccuracyCounts b =
        count_accuracy(f.orbits, agreeing, fold, apply_peering(f.orbits, agreeing, fold, {1, 0, 0}, Peering::majority));
    EXPECT_DOUBLE_EQ(b.acc_iso(), 1.0);
    EXPECT_DOUBLE_EQ(count_accuracy(f.orbits, agreeing, fold, {1, 0, 0}).acc_iso(), 0.0);
}

TEST(ClassifyFolds, StratifiedDisjointAndReproducible) {
    std::vector<Label> labels;
    for (int i = 0; i < 50; ++i) labels.push_back(i % 5 == 0 || i % 5 == 3 ? 1 : 0);  // 30 zeros, 20 ones
    Rng a(stream_seed(7, 0)), b(stream_seed(7, 0)), c(stream_seed(8, 0));
    const auto fa = stratified_folds(labels, 5, a);
    const auto fb = stratified_folds(labels, 5, b);
    const auto fc = stratified_folds(labels, 5, c);
    std::multiset<std::size_t> all;
    bool differs = false;
    for (std::size_t k = 0; k < 5; ++k) {
        EXPECT_EQ(fa[k].test, fb[k].test);
        differs = differs || fa[k].test != fc[k].test;
        std::size_t ones = 0;
        for (std::size_t i : fa[k].test) ones += labels[i] == 1, all.insert(i);
        EXPECT_EQ(fa[k].test.size(), 10u);
        EXPECT_EQ(ones, 4u);
        EXPECT_EQ(fa[k].train.size() + fa[k].test.size(), 50u);
        for (std::size_t i : fa[k].test) EXPECT_FALSE(std::binary_search(fa[k].train.begin(), fa[k].train.end(), i));
    }
    EXPECT_TRUE(differs);
    EXPECT_EQ(all.size(), 50u);
    EXPECT_EQ(std::set<std::size_t>(all.begin(), all.end()).size(), 50u);
    // The JSON form reads back with the dedup module's split reader.
    const std::string file = testing::fresh_temp_file("classify", "folds.json");
    write_text_file_atomic(file, folds_to_json(fa).dump());
    const auto back = read_split_file(file, labels.size());
    ASSERT_EQ(back.size(), 5u);
    for (std::size_t k = 0; k < 5; ++k) {
        EXPECT_EQ(back[k].test, fa[k].test);
        EXPECT_EQ(back[k].train, fa[k].train);
    }
    Rng r(1);
    EXPECT_NE(testing::error_of([&] { stratified_folds(labels, 1, r); }).find("folds"), std::string::npos);
}

TEST(ClassifyKernels, WlFeaturesAreInvariantAndSeparateCyclesFromPaths) {
    // C6 vs two triangles: 1-WL cannot separate them; C6 vs P6 it can (round 1).
    GraphBuilder b(6);
    b.add_edge(0, 1), b.add_edge(1, 2), b.add_edge(2, 0), b.add_edge(3, 4), b.add_edge(4, 5), b.add_edge(5, 3);
    const auto rows = wl_subtree_features({cycle(6), b.build(), path(6)}, 3);
    EXPECT_EQ(rows[0], rows[1]);
    EXPECT_NE(rows[0], rows[2]);
    EXPECT_DOUBLE_EQ(feature_dot(rows[0], rows[0]), 4 * 36.0);  // 6 vertices share a colour each round
    const auto vh = wl_subtree_features({cycle(6), path(6)}, 0);
    EXPECT_EQ(vh[0], vh[1]);  // the vertex histogram sees only (absent) labels
}

/// Toy data a linear classifier separates: class 0 = cycles, class 1 = stars (WL round 1 sees the
/// degrees); with node labels 0 / 1 for the vertex histogram.
TEST(ClassifyKernels, BothKernelsWithTheSvmSolveALinearlySeparableToy) {
    std::vector<Graph> graphs, labelled;
    std::vector<Label> labels;
    for (VertexId n = 3; n < 23; ++n) {
        graphs.push_back(cycle(n)), labels.push_back(0), labelled.push_back(path(n, 0));
        graphs.push_back(star(n)), labels.push_back(1), labelled.push_back(path(n, 1));
    }
    Rng rng(3);
    const auto folds = stratified_folds(labels, 4, rng);
    for (const auto& [model, data] : {std::make_pair("wl", &graphs), std::make_pair("vh", &labelled)}) {
        const KernelMatrix k = graph_kernel(*data, model, 5);
        for (const Fold& f : folds) {
            Rng inner(11);
            const SvmFit fit = svm_fit_predict(k, labels, f.train, f.test, {0.001, 0.01, 0.1, 1, 10}, 3, inner);
            std::size_t right = 0;
            for (std::size_t q = 0; q < f.test.size(); ++q) right += fit.predictions[q] == labels[f.test[q]];
            EXPECT_EQ(right, f.test.size()) << model;
        }
    }
    // The vertex histogram of unlabelled cycles and stars of equal size is one colour: no signal.
    const KernelMatrix flat = graph_kernel(graphs, "vh", 5);
    EXPECT_DOUBLE_EQ(flat(0, 1), 1.0);
    EXPECT_NE(testing::error_of([&] { graph_kernel(graphs, "rbf", 5); }).find("wl or vh"), std::string::npos);
}

ClassifyOptions mutag_options(const std::string& model) {
    ClassifyOptions o;
    o.path = kMutag;
    o.model = model;
    o.folds = 10;
    o.seeds = {0};
    o.peering = {Peering::homogeneous, Peering::majority};
    return o;
}

TEST(ClassifyRun, Claim71HoldsOnEveryFoldOfMutag) {
    RunContext ctx;
    const ClassifyResult r = run_classify(mutag_options("wl"), ctx);
    ASSERT_EQ(r.records.size(), 20u);  // 10 folds x {original, clean}
    std::size_t with_both = 0;
    double sum_test = 0;
    for (const FoldRecord& f : r.records) {
        for (const AccuracyCounts* a : {&f.plain, &f.ph, &f.p}) {
            ASSERT_EQ(a->iso + a->fresh, a->test);
            if (a->iso == 0 || a->fresh == 0) continue;
            ++with_both;
            // acc(Y_test) > acc(Y_new)  <=>  acc(Y_iso) > acc(Y_new), and likewise for < and =.
            EXPECT_EQ(a->acc_test() > a->acc_new(), a->acc_iso() > a->acc_new()) << f.variant << " fold " << f.fold;
            EXPECT_EQ(a->acc_test() < a->acc_new(), a->acc_iso() < a->acc_new()) << f.variant << " fold " << f.fold;
        }
        if (f.variant == "clean") {
            EXPECT_EQ(f.plain.iso, 0u);
        }  // one graph per orbit: Y_iso is empty
        sum_test += f.plain.acc_test();
    }
    EXPECT_GT(with_both, 0u);
    EXPECT_GT(sum_test / 20, 0.75);  // WL on MUTAG: about 0.85 in the literature
    EXPECT_EQ(r.graphs, 188u);
    EXPECT_LT(r.clean_graphs, r.graphs);
}

TEST(ClassifyRun, ResultsDoNotDependOnJobsAndResumeKeepsFolds) {
    auto opt = mutag_options("vh");
    opt.out = testing::fresh_temp_file("classify", "vh.jsonl");
    RunContext one;
    const ClassifyResult a = run_classify(opt, one);
    RunContext two;
    two.set_threads(2);
    opt.out.clear();
    const ClassifyResult b = run_classify(opt, two);
    ASSERT_EQ(a.records.size(), b.records.size());
    for (std::size_t k = 0; k < a.records.size(); ++k) {
        auto ja = to_json(a.records[k]), jb = to_json(b.records[k]);
        ja.erase("seconds"), jb.erase("seconds");
        EXPECT_EQ(ja, jb);
    }
    EXPECT_EQ(classify_rows_csv(a), classify_rows_csv(b));
    // Resume: every fold comes back from the file.
    opt.out = testing::temp_path("classify", "vh.jsonl");
    opt.resume = true;
    RunContext three;
    const ClassifyResult c = run_classify(opt, three);
    for (const auto& f : c.records) EXPECT_TRUE(f.resumed);
    EXPECT_EQ(classify_rows_csv(a), classify_rows_csv(c));
    // Other settings (here the inner validation) refuse the file, which stays as it was.
    const std::string before = read_text_file(opt.out);
    opt.inner_folds = 2;
    RunContext other;
    const std::string refused = testing::error_of([&] { run_classify(opt, other); });
    EXPECT_NE(refused.find(opt.out + ":1: a record of other settings ("), std::string::npos) << refused;
    EXPECT_NE(refused.find("inner=3"), std::string::npos) << refused;
    EXPECT_EQ(read_text_file(opt.out), before);
    opt.inner_folds = 3;
    // A broken line names the file and line.
    { std::ofstream(opt.out, std::ios::app) << "{\"dataset\": 3}\n"; }
    RunContext four;
    const std::string msg = testing::error_of([&] { run_classify(opt, four); });
    EXPECT_NE(msg.find("vh.jsonl"), std::string::npos) << msg;
    EXPECT_NE(msg.find(":21"), std::string::npos) << msg;
}

TEST(ClassifyRun, TheFoldsDirectoryIsCreatedWithEveryVersionsFolds) {
    auto opt = mutag_options("vh");
    opt.folds = 5;
    opt.seeds = {3};
    const std::string root = testing::temp_path("classify", "folds");
    std::filesystem::remove_all(root);
    opt.folds_dir = root + "/nested/dir";  // neither exists yet
    RunContext ctx;
    const ClassifyResult r = run_classify(opt, ctx);
    for (const auto& [name, graphs] :
         {std::pair<std::string, std::size_t>{"MUTAG", r.graphs}, {"MUTAG-clean", r.clean_graphs}}) {
        const auto folds = nlohmann::json::parse(read_text_file(opt.folds_dir + "/" + name + "_seed3_folds.json"));
        ASSERT_EQ(folds.size(), 5u) << name;
        // The test parts partition the version's graphs; each fold trains on the rest.
        std::vector<int> seen(graphs, 0);
        for (const auto& f : folds) {
            for (const auto& i : f["test"]) ++seen.at(i.get<std::size_t>());
            EXPECT_EQ(f["train"].size() + f["test"].size(), graphs) << name;
        }
        EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<std::ptrdiff_t>(graphs)) << name;
    }
    std::filesystem::remove_all(root);
}

TEST(ClassifyRun, ResumeAfterAKillMidRecordGivesTheUninterruptedFile) {
    auto opt = mutag_options("vh");
    opt.out = testing::fresh_temp_file("classify", "whole.jsonl");
    RunContext ctx;
    run_classify(opt, ctx);
    const auto lines = split_lines(read_text_file(opt.out));
    ASSERT_EQ(lines.size(), 20u);
    auto without_timings = [](const std::string& path) {
        std::string out;
        for (const auto& line : split_lines(read_text_file(path))) {
            auto j = nlohmann::json::parse(line);
            j.erase("seconds");
            out += j.dump() + "\n";
        }
        return out;
    };
    // A SIGKILL while the third record was written: cut in the middle, or whole without its newline.
    for (const std::string& tail : {lines[2].substr(0, lines[2].size() / 2), lines[2]}) {
        auto cut = opt;
        cut.out = testing::fresh_temp_file("classify", "cut.jsonl");
        write_text_file_atomic(cut.out, lines[0] + "\n" + lines[1] + "\n" + tail);
        cut.resume = true;
        RunContext again;
        run_classify(cut, again);
        EXPECT_EQ(without_timings(cut.out), without_timings(opt.out)) << "tail of " << tail.size() << " bytes";
    }
}

int run_brec(const std::string& args, std::string* err = nullptr) {
    const std::string err_file = testing::fresh_temp_file("classify", "stderr.txt");
    const int rc = std::system((std::string(BREC_BINARY) + " " + args + " > /dev/null 2> " + err_file).c_str());
    if (err) *err = read_text_file(err_file);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(ClassifyCli, MutagEndToEndAndBadInput) {
    const std::string csv = testing::fresh_temp_file("classify", "rows.csv");
    const std::string md = testing::fresh_temp_file("classify", "summary.md");
    ASSERT_EQ(run_brec("classify --help"), 0);
    ASSERT_EQ(run_brec("classify " + kMutag + " --model wl --folds 10 --seeds 0 -q --csv " + csv + " --markdown " + md),
              0);
    const std::string rows = read_text_file(csv);
    EXPECT_EQ(rows.rfind("task,model,seed,value\n", 0), 0u);
    EXPECT_NE(rows.find("MUTAG/acc_test,wl,0,"), std::string::npos) << rows;
    EXPECT_NE(rows.find("MUTAG/acc_new,wl,0,"), std::string::npos) << rows;
    EXPECT_NE(rows.find("MUTAG-clean/acc_test,wl,0,"), std::string::npos) << rows;
    EXPECT_NE(read_text_file(md).find("inflate"), std::string::npos);
    EXPECT_NE(read_text_file(md).find("points); acc(Y_iso) ="), std::string::npos);
    // brec report reads the rows.
    EXPECT_EQ(run_brec("report " + csv), 0);
    // Bad input: one line naming the file and line, exit 2, nothing written.
    const std::string dir = testing::temp_path("classify", "BAD");
    std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
    write_text_file_atomic(dir + "/BAD_A.txt", "1, 2\n2, x\n");
    write_text_file_atomic(dir + "/BAD_graph_indicator.txt", "1\n1\n");
    write_text_file_atomic(dir + "/BAD_graph_labels.txt", "0\n");
    const std::string csv2 = testing::fresh_temp_file("classify", "rows2.csv");
    std::string err;
    EXPECT_EQ(run_brec("classify " + dir + " --folds 2 --csv " + csv2, &err), 2);
    EXPECT_NE(err.find("BAD_A.txt"), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_FALSE(file_exists(csv2));
}

}  // namespace
}  // namespace brec
