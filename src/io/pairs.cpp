#include "brec/io/pairs.hpp"
#include "brec/core/text.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <limits>
#include <memory>
#include <set>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"
#include "detail/chunked_lines.hpp"

namespace brec {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t p = s.find(sep, start);
        out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
        if (p == std::string::npos) break;
        start = p + 1;
    }
    return out;
}

}  // namespace

namespace {

/// The data lines of a pair TSV, one at a time: blank and '#' lines are skipped, ids must be unique.
class PairLineParser {
public:
    explicit PairLineParser(std::string source) : source_(std::move(source)) {}

    /// Parses physical line `line_no` into `rec`; false for a blank or comment line. Throws
    /// ParseError naming the source, line and problem.
    bool parse(const std::string& line, std::int64_t line_no, GraphPairRecord& rec) {
        const std::string stripped = trim(line);
        if (stripped.empty() || stripped[0] == '#') return false;
        const auto cols = split(line, '\t');
        if (cols.size() != 4)
            throw ParseError(source_, line_no,
                             "expected 4 tab-separated columns (id, category, graph6_a, graph6_b), found " +
                                 std::to_string(cols.size()));
        rec.line = line_no;
        if (!parse_int64(trim(cols[0]), rec.id))
            throw ParseError(source_, line_no, "pair id '" + cols[0] + "' is not an integer");
        if (rec.id < 0) throw ParseError(source_, line_no, "pair id " + std::to_string(rec.id) + " is negative");
        if (!seen_.insert(rec.id).second)
            throw ParseError(source_, line_no, "pair id " + std::to_string(rec.id) + " is repeated");
        rec.category = trim(cols[1]);
        if (rec.category.empty()) throw ParseError(source_, line_no, "empty category");
        // Errors inside a graph name the column and the byte position within the line.
        auto parse_field = [&](std::size_t c, const char* what) {
            std::size_t start = 0;
            for (std::size_t k = 0; k < c; ++k) start += cols[k].size() + 1;
            const std::string& field = cols[c];
            std::size_t lead = 0;
            while (lead < field.size() && std::isspace(static_cast<unsigned char>(field[lead]))) ++lead;
            try {
                return parse_graph6_or_sparse6(trim(field), SourcePos{source_, line_no});
            } catch (const ParseError& e) {
                const std::int64_t col = e.column() >= 0 ? static_cast<std::int64_t>(start + lead) + e.column() : -1;
                throw ParseError(source_, line_no,
                                 "column " + std::to_string(c + 1) + " (" + what + "): " + e.problem(), col);
            }
        };
        rec.a = parse_field(2, "graph6_a");
        rec.b = parse_field(3, "graph6_b");
        return true;
    }
    /// The ids seen so far, ascending.
    const std::set<PairId>& ids() const { return seen_; }

private:
    std::string source_;
    std::set<PairId> seen_;
};

/// A pair selection decided pair by pair, in file order, with the checks that need the whole file
/// (unknown categories, ids that do not exist, an empty selection) at the end.
class PairSelector {
public:
    PairSelector(const PairSelection& sel, std::string path) : sel_(sel), path_(std::move(path)) {
        for (const std::string& raw : sel.categories) {
            const std::string name = trim(raw);
            // Capitalised names are the four report groups ("Regular" = all regular kinds);
            // lower-case names are fine categories ("regular" = simple regular only).
            if (std::find(brec_groups().begin(), brec_groups().end(), name) != brec_groups().end())
                groups_.insert(name);
            else if (fine_.insert(canonical_category(name)).second)
                fine_given_.emplace_back(canonical_category(name), raw);
        }
        if (!sel.id_ranges.empty()) wanted_ = parse_id_ranges(sel.id_ranges);
    }

    /// Whether the next pair of the file is selected.
    bool take(PairId id, const std::string& category) {
        const std::string c = canonical_category(category);
        present_.insert(c);
        if (!wanted_.empty() && !wanted_.contains(id)) return false;
        if ((!fine_.empty() || !groups_.empty()) && !fine_.count(c) && !groups_.count(brec_group_of(c))) return false;
        if (sel_.shard_count > 0 &&
            static_cast<int>(matched_++ % static_cast<std::uint64_t>(sel_.shard_count)) != sel_.shard_index - 1)
            return false;
        ++taken_;
        return true;
    }

