// The torch-free half of "your own model": the exported groups are exactly brec eval's, and
// embeddings written for them are judged under both protocols with clear errors for bad files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "brec/core/error.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"
#include "brec/io/npy_numeric.hpp"
#include "brec/rpc/embeddings.hpp"
#include "brec/rpc/export.hpp"
#include "brec/rpc/groups.hpp"
#include "brec/rpc/run_summary.hpp"
#include "brec/stats/hotelling.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

namespace fs = std::filesystem;
using testing::error_of;

PairDataset tiny_dataset() {
    PairDataset ds;
    ds.path = "tiny";
    auto add = [&](PairId id, const std::string& cat, Graph a, Graph b) {
        GraphPairRecord r;
        r.id = id;
        r.category = cat;
        r.a = std::move(a);
        r.b = std::move(b);
        ds.pairs.push_back(std::move(r));
    };
    add(0, "basic", make_cycle(6), disjoint_union(make_cycle(3), make_cycle(3)));
    add(7, "cfi", make_path(5), make_graph(5, {{0, 1}, {0, 2}, {0, 3}, {3, 4}}));
    return ds;
}

std::string fresh_dir(const std::string& name) {
    const std::string d = testing::temp_path("rpc", name);
    fs::remove_all(d);
    return d;
}

ExportResult export_tiny(const std::string& dir, int q = 8, std::uint64_t seed = 100) {
    ExportOptions opt;
    opt.q = q;
    opt.seed = seed;
    RunContext ctx;
    return export_pair_groups(tiny_dataset(), {0, 1}, opt, dir, ctx);
}

void save(const std::string& path, const Eigen::MatrixXd& m) {
    std::vector<float> v;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) v.push_back(static_cast<float>(m(i, j)));
    write_text_file_atomic(
        path, format_npy_float32(v, {static_cast<std::size_t>(m.rows()), static_cast<std::size_t>(m.cols())}));
}

/// 4q × d embeddings: traintest rows G → g, H → h; reliability rows all r.
Eigen::MatrixXd constant_rows(int q, int d, double g, double h, double r) {
    Eigen::MatrixXd m(4 * q, d);
    for (int i = 0; i < 4 * q; ++i)
        for (int j = 0; j < d; ++j) m(i, j) = i < 2 * q ? (i % 2 ? h : g) + j : r + j;
    return m;
}

TEST(Export, WritesExactlyTheGroupsOfBrecEval) {
    const std::string dir = fresh_dir("groups");
    const ExportResult r = export_tiny(dir);
    EXPECT_EQ(r.pairs, 2u);
    EXPECT_EQ(r.graphs, 64u);
    const auto m = nlohmann::json::parse(read_text_file(dir + "/manifest.json"));
    EXPECT_EQ(m["seed"], 100);
    EXPECT_EQ(m["q"], 8);
    EXPECT_EQ(m["rows_per_pair"], 32);
    ASSERT_EQ(m["pairs"].size(), 2u);
    const PairDataset ds = tiny_dataset();
    for (std::size_t k = 0; k < 2; ++k) {
        const GraphPairRecord& pair = ds.pairs[k];
        const auto& e = m["pairs"][k];
        EXPECT_EQ(e["id"], pair.id);
        EXPECT_EQ(e["category"], pair.category);
        EXPECT_EQ(e["n"], pair.a.n());
        Rng rng(stream_seed(100, static_cast<std::uint64_t>(pair.id)));
        const PairGroups g = make_pair_groups(pair, 8, rng);
        EXPECT_EQ(e["reliability_of"], g.reliability_of_b ? "H" : "G");
        const auto lines = split_lines(read_text_file(dir + "/" + e["graph6"].get<std::string>()));
        ASSERT_EQ(lines.size(), 32u);
        for (std::size_t i = 0; i < 16; ++i) {
            EXPECT_EQ(parse_graph6(lines[i]), g.traintest[i]) << i;
            EXPECT_EQ(parse_graph6(lines[16 + i]), g.reliability[i]) << i;
        }
        EXPECT_TRUE(file_exists(dir + "/" + e["npz"].get<std::string>()));
    }
    // No temporary directory is left next to it.
    for (const auto& entry : fs::directory_iterator(fs::path(dir).parent_path()))
        EXPECT_EQ(entry.path().filename().string().find(fs::path(dir).filename().string() + ".tmp"), std::string::npos);
}

