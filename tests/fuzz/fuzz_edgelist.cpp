// libFuzzer target: edge-list text. Property: what parses is reproduced by the writer.
#include "brec/io/edgelist.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string s = brec::fuzz::text(data, size);
    for (bool one_based : {false, true}) {
        brec::fuzz::run([&] {
            brec::EdgeListOptions opt;
            opt.one_based = one_based;
            opt.max_vertices = 1u << 16;
            opt.duplicates = brec::EdgePolicy::drop;
            opt.self_loops = brec::EdgePolicy::drop;
            const auto graphs = brec::parse_edge_lists(s, "fuzz.el", opt);
            const std::string out = brec::format_edge_lists(graphs, one_based);
            brec::fuzz::check(brec::parse_edge_lists(out, "again.el", opt) == graphs, "edge-list round trip");
        });
    }
    return 0;
}
