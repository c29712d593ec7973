// libFuzzer target: graph6/sparse6 records. Properties: whatever parses round-trips exactly through
// both writers; the bit-row parser of the streaming deduplication accepts exactly the graph6 records
// the CSR parser accepts, builds the same graph, and rejects the others with the same message.
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
    if (brec::fuzz::declared_vertices(s) <= kMaxGraph6RoundTrip && !s.empty() && s[0] != ':' && s[0] != ';') {
        std::string csr_error, rows_error;
        brec::Graph csr;
        brec::DenseRows rows;
        try {
            csr = brec::parse_graph6(s);
        } catch (const brec::Error& e) {
            csr_error = e.what();
        }
        try {
            brec::parse_graph6_rows(s, rows);
        } catch (const brec::Error& e) {
            rows_error = e.what();
        }
        brec::fuzz::check(csr_error == rows_error, "graph6 row parser errors as the CSR parser");
        if (csr_error.empty()) brec::fuzz::check(brec::graph_from_rows(rows) == csr, "graph6 rows equal the CSR graph");
    }
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
