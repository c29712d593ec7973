// libFuzzer target: graph6/sparse6 records. Property: whatever parses round-trips exactly through
// both writers.
#include "brec/io/graph6.hpp"
#include "fuzz_common.hpp"

namespace {

// What one iteration may build. A sparse6 record needs no bytes for isolated vertices, so a
// 10-byte record can declare up to 2^27 vertices (the reader's limit, 512 MiB of offsets: legal,
// but seconds per input under the sanitizers); its graph6 form takes n(n-1)/12 bytes (80 MB for
// 31,161 vertices), its sparse6 form O(n + m). Records declaring more than kMaxDeclared vertices
// are skipped; the reader's own limits are tested in tests/io.
constexpr std::uint64_t kMaxDeclared = 1u << 16;
constexpr brec::VertexId kMaxGraph6RoundTrip = 512;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string s = brec::fuzz::text(data, size);
    if (brec::fuzz::declared_vertices(s) > kMaxDeclared) return 0;
    brec::fuzz::run([&] {
        const brec::Graph g = brec::parse_graph6_or_sparse6(s);
        if (g.n() <= kMaxGraph6RoundTrip)
            brec::fuzz::check(brec::parse_graph6(brec::to_graph6(g)) == g, "graph6 round trip");
        const std::string s6 = brec::to_sparse6(g);
        brec::fuzz::check(brec::parse_sparse6(s6) == g, "sparse6 round trip");
        brec::fuzz::check(brec::to_sparse6(brec::parse_sparse6(s6)) == s6, "sparse6 bytes stable");
    });
    return 0;
}
