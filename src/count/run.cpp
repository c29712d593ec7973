#include "brec/count/run.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/text.hpp"
#include "brec/io/files.hpp"

namespace brec {
namespace {

std::vector<Pattern> selected_patterns(const std::vector<std::string>& names) {
    if (names.empty()) return all_patterns();
    std::vector<Pattern> out;
    for (const auto& name : names) {
        const Pattern p = parse_pattern(trim(name));
        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    }
    return out;
}

std::string graph_id(const GraphCollection& c, std::size_t i) {
    if (!c.paired) return std::to_string(i);
    return std::to_string(c.pair_ids[i / 2]) + (i % 2 ? "b" : "a");
}

}  // namespace

std::string format_counts(const CountFileRun& run, CountOutput output, bool per_node) {
    const auto& pats = run.patterns;
    std::vector<std::string> header = {"graph"};
    if (per_node)
        header.push_back("node");
    else {
        header.push_back("n");
        header.push_back("m");
    }
    for (Pattern p : pats) header.push_back(pattern_name(p));
    std::ostringstream os;
    if (output == CountOutput::jsonl) {
        for (std::size_t i = 0; i < run.counts.size(); ++i) {
            nlohmann::ordered_json j;
            j["graph"] = run.ids[i];
            j["n"] = run.nodes[i];
            j["m"] = run.edges[i];
            nlohmann::ordered_json counts = nlohmann::ordered_json::object();
            for (Pattern p : pats) counts[pattern_name(p)] = run.counts[i].total[static_cast<int>(p)];
            j["counts"] = counts;
            if (per_node) {
                nlohmann::ordered_json nodes = nlohmann::ordered_json::object();
                for (Pattern p : pats) {
                    std::vector<std::uint64_t> col;
                    col.reserve(run.counts[i].per_node.size());
                    for (const auto& row : run.counts[i].per_node) col.push_back(row[static_cast<int>(p)]);
                    nodes[pattern_name(p)] = col;
                }
                j["per_node"] = nodes;
            }
            os << j.dump() << '\n';
        }
        return os.str();
    }
    auto row_of = [&](std::size_t i, VertexId node, bool node_row) {
        std::vector<std::string> row = {run.ids[i]};
        if (node_row) {
            row.push_back(std::to_string(node));
            for (Pattern p : pats) row.push_back(std::to_string(run.counts[i].per_node[node][static_cast<int>(p)]));
        } else {
            row.push_back(std::to_string(run.nodes[i]));
            row.push_back(std::to_string(run.edges[i]));
            for (Pattern p : pats) row.push_back(std::to_string(run.counts[i].total[static_cast<int>(p)]));
        }
        return row;
    };
    if (output == CountOutput::tsv) {
        auto line = [&](const std::vector<std::string>& cells) {
            for (std::size_t k = 0; k < cells.size(); ++k) os << (k ? "\t" : "") << cells[k];
            os << '\n';
        };
        line(header);
        for (std::size_t i = 0; i < run.counts.size(); ++i) {
            if (!per_node) {
                line(row_of(i, 0, false));
                continue;
            }
            for (VertexId v = 0; v < run.nodes[i]; ++v) line(row_of(i, v, true));
        }
        return os.str();
    }
    TextTable table(header);
    for (std::size_t i = 0; i < run.counts.size(); ++i) {
        if (!per_node) {
            table.add_row(row_of(i, 0, false));
            continue;
        }
        for (VertexId v = 0; v < run.nodes[i]; ++v) table.add_row(row_of(i, v, true));
    }
    return table.str();
}

CountFileRun count_file(const CountFileOptions& opt, RunContext& ctx) {
    const auto t0 = std::chrono::steady_clock::now();
    CountFileRun run;
    run.patterns = selected_patterns(opt.patterns);  // bad names fail before any reading
    run.input = opt.path;
    run.format = opt.format.empty() || opt.format == "auto" ? detect_format(opt.path) : parse_format(opt.format);
    CollectionOptions copt;
    copt.edge_list.one_based = copt.one_based = opt.one_based;
    copt.tu_name = opt.tu_name;
    const GraphCollection c = read_collection(opt.path, run.format, copt);
    if (c.self_loops_dropped || c.duplicate_edges_dropped)
        ctx.warn("dropped " + std::to_string(c.self_loops_dropped) + " self-loops and " +
                 std::to_string(c.duplicate_edges_dropped) + " duplicate edges of " + opt.path);
    const std::size_t n = c.graphs.size();
    run.counts.resize(n);
    {
        auto timer = ctx.timers().scope("count");
        std::atomic<std::size_t> done{0};
        std::mutex progress_mutex;  // progress sinks are not required to be thread-safe
        const std::size_t step = std::max<std::size_t>(1, n / 200);
        parallel_for(n, ctx.threads(), [&](std::size_t i) {
            ctx.throw_if_cancelled();
            run.counts[i] = count_patterns(c.graphs[i], 4, opt.per_node);
            const std::size_t d = ++done;
            if (d % step == 0 || d == n) {
                std::lock_guard<std::mutex> lock(progress_mutex);
                ctx.progress("count", d, n);
            }
        });
    }
    for (std::size_t i = 0; i < n; ++i) {
        run.ids.push_back(graph_id(c, i));
        run.nodes.push_back(c.graphs[i].n());
        run.edges.push_back(c.graphs[i].m());
    }
    const std::string text = format_counts(run, opt.output, opt.per_node);
    if (opt.out.empty()) {
        run.text = text;
    } else {
        write_text_file_atomic(opt.out, text);
        run.out = opt.out;
    }
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return run;
}

std::string count_file_summary(const CountFileRun& run) {
    std::ostringstream os;
    os << "counted " << run.patterns.size() << " patterns in " << run.counts.size() << " graphs of " << run.input
       << " (" << format_name(run.format) << ") in " << format_seconds(run.seconds);
    if (!run.out.empty()) os << "; wrote " << run.out;
    os << '\n';
    return os.str();
}

}  // namespace brec
