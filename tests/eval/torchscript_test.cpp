// The user's own model: a TorchScript module (fixtures from tests/data/torchscript/make_fixtures.py)
// trained and judged like a built-in model, with fresh weights per pair from the pair's generator,
// one clear error per way of breaking the interface, and the same T² as the export → rpc path.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>

#include <torch/csrc/autograd/profiler_legacy.h>

#include "brec/core/error.hpp"
#include "brec/eval/run.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"
#include "brec/io/npy_numeric.hpp"
#include "brec/nn/batch.hpp"
#include "brec/rpc/embeddings.hpp"
#include "brec/rpc/export.hpp"
#include "common/test_util.hpp"
#include "nn/models/torchscript.hpp"
#include "common/test_pairs.hpp"
#include "nn/cuda_check.hpp"

namespace brec {
namespace {

using testing::error_of;

const std::string kDir = std::string(BREC_SOURCE_DIR) + "/tests/data/torchscript/";
const std::string kGin = "torchscript:" + kDir + "gin_d4.pt";
const std::string kDropout = "torchscript:" + kDir + "gin_dropout_d4.pt";
const std::string kDegrees = "torchscript:" + kDir + "degree_sequence_d4.pt";
// PpgnLike (2 blocks, torch.matmul and 1x1 Conv2d in submodules) and a torch.bmm inside an if-branch.
const std::string kPpgnBmmFile = kDir + "ppgn_bmm_d4.pt";
const std::string kPpgnBmm = "torchscript:" + kPpgnBmmFile;

ModelConfig d4() {
    ModelConfig c;
    c.out_dim = 4;
    return c;
}

/// C6 vs 2C3 (1-WL-equivalent) and P4 vs the star K1,3 (different degree sequences).
PairDataset tiny_dataset() {
    PairDataset ds;
    ds.path = "tiny";
    ds.pairs.push_back(
        testing::make_pair_record(0, "basic", make_cycle(6), disjoint_union(make_cycle(3), make_cycle(3))));
    ds.pairs.push_back(testing::make_pair_record(1, "basic", make_path(4), make_graph(4, {{0, 1}, {0, 2}, {0, 3}})));
    return ds;
}

EvalOptions small(const std::string& model) {
    EvalOptions opt;
    opt.model = model;
    opt.q = 8;
    opt.out_dim = 4;
    opt.batch = 8;
    opt.epochs = 3;
    opt.device = "cpu";
    opt.torch_threads = 1;
    return opt;
}

std::vector<Graph> some_graphs(std::uint64_t seed, int count) {
    Rng rng(seed);
    std::vector<Graph> out;
    for (int i = 0; i < count; ++i) {
        GraphBuilder b(7);
        for (VertexId u = 0; u < 7; ++u)
            for (VertexId v = u + 1; v < 7; ++v)
                if (rng.uniform() < 0.45) b.add_edge(u, v);
        out.push_back(b.build());
    }
    return out;
}

TEST(TorchScript, RegistryEntryHasGinDefaultsAndTheFileHash) {
    const ModelSpec& s = find_model(kGin).spec;
    EXPECT_TRUE(is_torchscript_model(kGin));
    EXPECT_FALSE(is_torchscript_model("gin"));
    EXPECT_EQ(s.name, kGin);
    EXPECT_EQ(s.defaults.lr, find_model("gin").spec.defaults.lr);
    EXPECT_EQ(s.defaults.epochs, find_model("gin").spec.defaults.epochs);
    EXPECT_EQ(s.defaults.loss_threshold, find_model("gin").spec.defaults.loss_threshold);
    EXPECT_TRUE(std::regex_match(s.module_hash, std::regex("[0-9a-f]{16}"))) << s.module_hash;
    EXPECT_TRUE(s.bound.empty());
    EXPECT_TRUE(s.random_op.empty());
    EXPECT_EQ(find_model(kDropout).spec.random_op.rfind("aten::dropout", 0), 0u) << find_model(kDropout).spec.random_op;
    EXPECT_NE(find_model(kDropout).spec.module_hash, s.module_hash);
    // The settings id carries the module's content: two modules never share results on resume.
    const auto a = evaluation_settings(small(kGin)), b = evaluation_settings(small(kDropout));
    EXPECT_EQ(a["module_hash"], s.module_hash);
    EXPECT_NE(settings_id(small(kGin)), settings_id(small(kDropout)));
    EXPECT_FALSE(evaluation_settings(small("gin")).contains("module_hash"));  // built-in ids unchanged
}

TEST(TorchScript, FreshWeightsPerStreamByThePyTorchDefaultRule) {
    ModelRandom r1 = make_model_random(7, torch::kCPU), r2 = make_model_random(7, torch::kCPU),
                r3 = make_model_random(8, torch::kCPU);
    const auto a = make_model(kGin, d4(), r1), b = make_model(kGin, d4(), r2), c = make_model(kGin, d4(), r3);
    const auto pa = a->named_parameters(), pb = b->named_parameters(), pc = c->named_parameters();
    ASSERT_GT(pa.size(), 0u);
    bool any_differs = false;
    for (const auto& p : pa) {
        EXPECT_TRUE(torch::equal(p.value(), pb[p.key()])) << p.key();
        any_differs = any_differs || !torch::equal(p.value(), pc[p.key()]);
        const auto& t = p.value();
        const std::string& k = p.key();
        if (t.dim() == 2) {  // U(−1/√fan_in, 1/√fan_in)
            const double bound = 1.0 / std::sqrt(static_cast<double>(t.size(1)));
            EXPECT_LE(t.abs().max().item<double>(), bound + 1e-7) << k;
            EXPECT_GT(t.abs().max().item<double>(), 0.3 * bound) << k;
        } else if (k.find("bn_weight") != std::string::npos) {
            EXPECT_TRUE(torch::equal(t, torch::ones_like(t))) << k;
        } else if (k.find("bn_bias") != std::string::npos) {
            EXPECT_TRUE(torch::equal(t, torch::zeros_like(t))) << k;
        } else if (k.find("eps") != std::string::npos) {
            EXPECT_TRUE(torch::equal(t, torch::zeros_like(t))) << k << " keeps its saved value";
        }
    }
    EXPECT_TRUE(any_differs) << "another stream must give other initial weights";
}

TEST(TorchScript, NeverDrawsFromTheGlobalGeneratorAndGradientsReachEveryParameter) {
    torch::manual_seed(1234);
    const auto expected = torch::rand({8});
    torch::manual_seed(1234);
    ModelRandom random = make_model_random(3, torch::kCPU);
    auto model = make_model(kGin, d4(), random);
    const auto graphs = some_graphs(5, 6);
    model->set_graphs(graphs, torch::kCPU);
    model->train();
    const auto out = model->forward_range(0, graphs.size());
    ASSERT_EQ(out.size(0), 6);
    ASSERT_EQ(out.size(1), 4);
    (out * torch::arange(24, torch::kFloat).view({6, 4})).sum().backward();
    for (const auto& p : model->named_parameters()) {
        ASSERT_TRUE(p.value().grad().defined()) << p.key() << " got no gradient";
        EXPECT_TRUE(torch::isfinite(p.value().grad()).all().item<bool>()) << p.key();
    }
    model->eval();
    {
        torch::NoGradGuard no_grad;
        model->forward_range(0, graphs.size());
    }
    EXPECT_TRUE(torch::equal(torch::rand({8}), expected));
}

TEST(TorchScript, RelabelingsOfAGraphGetOneEmbedding) {
    Rng rng(21);
    const Graph g = some_graphs(3, 1)[0];
    std::vector<Graph> batch{g, permute(g, rng.permutation(7)), some_graphs(4, 1)[0], permute(g, rng.permutation(7))};
    ModelRandom random = make_model_random(4, torch::kCPU);
    auto model = make_model(kGin, d4(), random);
    model->set_graphs(batch, torch::kCPU);
    model->train();
    model->forward_range(0, batch.size());
    model->eval();
    torch::NoGradGuard no_grad;
    const auto out = model->forward_range(0, batch.size());
    EXPECT_TRUE(torch::allclose(out[0], out[1], 1e-4, 1e-5)) << out;
    EXPECT_TRUE(torch::allclose(out[0], out[3], 1e-4, 1e-5)) << out;
}

TEST(TorchScript, EachBrokenInterfaceIsNamed) {
    const auto check = [&](const std::string& file, const ModelConfig& c) {
        return error_of([&] { check_model("torchscript:" + kDir + file, c); });
    };
    EXPECT_NE(check("bad_no_forward.pt", d4()).find("has no forward method"), std::string::npos);
    EXPECT_NE(
        check("bad_three_arguments.pt", d4()).find("forward takes 3 arguments (x, edge_index, batch); expected 4"),
        std::string::npos);
    EXPECT_NE(check("bad_tensor_count.pt", d4()).find("argument 4 'num_graphs' is Tensor; expected int"),
              std::string::npos);
    EXPECT_NE(check("bad_tuple.pt", d4()).find("forward returns (Tensor, Tensor); expected one Tensor"),
              std::string::npos);
    EXPECT_NE(check("bad_width_8.pt", d4()).find("forward returned shape [4, 8] for 4 graphs; expected [4, 4]"),
              std::string::npos);
    EXPECT_NE(check("bad_nan.pt", d4()).find("NaN or infinite"), std::string::npos);
    EXPECT_NE(check("bad_not_torchscript.pt", d4()).find("is not a TorchScript module"), std::string::npos);
    EXPECT_NE(check("missing.pt", d4()).find("cannot open"), std::string::npos);
    EXPECT_NE(error_of([] { find_model("torchscript:"); }).find("needs a file"), std::string::npos);
    ModelConfig wide = d4();
    wide.input_features = "label";
    wide.label_classes = 3;  // the module's first layer takes one column
    const std::string e = check("gin_d4.pt", wide);
    EXPECT_NE(e.find("forward failed on 4 graphs"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << "one line: " << e;
    EXPECT_TRUE(check("gin_d4.pt", d4()).empty());
    EXPECT_TRUE(check("degree_sequence_d4.pt", d4()).empty());
}

TEST(TorchScript, TrainedAndJudgedLikeABuiltInModel) {
    const PairDataset ds = tiny_dataset();
    const EvalOptions opt = small(kGin);
    const EvalRecord r = evaluate_pair(ds.pairs[0], opt, 3);
    EXPECT_EQ(r.model, kGin);
    EXPECT_GT(r.epochs, 0);
    for (Protocol p : all_protocols()) {
        EXPECT_FALSE(r.result(p).distinguished);  // 1-WL-equivalent: no MPNN separates them
        EXPECT_TRUE(r.result(p).reliable);
    }
    const EvalRecord again = evaluate_pair(ds.pairs[0], opt, 3);
    EXPECT_EQ(again.hotelling.t2_test, r.hotelling.t2_test);
    EXPECT_EQ(again.losses, r.losses);
    EXPECT_TRUE(evaluate_pair(ds.pairs[1], opt, 3).hotelling.counts());  // 1-WL separates P4 from the star
}

TEST(TorchScript, RandomOperationsStayReproducibleAcrossJobs) {
    EvalRunOptions run;
    run.eval = small(kDropout);
    run.seeds = {100};
    run.dataset = "tiny";
    PairDataset ds = tiny_dataset();
    ds.pairs.push_back(
        testing::make_pair_record(2, "basic", make_cycle(8), disjoint_union(make_cycle(4), make_cycle(4))));
    ds.pairs.push_back(testing::make_pair_record(3, "basic", make_cycle(5), make_path(5)));
    std::vector<std::vector<EvalRecord>> results;
    for (int jobs : {1, 2, 4}) {
        run.jobs = jobs;
        RunContext ctx;
        results.push_back(run_evaluation(ds, {0, 1, 2, 3}, run, ctx).runs[0].records);
    }
    for (std::size_t k = 1; k < results.size(); ++k)
        for (std::size_t i = 0; i < 4; ++i) {
            EXPECT_EQ(results[k][i].losses, results[0][i].losses) << "pair " << i;
            EXPECT_EQ(results[k][i].hotelling.t2_test, results[0][i].hotelling.t2_test) << "pair " << i;
        }
}

TEST(TorchScript, ExportThenRpcGivesTheT2OfEval) {
    // A fixed invariant (sorted degrees, no parameters): brec eval through the module and the
    // export → user embeddings → rpc path see the same graphs and so the same embeddings.
    const PairDataset ds = tiny_dataset();
    EvalRunOptions run;
    run.eval = small(kDegrees);
    run.seeds = {100};
    RunContext ctx;
    const auto eval = run_evaluation(ds, {0, 1}, run, ctx).runs[0].records;

    const std::string dir = testing::temp_path("torchscript", "export");
    std::filesystem::remove_all(dir);
    ExportOptions ex;
    ex.q = 8;
    export_pair_groups(ds, {0, 1}, ex, dir, ctx);
    for (const auto& pair : ds.pairs) {
        std::vector<float> rows;
        for (const auto& line : split_lines(read_text_file(dir + "/pair_" + std::to_string(pair.id) + ".g6"))) {
            auto degrees = parse_graph6(line).degree_sequence();
            degrees.resize(4, 0);
            for (auto d : degrees) rows.push_back(static_cast<float>(d));
        }
        write_text_file_atomic(dir + "/pair_" + std::to_string(pair.id) + ".npy", format_npy_float32(rows, {32, 4}));
    }
    const auto judged = judge_embeddings({{dir, ""}}, EmbeddingJudgeOptions{}, ctx).runs[0].records;
    ASSERT_EQ(judged.size(), 2u);
    for (std::size_t k = 0; k < 2; ++k)
        for (Protocol p : all_protocols()) {
            SCOPED_TRACE("pair " + std::to_string(k) + " " + protocol_name(p));
            EXPECT_EQ(eval[k].epochs, 0);  // nothing to train
            EXPECT_EQ(judged[k].result(p).t2_test, eval[k].result(p).t2_test);
            EXPECT_EQ(judged[k].result(p).t2_reliability, eval[k].result(p).t2_reliability);
            EXPECT_EQ(judged[k].result(p).distinguished, eval[k].result(p).distinguished);
            EXPECT_EQ(judged[k].result(p).reliable, eval[k].result(p).reliable);
        }
    EXPECT_FALSE(eval[0].hotelling.distinguished);
    EXPECT_TRUE(eval[1].hotelling.counts());
}

TEST(TorchScript, ExportedEdgeIndexIsTheModelsBatch) {
    const auto graphs = some_graphs(9, 5);
    const EdgeIndexArrays a = edge_index_arrays(graphs, 1, 4);
    const nn::SparseBatch b = nn::make_sparse_batch(graphs, 1, 4, torch::kCPU);
    const auto vec = [](const torch::Tensor& t) {
        return std::vector<std::int64_t>(t.data_ptr<std::int64_t>(), t.data_ptr<std::int64_t>() + t.numel());
    };
    EXPECT_EQ(a.src, vec(b.src));
    EXPECT_EQ(a.dst, vec(b.dst));
    EXPECT_EQ(a.batch, vec(b.graph_of));
}

TEST(TorchScript, InputFeatures) {
    EvalOptions opt = small(kGin);
    opt.input_features = "degree";
    EXPECT_NO_THROW(evaluate_pair(tiny_dataset().pairs[0], opt, 1));
    opt.input_features = "label";
    EXPECT_NE(
        error_of([&] { evaluate_pair(tiny_dataset().pairs[0], opt, 1); }).find("need node labels, but pair 0 has none"),
        std::string::npos);
    GraphBuilder a(4), b(4);
    for (const auto& e : make_cycle(4).edges()) a.add_edge(e.first, e.second);
    for (const auto& e : make_path(4).edges()) b.add_edge(e.first, e.second);
    a.set_node_labels({0, 0, 0, 0});
    b.set_node_labels({0, 0, 0, 0});
    EXPECT_NO_THROW(
        evaluate_pair(testing::make_pair_record(5, "x", a.build(), b.build()), opt, 1));  // one class: width 1
    opt.model = "gin";
    opt.input_features = "degree";
    EXPECT_NE(error_of([&] { resolve_hyper(opt); }).find("are for a user's module"), std::string::npos);
    opt = small(kGin);
    opt.hidden = 64;
    EXPECT_NE(error_of([&] { resolve_hyper(opt); }).find("are its own; they cannot be set"), std::string::npos);
    // A changed feature choice is another experiment.
    EXPECT_NE(settings_id(small(kGin)), [] {
        auto o = small(kGin);
        o.input_features = "degree";
        return settings_id(o);
    }());
}

/// How often each operator ran (profiler ranges on this thread and the threads it starts) in f().
template <class F>
std::map<std::string, int> operators_run(F f) {
    namespace prof = torch::autograd::profiler;
    prof::enableProfilerLegacy(torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::CPU));
    try {
        f();
    } catch (...) {
        prof::disableProfilerLegacy();
        throw;
    }
    std::map<std::string, int> calls;
    for (const auto& list : prof::disableProfilerLegacy())
        for (const auto& e : list)
            if (e.kindStr() == "push") ++calls[e.name()];
    return calls;
}

/// Nodes of `kind` in a block and its sub-blocks.
int count_nodes(torch::jit::Block* block, const std::string& kind) {
    int count = 0;
    for (torch::jit::Node* node : block->nodes()) {
        count += node->kind().toQualString() == kind;
        for (torch::jit::Block* sub : node->blocks()) count += count_nodes(sub, kind);
    }
    return count;
}

TEST(TorchScript, RewrittenProductsGiveTheSameEmbeddingsAndGradients) {
    find_model(kPpgnBmm);  // loaded as eval loads it (and LibTorch's executor set as for eval)
    EXPECT_EQ(models::torchscript_rewritten(kPpgnBmmFile), 13);  // 2 matmul, 1 bmm, 10 conv2d
    // The same file twice (two compilation units): one as saved, one rewritten.
    torch::jit::Module plain = torch::jit::load(kPpgnBmmFile), fast = torch::jit::load(kPpgnBmmFile);
    ASSERT_EQ(models::rewrite_products(fast), 13);
    const auto fast_graph = fast.get_method("forward").graph();
    EXPECT_EQ(count_nodes(fast_graph->block(), "aten::matmul"), 0);
    EXPECT_EQ(count_nodes(fast_graph->block(), "aten::bmm"), 0);
    EXPECT_EQ(count_nodes(fast_graph->block(), "brec::matmul"), 2);
    EXPECT_EQ(count_nodes(fast_graph->block(), "brec::bmm"), 1);
    EXPECT_EQ(count_nodes(fast_graph->block(), "aten::conv2d"), 0);
    EXPECT_EQ(count_nodes(fast_graph->block(), "brec::conv2d"), 10);
    EXPECT_EQ(count_nodes(plain.get_method("forward").graph()->block(), "aten::bmm"), 1);  // untouched

    const auto graphs = some_graphs(6, 5);
    const nn::SparseBatch b = nn::make_sparse_batch(graphs, 0, graphs.size(), torch::kCPU);
    const std::vector<c10::IValue> inputs{torch::ones({b.nodes, 1}), torch::stack({b.src, b.dst}), b.graph_of,
                                          static_cast<std::int64_t>(b.graphs)};
    const auto weights = torch::randn({b.graphs, 4}, torch::Generator(at::detail::createCPUGenerator(5)));
    for (bool training : {true, false}) {
        SCOPED_TRACE(training ? "training" : "eval");
        std::map<std::string, torch::Tensor> grads[2];
        torch::Tensor out[2];
        int k = 0;
        for (torch::jit::Module* m : {&plain, &fast}) {
            m->train(training);
            std::unique_ptr<torch::NoGradGuard> no_grad(training ? nullptr : new torch::NoGradGuard);
            out[k] = m->forward(inputs).toTensor();
            if (training) {
                (out[k] * weights).sum().backward();
                for (const auto& p : m->named_parameters()) {
                    ASSERT_TRUE(p.value.grad().defined()) << p.name;
                    grads[k][p.name] = p.value.grad().clone();
                    p.value.mutable_grad() = torch::Tensor();
                }
            }
            ++k;
        }
        ASSERT_EQ(out[0].sizes(), out[1].sizes());
        EXPECT_GT(out[0].abs().sum().item<double>(), 0.0);
        EXPECT_TRUE(torch::allclose(out[0], out[1], 1e-4, 1e-5)) << out[0] << out[1];
        EXPECT_EQ(grads[0].size(), grads[1].size());
        // The closing BatchNorm over 5 graphs amplifies rounding (the biases before a BatchNorm have
        // gradient 0 up to rounding): gradients agree to 1e-3 of their own size plus 1e-4 of the
        // largest one (a wrong product or gradient would be off by their whole size).
        double largest = 0.0;
        for (const auto& [name, g] : grads[0]) largest = std::max(largest, g.abs().max().item<double>());
        for (const auto& [name, g] : grads[0]) {
            const double diff = (g - grads[1][name]).abs().max().item<double>();
            EXPECT_LE(diff, 1e-3 * g.abs().max().item<double>() + 1e-4 * largest) << name;
        }
        if (training) {  // bmm's second operand has a gradient of its own
            EXPECT_GT(grads[0].at("mix").abs().max().item<double>(), 1e-3 * largest);
        }
    }
}

TEST(TorchScript, EveryPairsCopyRunsBrecsProducts) {
    const auto graphs = some_graphs(7, 6);
    for (std::uint64_t stream : {1, 2}) {  // two pairs' deep copies
        ModelRandom random = make_model_random(stream, torch::kCPU);
        auto model = make_model(kPpgnBmm, d4(), random);
        model->set_graphs(graphs, torch::kCPU);
        model->train();
        const auto training = operators_run([&] { model->forward_range(0, graphs.size()).pow(2).sum().backward(); });
        EXPECT_EQ(training.count("brec::matmul") ? training.at("brec::matmul") : 0, 2);
        EXPECT_EQ(training.count("brec::bmm") ? training.at("brec::bmm") : 0, 1);
        EXPECT_EQ(training.count("brec::conv2d") ? training.at("brec::conv2d") : 0, 10);
        EXPECT_EQ(training.count("aten::matmul") + training.count("aten::bmm"), 0u) << "torch's products ran";
        EXPECT_EQ(training.count("aten::convolution") + training.count("aten::convolution_backward"), 0u);
        for (const auto& p : model->named_parameters()) EXPECT_TRUE(p.value().grad().defined()) << p.key();
        model->eval();
        const auto eval = operators_run([&] {
            torch::NoGradGuard no_grad;
            model->forward_range(0, graphs.size());
        });
        EXPECT_EQ(eval.count("brec::matmul") ? eval.at("brec::matmul") : 0, 2);
        EXPECT_EQ(eval.count("brec::conv2d") ? eval.at("brec::conv2d") : 0, 10);
        EXPECT_EQ(eval.count("aten::matmul") + eval.count("aten::bmm") + eval.count("aten::convolution"), 0u);
    }
}

TEST(TorchScript, CudaGivesTheCpuDecisions) {
    const auto device = testing::cuda_check_device();
    if (!device) GTEST_SKIP() << testing::kNoCudaDevice;
    for (const auto& model : {kGin, kPpgnBmm}) {  // the PPGN-like module through brec::matmul's fallback
        EvalOptions opt = small(model);
        for (const auto& pair : tiny_dataset().pairs) {
            const auto cpu = evaluate_pair(pair, opt, 3);
            opt.device = device->str();
            const auto gpu = evaluate_pair(pair, opt, 3);
            opt.device = "cpu";
            EXPECT_EQ(gpu.hotelling.distinguished, cpu.hotelling.distinguished) << pair.id;
            EXPECT_EQ(gpu.hotelling.reliable, cpu.hotelling.reliable) << pair.id;
            EXPECT_EQ(gpu.epochs, cpu.epochs) << pair.id;
        }
    }
}

}  // namespace
}  // namespace brec
