// libFuzzer target: graph6/sparse6 records. Property: whatever parses round-trips exactly through
// both writers.
#include "brec/io/graph6.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string s = brec::fuzz::text(data, size);
    brec::fuzz::run([&] {
        const brec::Graph g = brec::parse_graph6_or_sparse6(s);
        if (g.n() > (1u << 16)) return;  // a short sparse6 record may declare many vertices
        const std::string g6 = brec::to_graph6(g);
        const std::string s6 = brec::to_sparse6(g);
        brec::fuzz::check(brec::parse_graph6(g6) == g, "graph6 round trip");
        brec::fuzz::check(brec::parse_sparse6(s6) == g, "sparse6 round trip");
        brec::fuzz::check(brec::to_sparse6(brec::parse_sparse6(s6)) == s6, "sparse6 bytes stable");
    });
    return 0;
}
