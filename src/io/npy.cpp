#include "brec/io/npy.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include "brec/core/error.hpp"
#include "brec/io/categories.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"
#include "io/detail/npy_format.hpp"
#include "io/detail/size_field.hpp"

namespace brec {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;
// BREC v3's relabelled file: brec_v3_pair_count() pairs, 32 relabelings per graph.
constexpr std::size_t kBrecRelabelings = 32;

[[noreturn]] void fail_at(const std::string& source, std::size_t byte, const std::string& what) {
    throw ParseError(source, 0, "at byte " + std::to_string(byte) + ": " + what);
}

[[noreturn]] void fail(const std::string& source, const std::string& what) { throw ParseError(source, 0, what); }

std::string shape_text(const std::vector<std::size_t>& shape) { return detail::npy_shape_text(shape); }

// A reader of the header's Python dict literal, e.g.
// {'descr': '<U9', 'fortran_order': False, 'shape': (6,), }
class HeaderDict {
public:
    HeaderDict(std::string_view text, std::size_t base, const std::string& source)
        : t_(text), base_(base), source_(source) {}

    void parse(NpyHeader& h) {
        bool have_descr = false, have_order = false, have_shape = false;
        skip_ws();
        expect('{', "'{' opening the header dict");
        for (;;) {
            skip_ws();
            if (peek() == '}') {
                ++i_;
                break;
            }
            const std::string key = string_literal("a quoted key");
            skip_ws();
            expect(':', "':' after key '" + key + "'");
            skip_ws();
            if (key == "descr") {
                if (peek() == '[')
                    fail(
                        "structured dtypes (descr is a list) are not supported; save an array "
                        "of strings");
                h.descr = string_literal("a quoted dtype string");
                have_descr = true;
            } else if (key == "fortran_order") {
                h.fortran_order = boolean();
                have_order = true;
            } else if (key == "shape") {
                h.shape = tuple();
                have_shape = true;
            } else {
                fail("unknown header key '" + key + "' (expected descr, fortran_order, shape)");
            }
            skip_ws();
            if (peek() == ',') {
                ++i_;
                continue;
            }
            if (peek() == '}') {
                ++i_;
                break;
            }
            fail("expected ',' or '}' in the header dict");
        }
        if (!have_descr) fail("the header has no 'descr'");
        if (!have_order) fail("the header has no 'fortran_order'");
        if (!have_shape) fail("the header has no 'shape'");
        skip_ws();
        if (i_ != t_.size()) fail("unexpected text after the header dict");
    }

private:
    [[noreturn]] void fail(const std::string& what) const { fail_at(source_, base_ + i_, what); }
    char peek() const { return i_ < t_.size() ? t_[i_] : '\0'; }
    void skip_ws() {
        while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
    }
    void expect(char c, const std::string& what) {
        if (peek() != c) fail("expected " + what);
        ++i_;
    }
    std::string string_literal(const std::string& what) {
        const char q = peek();
        if (q != '\'' && q != '"') fail("expected " + what);
        ++i_;
        const std::size_t start = i_;
        while (i_ < t_.size() && t_[i_] != q) ++i_;
        if (i_ >= t_.size()) fail("unterminated string in the header");
        const std::string s(t_.substr(start, i_ - start));
        ++i_;
        return s;
    }
    bool boolean() {
        if (t_.substr(i_, 4) == "True") {
            i_ += 4;
            return true;
        }
        if (t_.substr(i_, 5) == "False") {
            i_ += 5;
            return false;
        }
        fail("expected True or False for 'fortran_order'");
    }
    std::vector<std::size_t> tuple() {
        expect('(', "a tuple like (6,) or (3, 2) for 'shape'");
        std::vector<std::size_t> dims;
        for (;;) {
            skip_ws();
            if (peek() == ')') {
                ++i_;
                return dims;
            }
            if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a non-negative integer in 'shape'");
            std::size_t v = 0;
            while (std::isdigit(static_cast<unsigned char>(peek()))) {
                const std::size_t d = static_cast<std::size_t>(peek() - '0');
                if (v > (std::numeric_limits<std::size_t>::max() - d) / 10) fail("dimension in 'shape' is too large");
                v = v * 10 + d;
                ++i_;
            }
            if (peek() == 'L') ++i_;  // Python 2 long literal
            dims.push_back(v);
            skip_ws();
            if (peek() == ',') {
                ++i_;
                continue;
            }
            if (peek() != ')') fail("expected ',' or ')' in 'shape'");
        }
    }

