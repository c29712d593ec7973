// brec report: statistics over result files (SPEC §6): per-cell mean ± CI, per-task Holm-corrected
// pairwise tests, Friedman test and Nemenyi CD across tasks, CD diagram and category chart (SVG).
#include <filesystem>
#include <iostream>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/report/analysis.hpp"
#include "brec/report/render.hpp"
#include "brec/report/results.hpp"
#include "commands.hpp"
#include "common.hpp"

namespace brec::cli {
namespace {

struct ReportArgs {
    std::vector<std::string> inputs;
    std::string formats;
    std::string out;
    bool fine = false;
    std::string protocol = "hotelling";
    bool quiet = false;
    ReportOptions opt;
};

int run_report(const ReportArgs& args, RunContext& ctx) {
    ResultReader reader(ResultReadOptions{args.fine, parse_protocol(args.protocol)});
    // Reading and the statistics take milliseconds: no progress bar, so an error stays one line.
    for (const auto& path : args.inputs) reader.add_file(path);
    const ResultSet results = reader.finish();
    const ReportAnalysis analysis = analyse_results(results, args.opt);
    if (!args.quiet)
        for (const auto& n : analysis.notes) ctx.warn(n);

    if (args.out.empty()) {
        const auto formats = parse_report_formats(args.formats.empty() ? "md" : args.formats);
        if (formats.size() != 1)
            throw InvalidArgument("without --out, give exactly one --format (md, latex or json)");
        // Printing draws no figure: only what is written is rendered.
        std::cout << render_report(analysis, formats.front());
        return 0;
    }
    // Everything is rendered before anything is written; each file is written atomically.
    const auto files = report_files(analysis, parse_report_formats(args.formats));
    std::error_code ec;
    std::filesystem::create_directories(args.out, ec);
    if (ec) throw IoError("cannot create directory " + args.out + ": " + ec.message());
    for (const auto& [name, content] : files) {
        const std::string path = (std::filesystem::path(args.out) / name).string();
        write_text_file_atomic(path, content);
        std::cout << "wrote " << path << "\n";
    }
    return 0;
}

}  // namespace

void add_report(CLI::App& root, Action& action) {
    auto args = std::make_shared<ReportArgs>();
    auto* sub = root.add_subcommand(
        "report",
        "Statistics over result files: per task x model the mean +- Student-t CI over seeds, per "
        "task the\n"
        "paired t-test and Wilcoxon signed-rank test of every model pair (Holm-corrected, with "
        "Cohen's d_z\n"
        "and whether the two tests agree), the Friedman test and Nemenyi critical difference "
        "across tasks,\n"
        "a critical-difference diagram (cd.svg) and, for BREC results, a per-category bar chart\n"
        "(categories.svg).\n"
        "Inputs (format detected per file):\n"
        "  CSV   rows task,model,seed,value[,direction]; direction max|min (default max); an "
        "optional\n"
        "        header line starting with 'task'; '#' comments. A (task, model, seed) given twice "
        "is an error.\n"
        "  JSONL the per-pair records of brec eval --out (model, seed, id, category, "
        "distinguished,\n"
        "        reliable) or brec wl --json (method, reliability_seed, ...), and summary objects "
        "(brec eval's\n"
        "        FILE.summary.json, the last line of brec wl --json). One task per BREC group, or "
        "per fine\n"
        "        category with --fine; value = pairs distinguished, counted only when reliable.\n"
        "  Shards of one run (brec eval --shard i/N, one JSONL each) are merged per (model, seed): "
        "a pair id\n"
        "  found in several files with the same outcome is counted once (so overlapping or "
        "repeated files\n"
        "  are harmless); the same id with a different outcome is an error naming both lines.\n"
        "Output: without --out the report is printed (Markdown unless --format says otherwise); "
        "with --out DIR\n"
        "the directory gets report.md, report.tex, report.json (or those named by --format) and "
        "the SVGs.\n"
        "Nothing is written when an input is bad (exit code 2, one line naming the file and "
        "line).\n"
        "JSON: {\"command\":\"report\", \"inputs\", \"alpha\", \"tasks\", \"models\",\n"
        "  \"cells\":[{task, model, n, mean, half_width, lower, upper, values:[{seed, value, "
        "source}], ...}],\n"
        "  \"comparisons\":[{task, direction, rows:[{a, b, n, mean_difference, t, p_t, p_t_holm, "
        "w_plus, p_w,\n"
        "  p_w_holm, wilcoxon_exact, dz, agreement, better}]}],\n"
        "  \"friedman\":{available, mean_ranks, ranks, chi2, df, p_value, chi2_ties, p_value_ties, "
        "q_alpha, cd,\n"
        "  cliques}, \"notes\"}; every value keeps the file:line it came from.\n"
        "Example: brec report runs/ppgn/*.jsonl runs/gin/*.jsonl --out report/   or   brec report "
        "scores.csv --format latex");
    sub->add_option("results", args->inputs, "Result files (CSV, JSONL or summary JSON)")
        ->required()
        ->check(CLI::ExistingFile);
    sub->add_option("--format", args->formats,
                    "Comma-separated md, latex, json (default: md to stdout; all three with --out)")
        ->check(CLI::Validator(
            [](std::string& value) {
                try {
                    parse_report_formats(value);
                } catch (const InvalidArgument& e) {
                    return std::string(e.what());
                }
                return std::string();
            },
            "md|latex|json[,...]"));
    sub->add_option("--out,-o", args->out,
                    "Directory for the report files and SVG figures (created if missing)");
    sub->add_option("--alpha", args->opt.alpha, "Significance level of intervals, tests and CD")
        ->check(CLI::Range(1e-6, 0.5))
        ->capture_default_str();
    sub->add_flag("--bootstrap", args->opt.bootstrap,
                  "Also report percentile bootstrap intervals of the cell means");
    sub->add_option("--resamples", args->opt.resamples, "Bootstrap resamples B")
        ->check(CLI::Range(100, 10000000))
        ->capture_default_str();
    sub->add_option("--bootstrap-seed", args->opt.bootstrap_seed, "Seed of the bootstrap")
        ->capture_default_str();
    sub->add_option(
           "--exact-limit", args->opt.wilcoxon_exact_limit,
           "Exact Wilcoxon null up to this many non-zero differences, normal approximation above")
        ->check(CLI::Range(0, 1000))
        ->capture_default_str();
    sub->add_flag("--fine", args->fine,
                  "BREC results: one task per fine category instead of the four groups");
    sub->add_option("--protocol", args->protocol,
                    "RPC results: the decision protocol whose counts form the cells (both are "
                    "shown side by side)")
        ->check(CLI::IsMember({"hotelling", "brec_reference"}))
        ->capture_default_str();
    sub->add_flag("--quiet,-q", args->quiet, "No notes on stderr");
    sub->callback(
        [args, &action]() { action = [args](RunContext& ctx) { return run_report(*args, ctx); }; });
}

}  // namespace brec::cli
