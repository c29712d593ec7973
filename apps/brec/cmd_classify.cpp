// brec classify: graph classification by cross-validation with isomorphism-bias accounting.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common.hpp"
#include "brec/classify/classify.hpp"
#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#if defined(BREC_EVAL_BINARY)
#include "brec/classify_torch/gin.hpp"
#endif

namespace brec::cli {
namespace {

struct ClassifyArgs {
    ClassifyOptions opt;
    std::vector<std::string> peering, versions{"original", "clean"};
    std::string csv, markdown;
    int jobs = 1;
    bool quiet = false;
};

int classify_command(const ClassifyArgs& args, RunContext& ctx, int argc, char** argv) {
#if !defined(BREC_EVAL_BINARY)
    if (args.opt.model == "gin") return run_in_eval_binary(argc, argv, "brec classify --model gin");
#else
    (void)argc, (void)argv;
#endif
    set_quiet(ctx, args.quiet);
    ctx.set_threads(args.jobs);
    ClassifyOptions opt = args.opt;
    for (const auto& p : args.peering) opt.peering.push_back(p == "ph" ? Peering::homogeneous : Peering::majority);
    opt.original = opt.clean = false;
    for (const auto& v : args.versions) (v == "clean" ? opt.clean : opt.original) = true;
#if defined(BREC_EVAL_BINARY)
    const ClassifyResult result = run_classify_torch(opt, ctx);  // every model; gin needs LibTorch
#else
    const ClassifyResult result = run_classify(opt, ctx);
#endif
    if (!args.csv.empty()) write_text_file_atomic(args.csv, classify_rows_csv(result));
    if (!args.markdown.empty()) write_text_file_atomic(args.markdown, classify_markdown(result));
    std::cout << classify_table(result);
    return 0;
}

}  // namespace

void add_classify(CLI::App& root, Action& action, int argc, char** argv) {
    auto args = std::make_shared<ClassifyArgs>();
    ClassifyOptions& opt = args->opt;
    auto* sub = add_command(
        root, "classify", "Graph classification with isomorphism-bias accounting (Y_iso / Y_new)",
        "Stratified k-fold cross-validation (seeded) of a graph classifier on a TU dataset. Per fold the\n"
        "test set Y_test splits into Y_iso (test graphs isomorphic to a training graph, with the orbits of\n"
        "`brec dedup` under the same --node-labels / --edge-labels mode) and Y_new (the rest); accuracy is\n"
        "reported on all three, on the dataset as read and on its cleaned version (one graph per orbit whose\n"
        "target labels agree, as `brec dedup --write-clean`).\n"
        "Models: wl (WL subtree kernel, h = --wl-iterations, node labels as initial colours) and vh (vertex\n"
        "histogram), both cosine-normalised, with a C-SVM (libsvm) on the precomputed kernel; C is chosen from\n"
        "--c-grid by stratified inner validation on the training fold; gin (LibTorch, the GIN flags: 4 GIN\n"
        "layers of width 64, sum readout of every layer, one-hot node labels or else degrees, 350 epochs; the\n"
        "epoch with the best accuracy on 20 % of the training fold from --warmup on predicts the test graphs).\n"
        "Peering (--peering ph,p): MODEL-PH copies the training label onto Y_iso graphs whose isomorphic\n"
        "training graphs agree; MODEL-P gives every Y_iso graph the majority label of its isomorphic training\n"
        "graphs. stdout: a summary table (mean ± sd over seeds of the accuracy pooled over folds).\n"
        "--out: one JSON line per (dataset version, seed, fold) with the counts behind every accuracy; --resume\n"
        "keeps the lines that match and runs only the rest. --csv: rows task,model,seed,value for `brec\n"
        "report` (tasks DATASET/acc_test, DATASET/acc_iso, DATASET/acc_new, DATASET-clean/...).\n"
        "Results do not depend on --jobs (GIN: on the CPU; CUDA's scatter sums are not bitwise reproducible).\n"
        "Example: brec classify datasets/tu/MUTAG --model wl --peering ph,p --folds 10 --seeds 0,1,2 \\\n"
        "           --out mutag.jsonl --csv mutag.csv --markdown mutag.md");
    sub->add_option("dataset", opt.path,
                    "TU dataset directory (DS_A.txt, DS_graph_indicator.txt, DS_graph_labels.txt, ...)")
        ->required();
    sub->add_option("--tu-name", opt.tu_name, "TU dataset name DS when the directory holds several");
    sub->add_option("--model", opt.model, "wl (WL subtree kernel), vh (vertex histogram kernel) or gin (GIN)")
        ->check(CLI::IsMember({"wl", "vh", "gin"}))
        ->capture_default_str();
    sub->add_option("--wl-iterations", opt.wl_rounds, "Refinement rounds h of the WL subtree kernel")
        ->check(CLI::Range(0, 50))
        ->capture_default_str();
    sub->add_option("--peering", args->peering, "Peering variants to add: ph, p (comma-separated)")
        ->delimiter(',')
        ->check(CLI::IsMember({"ph", "p"}));
    sub->add_option("--versions", args->versions, "Dataset versions to run: original, clean (comma-separated)")
        ->delimiter(',')
        ->check(CLI::IsMember({"original", "clean"}))
        ->capture_default_str();
    sub->add_option("--folds", opt.folds, "Number of cross-validation folds")
        ->check(whole_number_at_least(2))
        ->capture_default_str();
    sub->add_option("--seeds", opt.seeds, "Seeds (comma-separated); each gives its own folds")
        ->delimiter(',')
        ->capture_default_str();
    sub->add_option("--c-grid", opt.c_grid, "SVM C values to choose from (comma-separated)")
        ->delimiter(',')
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--inner-folds", opt.inner_folds, "Folds of the inner validation that chooses C")
        ->check(whole_number_at_least(2))
        ->capture_default_str();
    sub->add_flag("--node-labels", opt.node_labels,
                  "Orbits under label-preserving isomorphism (node labels are colours)");
    sub->add_flag("--edge-labels", opt.edge_labels, "Orbits preserving node and edge labels");
    auto* out = sub->add_option("--out", opt.out, "Per-fold results, one JSON line per (version, seed, fold)");
    sub->add_flag("--resume", opt.resume,
                  "Keep the folds already in --out and run only the missing ones (other settings are refused)")
        ->needs(out);
    sub->add_option("--csv", args->csv, "Write rows task,model,seed,value (for brec report) to this file");
    sub->add_option("--markdown", args->markdown, "Write a short Markdown summary to this file");
    sub->add_option("--folds-dir", opt.folds_dir,
                    "Write the folds of every (version, seed) as JSON here (readable by brec dedup --split)");
    add_gin_classifier_flags(sub, opt.gin);
    add_jobs_flag(sub, args->jobs, "Worker threads across folds");
    add_quiet_flag(sub, args->quiet, "No progress on stderr");
    sub->callback([args, &action, argc, argv]() {
        action = [args, argc, argv](RunContext& ctx) { return classify_command(*args, ctx, argc, argv); };
    });
}

}  // namespace brec::cli
