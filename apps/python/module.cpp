// brec._brec: the Python front-end of the library (the pure-Python layer is brec/__init__.py).
// Each function converts its arguments, calls one library function and converts the result back;
// brec's errors become Python exceptions with the command line's one-line messages.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <iostream>
#include <mutex>
#include <thread>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <torch/python.h>

#include "brec/core/error.hpp"
#include "brec/core/progress.hpp"
#include "brec/core/rng.hpp"
#include "brec/eval/run.hpp"
#include "brec/io/categories.hpp"
#include "brec/io/graph6.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/records.hpp"
#include "brec/io/results_store.hpp"
#include "brec/nn/device.hpp"
#include "brec/rpc/groups.hpp"
#include "brec/rpc/run_summary.hpp"
#include "brec/stats/hotelling.hpp"
#include "brec/wl/run.hpp"
#include "python_model.hpp"

namespace py = pybind11;

namespace brec::python {
namespace {

PairDataset read_dataset(const std::string& path) { return read_pair_file(path.empty() ? BREC_DEFAULT_DATASET : path); }

std::vector<std::size_t> selected(const PairDataset& dataset, const std::vector<std::string>& categories,
                                  const std::string& ids) {
    PairSelection sel;
    sel.categories = categories;
    sel.id_ranges = ids;
    return select_pairs(dataset, sel);
}

/// [2, 2m] int64: both directions of every edge (the edge_index of PyTorch Geometric).
torch::Tensor edge_index(const Graph& g) {
    auto t = torch::empty({2, 2 * static_cast<std::int64_t>(g.m())}, torch::kLong);
    auto* p = t.data_ptr<std::int64_t>();
    const std::int64_t arcs = t.size(1);
    std::int64_t k = 0;
    for (const Edge& e : g.edges()) {
        p[k] = e.first, p[arcs + k] = e.second, ++k;
        p[k] = e.second, p[arcs + k] = e.first, ++k;
    }
    return t;
}

py::dict graph_dict(const Graph& g) {
    py::dict d;
    d["num_nodes"] = g.n();
    d["edge_index"] = edge_index(g);
    d["graph6"] = to_graph6(g);
    return d;
}

py::list pairs(const std::string& path, const std::vector<std::string>& categories, const std::string& ids) {
    const PairDataset dataset = read_dataset(path);
    py::list out;
    for (const std::size_t k : selected(dataset, categories, ids)) {
        const GraphPairRecord& p = dataset.pairs[k];
        py::dict d;
        d["id"] = p.id;
        d["category"] = p.category;
        d["group"] = brec_group_of(p.category);
        d["a"] = graph_dict(p.a);
        d["b"] = graph_dict(p.b);
        out.append(d);
    }
    return out;
}

py::dict groups(const std::string& path, PairId id, std::uint64_t seed, int q) {
    const PairDataset dataset = read_dataset(path);
    const std::vector<std::size_t> k = selected(dataset, {}, std::to_string(id));
    const GraphPairRecord& pair = dataset.pairs[k.front()];
    Rng rng(stream_seed(seed, static_cast<std::uint64_t>(pair.id)));
    const PairGroups g = make_pair_groups(pair, q, rng);
    py::dict d;
    py::list traintest, reliability;
    for (const Graph& x : g.traintest) traintest.append(graph_dict(x));
    for (const Graph& x : g.reliability) reliability.append(graph_dict(x));
    d["traintest"] = traintest;
    d["reliability"] = reliability;
    d["reliability_of_b"] = g.reliability_of_b;
    return d;
}

Eigen::MatrixXd matrix(const torch::Tensor& t, const char* what) {
    if (t.dim() != 2) throw InvalidArgument(std::string(what) + " must be a 2-D [2q, d] array");
    const torch::Tensor c = t.detach().to(torch::kCPU, torch::kDouble).contiguous();
    Eigen::MatrixXd m(c.size(0), c.size(1));
    const double* p = c.data_ptr<double>();
    for (std::int64_t i = 0; i < c.size(0); ++i)
        for (std::int64_t j = 0; j < c.size(1); ++j) m(i, j) = p[i * c.size(1) + j];
    if (!m.allFinite()) throw InvalidArgument(std::string(what) + " holds NaN or infinite values");
    return m;
}

py::dict decision(const RpcDecision& x) {
    py::dict d;
    d["t2_test"] = x.t2_test;
    d["t2_reliability"] = x.t2_reliability;
    d["threshold"] = x.threshold;
    d["distinguished"] = x.distinguished;
    d["reliable"] = x.reliable;
    return d;
}

py::dict rpc(const torch::Tensor& test, const torch::Tensor& reliability, double alpha, double relative_noise) {
    RpcSettings s;
    s.alpha = alpha;
    s.relative_noise = relative_noise;
    const RpcProtocols r = rpc_from_embeddings(matrix(test, "test"), matrix(reliability, "reliability"), s);
    py::dict d;
    d["hotelling"] = decision(r.hotelling);
    d["brec_reference"] = decision(r.brec_reference);
    return d;
}

/// Runs `work` on a thread of its own while this (the Python) thread waits with the GIL released,
/// waking every 0.1 s to let Python handle signals: on Ctrl-C the run is cancelled through `ctx`,
/// its whole records stay, and KeyboardInterrupt is raised once it has stopped.
template <typename Work>
void run_interruptible(RunContext& ctx, Work&& work) {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    std::exception_ptr error;
    std::thread worker([&] {
        try {
            work();
        } catch (...) {
            error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(mutex);
        done = true;
        cv.notify_all();
    });
    std::unique_ptr<py::error_already_set> interrupt;
    for (;;) {
        {
            py::gil_scoped_release release;
            std::unique_lock<std::mutex> lock(mutex);
            if (cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) break;
        }
        if (!interrupt && PyErr_CheckSignals() != 0) {
            interrupt = std::make_unique<py::error_already_set>();
            ctx.cancel();
        }
    }
    {
        py::gil_scoped_release release;
        worker.join();
    }
    if (interrupt) throw *interrupt;
    if (error) std::rethrow_exception(error);
}

/// brec.evaluate's C++ half: `options` are run_evaluation's settings as the Python layer names them.
py::tuple evaluate(PythonModelSpec spec, const py::dict& o) {
    const auto get = [&](const char* key) { return o[key]; };
    EvalRunOptions run;
    EvalOptions& opt = run.eval;
    opt.model = spec.name;
    const auto maybe_int = [&](const char* key, std::optional<int>& to) {
        if (!get(key).is_none()) to = get(key).cast<int>();
    };
    const auto maybe_double = [&](const char* key, std::optional<double>& to) {
        if (!get(key).is_none()) to = get(key).cast<double>();
    };
    maybe_int("batch", opt.batch);
    maybe_int("epochs", opt.epochs);
    maybe_double("lr", opt.lr);
    maybe_double("weight_decay", opt.weight_decay);
    maybe_double("loss_threshold", opt.loss_threshold);
    opt.q = get("q").cast<int>();
    opt.out_dim = get("out_dim").cast<int>();
    opt.alpha = get("alpha").cast<double>();
    opt.rapc = get("method").cast<std::string>() == "rapc";
    if (!opt.rapc && get("method").cast<std::string>() != "rpc")
        throw InvalidArgument("method must be rpc or rapc, not '" + get("method").cast<std::string>() + "'");
    opt.train = get("train").cast<bool>();
    opt.device = get("device").cast<std::string>();
    opt.input_features = get("input_features").cast<std::string>();
    run.protocol = parse_protocol(get("protocol").cast<std::string>());
    run.seeds = parse_seed_list(get("seeds").cast<std::string>());
    run.out = get("out").cast<std::string>();
    run.resume = get("resume").cast<bool>();
    const int jobs = get("jobs").cast<int>();
    if (jobs < 1) throw InvalidArgument("jobs must be >= 1");
    run.jobs = jobs;

    RunContext ctx;
    ctx.set_threads(jobs);
    if (!get("quiet").cast<bool>()) {
        ctx.set_progress(stderr_progress());
        ctx.set_log([](LogLevel, const std::string& msg) { std::cerr << "brec: " << msg << '\n'; }, LogLevel::warn);
    }
    spec.ctx = &ctx;
    opt.user_model = python_model_entry(std::move(spec));
    parse_device(opt.device);
    resolve_hyper(opt);
    const PairDataset dataset = read_dataset(get("dataset").cast<std::string>());
    const std::vector<std::size_t> indices =
        selected(dataset, get("categories").cast<std::vector<std::string>>(), get("ids").cast<std::string>());
    run.dataset = get("dataset").cast<std::string>().empty() ? dataset.path : get("dataset").cast<std::string>();
    configure_cpu_threads(opt, jobs, get("torch_threads").cast<int>());
    const std::string baseline = get("baseline").cast<std::string>();
    const nlohmann::json baseline_json = read_baseline(baseline);  // a bad file fails before any work

    EvalRunResult result;
    run_interruptible(ctx, [&] { result = run_evaluation(dataset, indices, run, ctx); });
    opt.user_model.reset();  // its modules go with the GIL held
    write_run_files(result, run.out.empty() ? "" : run.out + ".summary.json", get("junit").cast<std::string>(),
                    "brec.evaluate " + opt.model, run.protocol);
    nlohmann::json summary = result.summary;
    if (!baseline_json.is_null())
        summary["regressions"] = baseline_regressions(baseline_json, result.summary, baseline, run.protocol);
    py::list records;
    for (const auto& seed_run : result.runs)
        for (const EvalRecord& r : seed_run.records) records.append(to_json(r).dump());
    return py::make_tuple(summary.dump(), records);
}

/// A pair command's run (run_wl, run_certify) on the selected pairs, interruptible: (summary, records)
/// as JSON text.
template <typename Options, typename Run>
py::tuple pair_command(const std::string& path, const std::vector<std::string>& categories, const std::string& ids,
                       const Options& opt, Run run) {
    const PairDataset dataset = read_dataset(path);
    const std::vector<std::size_t> indices = selected(dataset, categories, ids);
    RunContext ctx;
    ctx.set_threads(opt.jobs);
    decltype(run(dataset, indices, opt, ctx)) result;
    run_interruptible(ctx, [&] { result = run(dataset, indices, opt, ctx); });
    py::list records;
    for (const auto& r : result.records) records.append(to_json(r).dump());
    return py::make_tuple(result.summary.dump(), records);
}

py::tuple wl(const std::string& method, const std::string& path, const std::vector<std::string>& categories,
             const std::string& ids, bool reliability, std::uint64_t seed, int jobs) {
    WlRunOptions opt;
    opt.wl = WlOptions(WlMethod::parse(method));
    opt.reliability = reliability;
    opt.seed = seed;
    opt.jobs = jobs;
    return pair_command(path, categories, ids, opt, run_wl);
}

py::tuple certify(const std::string& path, const std::vector<std::string>& categories, const std::string& ids,
                  int max_fwl, const std::vector<std::string>& tests, int jobs) {
    CertifyRunOptions opt;
    opt.max_fwl = max_fwl;
    opt.tests = tests;
    opt.jobs = jobs;
    return pair_command(path, categories, ids, opt, run_certify);
}

/// The message `brec` prints for a results file it will not write.
std::string results_file_message(const ResultsFileError& e) {
    if (e.problem() == ResultsFileError::Problem::other_settings) return e.what();
    if (e.problem() == ResultsFileError::Problem::nothing_to_resume) return "resume=True needs out=FILE.jsonl";
    return "out=" + e.path() + " already holds results; pass resume=True to continue that run, or remove the file";
}

}  // namespace
}  // namespace brec::python

PYBIND11_MODULE(_brec, m) {
    using namespace brec;
    using namespace brec::python;
    m.doc() = "brec's C++ library (use the brec package, not this module)";
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const ResultsFileError& e) {
            PyErr_SetString(PyExc_ValueError, results_file_message(e).c_str());
        } catch (const Cancelled& e) {
            PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
        } catch (const IoError& e) {
            PyErr_SetString(PyExc_OSError, e.what());
        } catch (const Error& e) {  // ParseError, InvalidArgument, Unsupported, ResourceLimit
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });
    m.def("pairs", &pairs, py::arg("path"), py::arg("categories"), py::arg("ids"));
    m.def("groups", &groups, py::arg("path"), py::arg("id"), py::arg("seed"), py::arg("q"));
    m.def("rpc", &rpc, py::arg("test"), py::arg("reliability"), py::arg("alpha"), py::arg("relative_noise"));
    m.def("wl", &wl, py::arg("method"), py::arg("path"), py::arg("categories"), py::arg("ids"), py::arg("reliability"),
          py::arg("seed"), py::arg("jobs"));
    m.def("certify", &certify, py::arg("path"), py::arg("categories"), py::arg("ids"), py::arg("max_fwl"),
          py::arg("tests"), py::arg("jobs"));
    m.def(
        "evaluate",
        [](py::object module, py::object factory, bool data_style, bool own_reset, std::string name,
           std::string module_hash, py::object make_data, const py::dict& options) {
            PythonModelSpec spec;
            spec.name = std::move(name);
            spec.module_hash = std::move(module_hash);
            spec.style = data_style ? ForwardStyle::data : ForwardStyle::tensors;
            spec.own_reset = own_reset;
            spec.module = std::move(module);
            spec.factory = std::move(factory);
            spec.make_data = std::move(make_data);
            return evaluate(std::move(spec), options);
        },
        py::arg("module"), py::arg("factory"), py::arg("data_style"), py::arg("own_reset"), py::arg("name"),
        py::arg("module_hash"), py::arg("make_data"), py::arg("options"));
}