    std::string_view t_;
    std::size_t base_;
    const std::string& source_;
    std::size_t i_ = 0;
};

void parse_descr(NpyHeader& h, const std::string& source) {
    const std::string& d = h.descr;
    auto width_of = [&](std::size_t from) {
        if (from >= d.size()) return std::size_t{0};
        std::size_t w = 0;
        for (std::size_t k = from; k < d.size(); ++k) {
            if (!std::isdigit(static_cast<unsigned char>(d[k])))
                fail(source, "dtype '" + d + "' has a malformed width");
            w = w * 10 + static_cast<std::size_t>(d[k] - '0');
            if (w > (std::size_t{1} << 32)) fail(source, "dtype '" + d + "' is too wide");
        }
        return w;
    };
    std::size_t p = 0;
    char order = '|';
    if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) {
        order = d[0];
        p = 1;
    }
    const char code = p < d.size() ? d[p] : '\0';
    if (code == 'O')
        fail(source, "dtype '" + d +
                         "' is an object array, stored as a Python pickle, which brec does not "
                         "read; re-save it as strings: np.save(path, np.load(path, "
                         "allow_pickle=True).astype(str))");
    if (code == 'U') {
        h.kind = NpyStringKind::unicode;
        h.big_endian = order == '>';
        h.width = width_of(p + 1);
        h.item_bytes = 4 * h.width;
    } else if (code == 'S' || code == 'a') {
        h.kind = NpyStringKind::bytes;
        h.width = width_of(p + 1);
        h.item_bytes = h.width;
    } else {
        fail(source, "dtype '" + d +
                         "' is not an array of strings (expected '<U…' unicode or '|S…' bytes "
                         "holding graph6 records)");
    }
}

// The byte position in the file of the item with C-order index `c`.
class ItemLocator {
public:
    explicit ItemLocator(const NpyHeader& h) : h_(h) {
        if (h.fortran_order && h.shape.size() > 1) {
            // Fortran strides: stride[0] = 1, stride[k] = stride[k-1] * shape[k-1].
            strides_.assign(h.shape.size(), 1);
            for (std::size_t k = 1; k < h.shape.size(); ++k) strides_[k] = strides_[k - 1] * h.shape[k - 1];
        }
    }
    std::size_t offset(std::size_t c) const {
        std::size_t linear = c;
        if (!strides_.empty()) {
            linear = 0;
            std::size_t rest = c;
            for (std::size_t k = h_.shape.size(); k-- > 0;) {
                const std::size_t idx = h_.shape[k] ? rest % h_.shape[k] : 0;
                rest = h_.shape[k] ? rest / h_.shape[k] : 0;
                linear += idx * strides_[k];
            }
        }
        return h_.data_offset + linear * h_.item_bytes;
    }

private:
    const NpyHeader& h_;
    std::vector<std::size_t> strides_;
};

std::string position_text(const std::vector<std::size_t>& shape, std::size_t c) {
    if (shape.size() <= 1) return "item " + std::to_string(c);
    std::vector<std::size_t> idx(shape.size());
    std::size_t rest = c;
    for (std::size_t k = shape.size(); k-- > 0;) {
        idx[k] = rest % shape[k];
        rest /= shape[k];
    }
    std::string s = "item " + std::to_string(c) + " [";
    for (std::size_t k = 0; k < idx.size(); ++k) s += (k ? ", " : "") + std::to_string(idx[k]);
    return s + "]";
}