TEST(Export, EdgeIndexArraysNumberGraphsConsecutively) {
    const std::vector<Graph> graphs{make_path(3), make_cycle(3)};
    const EdgeIndexArrays a = edge_index_arrays(graphs, 0, 2);
    EXPECT_EQ(a.num_nodes, (std::vector<std::int64_t>{3, 3}));
    EXPECT_EQ(a.node_ptr, (std::vector<std::int64_t>{0, 3, 6}));
    EXPECT_EQ(a.edge_ptr, (std::vector<std::int64_t>{0, 4, 10}));
    EXPECT_EQ(a.batch, (std::vector<std::int64_t>{0, 0, 0, 1, 1, 1}));
    // Grouped by target, sources ascending; both directions of every edge.
    EXPECT_EQ(a.dst, (std::vector<std::int64_t>{0, 1, 1, 2, 3, 3, 4, 4, 5, 5}));
    EXPECT_EQ(a.src, (std::vector<std::int64_t>{1, 0, 2, 1, 4, 5, 3, 5, 3, 4}));
    EXPECT_TRUE(a.node_label.empty());
}

TEST(Export, RefusesAnExistingDirectoryAndLeavesNothingOnFailure) {
    const std::string dir = fresh_dir("exists");
    fs::create_directories(dir + "/inner");
    EXPECT_NE(error_of([&] { export_tiny(dir); }).find("exists and is not an empty directory"), std::string::npos);
    EXPECT_TRUE(fs::is_directory(dir + "/inner"));
    fs::remove_all(dir + "/inner");
    EXPECT_NO_THROW(export_tiny(dir));  // an empty directory is replaced
    const std::string cancelled = fresh_dir("cancelled");
    RunContext ctx;
    ctx.cancel();
    EXPECT_THROW(export_pair_groups(tiny_dataset(), {0, 1}, ExportOptions{}, cancelled, ctx), Cancelled);
    EXPECT_FALSE(fs::exists(cancelled));
    for (const auto& entry : fs::directory_iterator(fs::path(cancelled).parent_path()))
        EXPECT_EQ(entry.path().filename().string().find(fs::path(cancelled).filename().string()), std::string::npos);
    ExportOptions q1;
    q1.q = 1;
    EXPECT_THROW(export_pair_groups(tiny_dataset(), {0}, q1, fresh_dir("q1"), RunContext{}), InvalidArgument);
}

TEST(JudgeEmbeddings, ConstantEmbeddingsGiveSensibleDecisions) {
    const std::string dir = fresh_dir("constant");
    export_tiny(dir);
    // Pair 0: G and H embedded alike (an invariant that cannot tell them apart); pair 7: G and H
    // get different constant vectors. Relabelings of one graph get one embedding in both.
    save(dir + "/pair_0.npy", constant_rows(8, 4, 1.0, 1.0, 1.0));
    save(dir + "/pair_7.npy", constant_rows(8, 4, 1.0, 2.0, 1.0));
    EmbeddingJudgeOptions opt;
    opt.model = "constant";
    const EvalRunResult r = judge_embeddings({{dir, ""}}, opt, RunContext{});
    ASSERT_EQ(r.runs.size(), 1u);
    const auto& rec = r.runs[0].records;
    ASSERT_EQ(rec.size(), 2u);
    EXPECT_EQ(rec[0].model, "constant");
    EXPECT_EQ(rec[0].seed, 100u);
    EXPECT_EQ(rec[1].id, 7);
    EXPECT_EQ(rec[1].category, "cfi");
    // S = 0: the noise floor makes T² 0 for equal embeddings and huge for a constant difference.
    EXPECT_FALSE(rec[0].hotelling.distinguished);
    EXPECT_TRUE(rec[0].hotelling.reliable);
    EXPECT_TRUE(rec[1].hotelling.distinguished);
    EXPECT_TRUE(rec[1].hotelling.reliable);
    EXPECT_GT(rec[1].hotelling.t2_test, 1e6);
    // The reference protocol has no noise floor: pinv(0) = 0, so T² = 0 and nothing is distinguished.
    EXPECT_EQ(rec[1].brec_reference.t2_test, 0.0);
    EXPECT_FALSE(rec[1].brec_reference.distinguished);
    EXPECT_NEAR(rec[0].hotelling.threshold, rpc_threshold(8, 4, 0.05), 1e-9);
    const auto& s = r.summary;
    EXPECT_EQ(s["command"], "rpc");
    EXPECT_EQ(s["model"], "constant");
    EXPECT_EQ(s["total"]["distinguished"], 1);
    EXPECT_EQ(s["protocols"]["brec_reference"]["total"]["distinguished"], 0);
    EXPECT_EQ(s["settings"]["d"], 4);
    EXPECT_EQ(s["settings_id"], rec[0].settings_id);

    // One [pairs, 4q, d] array gives the same records.
    const std::string single = fresh_dir("single");
    fs::create_directories(single);
    const Eigen::MatrixXd a = constant_rows(8, 4, 1.0, 1.0, 1.0), b = constant_rows(8, 4, 1.0, 2.0, 1.0);
    std::vector<float> v;
    for (const auto* m : {&a, &b})
        for (Eigen::Index i = 0; i < m->rows(); ++i)
            for (Eigen::Index j = 0; j < m->cols(); ++j) v.push_back(static_cast<float>((*m)(i, j)));
    write_text_file_atomic(single + "/embeddings.npy", format_npy_float32(v, {2, 32, 4}));
    const EvalRunResult one = judge_embeddings({{single, dir + "/manifest.json"}}, opt, RunContext{});
    for (std::size_t k = 0; k < 2; ++k)
        for (Protocol p : all_protocols()) {
            EXPECT_EQ(one.runs[0].records[k].result(p).t2_test, rec[k].result(p).t2_test);
            EXPECT_EQ(one.runs[0].records[k].result(p).t2_reliability, rec[k].result(p).t2_reliability);
        }
}

