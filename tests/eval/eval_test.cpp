#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"
#include "brec/eval/siamese.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/files.hpp"
#include "common/result_lines.hpp"
#include "common/test_graphs.hpp"
#include "common/temp_cleanup.hpp"
#include "nn/cuda_check.hpp"

namespace brec {
namespace {

TEST(Siamese, RelabelingsStartWithTheOriginalAndAreDistinct) {
    Rng rng(1);
    const Graph g = make_path(6);
    const auto r = relabelings(g, 20, rng);
    ASSERT_EQ(r.size(), 20u);
    EXPECT_EQ(r[0], g);
    std::set<std::vector<Edge>> distinct;
    for (const auto& h : r) distinct.insert(h.edges());
    EXPECT_EQ(distinct.size(), 20u);  // P6 has 360 labelled versions
    // K4 has a single labelled version: duplicates are unavoidable and allowed.
    EXPECT_EQ(relabelings(make_complete(4), 5, rng).size(), 5u);
}

GraphPairRecord c6_vs_two_triangles() {
    GraphPairRecord pair;
    pair.id = 1;
    pair.category = "test";
    pair.a = make_cycle(6);
    pair.b = disjoint_union(make_cycle(3), make_cycle(3));
    return pair;
}

EvalOptions small_ppgn() {
    EvalOptions opt;
    opt.model = "ppgn";
    opt.q = 12;
    opt.out_dim = 4;
    opt.layers = 2;
    opt.hidden = 8;
    opt.batch = 8;
    opt.epochs = 6;
    opt.lr = 1e-2;
    opt.loss_threshold = 0.0;
    opt.device = "cpu";
    opt.torch_threads = 1;
    return opt;
}

TEST(Siamese, LossDecreasesOnASeparablePairWithinAFewEpochs) {
    // One batch per epoch: the first epoch's loss is the loss at initialisation. Without the
    // output BatchNorm (which makes f(G) = −f(H) at once, loss 0) the cosine loss has to be
    // trained down.
    EvalOptions opt = small_ppgn();
    opt.batch = 2 * opt.q;
    opt.output_norm = false;
    const auto r = evaluate_pair(c6_vs_two_triangles(), opt, 3);
    ASSERT_EQ(r.losses.size(), 6u);
    EXPECT_GT(r.losses.front(), 0.1);
    EXPECT_LT(r.losses.back(), 0.5 * r.losses.front());
    // The early stop ends training at the first epoch whose loss is below the threshold: put the
    // threshold between the first loss and the first one below it.
    const auto first_lower =
        std::find_if(r.losses.begin() + 1, r.losses.end(), [&](double l) { return l < r.losses.front(); }) -
        r.losses.begin();
    ASSERT_LT(first_lower, static_cast<long>(r.losses.size()));
    opt.loss_threshold = 0.5 * (r.losses.front() + r.losses[static_cast<std::size_t>(first_lower)]);
    EXPECT_EQ(evaluate_pair(c6_vs_two_triangles(), opt, 3).epochs, first_lower + 1);
}

TEST(Siamese, AProfileSplitsThePairsTimeAndChangesNoResult) {
    EvalOptions opt = small_ppgn();
    const auto plain = evaluate_pair(c6_vs_two_triangles(), opt, 3);
    EXPECT_TRUE(plain.profile.is_null());
    EXPECT_FALSE(to_json(plain).contains("profile"));
    opt.profile = true;
    const auto r = evaluate_pair(c6_vs_two_triangles(), opt, 3);
    // The same arithmetic: bit for bit the same statistics and losses.
    EXPECT_EQ(r.hotelling.t2_test, plain.hotelling.t2_test);
    EXPECT_EQ(r.brec_reference.t2_reliability, plain.brec_reference.t2_reliability);
    EXPECT_EQ(r.losses, plain.losses);
    const auto& p = r.profile;
    ASSERT_TRUE(p.is_object());
    double parts = 0.0;
    for (const char* key : {"prepare_seconds", "forward_seconds", "backward_seconds", "optimiser_seconds",
                            "embed_seconds", "decision_seconds"}) {
        ASSERT_TRUE(p.contains(key)) << key;
        EXPECT_GE(p[key].get<double>(), 0.0) << key;
        parts += p[key].get<double>();
    }
    // The phases lie inside the pair's time and cover most of it (the rest: epoch bookkeeping).
    EXPECT_LE(parts, r.seconds);
    EXPECT_GT(parts, 0.5 * r.seconds);
    EXPECT_LE(p["first_epoch_seconds"].get<double>(), r.train_seconds);
    // PPGN's FLOPs grow with n³: an epoch of 2q graphs of 6 vertices counts well above zero, and the
    // embeddings (4q graphs, forward only) count fewer than an epoch (2q graphs, forward and backward).
    EXPECT_GT(p["epoch_flops"].get<double>(), 0.0);
    EXPECT_GT(p["embed_flops"].get<double>(), 0.0);
    EXPECT_EQ(eval_record_from_json(to_json(r), "r", 1).profile, p);
}

TEST(Siamese, ADivergedTrainingStopsAndCountsAsAReliabilityFailure) {
    // A learning rate of 1e37 makes Adam's first steps about ±1e37 per weight, so the next forward
    // pass overflows and the loss turns NaN: training stops at that epoch, and the undefined T²
    // count as reliability failures, never as a separated pair.
    EvalOptions opt = small_ppgn();
    opt.lr = 1e37;
    opt.output_norm = false;
    const auto r = evaluate_pair(c6_vs_two_triangles(), opt, 3);
    ASSERT_FALSE(r.losses.empty());
    EXPECT_LT(r.losses.size(), 6u);
    EXPECT_EQ(r.epochs, static_cast<int>(r.losses.size()));
    EXPECT_FALSE(std::isfinite(r.losses.back()));
    for (std::size_t e = 0; e + 1 < r.losses.size(); ++e) EXPECT_TRUE(std::isfinite(r.losses[e])) << e;
    for (Protocol p : all_protocols()) {
        EXPECT_FALSE(r.result(p).reliable);
        EXPECT_FALSE(r.result(p).distinguished);
    }
}

TEST(Siamese, PpgnSeparatesC6FromTwoTrianglesAndGinCannot) {
    EvalOptions opt = small_ppgn();
    const auto r = evaluate_pair(c6_vs_two_triangles(), opt, 3);
    EXPECT_EQ(r.losses.front(), 0.0);  // output BatchNorm: f(G) = −f(H) from the first step
    EXPECT_TRUE(r.hotelling.reliable);
    EXPECT_TRUE(r.hotelling.distinguished)
        << "T2 " << r.hotelling.t2_test << " rel " << r.hotelling.t2_reliability << " thr " << r.hotelling.threshold;
    // The reference protocol has no noise floor: when PPGN gives every relabeling bitwise the same
    // embedding, S = 0, its pseudo-inverse is 0 and so is T², and the released BREC code counts
    // the pair as not distinguished. Hotelling's T² with the noise floor sees the difference.
    EXPECT_TRUE(r.brec_reference.reliable);
    EXPECT_TRUE(r.brec_reference.distinguished || r.brec_reference.t2_test == 0.0) << r.brec_reference.t2_test;
    // Same seed, same T² (CPU determinism), with the BLAS kernels and with torch ops.
    const auto again = evaluate_pair(c6_vs_two_triangles(), opt, 3);
    EXPECT_EQ(again.hotelling.t2_test, r.hotelling.t2_test);
    EXPECT_EQ(again.hotelling.t2_reliability, r.hotelling.t2_reliability);
    EXPECT_EQ(again.brec_reference.t2_test, r.brec_reference.t2_test);
    opt.kernel = "torch";
    const auto torch_ops = evaluate_pair(c6_vs_two_triangles(), opt, 3);
    EXPECT_TRUE(torch_ops.hotelling.counts());
    opt.kernel = "auto";
    opt.model = "gin";
    const auto gin = evaluate_pair(c6_vs_two_triangles(), opt, 3);
    for (Protocol p : all_protocols()) {
        EXPECT_FALSE(gin.result(p).distinguished);  // 1-WL-equivalent: no MPNN can separate them
        EXPECT_TRUE(gin.result(p).reliable);
    }
}

TEST(Siamese, CudaGivesTheCpuDecisions) {
    const auto device = testing::cuda_check_device();
    if (!device) GTEST_SKIP() << testing::kNoCudaDevice;
    for (const std::string model : {"ppgn", "gin"}) {
        EvalOptions opt = small_ppgn();
        opt.model = model;
        const auto cpu = evaluate_pair(c6_vs_two_triangles(), opt, 3);
        opt.device = device->str();
        const auto gpu = evaluate_pair(c6_vs_two_triangles(), opt, 3);
        EXPECT_EQ(gpu.hotelling.distinguished, cpu.hotelling.distinguished) << model;
        EXPECT_EQ(gpu.hotelling.reliable, cpu.hotelling.reliable) << model;
        EXPECT_EQ(gpu.epochs, cpu.epochs) << model;
        SCOPED_TRACE(model + ": T2 cpu " + std::to_string(cpu.hotelling.t2_test) + " cuda " +
                     std::to_string(gpu.hotelling.t2_test));
        if (cpu.hotelling.distinguished) {
            EXPECT_GT(gpu.hotelling.t2_test, gpu.hotelling.threshold);
        }
    }
}

/// 2q × d embeddings: pairs (x_i, x_i + shift + noise).
Eigen::MatrixXd synthetic(int q, int d, double shift, double noise, Rng& rng) {
    Eigen::MatrixXd m(2 * q, d);
    for (int i = 0; i < q; ++i)
        for (int j = 0; j < d; ++j) {
            m(2 * i, j) = rng.normal();
            m(2 * i + 1, j) = m(2 * i, j) + shift + noise * rng.normal();
        }
    return m;
}

TEST(Siamese, RpcDecisionsOnSyntheticEmbeddings) {
    Rng rng(42);
    RpcSettings opt;                                            // alpha = 0.05 -> threshold 72.34 for q = 32, d = 16
    const auto same = synthetic(32, 16, 0.0, 0.0, rng);         // relabelings of one graph
    const auto separated = synthetic(32, 16, 0.5, 0.1, rng);    // consistent difference
    const auto noisy_equal = synthetic(32, 16, 0.0, 1.0, rng);  // differences without a mean
    const auto a = rpc_from_embeddings(separated, same, opt).hotelling;
    EXPECT_NEAR(a.threshold, 72.34, 0.01);
    EXPECT_GT(a.t2_test, 1e3);
    EXPECT_LT(a.t2_reliability, 1e-6);
    EXPECT_TRUE(a.distinguished);
    EXPECT_TRUE(a.reliable);
    // A model that is not permutation-invariant fails the reliability check.
    const auto b = rpc_from_embeddings(separated, separated, opt).hotelling;
    EXPECT_FALSE(b.reliable);
    EXPECT_FALSE(b.distinguished);  // T²_test equals T²_reliability
    // Identical embeddings for G and H: not distinguished.
    const auto c = rpc_from_embeddings(same, same, opt).hotelling;
    EXPECT_FALSE(c.distinguished);
    EXPECT_TRUE(c.reliable);
    // Zero-mean differences stay below the F threshold (Hotelling: P(T² > 72.34) = 0.05).
    const auto d = rpc_from_embeddings(noisy_equal, same, opt).hotelling;
    EXPECT_LT(d.t2_test, d.threshold);
    EXPECT_FALSE(d.distinguished);
    EXPECT_THROW(rpc_from_embeddings(separated, synthetic(31, 16, 0, 0, rng), opt), InvalidArgument);
    // q = 8, d = 4: a smaller test uses its own threshold, (q−1)d/(q−d) F_{4,4}(0.95) = 7 · 6.388.
    const auto e = rpc_from_embeddings(synthetic(8, 4, 1.0, 0.1, rng), synthetic(8, 4, 0, 0, rng), opt).hotelling;
    EXPECT_NEAR(e.threshold, 7.0 * 6.3882, 0.01);
    EXPECT_TRUE(e.distinguished);
}

TEST(Siamese, BadOptionsAreRejected) {
    EvalOptions opt;
    opt.q = 16;  // must exceed d = 16
    EXPECT_THROW(resolve_hyper(opt), InvalidArgument);
    opt.q = 32;
    opt.batch = 3;
    EXPECT_THROW(resolve_hyper(opt), InvalidArgument);
    opt.batch = -1;
    EXPECT_THROW(resolve_hyper(opt), InvalidArgument);
    opt.batch.reset();  // the model's own
    opt.model = "nope";
    EXPECT_THROW(resolve_hyper(opt), InvalidArgument);
}

struct Result {
    int code = -1;
    std::string out, err;
};

Result brec(const std::string& args) {
    const std::string err_file = ::testing::TempDir() + "brec_eval_err_" + std::to_string(::getpid());
    FILE* p = popen((std::string(BREC_BINARY) + " " + args + " 2>" + err_file).c_str(), "r");
    Result r;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = read_text_file(err_file);
    return r;
}

nlohmann::json last_line(const std::string& out) {
    const auto end = out.find_last_not_of('\n');
    const auto start = out.rfind('\n', end);
    return nlohmann::json::parse(out.substr(start == std::string::npos ? 0 : start + 1));
}

TEST(EvalCli, ResumeAfterInterruptionGivesTheSameSummary) {
    const std::string common = " --model gin --pairs 0-3,160 --q 20 --epochs 1 --torch-threads 1 --quiet --json";
    const Result full = brec("eval" + common);
    ASSERT_EQ(full.code, 0) << full.err;
    const std::string out = ::testing::TempDir() + "brec_eval_resume_" + std::to_string(::getpid()) + ".jsonl";
    std::remove(out.c_str());
    ASSERT_EQ(brec("eval --model gin --pairs 0-1 --q 20 --epochs 1 --torch-threads 1 --quiet --out " + out).code, 0);
    { std::ofstream(out, std::ios::app) << "{\"model\":\"gin\",\"seed\":100,\"id\":2,\"categ"; }  // torn line
    const Result resumed = brec("eval" + common + " --resume --out " + out);
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    const auto a = last_line(full.out), b = last_line(resumed.out);
    EXPECT_EQ(a["categories"], b["categories"]);
    EXPECT_EQ(a["total"]["pairs"], 5);
    EXPECT_TRUE(file_exists(out + ".summary.json"));
    // Baseline regression check: a baseline claiming more distinguished pairs fails with exit 3.
    auto better = a;
    better["categories"]["basic"]["distinguished"] = 4;
    better["protocols"]["hotelling"]["categories"]["basic"]["distinguished"] = 4;
    const std::string base = out + ".baseline.json";
    std::ofstream(base) << better.dump();
    const Result reg = brec("eval" + common + " --resume --out " + out + " --baseline " + base);
    EXPECT_EQ(reg.code, 3);
    EXPECT_NE(reg.err.find("basic: distinguished 0 < 4 (hotelling)"), std::string::npos) << reg.err;
    // The reference protocol's counts are compared when it is the headline: no regression there.
    EXPECT_EQ(
        brec("eval" + common + " --resume --out " + out + " --baseline " + base + " --protocol brec_reference").code,
        0);
}

TEST(EvalCli, ShardsTogetherGiveExactlyTheUnshardedRun) {
    // Bitwise equal T² is a CPU guarantee (CUDA atomics are not reproducible): pin the CPU.
    const std::string common =
        " --model gin --pairs 0-4,160,161 --q 20 --epochs 1 --torch-threads 1 --device cpu --quiet --json";
    const Result full = brec("eval" + common);
    ASSERT_EQ(full.code, 0) << full.err;
    std::map<PairId, nlohmann::json> by_id;
    for (const auto& line : split_lines(full.out)) {
        const auto j = nlohmann::json::parse(line);
        if (j.contains("id")) by_id[j["id"].get<PairId>()] = j;
    }
    ASSERT_EQ(by_id.size(), 7u);
    std::set<PairId> seen;
    for (const char* shard : {"1/3", "2/3", "3/3"}) {
        const Result r = brec("eval" + common + " --shard " + shard);
        ASSERT_EQ(r.code, 0) << r.err;
        const auto lines = split_lines(r.out);
        EXPECT_EQ(nlohmann::json::parse(lines.back())["shard"], shard);
        for (const auto& line : lines) {
            const auto j = nlohmann::json::parse(line);
            if (!j.contains("id")) continue;
            const PairId id = j["id"].get<PairId>();
            EXPECT_TRUE(seen.insert(id).second) << "pair " << id << " in two shards";
            EXPECT_EQ(j["protocols"], by_id.at(id)["protocols"]) << id;
        }
    }
    EXPECT_EQ(seen.size(), 7u);
}

TEST(EvalCli, ExistingResultsNeedResumeAndJunitIsWritten) {
    const std::string out = ::testing::TempDir() + "brec_eval_exists_" + std::to_string(::getpid()) + ".jsonl";
    const std::string junit = out + ".xml";
    std::remove(out.c_str());
    std::remove(junit.c_str());
    const std::string common = " --model gin --pairs 0,1 --q 20 --epochs 1 --torch-threads 1 --quiet --out " + out;
    ASSERT_EQ(brec("eval" + common).code, 0);
    const Result again = brec("eval" + common + " --junit " + junit);
    EXPECT_EQ(again.code, 2);
    EXPECT_NE(again.err.find("pass --resume"), std::string::npos) << again.err;
    EXPECT_FALSE(file_exists(junit));
    EXPECT_EQ(testing::result_lines(out).size(), 2u);
    ASSERT_EQ(brec("eval" + common + " --resume --junit " + junit).code, 0);
    const std::string x = read_text_file(junit);
    EXPECT_NE(x.find("tests=\"2\""), std::string::npos) << x;
    EXPECT_NE(x.find("name=\"pair 1 not distinguished\""), std::string::npos) << x;
    std::remove(out.c_str());
    std::remove((out + ".summary.json").c_str());
    std::remove(junit.c_str());
}

TEST(EvalCli, BadFlagsGiveExitCode2) {
    for (const char* args : {"eval --shard 5/4 --pairs 0", "eval --model nosuchmodel --pairs 0",
                             "eval --category cfi --pairs 0-5", "eval --pairs 7-3", "eval --device tpu --pairs 0",
                             "eval --seeds 1,x --pairs 0", "eval --batch 3 --pairs 0"}) {
        const Result r = brec(args);
        EXPECT_EQ(r.code, 2) << args << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    }
    EXPECT_EQ(brec("eval --list-models").code, 0);
    // `brec` hands the whole command line, global flags included, to brec-eval.
    const Result listed = brec("--log-level warn eval --list-models");
    EXPECT_EQ(listed.code, 0) << listed.err;
    EXPECT_NE(listed.out.find("ppgn"), std::string::npos) << listed.out;
    // The JSON listing: the published rows and subsets (Table 2 of the BREC paper).
    const Result as_json = brec("eval --list-models --json");
    ASSERT_EQ(as_json.code, 0) << as_json.err;
    const auto models = nlohmann::json::parse(as_json.out);
    std::map<std::string, nlohmann::json> by_name;
    for (const auto& m : models) by_name[m.at("name").get<std::string>()] = m;
    EXPECT_EQ(by_name.at("i2_gnn").at("paper_subset"), "0-319,380-399");
    EXPECT_EQ(by_name.at("i2_gnn").at("paper").at("total"), 281);
    EXPECT_EQ(by_name.at("ppgn").at("paper").at("total"), 233);
    EXPECT_EQ(by_name.at("ppgn").at("defaults").at("layers"), 5);
    EXPECT_EQ(by_name.at("ppgn").at("paper_subset"), "");
    EXPECT_TRUE(by_name.at("gin").at("paper").is_null());
    EXPECT_EQ(by_name.at("dss_gnn").at("tight_bound"), "gswl:6");
    EXPECT_EQ(by_name.at("osan").at("tight_bound"), "");
    EXPECT_NE(listed.out.find("gswl:6:ego:hop"), std::string::npos) << listed.out;
    for (const auto& [name, m] : by_name) EXPECT_NE(listed.out.find(name), std::string::npos) << name;
    const Result help = brec("-v eval --help");
    EXPECT_EQ(help.code, 0) << help.err;
    EXPECT_NE(help.out.find("--noise-floor"), std::string::npos) << help.out;
    EXPECT_EQ(brec("-v eval --shard 5/4 --pairs 0").code, 2);
}

}  // namespace
}  // namespace brec