// Vertex and edge counts of a graph6/sparse6 record without building the graph: graph6 size field
// plus a popcount of the data bytes. Falls back to the full parser (for its error messages and
// for sparse6).
std::pair<std::uint64_t, std::uint64_t> record_size(std::string_view s, const SourcePos& pos) {
    auto full = [&]() {
        const Graph g = parse_graph6_or_sparse6(s, pos);
        return std::make_pair(std::uint64_t{g.n()}, std::uint64_t{g.m()});
    };
    if (s.empty() || s[0] == ':' || s[0] == '>' || s[0] == ';') return full();
    const detail::SizeField field = detail::decode_size_field(s, 0);
    if (field.length == 0) return full();
    const std::uint64_t n = field.n;
    const std::size_t i = field.length;
    auto val = [&](std::size_t k) -> int {
        const int c = static_cast<unsigned char>(s[k]);
        return (c >= 63 && c <= 126) ? c - 63 : -1;
    };
    const std::uint64_t bits = n * (n > 0 ? n - 1 : 0) / 2;
    if (s.size() - i != (bits + 5) / 6) return full();
    std::uint64_t m = 0;
    for (std::size_t k = i; k < s.size(); ++k) {
        const int v = val(k);
        if (v < 0) return full();
        m += static_cast<std::uint64_t>(__builtin_popcount(static_cast<unsigned>(v)));
    }
    if (bits % 6 != 0 && !s.empty()) {
        // Non-zero padding bits are an error the full parser reports.
        const int last = val(s.size() - 1);
        if (last & ((1 << (6 - bits % 6)) - 1)) return full();
    }
    return {n, m};
}

}  // namespace

std::size_t NpyHeader::count() const {
    std::size_t c = 1;
    for (std::size_t d : shape) {
        if (d != 0 && c > std::numeric_limits<std::size_t>::max() / d) return std::numeric_limits<std::size_t>::max();
        c *= d;
    }
    return c;
}