TEST(JudgeEmbeddings, SeveralSeedsGiveTheMultiSeedProtocol) {
    EmbeddingJudgeOptions opt;
    std::vector<EmbeddingSource> sources;
    for (std::uint64_t seed : {100u, 200u}) {
        const std::string dir = fresh_dir("seed" + std::to_string(seed));
        export_tiny(dir, 8, seed);
        save(dir + "/pair_0.npy", constant_rows(8, 4, 1.0, 1.0, 1.0));
        save(dir + "/pair_7.npy", constant_rows(8, 4, 1.0, seed == 100 ? 2.0 : 1.0, 1.0));
        sources.push_back({dir, ""});
    }
    const EvalRunResult r = judge_embeddings(sources, opt, RunContext{});
    ASSERT_EQ(r.runs.size(), 2u);
    EXPECT_EQ(r.runs[1].seed, 200u);
    EXPECT_EQ(r.summary["best_reliable_seed"], 100);
    EXPECT_EQ(r.summary["multi_seed"]["hotelling"]["brec_rule"]["total"]["distinguished"], 1);
    sources[1] = sources[0];
    EXPECT_NE(error_of([&] { judge_embeddings(sources, opt, RunContext{}); }).find("seed 100 is given twice"),
              std::string::npos);
}

TEST(JudgeEmbeddings, BadFilesAreNamedWithTheProblem) {
    const std::string dir = fresh_dir("bad");
    export_tiny(dir);
    const std::string p0 = dir + "/pair_0.npy", p7 = dir + "/pair_7.npy";
    const auto judge = [&] {
        return error_of([&] { judge_embeddings({{dir, ""}}, EmbeddingJudgeOptions{}, RunContext{}); });
    };
    save(p0, constant_rows(8, 4, 1, 1, 1));
    EXPECT_NE(judge().find(p7 + ": missing: pair 7"), std::string::npos) << judge();
    save(p7, constant_rows(8, 4, 1, 1, 1).topRows(31));
    EXPECT_NE(judge().find(p7 + ": shape [31, 4]: expected [4q = 32, d]"), std::string::npos) << judge();
    save(p7, constant_rows(8, 3, 1, 1, 1));
    EXPECT_NE(judge().find("d = 3 but " + p0 + " has d = 4"), std::string::npos) << judge();
    Eigen::MatrixXd nan = constant_rows(8, 4, 1, 1, 1);
    nan(5, 2) = std::nan("");
    save(p7, nan);
    EXPECT_NE(judge().find("row 5, column 2 is NaN"), std::string::npos) << judge();
    write_text_file_atomic(p7, format_npy_int64(std::vector<std::int64_t>(128, 1), {32, 4}));
    EXPECT_NE(judge().find("dtype '<i8': embeddings must be float32"), std::string::npos) << judge();
    save(p0, Eigen::MatrixXd::Zero(32, 8));
    save(p7, Eigen::MatrixXd::Zero(32, 8));
    EXPECT_NE(judge().find("T² needs q > d"), std::string::npos) << judge();
    save(p0, constant_rows(8, 4, 1, 1, 1));
    save(p7, constant_rows(8, 4, 1, 1, 1));
    write_text_file_atomic(dir + "/embeddings.npy", format_npy_float32(std::vector<float>(256, 0.f), {2, 32, 4}));
    EXPECT_NE(judge().find("both embeddings.npy and per-pair files"), std::string::npos) << judge();
    fs::remove(p0);
    fs::remove(p7);
    write_text_file_atomic(dir + "/embeddings.npy", format_npy_float32(std::vector<float>(128, 0.f), {1, 32, 4}));
    EXPECT_NE(judge().find("shape [1, 32, 4]: expected [pairs = 2, 4q = 32, d]"), std::string::npos) << judge();
    write_text_file_atomic(dir + "/manifest.json", "{\"format\": \"brec-export\", \"version\": 1, \"seed\": 1}");
    EXPECT_NE(judge().find("has no integer \"q\""), std::string::npos) << judge();
    write_text_file_atomic(dir + "/manifest.json", "[]");
    EXPECT_NE(judge().find("manifest.json: not a JSON object"), std::string::npos) << judge();
}

