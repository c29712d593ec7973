#include "brec/io/npy_numeric.hpp"

#include <array>
#include <cstring>
#include <limits>
#include <set>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "io/detail/npy_format.hpp"

namespace brec {
namespace {

enum class NumberKind { f4, f8, i4, i8 };

/// The dtypes read, from a descr such as "<f4" ('=' and '|' are the machine order, little-endian
/// on every platform brec builds on).
bool parse_number_descr(const std::string& d, NumberKind& kind, bool& big_endian) {
    if (d.size() != 3 || (d[0] != '<' && d[0] != '>' && d[0] != '=' && d[0] != '|')) return false;
    big_endian = d[0] == '>';
    const std::string code = d.substr(1);
    if (code == "f4")
        kind = NumberKind::f4;
    else if (code == "f8")
        kind = NumberKind::f8;
    else if (code == "i4")
        kind = NumberKind::i4;
    else if (code == "i8")
        kind = NumberKind::i8;
    else
        return false;
    return true;
}

template <typename T>
T load(const char* p, bool big_endian) {
    std::array<char, sizeof(T)> b;
    std::memcpy(b.data(), p, sizeof(T));
    if (big_endian)
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    T v;
    std::memcpy(&v, b.data(), sizeof(T));
    return v;
}

std::size_t element_count(const std::vector<std::size_t>& shape, const std::string& what) {
    std::size_t count = 1;
    for (std::size_t d : shape) {
        if (d != 0 && count > std::numeric_limits<std::size_t>::max() / d)
            throw InvalidArgument(what + ": shape too large");
        count *= d;
    }
    return count;
}

template <typename T>
std::string format_numbers(const std::vector<T>& values, const std::vector<std::size_t>& shape, const char* descr) {
    const std::size_t count = element_count(shape, "npy array");
    if (count != values.size())
        throw InvalidArgument("npy array of shape " + detail::npy_shape_text(shape) + " holds " +
                              std::to_string(count) + " values, got " + std::to_string(values.size()));
    std::string out = detail::format_npy_preamble(descr, shape);
    const std::size_t start = out.size();
    out.resize(start + values.size() * sizeof(T));
    // Little-endian hosts only (x86-64, AArch64): the in-memory bytes are the file's bytes.
    if (!values.empty()) std::memcpy(&out[start], values.data(), values.size() * sizeof(T));
    return out;
}

void put16(std::string& s, std::uint32_t v) {
    s.push_back(static_cast<char>(v & 0xff));
    s.push_back(static_cast<char>((v >> 8) & 0xff));
}
void put32(std::string& s, std::uint32_t v) {
    put16(s, v & 0xffff);
    put16(s, v >> 16);
}

}  // namespace

NpyNumbers parse_npy_numbers(std::string_view bytes, const std::string& source) {
    const NpyHeader h = detail::parse_npy_preamble(bytes, source);
    NumberKind kind = NumberKind::f4;
    bool big_endian = false;
    if (!parse_number_descr(h.descr, kind, big_endian))
        throw ParseError(source, 0,
                         "dtype '" + h.descr +
                             "' is not read here (expected float32 '<f4', float64 '<f8', int32 '<i4' "
                             "or int64 '<i8'; convert with arr.astype(np.float32))");
    const std::size_t item = kind == NumberKind::f4 || kind == NumberKind::i4 ? 4 : 8;
    std::size_t count = 1;
    for (std::size_t d : h.shape) {
        if (d != 0 && count > (bytes.size() / item + 1) / d)
            throw ParseError(source, 0, "shape " + detail::npy_shape_text(h.shape) + " is larger than the file");
        count *= d;
    }
    const std::size_t available = bytes.size() - h.data_offset;
    if (available != count * item)
        throw ParseError(source, 0,
                         "shape " + detail::npy_shape_text(h.shape) + " of '" + h.descr + "' needs " +
                             std::to_string(count * item) + " data bytes after byte " + std::to_string(h.data_offset) +
                             ", found " + std::to_string(available) +
                             (available < count * item ? " (truncated file?)" : ""));
    NpyNumbers a;
    a.descr = h.descr;
    a.shape = h.shape;
    a.values.resize(count);
    // The file's k-th item is at C-order index c(k): the identity in C order; in Fortran order the
    // first index varies fastest.
    std::vector<std::size_t> c_stride(h.shape.size(), 1);
    for (std::size_t i = h.shape.size(); i-- > 1;) c_stride[i - 1] = c_stride[i] * h.shape[i];
    std::vector<std::size_t> index(h.shape.size(), 0);
    const char* data = bytes.data() + h.data_offset;
    for (std::size_t k = 0; k < count; ++k) {
        std::size_t c = k;
        if (h.fortran_order) {
            c = 0;
            for (std::size_t i = 0; i < index.size(); ++i) c += index[i] * c_stride[i];
            for (std::size_t i = 0; i < index.size() && ++index[i] == h.shape[i]; ++i) index[i] = 0;
        }
        const char* p = data + k * item;
        switch (kind) {
            case NumberKind::f4:
                a.values[c] = load<float>(p, big_endian);
                break;
            case NumberKind::f8:
                a.values[c] = load<double>(p, big_endian);
                break;
            case NumberKind::i4:
                a.values[c] = load<std::int32_t>(p, big_endian);
                break;
            case NumberKind::i8:
                a.values[c] = static_cast<double>(load<std::int64_t>(p, big_endian));
                break;
        }
    }
    return a;
}

NpyNumbers read_npy_numbers(const std::string& path) {
    const std::string data = read_text_file(path);
    return parse_npy_numbers(data, path);
}

std::string format_npy_int64(const std::vector<std::int64_t>& values, const std::vector<std::size_t>& shape) {
    return format_numbers(values, shape, "<i8");
}

std::string format_npy_float32(const std::vector<float>& values, const std::vector<std::size_t>& shape) {
    return format_numbers(values, shape, "<f4");
}

std::uint32_t crc32(std::string_view bytes) {
    static const auto table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xffffffffu;
    for (unsigned char b : bytes) c = table[(c ^ b) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

std::string format_npz(const std::vector<std::pair<std::string, std::string>>& members) {
    // ZIP (APPNOTE 6.3): per member a local header + data, then the central directory and its end
    // record. Method 0 (stored), no data descriptor, DOS time 1980-01-01 00:00 (reproducible files).
    constexpr std::uint32_t kDosDate = (0 << 9) | (1 << 5) | 1;
    if (members.size() > 0xffff) throw ResourceLimit("an .npz archive holds at most 65535 arrays without ZIP64");
    std::set<std::string> names;
    std::string out, central;
    for (const auto& [name, data] : members) {
        if (name.empty() || name.find('/') != std::string::npos || !names.insert(name).second)
            throw InvalidArgument("npz member name '" + name + "' is empty, repeated or contains '/'");
        for (char ch : name)
            if (static_cast<unsigned char>(ch) < 32 || static_cast<unsigned char>(ch) > 126)
                throw InvalidArgument("npz member name '" + name + "' is not printable ASCII");
        const std::string file = name + ".npy";
        const std::uint64_t offset = out.size();
        if (offset + 30 + file.size() + data.size() > 0xffffffffu)
            throw ResourceLimit("an .npz archive over 4 GiB needs ZIP64, which brec does not write");
        const std::uint32_t crc = crc32(data), size = static_cast<std::uint32_t>(data.size());
        const auto common = [&](std::string& s) {  // version needed .. file name length
            put16(s, 20);
            put16(s, 0);  // flags
            put16(s, 0);  // stored
            put16(s, 0);  // time
            put16(s, kDosDate);
            put32(s, crc);
            put32(s, size);
            put32(s, size);
            put16(s, static_cast<std::uint32_t>(file.size()));
        };
        put32(out, 0x04034b50);
        common(out);
        put16(out, 0);  // extra length
        out += file;
        out += data;
        put32(central, 0x02014b50);
        put16(central, 20);  // version made by
        common(central);
        put16(central, 0);  // extra length
        put16(central, 0);  // comment length
        put16(central, 0);  // disk
        put16(central, 0);  // internal attributes
        put32(central, 0);  // external attributes
        put32(central, static_cast<std::uint32_t>(offset));
        central += file;
    }
    const std::uint64_t central_offset = out.size();
    if (central_offset + central.size() > 0xffffffffu)
        throw ResourceLimit("an .npz archive over 4 GiB needs ZIP64, which brec does not write");
    out += central;
    put32(out, 0x06054b50);
    put16(out, 0);
    put16(out, 0);
    put16(out, static_cast<std::uint32_t>(members.size()));
    put16(out, static_cast<std::uint32_t>(members.size()));
    put32(out, static_cast<std::uint32_t>(central.size()));
    put32(out, static_cast<std::uint32_t>(central_offset));
    put16(out, 0);  // comment length
    return out;
}

}  // namespace brec
