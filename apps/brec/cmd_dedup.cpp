// brec dedup: isomorphism orbits of a dataset and the isomorphism-bias metrics.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common.hpp"
#include "brec/core/bytes.hpp"
#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/dedup/orbits.hpp"
#include "brec/dedup/run.hpp"
#include "brec/io/files.hpp"
#include "brec/report/orbit_histogram.hpp"

namespace brec::cli {
namespace {

struct DedupArgs {
    std::string positional;
    PairArgs pairs;
    DedupOptions opt;
    std::string svg;
    std::string budget = "0";
};

/// --memory-budget: 0 (no limit), a whole number of MiB, or a size with a unit (512M, 2G).
std::uint64_t memory_budget_bytes(const std::string& text) {
    const std::string t = trim(text);
    if (!t.empty() && t.find_first_not_of("0123456789") == std::string::npos) {
        if (t.size() > 12) throw InvalidArgument("--memory-budget " + text + " MiB is too large");
        return std::stoull(t) << 20;
    }
    return parse_byte_size(t);
}

int dedup_command(const DedupArgs& args, RunContext& ctx) {
    set_quiet(ctx, args.pairs.quiet);
    ctx.set_threads(args.pairs.jobs);
    DedupOptions opt = args.opt;
    opt.path = !args.positional.empty()      ? args.positional
               : !args.pairs.dataset.empty() ? args.pairs.dataset
                                             : default_dataset_path();
    opt.selection = selection_of(args.pairs);
    opt.memory_budget = memory_budget_bytes(args.budget);
    const DedupResult result = run_dedup(opt, ctx);
    const BiasReport& rep = result.report;
    const LabelledGraphs& data = result.data;
    const OrbitMode mode = result.mode;
    if (!args.svg.empty())
        write_text_file_atomic(args.svg,
                               orbit_histogram_svg({rep.size_histogram.begin(), rep.size_histogram.end()},
                                                   "Orbit sizes: " + data.name + " (" + mode_name(mode) + ")"));
    if (args.pairs.json)
        print_json_line(to_json(result));
    else
        std::cout << dedup_text(result, args.svg);
    return 0;
}

}  // namespace

void add_dedup(CLI::App& root, Action& action) {
    auto args = std::make_shared<DedupArgs>();
    DedupOptions& opt = args->opt;
    auto* sub = add_command(
        root, "dedup", "Isomorphism orbits of a dataset and isomorphism-bias metrics",
        "Metrics: N, orbits (all, trivial, non-trivial), I = graphs in non-trivial orbits, I%,\n"
        "IP% = isomorphic pairs / (N(N-1)/2), mismatched% = graphs whose orbit holds more than one\n"
        "target label, the orbit-size histogram and the largest orbits.\n"
        "Graphs are sorted by a cheap invariant (n, m, colour refinement); graphs that share it get a nauty\n"
        "canonical certificate and are grouped by it (never all pairs). Every input is read as a stream and\n"
        "never held: canonical forms (dense nauty, as nauty's labelg, for graph6 and pair files; compact\n"
        "coloured forms for TU datasets), grouped by sorting, spilled to disk beyond --memory-budget. A TU\n"
        "dataset not stored graph by graph, --method pairwise, and --write-clean of a TU dataset or pair\n"
        "file read the graphs into memory.\n"
        "PATH: a TU directory (DS_A.txt, DS_graph_indicator.txt, DS_graph_labels.txt, ...), a graph6/sparse6\n"
        "file (one graph per line; --labels for targets) or a BREC pair file (ids like 66b). Graph ids are\n"
        "0-based indices (TU graph id = index + 1). Self-loops and duplicate edge lines of TU files are dropped\n"
        "and counted. --edge-labels subdivides every labelled edge by a vertex coloured with its label.\n"
        "JSON (--json, one line): command, dataset, mode, graphs, orbits{total_including_trivial, trivial,\n"
        "non_trivial}, I, I_pct, isomorphic_pairs, IP_pct, mismatched_graphs, mismatched_pct, histogram,\n"
        "largest_orbits, non_trivial_orbits, folds, tu_stats, clean, seconds.\n"
        "Example: brec dedup data/MUTAG --node-labels --split folds.txt --write-clean MUTAG_clean");
    sub->add_option("path", args->positional,
                    "TU directory, graph6/sparse6 file or pair file (default: the shipped BREC v3 pairs)");
    add_selection_flags(sub, args->pairs, false, "Pair files only: ");
    sub->add_option("--format", opt.format, "Input format: auto, tu, graph6 (also sparse6), pairs")
        ->check(CLI::IsMember({"auto", "tu", "graph6", "pairs"}))
        ->capture_default_str();
    sub->add_option("--tu-name", opt.tu_name, "TU dataset name DS when the directory holds several");
    sub->add_option("--labels", opt.labels, "graph6/sparse6 input: target labels, one integer per line");
    sub->add_flag("--node-labels", opt.node_labels,
                  "Label-preserving isomorphism: node labels are vertex colours (a label is the whole row of "
                  "DS_node_labels.txt, all columns)");
    sub->add_flag("--edge-labels", opt.edge_labels,
                  "Preserve node and edge labels (labelled edges are subdivided by a vertex of the label's colour)");
    sub->add_option("--method", opt.method,
                    "certificate (invariants first, a canonical form only where they collide), all-certificates "
                    "(one canonical form per graph) or pairwise (test all pairs with equal node and edge counts); "
                    "the same orbits, the last two for benchmarks")
        ->check(CLI::IsMember({"certificate", "all-certificates", "pairwise"}))
        ->capture_default_str();
    sub->add_option("--invariants", opt.invariants,
                    "certificate method: colour-refinement invariants first, canonical forms only where they "
                    "collide: auto (when a sample of the first graphs predicts that they pay), always or never")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->capture_default_str();
    sub->add_option("--memory-budget", args->budget,
                    "Canonical forms held in memory: MiB (a whole number) or a size such as 512M or 2G; beyond it "
                    "sorted runs go to disk and are merged (the same orbits); 0 = no limit")
        ->check(checked_by([](const std::string& text) { memory_budget_bytes(text); }, "SIZE"))
        ->capture_default_str();
    sub->add_option("--spill-dir", opt.spill_dir, "Directory for the sorted runs (default: $TMPDIR, else /tmp)");
    auto* split = sub->add_option("--split", opt.split,
                                  "Train/test split: JSON folds [{\"train\":[..],\"test\":[..]}], 'INDEX train|test' "
                                  "lines, one test index per line, or a fold file (one line of test indices per fold)");
    sub->add_option("--predictions", opt.predictions,
                    "Model predictions: one label per graph per line, 'INDEX LABEL' or 'FOLD INDEX LABEL' lines; "
                    "reports acc(Y_test), acc(Y_iso), acc(Y_new) and the peering upper bound per fold")
        ->needs(split);
    sub->add_flag("--one-based", opt.one_based, "Indices (and fold numbers) in --split/--predictions are 1-based");
    sub->add_option("--write-clean", opt.write_clean,
                    "Write the cleaned dataset (one graph per orbit with agreeing labels) in TU format to this "
                    "directory, plus NAME_mapping.tsv (new -> old ids) and NAME_retention.tsv (per class)");
    sub->add_option("--svg", args->svg, "Write the orbit-size histogram as SVG to this file");
    sub->add_option("--top", opt.top, "Number of largest orbits to list")
        ->check(whole_number_at_least(0))
        ->capture_default_str();
    add_jobs_flag(sub, args->pairs.jobs, "Worker threads (canonical labelling in parallel)");
    add_json_flag(sub, args->pairs.json, "Print the report as one JSON object (the summary) on stdout");
    add_quiet_flag(sub, args->pairs.quiet, "No progress on stderr");
    sub->callback([args, &action]() { action = [args](RunContext& ctx) { return dedup_command(*args, ctx); }; });
}

}  // namespace brec::cli
