// brec count: exact subgraph counts of every graph of a file, or a labelled counting dataset
// (--generate sbm|er|er-ood).
#include <iostream>
#include <map>

#include "brec/count/run.hpp"
#include "brec/gen/count_dataset.hpp"
#include "commands.hpp"
#include "common.hpp"

namespace brec::cli {
namespace {

struct CountArgs {
    CountFileOptions file;
    CountDatasetOptions dataset;
    std::string generate;
    int jobs = 1;
    bool json = false;
    bool tsv = false;
    bool quiet = false;
};

int count_command(const CountArgs& args, RunContext& ctx) {
    set_quiet(ctx, args.quiet);
    ctx.set_threads(args.jobs);
    if (!args.generate.empty()) {
        CountDatasetOptions opt = args.dataset;
        opt.kind = args.generate;
        const CountDatasetRun run = generate_count_dataset_to_directory(opt, args.file.out, ctx);
        if (args.json)
            print_json_line(count_dataset_summary_json(run));
        else
            std::cout << format_count_dataset_summary(run);
        return 0;
    }
    CountFileOptions opt = args.file;
    opt.output = args.json ? CountOutput::jsonl : args.tsv ? CountOutput::tsv : CountOutput::table;
    const CountFileRun run = count_file(opt, ctx);
    std::cout << (opt.out.empty() ? run.text : count_file_summary(run));
    return 0;
}

}  // namespace

void add_count(CLI::App& root, Action& action) {
    auto args = std::make_shared<CountArgs>();
    auto* sub =
        add_command(root, "count", "Exact subgraph counts per graph and per node; counting datasets (--generate)",
                    "Counts the 8 connected induced 3- and 4-node patterns (2-path, triangle, 3-path, 3-star,\n"
                    "4-cycle, tailed-triangle, chordal-cycle, 4-clique) and the non-induced 3-star\n"
                    "(3-star-noninduced, sum over v of C(deg v, 3)) of every graph of FILE: graph6/sparse6 lines,\n"
                    "an edge list, a TU directory, a BREC pair file (ids like 66a/66b) or dataset JSON. Per node\n"
                    "(--per-node), a count is the number of occurrences that contain the node. Edge-anchored\n"
                    "counting, O(N d^3) per graph.\n"
                    "Output: an aligned table (default), --tsv (a header line, then one line per graph or node),\n"
                    "or --json: one JSON object per graph and line: graph, n, m, counts {pattern: count} and, with\n"
                    "--per-node, per_node {pattern: [count per node]}. --out writes the output atomically (no\n"
                    "file on any error) and prints one summary line instead.\n"
                    "--generate KIND --out DIR writes a labelled counting dataset (Campi et al.): sbm = 30 nodes\n"
                    "in 3 blocks of 10, p_in 0.2/0.3/0.4, p_out 0.1; er = G(10, 0.4) (in distribution); er-ood =\n"
                    "G(10, 0.8) (out of distribution); 5,000 graphs, split 30/20/50 train/validation/test. DIR gets\n"
                    "graphs.g6, counts.tsv, train.txt, validation.txt, test.txt and meta.json. Graph i is drawn\n"
                    "from the stream (seed, i): the files are byte-identical for any --jobs.\n"
                    "Examples: brec count graphs.g6 --patterns triangle,4-cycle --per-node --tsv\n"
                    "          brec count --generate sbm --out data/sbm --seed 1 --jobs 2");
    auto* file = sub->add_option("file", args->file.path, "Graph file or TU directory to count");
    sub->add_option("--format", args->file.format, "Input format: auto, graph6, sparse6, edgelist, pairs, tu, json")
        ->check(
            CLI::IsMember({"auto", "graph6", "g6", "sparse6", "s6", "edgelist", "el", "pairs", "tsv", "tu", "json"}))
        ->capture_default_str();
    sub->add_option("--patterns", args->file.patterns,
                    "Comma-separated patterns (default: all 9, in the order above); aliases diamond, paw")
        ->delimiter(',');
    auto* per_node = sub->add_flag("--per-node", args->file.per_node, "One row per node instead of one per graph");
    auto* tsv = sub->add_flag("--tsv", args->tsv, "Tab-separated output with a header line");
    auto* json =
        sub->add_flag("--json", args->json, "JSONL output (one object per graph); with --generate: one summary object");
    tsv->excludes(json);
    sub->add_flag("--one-based", args->file.one_based, "Edge-list input uses 1-based vertex ids");
    sub->add_option("--tu-name", args->file.tu_name, "TU dataset name DS when the directory holds several");
    add_out_flag(sub, args->file.out,
                 "Write the counts to this file (atomically); with --generate: the dataset directory");
    auto* gen = sub->add_option("--generate", args->generate, "Write a counting dataset to --out DIR: sbm, er, er-ood")
                    ->check(CLI::IsMember(count_dataset_kinds()));
    gen->excludes(file)->excludes(per_node)->excludes(tsv);
    add_seed_flag(sub, args->dataset.seed, "With --generate: the seed of every random choice");
    sub->add_option("--graphs", args->dataset.graphs, "With --generate: number of graphs")
        ->check(whole_number_at_least(1))
        ->capture_default_str();
    add_jobs_flag(sub, args->jobs, "Worker threads (graphs are counted and generated in parallel)");
    add_quiet_flag(sub, args->quiet, "No progress on stderr");
    sub->callback([args, sub, &action]() {
        if (!args->generate.empty() && args->file.out.empty())
            throw CLI::ValidationError("--generate", "needs --out DIR");
        if (args->generate.empty() && args->file.path.empty())
            throw CLI::ValidationError("file", "give a graph file to count, or --generate KIND --out DIR");
        if (args->generate.empty() && (sub->count("--seed") || sub->count("--graphs")))
            throw CLI::ValidationError("--seed/--graphs", "only apply with --generate");
        action = [args](RunContext& ctx) { return count_command(*args, ctx); };
    });
}

}  // namespace brec::cli
