// brec rpc: judges a user's embeddings of the graphs of `brec export` with BREC's RPC test, into
// the records and summary `brec eval` writes (library: rpc/embeddings.hpp).
#include "commands.hpp"
#include "common.hpp"
#include "run_output.hpp"
#include "brec/core/error.hpp"
#include "brec/rpc/embeddings.hpp"

namespace brec::cli {
namespace {

struct RpcArgs {
    std::vector<std::string> dirs;
    std::string manifest, protocol = "hotelling", out;
    EmbeddingJudgeOptions options;
    RunOutputArgs output;
    bool quiet = false;
};

int run_rpc(RpcArgs args, RunContext& ctx) {
    set_quiet(ctx, args.quiet);
    if (!args.manifest.empty() && args.dirs.size() > 1)
        throw InvalidArgument(
            "--manifest names the manifest of one --embeddings directory; with several, each "
            "directory needs its own manifest.json");
    args.options.protocol = parse_protocol(args.protocol);
    RunOutputArgs& o = args.output;
    o.baseline_json = read_baseline(o.baseline);
    std::vector<EmbeddingSource> sources;
    for (const auto& d : args.dirs) sources.push_back({d, args.manifest});

    args.options.out = args.out;
    const EvalRunResult result = judge_embeddings(sources, args.options, ctx);

    o.protocol = args.options.protocol;
    o.model = args.options.model;
    o.suite = "brec rpc " + args.options.model;
    o.pairs = result.runs.front().records.size();
    if (!args.out.empty()) o.summary_file = args.out + ".summary.json";
    return write_run_outputs(result, o);
}

}  // namespace

void add_rpc(CLI::App& root, Action& action) {
    auto a = std::make_shared<RpcArgs>();
    auto* sub = root.add_subcommand("rpc", "Judge embeddings made outside brec (see brec export) with BREC's RPC test");
    sub->footer(
        "Reads per pair of an export's manifest the embeddings of its 4q graphs, float32 [4q, d] as\n"
        "DIR/pair_ID.npy (rows in the order of pair_ID.g6: 2q traintest rows G1,H1,G2,H2,..., then 2q\n"
        "reliability rows), or one DIR/embeddings.npy [pairs, 4q, d] in manifest order; d < q. Computes\n"
        "T^2 of the traintest and reliability groups under both protocols (hotelling and brec_reference,\n"
        "see brec eval --help) and prints the records and summary brec eval prints (brec report reads\n"
        "them). Several --embeddings directories (one export per seed) give the multi-seed protocol.\n"
        "Exit codes: 0 ok, 2 bad input (one line naming the file), 3 regression against --baseline.\n"
        "Example: brec rpc --embeddings basic_groups --model-name mygnn --out mygnn.jsonl");
    sub->add_option("--embeddings,-e", a->dirs, "Directory with the embeddings (and manifest.json of brec export)")
        ->required()
        ->check(CLI::ExistingDirectory);
    sub->add_option("--manifest", a->manifest, "The export's manifest.json (default: DIR/manifest.json)")
        ->check(CLI::ExistingFile);
    sub->add_option("--model-name", a->options.model, "Model name in the records and summary")->capture_default_str();
    sub->add_option("--protocol", a->protocol, "Headline protocol: hotelling or brec_reference")
        ->check(CLI::IsMember({"hotelling", "brec_reference"}))
        ->capture_default_str();
    sub->add_option("--alpha", a->options.alpha, "Significance level of the RPC threshold")
        ->check(CLI::Range(1e-9, 0.5))
        ->capture_default_str();
    sub->add_option("--noise-floor", a->options.relative_noise,
                    "Hotelling protocol's float32 noise floor (see brec eval)")
        ->check(CLI::Range(0.0, 0.01))
        ->capture_default_str();
    sub->add_option("--out,-o", a->out, "Write the records as JSON lines here and the summary to FILE.summary.json");
    sub->add_flag("--resume", a->options.resume,
                  "Keep the records already in --out (same model and settings) and add the missing ones")
        ->needs("--out");
    sub->add_option("--baseline", a->output.baseline, "Earlier summary JSON; exit 3 if any category got worse");
    sub->add_option("--junit", a->output.junit, "Write a JUnit XML file with one test case per pair");
    sub->add_flag("--fine", a->output.fine, "Show the 7 fine categories");
    sub->add_flag("--json", a->output.json, "Print one JSON object per pair and the summary (last line)");
    sub->add_flag("--quiet,-q", a->quiet, "No progress or info lines on stderr");
    sub->callback([a, &action]() { action = [a](RunContext& ctx) { return run_rpc(*a, ctx); }; });
}

}  // namespace brec::cli