    /// After the last pair, `ids` = the ids of the file (ascending): throws InvalidArgument for an
    /// unknown category, an id that does not exist, a shard out of range or an empty selection.
    void finish(const std::vector<PairId>& ids) const {
        for (const auto& [c, raw] : fine_given_)
            if (!present_.count(c)) {
                std::string known;
                for (const auto& k : present_) known += (known.empty() ? "" : ", ") + k;
                throw InvalidArgument("unknown category '" + raw + "' in " + path_ + " (categories present: " + known +
                                      "; groups: Basic, Regular, Extension, CFI)");
            }
        PairId missing = 0;
        if (!wanted_.empty() && wanted_.first_missing(ids, missing))
            throw InvalidArgument("--pairs: id " + std::to_string(missing) + " is not in " + path_);
        if (sel_.shard_count > 0 && (sel_.shard_index < 1 || sel_.shard_index > sel_.shard_count))
            throw InvalidArgument("shard " + std::to_string(sel_.shard_index) + "/" + std::to_string(sel_.shard_count) +
                                  " is out of range");
        if (taken_ == 0) throw InvalidArgument("the selection matches no pairs in " + path_);
    }

private:
    PairSelection sel_;
    std::string path_;
    std::set<std::string> groups_;
    std::set<std::string> fine_;
    std::vector<std::pair<std::string, std::string>> fine_given_;  // (canonical name, as given), in order
    IdRanges wanted_;
    std::set<std::string> present_;
    std::uint64_t matched_ = 0, taken_ = 0;
};

}  // namespace

PairDataset parse_pair_text(const std::string& text, const std::string& source) {
    PairDataset ds;
    ds.path = source;
    PairLineParser parser(source);
    const auto lines = split_lines(text);
    GraphPairRecord rec;
    for (std::size_t li = 0; li < lines.size(); ++li)
        if (parser.parse(lines[li], static_cast<std::int64_t>(li + 1), rec)) ds.pairs.push_back(std::move(rec));
    if (ds.pairs.empty()) throw ParseError(source, 0, "no pairs found (empty pair file)");
    return ds;
}

struct PairFileReader::Impl {
    detail::ChunkedLines lines;
    PairLineParser parser;
    PairSelector selector;
    std::string line;
    bool any = false, finished = false;
    Impl(const std::string& path, const PairSelection& sel) : lines(path), parser(path), selector(sel, path) {}
};

PairFileReader::PairFileReader(const std::string& path, const PairSelection& selection)
    : impl_(std::make_unique<Impl>(path, selection)) {}

PairFileReader::~PairFileReader() = default;

bool PairFileReader::next(std::size_t max_pairs, std::vector<GraphPairRecord>& out, std::size_t max_bytes) {
    Impl& m = *impl_;
    // At the end of the file: the checks that need all of it.
    auto finish = [&] {
        m.finished = true;
        if (!m.any) throw ParseError(m.lines.path(), 0, "no pairs found (empty pair file)");
        m.selector.finish(std::vector<PairId>(m.parser.ids().begin(), m.parser.ids().end()));
    };
    out.clear();
    const std::uint64_t start = m.lines.consumed();
    std::string_view raw;
    std::int64_t number = 0;
    GraphPairRecord rec;
    while (!m.finished && out.size() < std::max<std::size_t>(1, max_pairs) &&
           (out.empty() || m.lines.consumed() - start < max_bytes)) {
        if (!m.lines.next_raw(raw, number)) {
            finish();
            break;
        }
        m.line.assign(raw.data(), raw.size());
        if (!m.parser.parse(m.line, number, rec)) continue;
        m.any = true;
        if (m.selector.take(rec.id, rec.category)) out.push_back(std::move(rec));
    }
    if (!m.finished && m.lines.at_end()) finish();
    return !out.empty();
}

std::uint64_t PairFileReader::bytes_read() const { return impl_->lines.consumed(); }
std::uint64_t PairFileReader::file_size() const { return impl_->lines.size(); }
bool PairFileReader::at_end() const { return impl_->finished; }

PairDataset read_pair_file(const std::string& path) { return parse_pair_text(read_text_file(path), path); }

std::string format_pair_file(const std::vector<GraphPairRecord>& pairs, const std::string& comment) {
    std::ostringstream out;
    if (!comment.empty()) {
        std::istringstream in(comment);
        std::string l;
        while (std::getline(in, l)) out << "# " << l << '\n';
    }
    out << "# columns: id\tcategory\tgraph6_a\tgraph6_b\n";
    for (const auto& p : pairs)
        out << p.id << '\t' << p.category << '\t' << to_graph6(p.a) << '\t' << to_graph6(p.b) << '\n';
    return out.str();
}

void write_pair_file(const std::string& path, const std::vector<GraphPairRecord>& pairs, const std::string& comment) {
    write_text_file_atomic(path, format_pair_file(pairs, comment));
}

