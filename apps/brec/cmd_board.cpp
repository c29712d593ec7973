// brec board run: every model on its BREC pairs into one results directory with a provenance
// manifest (library: eval/board.hpp).
#include <cmath>
#include <iostream>

#include "brec/core/bytes.hpp"
#include "brec/eval/board.hpp"
#include "brec_git_commit.hpp"
#include "commands.hpp"
#include "common.hpp"

namespace brec::cli {
namespace {

struct BoardArgs {
    PairArgs pairs;
    BoardOptions board;
    std::string seeds = "100", max_memory;
};

int run_board_command(BoardArgs a, RunContext& ctx) {
    set_quiet(ctx, a.pairs.quiet);
    a.board.seeds = parse_seed_list(a.seeds);
    if (!a.max_memory.empty()) a.board.max_memory = parse_byte_size(a.max_memory);
    a.board.jobs = a.pairs.jobs;
    a.board.brec_version = BREC_VERSION;
    a.board.git_commit = kBrecGitCommit;
    const auto sel = load_selected_pairs(a.pairs);
    a.board.dataset = sel.dataset.path;
    const BoardResult r = run_board(sel.dataset, sel.indices, a.board, ctx);
    if (a.board.plan) {
        std::cout << board_plan_text(r);
        return 0;
    }
    std::cout << "board " << a.board.dir << ": " << r.ran << " tasks run, " << r.skipped << " skipped for memory, "
              << r.kept << " done before, " << r.not_run << " not run (estimated above the rule) in "
              << std::lround(r.wall_seconds) << " s\n";
    return 0;
}

}  // namespace

void add_board(CLI::App& root, Action& action) {
    auto* cmd =
        add_command(root, "board", "The BREC board: every model on its pairs, with provenance", "Subcommands: run.");
    cmd->require_subcommand(1);
    auto a = std::make_shared<BoardArgs>();
    auto* run = cmd->add_subcommand("run", "Run every model (or --models) on its paper subset into one directory");
    run->footer(
        "Runs each model with its BREC-study settings (brec eval --list-models) on the pairs the study ran it on\n"
        "(--all-pairs: every selected pair), for every seed, into DIR: MODEL.jsonl (brec eval's records, one\n"
        "file per model), costs.jsonl (each task's estimated cost) and manifest.json (the dataset's SHA-256, the\n"
        "subset, seeds, each model's settings id, the rule, and per run segment the brec version and commit,\n"
        "host, CPU, device, GPU, dates, wall and CPU time). The (model, pair, seed) tasks of all models share\n"
        "--jobs, cheapest first by estimated cost: the operators and FLOPs of one training step and one\n"
        "embedding pass on the pair, counted from tensor shapes and scaled to the whole run, in seconds of a\n"
        "reference core, the same on every machine. --max-cost leaves the tasks estimated above it out\n"
        "(recorded as not run in the manifest), so what a board contains never depends on the machine's\n"
        "speed. Pairs above --max-memory are recorded as skipped. Interrupt and rerun with --resume (on any\n"
        "machine) to continue: each run adds a segment to the manifest. brec report DIR reads the board.\n"
        "Example: brec board run --out board --max-cost 600 --jobs 2 && brec report board");
    run->add_option("--out,-o", a->board.dir, "The board directory")->required();
    run->add_flag("--resume", a->board.resume, "Continue the board in --out (its data and subset must match)");
    run->add_option("--models", a->board.models, "Comma-separated models (default: every built-in model)")
        ->delimiter(',');
    run->add_flag("--all-pairs", a->board.all_pairs, "Every selected pair, not only each model's paper subset");
    run->add_option("--seeds", a->seeds, "Seeds, e.g. 100 or 100,200,...,1000")->capture_default_str();
    run->add_option("--max-cost", a->board.max_cost_seconds,
                    "Leave out tasks estimated above this many core-seconds (0 = run everything)")
        ->check(CLI::Range(0.0, 1e12))
        ->capture_default_str();
    run->add_flag("--plan", a->board.plan,
                  "Only estimate the tasks' costs (kept for the run) and print per model what a run would do");
    add_device_flag(run, a->board.device);
    run->add_option("--kernel", a->board.kernel, "CPU kernels: auto, blas or torch (as brec eval --kernel)")
        ->check(CLI::IsMember({"auto", "blas", "torch"}))
        ->capture_default_str();
    run->add_option("--torch-threads", a->board.torch_threads,
                    "LibTorch intra-op threads per job (default: cores / jobs, 1 below 32 vertices)");
    run->add_option("--max-memory", a->max_memory,
                    "Skip (record as skipped) pairs whose model needs more, e.g. 24G (default: 80% of RAM)")
        ->check(byte_size());
    add_selection_flags(run, a->pairs);
    add_jobs_flag(run, a->pairs.jobs, "Tasks run in parallel");
    add_quiet_flag(run, a->pairs.quiet);
    run->callback([a, &action]() { action = [a](RunContext& ctx) { return run_board_command(*a, ctx); }; });
}

}  // namespace brec::cli
