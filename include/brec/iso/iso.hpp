#pragma once
// Isomorphism via nauty (McKay & Piperno 2014): canonical labelling, certificates (canonical forms),
// isomorphism tests and automorphism group orders. Vertex colours (node labels) are honoured when
// asked for: isomorphisms then preserve labels.
//
// @article{mckay2014practical, title={Practical graph isomorphism, II}, author={McKay, Brendan D.
//   and Piperno, Adolfo}, journal={J. Symbolic Computation}, volume={60}, pages={94--112}, year={2014}}

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "brec/graph/algorithms.hpp"
#include "brec/graph/dense_rows.hpp"
#include "brec/graph/graph.hpp"

namespace brec {

struct IsoOptions {
    /// Treat node labels as vertex colours (label-preserving isomorphism).
    bool use_node_labels = false;
    /// Treat edge labels as part of the structure (labelled edges are subdivided by a vertex whose
    /// colour encodes the label, which is sound for label-preserving isomorphism).
    bool use_edge_labels = false;

    IsoOptions& node_labels(bool v) {
        use_node_labels = v;
        return *this;
    }
    IsoOptions& edge_labels(bool v) {
        use_edge_labels = v;
        return *this;
    }
};

/// A canonical form: two graphs are isomorphic (under the options used) iff their certificates are
/// equal. Compact bytes; hashable.
struct Certificate {
    std::string bytes;
    bool operator==(const Certificate& o) const { return bytes == o.bytes; }
    bool operator!=(const Certificate& o) const { return bytes != o.bytes; }
    bool operator<(const Certificate& o) const { return bytes < o.bytes; }
    /// A 64-bit hash of the bytes (stable across runs and platforms).
    std::uint64_t hash() const;
};

struct CertificateHash {
    std::size_t operator()(const Certificate& c) const { return static_cast<std::size_t>(c.hash()); }
};

/// Largest supported n; above it ResourceLimit is thrown (nauty would be asked for too much).
inline constexpr VertexId kMaxIsoVertices = 1u << 22;

/// Canonical labelling: position i of the result holds the vertex that goes to canonical place i.
/// Complexity: usually near-linear; exponential only on pathological inputs.
std::vector<VertexId> canonical_order(const Graph& g, const IsoOptions& opt = {});
Certificate canonical_certificate(const Graph& g, const IsoOptions& opt = {});
/// Appends a compact canonical form of `g` under `opt` to `out`: two graphs get equal forms iff
/// they are isomorphic under `opt` (as for canonical_certificate, whose bytes these are not). The
/// form is 'c', the vertex counts and the colour classes in canonical order (run-length coded),
/// then the canonical graph as the packed upper triangle of its adjacency matrix or as lists of
/// later neighbours (delta varints), whichever is shorter. For a graph on n vertices with m edges
/// that is about min(n^2 / 16, n + 2m) bytes plus its colour runs: near its graph6 size, a tenth
/// of the certificate's. Complexity: one sparse nauty run, as canonical_certificate.
void append_compact_form(const Graph& g, const IsoOptions& opt, std::string& out);

/// Canonical forms by dense nauty, the path nauty's own labelg takes for graph6 input: fast for
/// graphs on up to a few hundred vertices. Holds nauty's buffers; one per thread.
class DenseCanoniser {
public:
    /// Appends the canonical form of `g` (uncoloured) to `out`: 'd', n (1 byte below 255, else 255
    /// and 4 bytes), then the upper triangle of the canonical adjacency matrix, row by row, packed 8
    /// bits to a byte. Two graphs get equal forms iff they are isomorphic. The bytes are not those
    /// of canonical_certificate (another labelling); never compare the two.
    /// Complexity: that of nauty's dense search; n * ceil(n / 64) words of memory.
    void append_form(const DenseRows& g, std::string& out);

private:
    std::vector<int> lab_, ptn_, orbits_;
    std::vector<std::uint64_t> canon_;
};

/// The canonical form as a graph (vertex i = canonical place i).
Graph canonical_graph(const Graph& g, const IsoOptions& opt = {});
bool are_isomorphic(const Graph& g, const Graph& h, const IsoOptions& opt = {});

struct AutomorphismInfo {
    /// |Aut(G)| = mantissa * 10^exponent (nauty's grpsize1, grpsize2); exact for small groups.
    double mantissa = 1.0;
    int exponent = 0;
    /// Orbit representative (smallest vertex) of every vertex.
    std::vector<VertexId> orbits;
    std::size_t num_orbits = 0;
    /// The group order as a double (may be inf for huge groups) and as text.
    double order() const;
    std::string order_text() const;
};
AutomorphismInfo automorphisms(const Graph& g, const IsoOptions& opt = {});

/// Generators of Aut(G) as nauty finds them (they generate the whole group; none when it is
/// trivial): perm[v] is the image of vertex v. Options as for automorphisms(); with edge labels the
/// generators are restricted to the vertices of g. At most n - 1 generators.
/// Complexity: one nauty run (as automorphisms()) plus O(n) per generator.
std::vector<Permutation> automorphism_generators(const Graph& g, const IsoOptions& opt = {});

}  // namespace brec