NpyHeader detail::parse_npy_preamble(std::string_view bytes, const std::string& source) {
    if (bytes.size() < kMagicLen || bytes.substr(0, kMagicLen) != std::string_view(kMagic, kMagicLen))
        fail(source, "not a NumPy .npy file (bad magic; expected the bytes \\x93NUMPY at the start)");
    if (bytes.size() < kMagicLen + 4) fail_at(source, bytes.size(), "truncated .npy preamble");
    NpyHeader h;
    h.version_major = static_cast<unsigned char>(bytes[6]);
    h.version_minor = static_cast<unsigned char>(bytes[7]);
    std::size_t header_len = 0, start = 0;
    if (h.version_major == 1) {
        header_len = static_cast<unsigned char>(bytes[8]) |
                     (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
        start = 10;
    } else if (h.version_major == 2 || h.version_major == 3) {
        if (bytes.size() < 12) fail_at(source, bytes.size(), "truncated .npy preamble");
        for (int k = 0; k < 4; ++k)
            header_len |= static_cast<std::size_t>(static_cast<unsigned char>(bytes[8 + k])) << (8 * k);
        start = 12;
    } else {
        fail_at(source, 6,
                "unsupported .npy format version " + std::to_string(h.version_major) + "." +
                    std::to_string(h.version_minor) + " (expected 1.0, 2.0 or 3.0)");
    }
    if (h.version_minor != 0)
        fail_at(source, 7,
                "unsupported .npy format version " + std::to_string(h.version_major) + "." +
                    std::to_string(h.version_minor) + " (expected 1.0, 2.0 or 3.0)");
    if (header_len > bytes.size() - start)
        fail_at(source, start,
                "truncated .npy header: " + std::to_string(header_len) + " bytes announced, " +
                    std::to_string(bytes.size() - start) + " present");
    HeaderDict(bytes.substr(start, header_len), start, source).parse(h);
    h.data_offset = start + header_len;
    return h;
}

NpyHeader parse_npy_header(std::string_view bytes, const std::string& source) {
    NpyHeader h = detail::parse_npy_preamble(bytes, source);
    parse_descr(h, source);
    const std::size_t count = h.count();
    // Zero-width items take no bytes, so the file could not bound their number (numpy itself
    // never writes them: it stores an empty string as '|S1').
    if (h.item_bytes == 0 && count != 0)
        fail_at(source, h.data_offset,
                "dtype '" + h.descr + "' has items of width 0, but shape " + shape_text(h.shape) + " holds " +
                    (count == std::numeric_limits<std::size_t>::max() ? std::string("more than 2^64")
                                                                      : std::to_string(count)) +
                    " of them");
    // count * item_bytes <= available, without the multiplication that could overflow.
    const std::size_t available = bytes.size() - h.data_offset;
    if (h.item_bytes != 0 && count > available / h.item_bytes)
        fail_at(source, bytes.size(),
                "truncated .npy data: shape " + shape_text(h.shape) + " of '" + h.descr + "' needs " +
                    (count == std::numeric_limits<std::size_t>::max()
                         ? std::string("more")
                         : std::to_string(count) + " items of " + std::to_string(h.item_bytes)) +
                    " bytes after byte " + std::to_string(h.data_offset) + ", found " + std::to_string(available));
    return h;
}

void for_each_npy_string(std::string_view bytes, const std::string& source,
                         const std::function<void(std::size_t, std::string_view)>& visit) {
    const NpyHeader h = parse_npy_header(bytes, source);
    const std::size_t count = h.count();
    const ItemLocator loc(h);
    std::string buf;
    // The data bound the width only when there are items: shape (0,) may announce '|S4294967296'.
    if (count != 0) buf.reserve(h.width);
    for (std::size_t c = 0; c < count; ++c) {
        const std::size_t off = loc.offset(c);
        const unsigned char* p = reinterpret_cast<const unsigned char*>(bytes.data()) + off;
        buf.clear();
        std::size_t len = h.width;
        auto unit = [&](std::size_t k) -> std::uint32_t {
            if (h.kind == NpyStringKind::bytes) return p[k];
            const unsigned char* q = p + 4 * k;
            return h.big_endian ? (std::uint32_t{q[0]} << 24 | std::uint32_t{q[1]} << 16 | std::uint32_t{q[2]} << 8 |
                                   std::uint32_t{q[3]})
                                : (std::uint32_t{q[3]} << 24 | std::uint32_t{q[2]} << 16 | std::uint32_t{q[1]} << 8 |
                                   std::uint32_t{q[0]});
        };
        while (len > 0 && unit(len - 1) == 0) --len;  // numpy strips trailing NULs
        for (std::size_t k = 0; k < len; ++k) {
            const std::uint32_t u = unit(k);
            if (u == 0 || u > 126) {
                const std::size_t at = off + (h.kind == NpyStringKind::bytes ? k : 4 * k);
                fail_at(source, at,
                        position_text(h.shape, c) + " has character code " + std::to_string(u) + " at position " +
                            std::to_string(k) + "; graph6/sparse6 records are printable ASCII");
            }
            buf.push_back(static_cast<char>(u));
        }
        visit(c, buf);
    }
}

NpyStringArray parse_npy_strings(std::string_view bytes, const std::string& source) {
    NpyStringArray a;
    a.header = parse_npy_header(bytes, source);
    a.values.reserve(a.header.count());
    for_each_npy_string(bytes, source, [&](std::size_t, std::string_view s) { a.values.emplace_back(s); });
    return a;
}

NpyStringArray read_npy_strings(const std::string& path) {
    const std::string data = read_text_file(path);
    return parse_npy_strings(data, path);
}

std::vector<std::string> read_npy_graph6(const std::string& path, std::vector<std::size_t>* shape) {
    NpyStringArray a = read_npy_strings(path);
    if (shape) *shape = a.header.shape;
    return std::move(a.values);
}

std::string format_npy_strings(const std::vector<std::string>& values, const std::vector<std::size_t>& shape,
                               NpyStringKind kind) {
    std::size_t count = 1;
    for (std::size_t d : shape) count *= d;
    if (count != values.size())
        throw InvalidArgument("format_npy_strings: shape " + shape_text(shape) + " holds " + std::to_string(count) +
                              " items, got " + std::to_string(values.size()));
    std::size_t width = 1;  // numpy uses at least 1
    for (const auto& v : values) {
        for (char ch : v)
            if (ch == '\0' || static_cast<unsigned char>(ch) > 127)
                throw InvalidArgument("format_npy_strings: items must be ASCII without NUL");
        width = std::max(width, v.size());
    }
    const std::string descr = (kind == NpyStringKind::bytes ? "|S" : "<U") + std::to_string(width);
    std::string out = detail::format_npy_preamble(descr, shape);
    const std::size_t item = kind == NpyStringKind::bytes ? width : 4 * width;
    out.reserve(out.size() + item * values.size());
    for (const auto& v : values) {
        if (kind == NpyStringKind::bytes) {
            out += v;
            out.append(width - v.size(), '\0');
        } else {
            for (char ch : v) {
                out.push_back(ch);
                out.append(3, '\0');
            }
            out.append(4 * (width - v.size()), '\0');
        }
    }
    return out;
}

void write_npy_strings(const std::string& path, const std::vector<std::string>& values,
                       const std::vector<std::size_t>& shape, NpyStringKind kind) {
    write_text_file_atomic(path, format_npy_strings(values, shape, kind));
}

namespace {

// Pairs from a visitor over the strings (so that a 170 MB relabelled file is not copied).
NpyPairs build_pairs(const NpyHeader& h, const std::string& source, const NpyPairOptions& opt,
                     const std::function<void(const std::function<void(std::size_t, std::string_view)>&)>& iterate) {
    NpyPairs out;
    out.shape = h.shape;
    out.strings = h.count();
    const std::size_t count = out.strings;
    if (h.shape.empty()) fail(source, "the array is a scalar; expected a 1-D or 2-D array of graph6 strings");
    if (h.shape.size() > 2)
        fail(source, "array of shape " + shape_text(h.shape) +
                         " has more than 2 dimensions; expected (2P,), (P, 2) or the relabelled "
                         "layout (see --relabelings)");
    if (count == 0) fail(source, "the array of shape " + shape_text(h.shape) + " holds no graphs");
    std::size_t r = opt.relabelings;
    if (r == 0) {
        if (h.shape.size() == 1 && count == 2 * brec_v3_pair_count() * 2 * kBrecRelabelings)
            r = kBrecRelabelings;
        else if (h.shape.size() == 2 && h.shape[1] > 2)
            r = h.shape[1] / 2;
    }
    if (h.shape.size() == 2 && h.shape[1] > 2 && h.shape[1] != 2 * r)
        fail(source, "array of shape " + shape_text(h.shape) + ": rows of " + std::to_string(h.shape[1]) +
                         " strings do not match " + std::to_string(r) +
                         " relabelings per graph (rows of 2R = " + std::to_string(2 * r) + ")");
    std::size_t pairs = 0, block = 2;
    if (r > 0) {
        out.layout = NpyPairLayout::relabelled;
        out.relabelings = r;
        block = 2 * r;
        if (count % (2 * block) != 0)
            fail(source, std::to_string(count) +
                             " strings do not form P traintest and P reliability "
                             "blocks of 2R = " +
                             std::to_string(block) + " strings (R = " + std::to_string(r) +
                             " relabelings per graph); check --relabelings");
        pairs = count / (2 * block);
    } else if (h.shape.size() == 2) {
        if (h.shape[1] != 2) fail(source, "array of shape " + shape_text(h.shape) + ": expected (P, 2) pairs");
        out.layout = NpyPairLayout::rows;
        pairs = h.shape[0];
    } else {
        if (count % 2 != 0)
            fail(source, "odd number of strings (" + std::to_string(count) + ") in a 1-D array of consecutive pairs");
        out.layout = NpyPairLayout::consecutive;
        pairs = count / 2;
    }

    std::vector<std::string> kept(2 * pairs);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> sizes(2 * pairs);
    iterate([&](std::size_t c, std::string_view s) {
        const SourcePos pos{source + ": " + position_text(h.shape, c), 0};
        if (out.layout != NpyPairLayout::relabelled) {
            kept[c] = std::string(s);
            return;
        }
        const std::size_t b = c / block, k = c % block;
        const auto size = record_size(s, pos);
        if (b < pairs) {
            if (k < 2) {
                kept[2 * b + k] = std::string(s);
                sizes[2 * b + k] = size;
                return;
            }
            const auto& want = sizes[2 * b + k % 2];
            if (size != want)
                fail(source, position_text(h.shape, c) + " (traintest block " + std::to_string(b) + ", position " +
                                 std::to_string(k) + ") has " + std::to_string(size.first) + " vertices and " +
                                 std::to_string(size.second) + " edges, but should relabel item " +
                                 std::to_string(b * block + k % 2) + " with " + std::to_string(want.first) + " and " +
                                 std::to_string(want.second) + "; check --relabelings (R = " + std::to_string(r) + ")");
            return;
        }
        const std::size_t p = b - pairs;
        if (size != sizes[2 * p] && size != sizes[2 * p + 1])
            fail(source, position_text(h.shape, c) + " (reliability block of pair " + std::to_string(p) +
                             ", position " + std::to_string(k) + ") has " + std::to_string(size.first) +
                             " vertices and " + std::to_string(size.second) +
                             " edges, unlike both graphs of the pair; check --relabelings (R = " + std::to_string(r) +
                             ")");
    });

    const bool official = opt.category.empty() && pairs == brec_v3_pair_count() && opt.first_id == 0;
    out.dataset.path = source;
    out.dataset.pairs.reserve(pairs);
    for (std::size_t p = 0; p < pairs; ++p) {
        GraphPairRecord rec;
        rec.id = opt.first_id + static_cast<PairId>(p);
        rec.category = official ? brec_category_of_id(rec.id) : (opt.category.empty() ? "unknown" : opt.category);
        const std::size_t ia = out.layout == NpyPairLayout::relabelled ? p * block : 2 * p;
        for (int side = 0; side < 2; ++side) {
            const std::size_t c = ia + static_cast<std::size_t>(side);
            const SourcePos pos{source + ": " + position_text(h.shape, c), 0};
            Graph g = parse_graph6_or_sparse6(kept[2 * p + static_cast<std::size_t>(side)], pos);
            (side == 0 ? rec.a : rec.b) = std::move(g);
        }
        out.dataset.pairs.push_back(std::move(rec));
    }
    return out;
}

}  // namespace

NpyPairs npy_pairs_from_array(const NpyStringArray& array, const std::string& source, const NpyPairOptions& options) {
    if (array.values.size() != array.header.count())
        throw InvalidArgument("npy_pairs_from_array: " + std::to_string(array.values.size()) + " values for shape " +
                              shape_text(array.header.shape));
    return build_pairs(array.header, source, options, [&](const auto& visit) {
        for (std::size_t c = 0; c < array.values.size(); ++c) visit(c, array.values[c]);
    });
}

NpyPairs read_npy_pairs(const std::string& path, const NpyPairOptions& options) {
    const std::string data = read_text_file(path);
    const NpyHeader h = parse_npy_header(data, path);
    return build_pairs(h, path, options, [&](const auto& visit) { for_each_npy_string(data, path, visit); });
}

namespace detail {

std::string npy_shape_text(const std::vector<std::size_t>& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    if (shape.size() == 1) s += ",";
    return s + ")";
}

std::string format_npy_preamble(const std::string& descr, const std::vector<std::size_t>& shape) {
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + npy_shape_text(shape) + ", }";
    // Pad with spaces so that the data starts at a multiple of 64 bytes; end with '\n'.
    auto padded = [&](std::size_t preamble) {
        std::string d = dict;
        const std::size_t total = preamble + d.size() + 1;
        d.append((64 - total % 64) % 64, ' ');
        d.push_back('\n');
        return d;
    };
    std::string out(kMagic, kMagicLen);
    std::string header = padded(10);
    if (header.size() <= 0xffff) {
        out.push_back('\x01');
        out.push_back('\x00');
        out.push_back(static_cast<char>(header.size() & 0xff));
        out.push_back(static_cast<char>((header.size() >> 8) & 0xff));
    } else {
        header = padded(12);
        out.push_back('\x02');
        out.push_back('\x00');
        for (int k = 0; k < 4; ++k) out.push_back(static_cast<char>((header.size() >> (8 * k)) & 0xff));
    }
    return out + header;
}

}  // namespace detail

}  // namespace brec
