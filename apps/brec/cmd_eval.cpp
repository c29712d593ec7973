// brec eval: Siamese training + RPC on every selected pair, per seed (library: eval/run.hpp).

#include "commands.hpp"
#include "common.hpp"
#include "run_output.hpp"
#include "brec/core/bytes.hpp"
#include "brec/core/error.hpp"
#include "brec/eval/run.hpp"
#include "brec/nn/device.hpp"

namespace brec::cli {
namespace {

struct EvalArgs {
    PairArgs pairs;
    EvalRunOptions run;
    std::uint64_t seed = 100;
    std::string seeds, method = "rpc", protocol = "hotelling", baseline, junit, max_memory;
    bool fine = false, no_train = false, list_models = false, reference_t2 = false, paper_subset = false;
    int torch_threads = 0;
};

int run_eval(EvalArgs args, RunContext& ctx) {
    if (args.list_models) {
        std::cout << model_listing(args.pairs.json);
        return 0;
    }
    set_quiet(ctx, args.pairs.quiet);
    EvalOptions& opt = args.run.eval;
    opt.rapc = args.method == "rapc";
    opt.train = !args.no_train;
    args.run.protocol = parse_protocol(args.reference_t2 ? "brec_reference" : args.protocol);
    args.run.seeds = args.seeds.empty() ? std::vector<std::uint64_t>{args.seed} : parse_seed_list(args.seeds);
    parse_device(opt.device);  // checked before anything is read or trained
    resolve_hyper(opt);
    RunOutputArgs out;
    out.baseline = args.baseline;
    out.baseline_json = read_baseline(args.baseline);
    auto sel = load_selected_pairs(args.pairs);
    if (args.paper_subset) sel.indices = paper_subset_indices(sel.dataset, std::move(sel.indices), opt.model);
    configure_cpu_threads(opt, args.pairs.jobs, args.torch_threads);
    if (!args.max_memory.empty()) args.run.max_memory = parse_byte_size(args.max_memory);
    args.run.jobs = args.pairs.jobs;
    args.run.dataset = args.pairs.dataset.empty() ? sel.dataset.path : args.pairs.dataset;
    args.run.shard = args.pairs.shard;

    const EvalRunResult result = run_evaluation(sel.dataset, sel.indices, args.run, ctx);

    if (!args.run.out.empty()) out.summary_file = args.run.out + ".summary.json";
    out.junit = args.junit;
    out.suite = "brec eval " + opt.model;
    out.model = opt.model;
    out.pairs = sel.indices.size();
    out.json = args.pairs.json;
    out.fine = args.fine;
    out.protocol = args.run.protocol;
    return write_run_outputs(result, out);
}

}  // namespace

void add_eval(CLI::App& root, Action& action) {
    auto a = std::make_shared<EvalArgs>();
    EvalOptions& o = a->run.eval;
    auto* sub = root.add_subcommand("eval", "Train a fresh GNN per pair and judge it with BREC's RPC test");
    // brec_reference (text below): the T² of GraphPKU/BREC @966b5ed's test_BREC*.py (brec/stats/hotelling.hpp).
    sub->footer(
        "Trains a fresh model per pair to tell G from H (Siamese, cosine loss), then judges it with BREC's\n"
        "reliable paired comparison: T^2 of the embedding differences against a reliability group of\n"
        "relabelings of one graph, under two protocols, both recorded for every pair:\n"
        "  hotelling       Hotelling's T^2 (with the factor q) against its F threshold, float32 noise floor\n"
        "  brec_reference  the released BREC code: T^2 without q, no noise floor, torch.isclose equality;\n"
        "                  what produced the published BREC counts (a q-times stricter test)\n"
        "--protocol picks the headline (summary, exit codes, --baseline, JUnit failures). Hyperparameters\n"
        "default to the model's row of the BREC study (--list-models). Exit codes: 0 ok, 2 bad input,\n"
        "3 regression against --baseline, 130 interrupted (results so far are kept; rerun with --resume).\n"
        "Your own model: --model torchscript:FILE, a module saved with torch.jit.script(model).save(FILE) with\n"
        "forward(x: Tensor[N,F] float32, edge_index: Tensor[2,E] int64 (both directions), batch: Tensor[N]\n"
        "int64 (graph of each node), num_graphs: int) -> Tensor[num_graphs, d]; fresh weights per pair.\n"
        "dropgnn is random at inference: every embedding draws new node drops, so a T^2 includes that\n"
        "randomness (no noise floor); a pair counts if it beats the threshold while the reliability group,\n"
        "drawn the same way, stays below it: a separation in distribution, not a fixed invariant. Its\n"
        "reliability check is then a real test: under hotelling about --alpha (5 %) of pairs fail it by\n"
        "chance; under brec_reference (its script's threshold 5.0 without q, 160 with q) about 0.1 %.\n"
        "Example: brec eval --model ppgn --category basic --out ppgn.jsonl --resume");
    sub->add_option("--model,-m", o.model, "Model name (see --list-models), or torchscript:FILE for your own module")
        ->capture_default_str();
    sub->add_flag("--list-models", a->list_models,
                  "List the models, their default settings, bounds and BREC counts (with --json: as JSON, with each "
                  "paper subset)");
    sub->add_option("--seed", a->seed, "Seed (model initialisation and relabelings per pair)")->capture_default_str();
    sub->add_option("--seeds", a->seeds, "Several seeds, e.g. 100,200,...,1000 (multi-seed protocol)");
    sub->add_option("--protocol", a->protocol, "Headline protocol: hotelling or brec_reference")
        ->check(CLI::IsMember({"hotelling", "brec_reference"}))
        ->capture_default_str();
    sub->add_flag("--reference-t2", a->reference_t2, "Same as --protocol brec_reference");
    sub->add_flag("--paper-subset", a->paper_subset, "Only the pairs the BREC study ran this model on");
    sub->add_option("--method", a->method, "rpc (fixed F threshold) or rapc (adaptive threshold)")
        ->check(CLI::IsMember({"rpc", "rapc"}))
        ->capture_default_str();
    sub->add_option("--rapc-groups", o.rapc_groups, "RAPC: groups p per graph (false-positive bound 1/2^(2p))")
        ->capture_default_str();
    add_device_flag(sub, o.device);
    sub->add_option("--kernel", o.kernel,
                    "CPU kernels: auto (BLAS for PPGN, fused layers), blas, or torch (LibTorch only)")
        ->check(CLI::IsMember({"auto", "blas", "torch"}))
        ->capture_default_str();
    sub->add_option("--out,-o", a->run.out, "Append one JSON line per pair here; FILE.summary.json gets the summary");
    sub->add_flag("--resume", a->run.resume,
                  "Skip pairs (per seed) already in --out (a file of another model or settings is refused)");
    sub->add_flag("--fine", a->fine, "Show the 7 fine categories");
    sub->add_flag("--no-train", a->no_train, "Judge the randomly initialised model (training ablation)");
    sub->add_flag("--profile", o.profile,
                  "Record each pair's seconds per phase, FLOPs per epoch, operator seconds of a step (\"profile\")");
    sub->add_option("--epochs", o.epochs, "Training epochs (default: model's)")->check(whole_number_at_least(0));
    sub->add_option("--lr", o.lr, "Learning rate (default: model's)")->check(CLI::Range(1e-12, 1e6));
    sub->add_option("--wd", o.weight_decay, "Weight decay (default: model's)")->check(CLI::Range(0.0, 1e6));
    sub->add_option("--batch", o.batch, "Graphs per batch, even (default: model's)")->check(whole_number_at_least(2));
    sub->add_option("--hidden", o.hidden, "Hidden width (default: model's)")->check(whole_number_at_least(1));
    sub->add_option("--layers", o.layers, "Layers / blocks (default: model's)")->check(whole_number_at_least(1));
    sub->add_option("--radius", o.radius, "Subgraph radius / hops / distance cap (default: model's)")
        ->check(whole_number_at_least(0));
    sub->add_option("--loss-threshold", o.loss_threshold, "Early-stop loss (default: model's)")
        ->check(CLI::Range(0.0, 1e6));
    sub->add_option("--out-dim", o.out_dim, "Embedding dimension d judged by RPC (< q)")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    sub->add_option("--input-features", o.input_features,
                    "Node features of a torchscript: module: ones, degree or label (one-hot)")
        ->check(CLI::IsMember({"ones", "degree", "label"}))
        ->capture_default_str();
    sub->add_option("--q", o.q, "Relabelings per graph")->check(CLI::Range(3, 100000))->capture_default_str();
    sub->add_option("--alpha", o.alpha, "Significance level of the RPC threshold")
        ->check(CLI::Range(1e-9, 0.5))
        ->capture_default_str();
    sub->add_option(
           "--noise-floor", o.relative_noise,
           "Hotelling protocol's float32 noise floor: (floor x largest |embedding|)^2 is added to the covariance "
           "diagonal, so pure rounding between relabelings gives T^2 ~ 0; 0 = the plain pseudo-inverse")
        ->check(CLI::Range(0.0, 0.01))
        ->capture_default_str();
    sub->add_option("--baseline", a->baseline, "Earlier summary JSON; exit 3 if any category got worse");
    sub->add_option("--junit", a->junit, "Write a JUnit XML file with one test case per pair");
    sub->add_option("--torch-threads", a->torch_threads,
                    "LibTorch intra-op threads per job (default: cores / jobs, 1 below 32 vertices)");
    sub->add_option("--max-memory", a->max_memory,
                    "Skip (record as skipped) pairs whose model needs more, e.g. 24G (default: 80% of RAM)")
        ->check(byte_size());
    add_pair_flags(sub, a->pairs, /*with_shard=*/true);
    sub->callback([a, &action]() { action = [a](RunContext& ctx) { return run_eval(*a, ctx); }; });
}

}  // namespace brec::cli
