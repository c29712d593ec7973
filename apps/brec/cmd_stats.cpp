// brec stats: small statistical helpers (the RPC threshold, the Nemenyi critical difference).
#include <iomanip>
#include <iostream>

#include "brec/stats/hotelling.hpp"
#include "brec/stats/tests.hpp"
#include "commands.hpp"
#include "common.hpp"

namespace brec::cli {
namespace {

struct StatsArgs {
    int q = 32;
    int d = 16;
    int k = 4;
    int n = 10;
    double alpha = 0.05;
    bool json = false;
};

}  // namespace

void add_stats(CLI::App& root, Action& action) {
    auto args = std::make_shared<StatsArgs>();
    auto* sub = add_command(root, "stats", "Statistical helpers: the RPC threshold and the Nemenyi critical difference",
                            "Example: brec stats threshold --q 32 --d 16 --alpha 0.05");
    sub->require_subcommand(1);
    auto* thr = add_command(*sub, "threshold", "The RPC threshold (q-1)d/(q-d) F_{d,q-d}(1-alpha) of BREC's RPC test",
                            "Example: brec stats threshold --q 32 --d 16 --alpha 0.05   (prints 72.3380)");
    thr->add_option("--q", args->q, "Relabelings per graph (paired samples)")
        ->check(CLI::Range(2, 1000000))
        ->capture_default_str();
    thr->add_option("--d", args->d, "Embedding dimension")->check(CLI::Range(1, 1000000))->capture_default_str();
    thr->add_option("--alpha", args->alpha, "Significance level")
        ->check(CLI::Range(1e-12, 0.999999))
        ->capture_default_str();
    add_json_flag(thr, args->json, "Print JSON");
    thr->callback([args, &action]() {
        action = [args](RunContext&) {
            const double t = rpc_threshold(args->q, args->d, args->alpha);
            if (args->json)
                print_json_line({{"q", args->q}, {"d", args->d}, {"alpha", args->alpha}, {"threshold", t}});
            else
                std::cout << std::fixed << std::setprecision(4) << t << '\n';
            return 0;
        };
    });
    auto* cd = add_command(*sub, "cd", "The Nemenyi critical difference for k models over N tasks",
                           "Studentised range quantile with infinite degrees of freedom.\n"
                           "Example: brec stats cd --k 4 --n 10   (prints 1.4832)");
    cd->add_option("--k", args->k, "Number of models")->check(CLI::Range(2, 1000))->capture_default_str();
    cd->add_option("--n", args->n, "Number of tasks")->check(CLI::Range(1, 1000000))->capture_default_str();
    cd->add_option("--alpha", args->alpha, "Significance level")->check(CLI::Range(1e-6, 0.5))->capture_default_str();
    add_json_flag(cd, args->json, "Print JSON");
    cd->callback([args, &action]() {
        action = [args](RunContext&) {
            const Nemenyi nm = nemenyi(args->k, args->n, args->alpha);
            if (args->json)
                print_json_line(
                    {{"k", args->k}, {"n", args->n}, {"alpha", args->alpha}, {"q_alpha", nm.q_alpha}, {"cd", nm.cd}});
            else
                std::cout << std::fixed << std::setprecision(4) << nm.cd << '\n';
            return 0;
        };
    });
}

}  // namespace brec::cli