IdRanges::IdRanges(std::vector<Interval> intervals) {
    std::sort(intervals.begin(), intervals.end(), [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
    for (const Interval& x : intervals) {
        // x.lo - 1 cannot overflow (ids are non-negative); hi + 1 could.
        if (!intervals_.empty() && x.lo - 1 <= intervals_.back().hi)
            intervals_.back().hi = std::max(intervals_.back().hi, x.hi);
        else
            intervals_.push_back(x);
    }
}

bool IdRanges::contains(PairId id) const {
    const auto it = std::upper_bound(intervals_.begin(), intervals_.end(), id,
                                     [](PairId v, const Interval& x) { return v < x.lo; });
    return it != intervals_.begin() && id <= std::prev(it)->hi;
}

bool IdRanges::first_missing(const std::vector<PairId>& have, PairId& missing) const {
    auto it = have.begin();
    for (const Interval& x : intervals_) {
        it = std::lower_bound(it, have.end(), x.lo);
        // Walk the run of consecutive present ids that starts at x.lo.
        PairId next = x.lo;
        while (it != have.end() && *it == next) {
            if (next == x.hi) break;
            ++it;
            ++next;
        }
        if (it == have.end() || *it != next) {
            missing = next;
            return true;
        }
    }
    return false;
}

std::vector<PairId> IdRanges::ids() const {
    std::vector<PairId> out;
    out.reserve(count());
    for (const Interval& i : intervals_)
        for (PairId id = i.lo; id <= i.hi; ++id) out.push_back(id);
    return out;
}

std::uint64_t IdRanges::count() const {
    std::uint64_t n = 0;
    for (const Interval& i : intervals_) n += static_cast<std::uint64_t>(i.hi - i.lo) + 1;
    return n;
}

IdRanges IdRanges::united(const IdRanges& other) const {
    std::vector<Interval> all = intervals_;
    all.insert(all.end(), other.intervals_.begin(), other.intervals_.end());
    return IdRanges(std::move(all));
}

std::string IdRanges::str() const {
    std::string out;
    for (const Interval& i : intervals_) {
        if (!out.empty()) out += ',';
        out += std::to_string(i.lo);
        if (i.hi != i.lo) out += '-' + std::to_string(i.hi);
    }
    return out;
}

IdRanges parse_id_ranges(const std::string& text) {
    std::vector<IdRanges::Interval> intervals;
    for (const std::string& raw : split(text, ',')) {
        const std::string tok = trim(raw);
        if (tok.empty()) throw InvalidArgument("--pairs '" + text + "': empty item");
        const std::size_t dash = tok.find('-', 1);
        std::int64_t lo = 0, hi = 0;
        if (dash == std::string::npos) {
            if (!parse_int64(tok, lo)) throw InvalidArgument("--pairs '" + text + "': '" + tok + "' is not an id");
            hi = lo;
        } else if (!parse_int64(trim(tok.substr(0, dash)), lo) || !parse_int64(trim(tok.substr(dash + 1)), hi)) {
            throw InvalidArgument("--pairs '" + text + "': '" + tok + "' is not a range like 0-59");
        }
        if (lo < 0 || hi < 0) throw InvalidArgument("--pairs '" + text + "': ids must be non-negative");
        if (hi < lo) throw InvalidArgument("--pairs '" + text + "': range '" + tok + "' is reversed");
        intervals.push_back({lo, hi});
    }
    return IdRanges(std::move(intervals));
}

std::vector<std::uint64_t> parse_seed_list(const std::string& text) {
    constexpr std::int64_t kMaxSeeds = 100000;
    std::vector<std::uint64_t> out;
    for (const std::string& raw : split(text, ',')) {
        const std::string tok = trim(raw);
        const std::size_t dash = tok.find('-', 1);
        std::int64_t lo = 0, hi = 0;
        const bool ok = dash == std::string::npos
                            ? parse_int64(tok, lo) && (hi = lo, true)
                            : parse_int64(trim(tok.substr(0, dash)), lo) && parse_int64(trim(tok.substr(dash + 1)), hi);
        if (!ok || lo < 0 || hi < lo)
            throw InvalidArgument("--seeds '" + text + "': '" + tok + "' is not a seed or a range like 0-4");
        if (hi - lo >= kMaxSeeds - static_cast<std::int64_t>(out.size()))
            throw InvalidArgument("--seeds '" + text + "': more than " + std::to_string(kMaxSeeds) + " seeds");
        for (std::int64_t v = lo; v <= hi; ++v) out.push_back(static_cast<std::uint64_t>(v));
    }
    return out;
}

void parse_shard(const std::string& text, int& index, int& count) {
    const auto parts = split(text, '/');
    std::int64_t i = 0, n = 0;
    if (parts.size() != 2 || !parse_int64(trim(parts[0]), i) || !parse_int64(trim(parts[1]), n))
        throw InvalidArgument("--shard '" + text + "': expected i/N, e.g. 1/4");
    if (n < 1 || i < 1 || i > n)
        throw InvalidArgument("--shard '" + text + "': need 1 <= i <= N (shards are numbered 1..N)");
    if (n > std::numeric_limits<int>::max())
        throw InvalidArgument("--shard '" + text + "': N is too large (at most " +
                              std::to_string(std::numeric_limits<int>::max()) + ")");
    index = static_cast<int>(i);
    count = static_cast<int>(n);
}

std::vector<std::size_t> select_pairs(const PairDataset& ds, const PairSelection& sel) {
    PairSelector selector(sel, ds.path);
    std::vector<std::size_t> out;
    std::vector<PairId> ids;
    ids.reserve(ds.pairs.size());
    for (std::size_t i = 0; i < ds.pairs.size(); ++i) {
        if (selector.take(ds.pairs[i].id, ds.pairs[i].category)) out.push_back(i);
        ids.push_back(ds.pairs[i].id);
    }
    std::sort(ids.begin(), ids.end());
    selector.finish(ids);
    return out;
}

}  // namespace brec
