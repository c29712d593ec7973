// One greedy attack step's worth of counting work (the candidate flips of Campi et al.'s greedy
// attack, 109 edges and 109 non-edges per step): every candidate evaluated by the incremental
// update against a full recount of the flipped graph. Not a Google Benchmark program: it reads
// the graphs and the candidate flips that tests/benchmarks/count/count_speed.py writes, checks that
// both ways agree, and prints the timings as one JSON object.
//
// Usage: count_flip_bench GRAPHS.g6 FLIPS.txt [REPEATS]   (FLIPS.txt: "graph u v" per line)
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "brec/count/flip.hpp"
#include "brec/count/patterns.hpp"
#include "brec/io/collection.hpp"

namespace {

struct Flip {
    std::size_t graph;
    brec::VertexId u, v;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    using namespace brec;
    if (argc < 3) {
        std::cerr << "usage: count_flip_bench GRAPHS.g6 FLIPS.txt [REPEATS]\n";
        return 2;
    }
    const int repeats = argc > 3 ? std::stoi(argv[3]) : 3;
    const std::vector<Graph> graphs = read_graph_lines(argv[1]);
    std::vector<Flip> flips;
    std::ifstream in(argv[2]);
    for (Flip f{}; in >> f.graph >> f.u >> f.v;) flips.push_back(f);
    std::vector<std::size_t> used;
    for (const Flip& f : flips)
        if (used.empty() || used.back() != f.graph) used.push_back(f.graph);
    // Counts of the unperturbed graphs (an attack holds them already).
    std::vector<PatternCounts> base(graphs.size());
    for (std::size_t g : used) base[g] = count_patterns(graphs[g]);

    FlipWorkspace ws;
    double best_total = 1e300, best_node = 1e300, best_full = 1e300, best_full_totals = 1e300;
    std::size_t mismatches = 0;
    std::int64_t checksum = 0;
    for (int r = 0; r < repeats; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        for (const Flip& f : flips) {
            const auto d = flip_total_delta(graphs[f.graph], f.u, f.v, ws);
            checksum += d[4];
        }
        best_total = std::min(best_total, seconds_since(t0));
        t0 = std::chrono::steady_clock::now();
        for (const Flip& f : flips) {
            PatternCounts c = base[f.graph];
            apply_delta(c, flip_delta(graphs[f.graph], f.u, f.v, ws));
            checksum += static_cast<std::int64_t>(c.total[4]);
        }
        best_node = std::min(best_node, seconds_since(t0));
        t0 = std::chrono::steady_clock::now();
        for (const Flip& f : flips) {
            const PatternCounts c = count_patterns(flip_edge(graphs[f.graph], f.u, f.v));
            checksum += static_cast<std::int64_t>(c.total[4]);
        }
        best_full = std::min(best_full, seconds_since(t0));
        t0 = std::chrono::steady_clock::now();
        for (const Flip& f : flips) {
            const PatternCounts c = count_patterns(flip_edge(graphs[f.graph], f.u, f.v), 4, false);
            checksum += static_cast<std::int64_t>(c.total[4]);
        }
        best_full_totals = std::min(best_full_totals, seconds_since(t0));
    }
    // Agreement, outside the timed loops.
    for (const Flip& f : flips) {
        PatternCounts c = base[f.graph];
        apply_delta(c, flip_delta(graphs[f.graph], f.u, f.v, ws));
        const PatternCounts full = count_patterns(flip_edge(graphs[f.graph], f.u, f.v));
        if (c.total != full.total || c.per_node != full.per_node) ++mismatches;
    }
    const double steps = static_cast<double>(used.size());
    std::printf(
        "{\"graphs\": %zu, \"flips\": %zu, \"flips_per_step\": %.1f, \"mismatches\": %zu, "
        "\"incremental_totals_ms_per_step\": %.4f, \"incremental_per_node_ms_per_step\": %.4f, "
        "\"full_recount_ms_per_step\": %.4f, \"full_recount_totals_ms_per_step\": %.4f, "
        "\"speedup_totals\": %.1f, \"speedup_per_node\": %.1f, "
        "\"checksum\": %lld}\n",
        used.size(), flips.size(), static_cast<double>(flips.size()) / steps, mismatches, 1e3 * best_total / steps,
        1e3 * best_node / steps, 1e3 * best_full / steps, 1e3 * best_full_totals / steps, best_full_totals / best_total,
        best_full / best_node, static_cast<long long>(checksum));
    return mismatches == 0 ? 0 : 1;
}
