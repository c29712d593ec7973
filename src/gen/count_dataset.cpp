#include "brec/gen/count_dataset.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <system_error>
#include <type_traits>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/text.hpp"
#include "brec/gen/random.hpp"
#include "brec/io/counting_data.hpp"

namespace brec {
namespace {

namespace fs = std::filesystem;

/// The stream of the split; graph ids (0 .. N-1) never reach it.
constexpr std::uint64_t kSplitStream = ~std::uint64_t{0};
constexpr VertexId kErNodes = 10;
constexpr double kErP = 0.4, kErOodP = 0.8;
const std::vector<VertexId> kSbmSizes = {10, 10, 10};
const std::vector<std::vector<double>> kSbmProbs = {{0.2, 0.1, 0.1}, {0.1, 0.3, 0.1}, {0.1, 0.1, 0.4}};

nlohmann::json kind_parameters(const std::string& kind) {
    if (kind == "sbm") return {{"model", "sbm"}, {"sizes", kSbmSizes}, {"p", kSbmProbs}};
    if (kind == "er") return {{"model", "erdos_renyi"}, {"n", kErNodes}, {"p", kErP}};
    return {{"model", "erdos_renyi"}, {"n", kErNodes}, {"p", kErOodP}};
}

void check_options(const CountDatasetOptions& opt) {
    const auto kinds = count_dataset_kinds();
    if (std::find(kinds.begin(), kinds.end(), opt.kind) == kinds.end())
        throw InvalidArgument("unknown dataset kind '" + opt.kind + "' (known: sbm, er, er-ood)");
    if (opt.graphs == 0) throw InvalidArgument("a counting dataset needs at least 1 graph");
    const double t = opt.train_fraction, v = opt.validation_fraction;
    if (!(t >= 0 && v >= 0 && t + v <= 1.0 + 1e-12))
        throw InvalidArgument("split fractions must be >= 0 with train + validation <= 1");
}

}  // namespace

std::vector<std::string> count_dataset_kinds() { return {"sbm", "er", "er-ood"}; }

const char* split_name(Split s) {
    switch (s) {
        case Split::train:
            return "train";
        case Split::validation:
            return "validation";
        case Split::test:
            return "test";
    }
    return "?";
}

Graph draw_count_dataset_graph(const std::string& kind, Rng& rng) {
    if (kind == "sbm") return stochastic_block_model(kSbmSizes, kSbmProbs, rng);
    if (kind == "er") return erdos_renyi(kErNodes, kErP, rng);
    if (kind == "er-ood") return erdos_renyi(kErNodes, kErOodP, rng);
    throw InvalidArgument("unknown dataset kind '" + kind + "' (known: sbm, er, er-ood)");
}

CountDataset generate_count_dataset(const CountDatasetOptions& opt, RunContext& ctx) {
    check_options(opt);
    const auto t0 = std::chrono::steady_clock::now();
    CountDataset d;
    d.options = opt;
    const std::size_t n = opt.graphs;
    d.graphs.resize(n);
    d.counts.resize(n);
    std::mutex progress_mutex;
    std::atomic<std::size_t> done{0};
    const std::size_t step = std::max<std::size_t>(1, n / 200);
    parallel_for(n, ctx.threads(), [&](std::size_t i) {
        ctx.throw_if_cancelled();
        Rng rng(stream_seed(opt.seed, i));
        d.graphs[i] = draw_count_dataset_graph(opt.kind, rng);
        d.counts[i] = count_patterns(d.graphs[i], 4, false).total;
        const std::size_t k = ++done;
        if (k % step == 0 || k == n) {
            std::lock_guard<std::mutex> lock(progress_mutex);
            ctx.progress("generate " + opt.kind, k, n);
        }
    });
    // The split of the original pipeline: shuffle, then the first 30% train, the next 20%
    // validation, the rest test.
    Rng split_rng(stream_seed(opt.seed, kSplitStream));
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    split_rng.shuffle(order);
    const auto a = static_cast<std::size_t>(std::llround(static_cast<double>(n) * opt.train_fraction));
    const auto b = std::min<std::size_t>(
        n, static_cast<std::size_t>(
               std::llround(static_cast<double>(n) * (opt.train_fraction + opt.validation_fraction))));
    d.split.assign(n, Split::test);
    for (std::size_t k = 0; k < n; ++k)
        d.split[order[k]] = k < a ? Split::train : k < b ? Split::validation : Split::test;
    d.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return d;
}

nlohmann::ordered_json count_dataset_meta(const CountDataset& d) {
    nlohmann::ordered_json meta;
    meta["generator"] = "brec count --generate";
    meta["kind"] = d.options.kind;
    meta["parameters"] = kind_parameters(d.options.kind);
    meta["seed"] = d.options.seed;
    meta["seeding"] = "graph i: Rng(stream_seed(seed, i)); split: Rng(stream_seed(seed, 2^64-1)) shuffle";
    meta["graphs"] = d.graphs.size();
    std::size_t sizes[3] = {0, 0, 0};
    for (Split s : d.split) ++sizes[static_cast<int>(s)];
    meta["split"] = {{"train", sizes[0]}, {"validation", sizes[1]}, {"test", sizes[2]}};
    meta["split_fractions"] = {{"train", d.options.train_fraction}, {"validation", d.options.validation_fraction}};
    double edges = 0;
    for (const Graph& g : d.graphs) edges += static_cast<double>(g.m());
    meta["mean_edges"] = d.graphs.empty() ? 0.0 : edges / static_cast<double>(d.graphs.size());
    nlohmann::ordered_json means = nlohmann::ordered_json::object();
    for (Pattern p : all_patterns()) {
        double sum = 0;
        for (const auto& c : d.counts) sum += static_cast<double>(c[static_cast<int>(p)]);
        means[pattern_name(p)] = d.counts.empty() ? 0.0 : sum / static_cast<double>(d.counts.size());
    }
    meta["mean_counts"] = means;
    meta["files"] = {"graphs.g6", "counts.tsv", "train.txt", "validation.txt", "test.txt", "meta.json"};
    return meta;
}

void write_count_dataset(const CountDataset& d, const std::string& dir) {
    // counts.tsv names its count columns in io, which cannot see the patterns: the lists must agree.
    static_assert(std::is_same<CountArray, CountingRow>::value, "counts.tsv has one column per pattern");
    for (Pattern p : all_patterns())
        if (std::string(kCountingColumnNames[static_cast<std::size_t>(p)]) != pattern_name(p))
            throw Error(std::string("internal error: counts.tsv column ") +
                        kCountingColumnNames[static_cast<std::size_t>(p)] + " is not pattern " + pattern_name(p));
    CountingData data;
    data.graphs = d.graphs;
    data.counts = d.counts;
    for (std::size_t i = 0; i < d.graphs.size(); ++i) {
        switch (d.split[i]) {
            case Split::train:
                data.train.push_back(i);
                break;
            case Split::validation:
                data.validation.push_back(i);
                break;
            case Split::test:
                data.test.push_back(i);
                break;
        }
    }
    write_counting_data(data, dir, count_dataset_meta(d));
}

CountDatasetRun generate_count_dataset_to_directory(const CountDatasetOptions& opt, const std::string& dir,
                                                    RunContext& ctx) {
    check_options(opt);
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        throw IoError("output directory " + dir + " exists and is not a directory");
    const auto t0 = std::chrono::steady_clock::now();
    CountDatasetRun run;
    run.dataset = generate_count_dataset(opt, ctx);
    write_count_dataset(run.dataset, dir);
    run.directory = dir;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return run;
}

std::string format_count_dataset_summary(const CountDatasetRun& run) {
    const auto meta = count_dataset_meta(run.dataset);
    std::ostringstream os;
    TextTable table({"pattern", "mean count"});
    for (Pattern p : all_patterns()) {
        std::ostringstream v;
        v.setf(std::ios::fixed);
        v.precision(2);
        v << meta["mean_counts"][pattern_name(p)].get<double>();
        table.add_row({pattern_name(p), v.str()});
    }
    os << table.str();
    std::ostringstream edges;
    edges.setf(std::ios::fixed);
    edges.precision(2);
    edges << meta["mean_edges"].get<double>();
    os << "wrote " << run.dataset.graphs.size() << " " << run.dataset.options.kind << " graphs (train "
       << meta["split"]["train"].get<std::size_t>() << ", validation " << meta["split"]["validation"].get<std::size_t>()
       << ", test " << meta["split"]["test"].get<std::size_t>() << "; mean edges " << edges.str() << ") to "
       << run.directory << " in " << format_seconds(run.seconds) << "\n";
    return os.str();
}

nlohmann::json count_dataset_summary_json(const CountDatasetRun& run) {
    // Plain json (sorted keys) from the ordered meta data.
    const nlohmann::json meta = nlohmann::json::parse(count_dataset_meta(run.dataset).dump());
    return {{"command", "count"},
            {"generate", run.dataset.options.kind},
            {"out", run.directory},
            {"seed", run.dataset.options.seed},
            {"graphs", run.dataset.graphs.size()},
            {"split", meta["split"]},
            {"mean_edges", meta["mean_edges"]},
            {"mean_counts", meta["mean_counts"]},
            {"seconds", run.seconds}};
}

}  // namespace brec