// Found by the rpc fuzz target: a field of another type or a negative count is a ParseError naming
// the field, not an exception of the JSON library or a number wrapped around.
TEST(ReadExportManifest, FieldsOfAnotherTypeOrOutOfRangeAreParseErrors) {
    const std::string dir = fresh_dir("manifest_types");
    fs::create_directories(dir);
    const std::string path = dir + "/manifest.json";
    const auto problem = [&](const std::string& head, const std::string& pair) {
        write_text_file_atomic(
            path, "{" + head + R"("pairs": [{"category": "basic", "embeddings": "p.npy", )" + pair + "}]}");
        try {
            read_export_manifest(path);
        } catch (const ParseError& e) {
            return std::string(e.what());
        }
        return std::string("no ParseError");
    };
    const std::string ok = R"("format": "brec-export", "version": 1, "seed": 3, "q": 4, )";
    const std::string ok_pair = R"("id": 7, "n": 10)";
    EXPECT_EQ(problem(ok, ok_pair), "no ParseError");
    const ExportManifest m = read_export_manifest(path);
    EXPECT_EQ(m.seed, 3u);
    EXPECT_EQ(m.q, 4);
    EXPECT_EQ(m.pairs.at(0).id, 7);
    EXPECT_EQ(m.pairs.at(0).n, 10u);
    EXPECT_NE(problem(R"("format": 1, "version": 1, "seed": 3, "q": 4, )", ok_pair).find("\"format\" is not a string"),
              std::string::npos);
    EXPECT_NE(problem(ok + R"("dataset": [1], )", ok_pair).find("\"dataset\" is not a string"), std::string::npos);
    EXPECT_NE(problem(R"("format": "brec-export", "version": 1, "seed": -1, "q": 4, )", ok_pair)
                  .find("\"seed\" must be an integer from 0"),
              std::string::npos);
    EXPECT_NE(problem(R"("format": "brec-export", "version": 1, "seed": 3, "q": 4294967298, )", ok_pair)
                  .find("\"q\" must be an integer from 0 to 1048576"),
              std::string::npos);
    EXPECT_NE(problem(ok, R"("id": -3, "n": 10)").find("pairs[0] \"id\" must be an integer from 0"), std::string::npos);
    EXPECT_NE(problem(ok, R"("id": 7, "n": 4294967296)").find("pairs[0] \"n\" must be an integer from 0 to 4294967295"),
              std::string::npos);
}

// Found with the rpc fuzz target: a baseline whose "protocols" entry is not an object with
// "categories" is a ParseError (it was an escaping JSON exception, or a read through a missing key),
// and counts beyond int compare as written.
TEST(BaselineRegressions, MalformedProtocolEntriesAreParseErrorsAndLargeCountsCompare) {
    const nlohmann::json counts = {{"pairs", 2}, {"distinguished", 1}, {"reliability_failures", 0}};
    const nlohmann::json now = {{"categories", {{"basic", counts}}},
                                {"protocols", {{"hotelling", {{"categories", {{"basic", counts}}}}}}}};
    const auto problem = [&](const std::string& baseline) {
        try {
            baseline_regressions(nlohmann::json::parse(baseline), now, "old.json");
        } catch (const ParseError& e) {
            return std::string(e.what());
        }
        return std::string("no ParseError");
    };
    EXPECT_NE(problem(R"({"categories": {}, "protocols": {"hotelling": 5}})").find("'hotelling' has no 'categories'"),
              std::string::npos);
    EXPECT_NE(problem(R"({"categories": {}, "protocols": {"hotelling": {}}})").find("'hotelling' has no 'categories'"),
              std::string::npos);
    EXPECT_NE(problem(R"({"categories": {}, "protocols": [1]})").find("'protocols' is not an object"),
              std::string::npos);
    // Another protocol's entry only: the headline counts are compared.
    EXPECT_EQ(problem(R"({"categories": {}, "protocols": {"brec_reference": {}}})"), "no ParseError");
    const auto worse = baseline_regressions(
        nlohmann::json::parse(R"({"categories": {}, "protocols": {"hotelling": {"categories": )"
                              R"({"basic": {"distinguished": 4294967297, "reliability_failures": 0}}}}})"),
        now, "old.json");
    ASSERT_EQ(worse.size(), 1u);
    EXPECT_EQ(worse[0], "basic: distinguished 1 < 4294967297 (hotelling)");
}

}  // namespace
}  // namespace brec
