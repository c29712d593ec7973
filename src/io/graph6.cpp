#include "brec/io/graph6.hpp"

#include <string>

#include "brec/core/error.hpp"
#include "detail/size_field.hpp"

namespace brec {
namespace {

constexpr std::uint64_t kMaxN = 68719476735ULL;  // 2^36 - 1
// A guard so that a corrupted size field cannot make us allocate terabytes.
constexpr std::uint64_t kMaxDenseN = 1u << 20;
// sparse6 needs no bytes per isolated vertex, so a 10-byte record can declare 2^36 - 1 vertices;
// the CSR offsets of a graph with this many vertices take 512 MiB.
constexpr std::uint64_t kMaxSparseN = std::uint64_t{1} << 27;

[[noreturn]] void fail(const SourcePos& pos, std::size_t col, const std::string& what) {
    throw ParseError(pos.source, pos.line, what, static_cast<std::int64_t>(col));
}

std::string_view strip(std::string_view s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// Reads the N(n) size field starting at `i`; advances i past it.
std::uint64_t read_size(std::string_view s, std::size_t& i, const SourcePos& pos, const char* fmt) {
    if (i >= s.size()) fail(pos, i, std::string("empty ") + fmt + " record");
    const detail::SizeField f = detail::decode_size_field(s, i);
    if (f.length == 0) {
        if (f.bad >= s.size()) fail(pos, f.bad, std::string("truncated ") + fmt + " size field");
        fail(pos, f.bad,
             std::string("bad character in ") + fmt + " size field (byte " +
                 std::to_string(static_cast<unsigned char>(s[f.bad])) + ", expected 63..126)");
    }
    i += f.length;
    return f.n;
}

void write_size(std::string& out, std::uint64_t n) {
    if (n <= 62) {
        out.push_back(static_cast<char>(n + 63));
    } else if (n <= 258047) {
        out.push_back(126);
        for (int shift = 12; shift >= 0; shift -= 6) out.push_back(static_cast<char>(((n >> shift) & 63) + 63));
    } else {
        out.push_back(126);
        out.push_back(126);
        for (int shift = 30; shift >= 0; shift -= 6) out.push_back(static_cast<char>(((n >> shift) & 63) + 63));
    }
}

std::string_view drop_header(std::string_view s, std::string_view header) {
    if (s.substr(0, header.size()) == header) s.remove_prefix(header.size());
    return s;
}

}  // namespace

Graph parse_graph6(std::string_view text, const SourcePos& pos) {
    std::string_view s = strip(drop_header(text, ">>graph6<<"));
    const std::size_t header = text.size() - drop_header(text, ">>graph6<<").size();
    SourcePos p = pos;
    if (s.empty()) fail(p, header, "empty graph6 record");
    if (s[0] == ':' || s[0] == ';') fail(p, header, "this is a sparse6 record, not graph6");
    std::size_t i = 0;
    const std::uint64_t n64 = read_size(s, i, p, "graph6");
    if (n64 > kMaxDenseN)
        throw ResourceLimit(p.source + (p.line ? ":" + std::to_string(p.line) : "") + ": graph6 record declares " +
                            std::to_string(n64) + " vertices; dense formats are limited to " +
                            std::to_string(kMaxDenseN) + " (use sparse6)");
    const std::uint64_t bits = n64 * (n64 - (n64 > 0 ? 1 : 0)) / 2;
    const std::uint64_t bytes = (bits + 5) / 6;
    if (s.size() - i != bytes)
        fail(p, header + (s.size() < i + bytes ? s.size() : i + bytes),
             "graph6 record for n=" + std::to_string(n64) + " needs " + std::to_string(bytes) + " data bytes, found " +
                 std::to_string(s.size() - i) + (s.size() - i < bytes ? " (truncated)" : " (trailing bytes)"));
    const auto n = static_cast<VertexId>(n64);
    GraphBuilder b(n);
    std::uint64_t bit = 0;
    // Bits run over the upper triangle column by column: (0,1),(0,2),(1,2),(0,3),...
    VertexId row = 0, col = 1;
    for (std::size_t k = i; k < s.size(); ++k) {
        const unsigned char c = static_cast<unsigned char>(s[k]);
        if (c < 63 || c > 126)
            fail(p, header + k, "bad character in graph6 data (byte " + std::to_string(c) + ", expected 63..126)");
        const unsigned v = c - 63;
        for (int sh = 5; sh >= 0; --sh, ++bit) {
            const bool set = (v >> sh) & 1u;
            if (bit >= bits) {
                if (set) fail(p, header + k, "non-zero padding bits in graph6 record");
                continue;
            }
            if (set) b.add_edge(row, col);
            if (++row == col) {
                row = 0;
                ++col;
            }
        }
    }
    return b.build();
}

std::int64_t declared_order(std::string_view record) {
    const std::size_t at = !record.empty() && (record[0] == ':' || record[0] == ';') ? 1 : 0;
    const detail::SizeField f = detail::decode_size_field(record, at);
    return f.length == 0 ? -1 : static_cast<std::int64_t>(f.n);
}

void parse_graph6_rows(std::string_view text, DenseRows& out, const SourcePos& pos) {
    // The common case is checked here; anything unusual (a header, a bad byte, a wrong length,
    // padding bits) goes to parse_graph6, which throws the error with its exact column.
    const std::string_view s = strip(text);
    const auto reject = [&]() {
        parse_graph6(text, pos);
        throw ParseError(pos.source, pos.line, "graph6 record rejected");  // not reached: parse_graph6 throws
    };
    if (s.empty() || s[0] == '>' || s[0] == ':' || s[0] == ';') {
        if (!s.empty() && s[0] == '>') {
            out = dense_rows(parse_graph6(text, pos));
            return;
        }
        reject();
    }
    std::size_t i = 0;
    const detail::SizeField f = detail::decode_size_field(s, i);
    if (f.length == 0 || f.n > kMaxDenseN) reject();
    i += f.length;
    const std::uint64_t bits = f.n * (f.n - (f.n > 0 ? 1 : 0)) / 2;
    if (s.size() - i != (bits + 5) / 6) reject();
    out.reset(static_cast<VertexId>(f.n));
    if (f.n <= 64) {
        // One word per row. Column j of the upper triangle is j consecutive bits (rows 0..j-1, row 0
        // first), which is row j's word below the diagonal as it stands; the other half is set bit
        // by bit.
        unsigned bad = 0;
        for (std::size_t k = i; k < s.size(); ++k) {
            const unsigned c = static_cast<unsigned char>(s[k]);
            bad |= static_cast<unsigned>(c < 63 || c > 126);
        }
        const unsigned pad = static_cast<unsigned>((6 - bits % 6) % 6);
        if (bad || (pad > 0 && ((static_cast<unsigned char>(s.back()) - 63u) & ((1u << pad) - 1)) != 0)) reject();
        std::uint64_t acc = 0;  // the low `have` bits are unread
        int have = 0;
        std::size_t k = i;
        auto take = [&](int count) {  // the next count <= 32 bits, first bit highest
            while (have < count) {
                acc = (acc << 6) | (static_cast<unsigned char>(s[k++]) - 63u);
                have += 6;
            }
            have -= count;
            return (acc >> have) & ((std::uint64_t{1} << count) - 1);
        };
        for (VertexId j = 1; j < f.n; ++j) {
            std::uint64_t column = 0;  // rows 0..j-1, row 0 in bit j-1
            for (int left = static_cast<int>(j); left > 0;) {
                const int part = std::min(left, 32);
                column = (column << part) | take(part);
                left -= part;
            }
            out.bits[j] = column << (64 - j);
            for (std::uint64_t w = column; w != 0; w &= w - 1)
                out.bits[j - 1 - static_cast<VertexId>(__builtin_ctzll(w))] |= DenseRows::mask(j);
        }
        return;
    }
    std::uint64_t bit = 0;
    VertexId row = 0, col = 1;
    for (std::size_t k = i; k < s.size(); ++k) {
        const unsigned c = static_cast<unsigned char>(s[k]);
        if (c < 63 || c > 126) reject();
        const unsigned v = c - 63;
        if (bit + 6 > bits && (v & ((1u << (6 - (bits - bit))) - 1)) != 0) reject();  // padding bits
        if (v == 0) {  // six absent edges (most bytes of a sparse graph): skip them at once
            bit += 6;
            for (row += 6; row >= col;) row -= col++;
            continue;
        }
        for (int sh = 5; sh >= 0 && bit < bits; --sh, ++bit) {
            if ((v >> sh) & 1u) out.add_edge(row, col);
            if (++row == col) {
                row = 0;
                ++col;
            }
        }
    }
}

Graph parse_sparse6(std::string_view text, const SourcePos& pos) {
    std::string_view s = strip(drop_header(text, ">>sparse6<<"));
    const std::size_t header = text.size() - drop_header(text, ">>sparse6<<").size();
    if (s.empty()) fail(pos, header, "empty sparse6 record");
    if (s[0] == ';') fail(pos, header, "incremental sparse6 (';') is not supported");
    if (s[0] != ':') fail(pos, header, "sparse6 record must start with ':'");
    std::size_t i = 1;
    const std::uint64_t n64 = read_size(s, i, pos, "sparse6");
    if (n64 > kMaxN) fail(pos, header, "sparse6 size out of range");
    if (n64 > kMaxSparseN)
        throw ResourceLimit(pos.source + (pos.line ? ":" + std::to_string(pos.line) : "") +
                            ": sparse6 record declares " + std::to_string(n64) + " vertices; the limit is " +
                            std::to_string(kMaxSparseN));
    const auto n = static_cast<VertexId>(n64);
    int k = 0;
    while ((std::uint64_t{1} << k) < n64) ++k;
    GraphBuilder b(n);
    b.set_duplicates(EdgePolicy::reject);
    std::uint64_t v = 0;
    // Bit reader over the remaining bytes.
    std::size_t byte = i;
    int bitpos = -1;
    unsigned cur = 0;
    auto next_bit = [&](bool& ok) -> unsigned {
        if (bitpos < 0) {
            if (byte >= s.size()) {
                ok = false;
                return 0;
            }
            const unsigned char c = static_cast<unsigned char>(s[byte]);
            if (c < 63 || c > 126)
                fail(pos, header + byte,
                     "bad character in sparse6 data (byte " + std::to_string(c) + ", expected 63..126)");
            cur = c - 63;
            ++byte;
            bitpos = 5;
        }
        return (cur >> bitpos--) & 1u;
    };
    for (;;) {
        bool ok = true;
        const unsigned bbit = next_bit(ok);
        if (!ok) break;
        std::uint64_t x = 0;
        for (int t = 0; t < k; ++t) {
            x = (x << 1) | next_bit(ok);
            if (!ok) break;
        }
        if (!ok) break;
        if (bbit) ++v;
        if (x >= n64 || v >= n64) break;
        if (x > v) {
            v = x;
        } else {
            if (x == v)
                fail(pos, header + byte - 1,
                     "sparse6 record has a self-loop at vertex " + std::to_string(x) + " (simple graphs only)");
            b.add_edge(static_cast<VertexId>(x), static_cast<VertexId>(v));
        }
    }
    try {
        return b.build();
    } catch (const InvalidArgument& e) {
        fail(pos, header, std::string("sparse6 record is not a simple graph: ") + e.what());
    }
}

Graph parse_graph6_or_sparse6(std::string_view text, const SourcePos& pos) {
    std::string_view s = drop_header(drop_header(text, ">>graph6<<"), ">>sparse6<<");
    if (!s.empty() && s[0] == ':') return parse_sparse6(text, pos);
    return parse_graph6(text, pos);
}

std::string to_graph6(const Graph& g) {
    const std::uint64_t n = g.n();
    std::string out;
    write_size(out, n);
    const std::uint64_t bits = n * (n > 0 ? n - 1 : 0) / 2;
    out.reserve(out.size() + (bits + 5) / 6);
    unsigned acc = 0;
    int filled = 0;
    for (VertexId col = 1; col < g.n(); ++col) {
        const auto nb = g.neighbors(col);
        std::size_t k = 0;
        for (VertexId row = 0; row < col; ++row) {
            while (k < nb.size() && nb[k] < row) ++k;
            const bool set = k < nb.size() && nb[k] == row;
            acc = (acc << 1) | (set ? 1u : 0u);
            if (++filled == 6) {
                out.push_back(static_cast<char>(acc + 63));
                acc = 0;
                filled = 0;
            }
        }
    }
    if (filled > 0) out.push_back(static_cast<char>((acc << (6 - filled)) + 63));
    return out;
}

std::string to_sparse6(const Graph& g) {
    const std::uint64_t n = g.n();
    std::string out(":");
    write_size(out, n);
    int k = 0;
    while ((std::uint64_t{1} << k) < n) ++k;
    if (k == 0) k = 1;  // as nauty and networkx do for n <= 1 (no edges can follow)
    std::vector<bool> bits;
    auto put = [&](std::uint64_t x) {
        for (int t = k - 1; t >= 0; --t) bits.push_back((x >> t) & 1u);
    };
    std::uint64_t cur = 0;
    // Edges ordered by larger endpoint, then smaller; neighbour lists are sorted.
    for (VertexId v = 0; v < g.n(); ++v) {
        for (VertexId u : g.neighbors(v)) {
            if (u > v) break;
            if (v == cur) {
                bits.push_back(false);
                put(u);
            } else if (v == cur + 1) {
                cur = v;
                bits.push_back(true);
                put(u);
            } else {
                cur = v;
                bits.push_back(true);
                put(v);
                bits.push_back(false);
                put(u);
            }
        }
    }
    // Padding with 1-bits could decode as a pair (b=1, x=n-1) and so as an edge {n-1, n-1} when the
    // last edge's larger end is n-2 and n = 2^k; then nauty (formats.txt, gtools.c ntos6) pads
    // with one 0-bit first. We follow nauty exactly (networkx also inserts the 0-bit when
    // cur < n-2 with only k spare bits, which decodes the same but differs in bytes).
    const std::size_t pad = (6 - bits.size() % 6) % 6;
    if (n >= 2 && n == (std::uint64_t{1} << k) && pad >= static_cast<std::size_t>(k) + 1 && cur == n - 2)
        bits.push_back(false);
    while (bits.size() % 6) bits.push_back(true);
    for (std::size_t i = 0; i < bits.size(); i += 6) {
        unsigned v = 0;
        for (std::size_t t = 0; t < 6; ++t) v = (v << 1) | (bits[i + t] ? 1u : 0u);
        out.push_back(static_cast<char>(v + 63));
    }
    return out;
}

}  // namespace brec
