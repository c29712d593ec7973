// brec report: statistics over result files (per-cell mean ± CI, Holm-corrected pairwise tests,
// Friedman test and Nemenyi CD, figures), or with --certificate the realized-vs-theoretical view.
#include <iostream>
#include <string>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/report/report.hpp"
#include "commands.hpp"
#include "common.hpp"

namespace brec::cli {
namespace {

struct ReportArgs {
    ReportRequest request;
    std::string formats;
    std::string protocol = "hotelling";
    std::string out, html;
    std::string models;
    bool quiet = false;
};

constexpr const char* kHelp = R"(Statistics over result files.
Per task x model the mean +- CI over seeds (Student t), per task the paired t-test and Wilcoxon
signed-rank test of every model pair (Holm-corrected, with Cohen's d_z and whether the two tests
agree), the Friedman test and Nemenyi critical difference across tasks, a critical-difference
diagram (cd.svg) and, for BREC results, a per-category bar chart (categories.svg). RPC results
show both decision protocols' counts side by side; --protocol picks the one that forms the cells.
Inputs (format detected per file):
  CSV   rows task,model,seed,value[,direction]; direction max|min (default max); an optional
        header line starting with 'task'; '#' comments. A (task, model, seed) given twice is an
        error.
  JSONL the per-pair records of brec eval --out (model, seed, id, category, protocols, [bound];
        older files: distinguished, reliable) or brec wl --json (method, reliability_seed, ...),
        and summary objects (brec eval's FILE.summary.json, the last line of brec wl --json).
        One task per BREC group, or per fine category with --fine; value = pairs distinguished,
        counted only when reliable.
  Shards of one run (brec eval --shard i/N, one JSONL each) are merged per (model, seed): a pair
  id found in several files with the same outcome is counted once (so overlapping or repeated
  files are harmless); the same id with a different outcome is an error naming both lines. Records
  of one model with different settings ids (other hyperparameters, epochs, ...) are an error too,
  unless --mixed-settings.
  DIR   a board (brec board run --out DIR): every record is checked against DIR/manifest.json (model,
        settings id, seed, pair, the pairs not run, each file's count); a mismatch is an error, and
        so are boards of different datasets (by SHA-256) unless --mixed-datasets.
--certificate FILE (the JSONL of brec certify): instead of the statistics, each model's
  distinguished pairs per hardness level (1-WL, 3-WL, 4-WL, beyond) and, where its eval records
  name its theoretical bound, the pairs it failed within the bound and those it distinguished
  beyond it (certificate.md, certificate.json); against each model's tight bound (brec eval
  --list-models, or --models FILE; its verdicts from brec certify --tests) the pairs the test
  separates that the model did not, and those the model separated beyond it, with their T².
--html FILE: the board as one self-contained page (no network, no external files): pairs distinguished
  per group and fine category under both protocols beside the BREC paper's row, each model's upper
  and tight bound (from a board's certify.jsonl or --certificate), the CD diagram and category
  chart, a pair x model matrix (hover: pair, category, certificate; click: both graphs and every
  model's T^2) and the boards' provenance. Without --out nothing else is written.
Output: without --out the report is printed (Markdown unless --format says otherwise); with
--out DIR the directory gets report.md, report.tex, report.json (or those named by --format) and
the SVGs. Nothing is written when an input is bad (exit code 2, one line naming file and line).
JSON: {"command":"report", "inputs", "alpha", "tasks", "models", "protocol", "protocols",
  "cells":[{task, model, n, mean, half_width, lower, upper, values:[{seed, value, source}]}],
  "comparisons":[{task, direction, rows:[{a, b, n, mean_difference, t, p_t, p_t_holm, w_plus,
  p_w, p_w_holm, wilcoxon_exact, dz, agreement, better}]}], "friedman":{available, mean_ranks,
  ranks, chi2, df, p_value, chi2_ties, p_value_ties, q_alpha, cd, cliques}, "notes"}; every value
  keeps the file:line it came from.
Example: brec report runs/ppgn/*.jsonl runs/gin/*.jsonl --out report/
   or   brec report scores.csv --format latex
   or   brec report runs/*/*.jsonl --certificate certify.jsonl)";

int run_report(ReportArgs args, RunContext& ctx) {
    args.request.read.protocol = parse_protocol(args.protocol);
    args.request.formats = parse_report_formats(args.formats);
    args.request.html = !args.html.empty();
    args.request.html_dataset = BREC_DEFAULT_DATASET;
    if (!args.models.empty()) {
        args.request.model_list = read_text_file(args.models);
        args.request.model_list_source = args.models;
    }
    complete_report_request(args.request, args.out.empty());
    if (args.request.uses_model_list() && args.request.model_list.empty()) {  // brec-eval's own list
        args.request.model_list = eval_model_list();
        args.request.model_list_source = "brec eval --list-models --json";
    }
    // Reading and the statistics take milliseconds: no progress bar, so an error stays one line.
    const ReportOutput report = make_report(args.request);
    if (!args.quiet)
        for (const auto& n : report.notes) ctx.warn(n);
    if (args.out.empty() && args.html.empty()) {
        std::cout << report.files.front().content;
        return 0;
    }
    for (const auto& path : write_report(report, args.out, args.html)) std::cout << "wrote " << path << "\n";
    return 0;
}

}  // namespace

void add_report(CLI::App& root, Action& action) {
    auto args = std::make_shared<ReportArgs>();
    auto& req = args->request;
    auto* sub = root.add_subcommand("report", kHelp);
    sub->add_option("results", req.inputs, "Result files (CSV, JSONL or summary JSON) or board directories")
        ->required()
        ->check(CLI::ExistingPath);
    sub->add_option("--format", args->formats,
                    "Comma-separated md, latex, json (default: md to stdout; all with --out)")
        ->check(checked_by([](const std::string& v) { parse_report_formats(v); }, "md|latex|json[,...]"));
    sub->add_option("--out,-o", args->out, "Directory for the report files and SVG figures (created if missing)");
    sub->add_option("--html", args->html,
                    "Also write the board as one self-contained HTML page (board table, charts, pair x model "
                    "matrix, provenance)");
    sub->add_flag("--board-table", req.board_table,
                  "Instead of the statistics, the board as one Markdown table, a row per model (README's Models "
                  "table): H / R per category, the paper's row, pairs run, not run, pending, failures, CPU hours");
    sub->add_option("--protocol", args->protocol,
                    "RPC results: the decision protocol whose counts form the cells (both are "
                    "shown side by side)")
        ->check(CLI::IsMember({"hotelling", "brec_reference"}))
        ->capture_default_str();
    auto* certificate = sub->add_option("--certificate", req.certificate,
                                        "brec certify JSONL: the realized-vs-theoretical view instead of the "
                                        "statistics")
                            ->check(CLI::ExistingFile);
    sub->add_option("--models", args->models,
                    "With --certificate, --html or --board-table: bounds and paper rows from this brec eval "
                    "--list-models --json")
        ->check(CLI::ExistingFile);
    auto& stats = req.statistics;
    auto* alpha = sub->add_option("--alpha", stats.alpha, "Significance of intervals, tests, CD")
                      ->check(CLI::Range(1e-6, 0.5))
                      ->capture_default_str();
    auto* bootstrap =
        sub->add_flag("--bootstrap", stats.bootstrap, "Also report percentile bootstrap intervals of the cell means");
    auto* resamples = sub->add_option("--resamples", stats.resamples, "Bootstrap resamples B")
                          ->check(CLI::Range(100, 10000000))
                          ->capture_default_str();
    auto* seed =
        sub->add_option("--bootstrap-seed", stats.bootstrap_seed, "Seed of the bootstrap")->capture_default_str();
    auto* exact = sub->add_option("--exact-limit", stats.wilcoxon_exact_limit,
                                  "Exact Wilcoxon null up to this many non-zero differences, "
                                  "normal approximation above")
                      ->check(CLI::Range(0, 1000))
                      ->capture_default_str();
    sub->add_flag("--mixed-settings", req.read.mixed_settings,
                  "Merge eval records of one model with different settings ids (by default an error naming both "
                  "records)");
    sub->add_flag("--mixed-datasets", req.read.mixed_datasets,
                  "Merge boards of different datasets (by default an error naming both)");
    auto* fine = sub->add_flag("--fine", req.read.fine, "BREC results: a task per fine category instead of per group");
    // The certificate view has no statistics and counts per hardness level, not per category.
    for (auto* statistics_only : {alpha, bootstrap, resamples, seed, exact, fine})
        certificate->excludes(statistics_only);
    sub->add_flag("--quiet,-q", args->quiet, "No notes on stderr");
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return run_report(*args, ctx); }; });
}

}  // namespace brec::cli
