// brec eval: Siamese training + RPC on every selected pair, per seed; JSONL per pair (resumable),
// per-category summary, multi-seed protocol, CI regression check and JUnit output.
#include <algorithm>
#include <iostream>
#include <sstream>
#include <thread>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/error.hpp"
#include "brec/eval/run.hpp"
#include "brec/eval/siamese.hpp"
#include "brec/io/files.hpp"
#include "brec/io/summary.hpp"
#include "brec/nn/models.hpp"

namespace brec::cli {
namespace {

struct EvalArgs {
    PairArgs pairs;
    EvalOptions opt;
    std::uint64_t seed = 100;
    std::vector<std::uint64_t> seeds;
    std::string method = "rpc";
    std::string out;
    bool resume = false;
    bool fine = false;
    bool no_train = false;
    bool list_models = false;
    bool reference_t2 = false;
    std::string baseline;
    std::string junit;
    int torch_threads = 0;
};

int run_eval(EvalArgs args, RunContext& ctx) {
    if (args.list_models) {
        std::cout << describe_models();
        return 0;
    }
    set_quiet(ctx, args.pairs.quiet);
    args.opt.rapc = args.method == "rapc";
    args.opt.train = !args.no_train;
    args.opt.t2_form = args.reference_t2 ? T2Form::reference : T2Form::standard;
    resolve_hyper(args.opt);  // validates the model and hyperparameters before reading anything
    nlohmann::json baseline;
    if (!args.baseline.empty()) {
        baseline = nlohmann::json::parse(read_text_file(args.baseline), nullptr, false);
        if (baseline.is_discarded()) throw ParseError(args.baseline, 0, "not JSON");
        baseline_regressions(baseline, nlohmann::json{{"categories", nlohmann::json::object()}}, args.baseline);
    }
    const auto sel = load_selected_pairs(args.pairs);
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // Pairs run in parallel (--jobs), each with its own intra-op threads; OpenMP keeps the count
    // per calling thread, so every job sets it (EvalOptions::torch_threads). Without an explicit
    // --torch-threads, small graphs (n < 32) run single-threaded.
    args.opt.torch_threads = args.torch_threads > 0 ? args.torch_threads : std::max(1, hw / args.pairs.jobs);
    args.opt.single_thread_below = args.torch_threads > 0 ? 0 : 32;
    set_torch_threads(args.opt.torch_threads);
    tune_cpu_allocator();

    EvalRunOptions run;
    run.eval = args.opt;
    run.seeds = args.seeds.empty() ? std::vector<std::uint64_t>{args.seed} : args.seeds;
    run.jobs = args.pairs.jobs;
    run.out = args.out;
    run.resume = args.resume;
    run.dataset = args.pairs.dataset.empty() ? sel.dataset.path : args.pairs.dataset;
    run.shard = args.pairs.shard;
    const EvalRunResult result = run_evaluation(sel.dataset, sel.indices, run, ctx);

    const bool any_reliable = result.best_reliable < result.runs.size();
    const auto& shown = result.runs[any_reliable ? result.best_reliable : 0];
    if (!args.out.empty()) write_text_file_atomic(args.out + ".summary.json", result.summary.dump(1) + "\n");
    if (!args.junit.empty())
        write_text_file_atomic(args.junit, junit_xml(shown.records, "brec eval " + args.opt.model, result.seconds));
    if (args.pairs.json) {
        for (const auto& j : shown.records) print_json_line(j);
        print_json_line(result.summary);
    } else {
        for (const auto& r : result.runs)
            std::cout << "model " << args.opt.model << ", seed " << r.seed << " (" << sel.indices.size() << " pairs, "
                      << format_seconds(r.summary["seconds"].get<double>()) << ")\n\n"
                      << summary_table(r.summary, args.fine) << "\n";
        if (result.runs.size() > 1)
            std::cout << "best seed with no reliability failure: "
                      << (any_reliable ? std::to_string(result.runs[result.best_reliable].seed) : "none") << "\n";
    }
    if (!baseline.is_null()) {
        const auto worse = baseline_regressions(baseline, result.summary, args.baseline);
        for (const auto& w : worse) std::cerr << "brec: regression against " << args.baseline << ": " << w << '\n';
        if (!worse.empty()) return 3;
    }
    return 0;
}

std::vector<std::uint64_t> parse_seeds(const std::string& text) {
    std::vector<std::uint64_t> out;
    std::stringstream ss(text);
    std::string tok;
    while (std::getline(ss, tok, ',')) {
        std::size_t pos = 0;
        unsigned long long v = 0;
        try {
            v = std::stoull(tok, &pos);
        } catch (...) {
            pos = 0;
        }
        if (pos == 0 || pos != tok.size() || tok[0] == '-') throw InvalidArgument("--seeds '" + text + "': '" + tok + "' is not a seed");
        out.push_back(v);
    }
    return out;
}

}  // namespace

void add_eval(CLI::App& root, Action& action) {
    auto args = std::make_shared<EvalArgs>();
    auto seeds_text = std::make_shared<std::string>();
    auto* sub = root.add_subcommand(
        "eval", "Train a fresh GNN per pair to tell G from H (Siamese, cosine loss), then judge it with\n"
                "BREC's reliable paired comparison (Hotelling T^2 against a reliability group).\n"
                "Hyperparameters default to the model's row of the BREC study (see --list-models).\n"
                "Exit codes: 0 ok, 2 bad input, 3 regression against --baseline.\n"
                "Example: brec eval --model ppgn --category basic --out ppgn.jsonl --resume");
    sub->add_option("--model,-m", args->opt.model, "Model name (gin, ppgn)")->capture_default_str();
    sub->add_flag("--list-models", args->list_models, "List the models and their default settings");
    sub->add_option("--seed", args->seed, "Seed (model initialisation and relabelings per pair)")->capture_default_str();
    sub->add_option("--seeds", *seeds_text, "Several seeds, e.g. 100,200,...,1000 (multi-seed protocol)");
    sub->add_option("--method", args->method, "rpc (fixed F threshold) or rapc (adaptive threshold)")
        ->check(CLI::IsMember({"rpc", "rapc"}))->capture_default_str();
    sub->add_option("--rapc-groups", args->opt.rapc_groups, "RAPC: groups p per graph (false-positive bound 1/2^(2p))")
        ->capture_default_str();
    sub->add_option("--device", args->opt.device, "auto, cpu, cuda or cuda:N")->capture_default_str();
    sub->add_option("--kernel", args->opt.kernel,
                    "PPGN CPU kernels: auto (BLAS sgemm per matrix when found), blas, or torch (plain torch ops)")
        ->check(CLI::IsMember({"auto", "blas", "torch"}))->capture_default_str();
    sub->add_option("--out,-o", args->out, "Append one JSON line per pair here; FILE.summary.json gets the summary");
    sub->add_flag("--resume", args->resume, "Skip pairs (per seed) already in --out");
    sub->add_flag("--fine", args->fine, "Show the 7 fine categories");
    sub->add_flag("--no-train", args->no_train, "Judge the randomly initialised model (training ablation)");
    sub->add_option("--epochs", args->opt.epochs, "Training epochs (default: model's)");
    sub->add_option("--lr", args->opt.lr, "Learning rate (default: model's)");
    sub->add_option("--wd", args->opt.weight_decay, "Weight decay (default: model's)");
    sub->add_option("--batch", args->opt.batch, "Graphs per batch, even (default: model's)");
    sub->add_option("--hidden", args->opt.hidden, "Hidden width (default: model's)");
    sub->add_option("--layers", args->opt.layers, "Layers / blocks (default: model's)");
    sub->add_option("--loss-threshold", args->opt.loss_threshold, "Early-stop loss (default: model's)");
    sub->add_option("--q", args->opt.q, "Relabelings per graph")->check(CLI::Range(3, 100000))->capture_default_str();
    sub->add_option("--alpha", args->opt.alpha, "Significance level of the RPC threshold")
        ->check(CLI::Range(1e-9, 0.5))->capture_default_str();
    sub->add_flag("--reference-t2", args->reference_t2,
                  "Compute T^2 without the factor q, as the BREC reference code does (reproduces its decisions)");
    sub->add_option("--noise-floor", args->opt.relative_noise,
                    "Float32 noise floor of T^2: (floor x largest |embedding|)^2 is added to the covariance diagonal, "
                    "so pure rounding between relabelings gives T^2 ~ 0 instead of failing the reliability check at "
                    "rate alpha; 0 = the plain pseudo-inverse")
        ->check(CLI::Range(0.0, 0.01))->capture_default_str();
    sub->add_option("--baseline", args->baseline, "Earlier summary JSON; exit 3 if any category got worse");
    sub->add_option("--junit", args->junit, "Write a JUnit XML file with one test case per pair");
    sub->add_option("--torch-threads", args->torch_threads, "LibTorch intra-op threads per job (default: cores / jobs, and 1 for graphs under 32 vertices)");
    add_pair_flags(sub, args->pairs, /*with_shard=*/true);
    sub->callback([args, seeds_text, &action]() {
        action = [args, seeds_text](RunContext& ctx) {
            if (!seeds_text->empty()) args->seeds = parse_seeds(*seeds_text);
            return run_eval(*args, ctx);
        };
    });
}

}  // namespace brec::cli
