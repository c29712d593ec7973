#include "brec/dedup/stream.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <queue>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/rng.hpp"
#include "brec/dedup/invariant.hpp"
#include "brec/io/graph6.hpp"
#include "brec/io/graph_lines.hpp"
#include "brec/iso/iso.hpp"

namespace brec {
namespace {

constexpr std::size_t kBatch = 1 << 14;  // records read at a time
constexpr std::size_t kBlock = 256;      // records per parallel task
constexpr std::size_t kSample = 4096;    // graphs that decide InvariantUse::automatic
// The invariant pass pays when at least this share of graphs is predicted to have a unique
// invariant: on molecule-like graphs an invariant costs about a tenth of a dense canonical form,
// on 9-vertex graphs a fifth, and the pass reads and parses the file once more.
constexpr double kInvariantPays = 0.3;
// A run's forms are addressed by 32-bit offsets.
constexpr std::uint64_t kMaxRunArena = std::uint64_t{3} << 30;

/// Per-thread buffers: the parsed rows and nauty's arrays.
struct Worker {
    DenseRows rows;
    DenseCanoniser canoniser;
};

/// Parses a record into w.rows when it is a graph on at most kDenseFormMaxN vertices (true), else
/// into `big` (false). graph6 records of such graphs go straight into rows.
bool parse_record(std::string_view rec, const SourcePos& pos, Worker& w, Graph& big) {
    const std::int64_t n = declared_order(rec);
    if (rec[0] != ':' && rec[0] != ';' && n >= 0 && n <= static_cast<std::int64_t>(kDenseFormMaxN)) {
        parse_graph6_rows(rec, w.rows, pos);
        return true;
    }
    Graph g = parse_graph6_or_sparse6(rec, pos);
    if (g.n() <= kDenseFormMaxN) {
        w.rows = dense_rows(g);
        return true;
    }
    big = std::move(g);
    return false;
}

std::uint64_t record_invariant(std::string_view rec, const SourcePos& pos, Worker& w) {
    Graph big;
    return parse_record(rec, pos, w, big) ? refinement_invariant(w.rows)
                                          : refinement_invariant(big, OrbitMode::topology);
}

/// Appends the canonical form of a record; returns whether sparse nauty made it.
bool append_record_form(std::string_view rec, const SourcePos& pos, Worker& w, std::string& out) {
    Graph big;
    if (parse_record(rec, pos, w, big)) {
        w.canoniser.append_form(w.rows, out);
        return false;
    }
    out.push_back('s');
    out += canonical_certificate(big).bytes;
    return true;
}

std::uint64_t form_hash(std::string_view s) {
    std::uint64_t h = splitmix64(0x243f6a8885a308d3ULL ^ s.size());
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        h = splitmix64(h ^ w);
    }
    std::uint64_t tail = 0;
    for (std::size_t k = 0; i + k < s.size(); ++k)
        tail |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[i + k])) << (8 * k);
    return splitmix64(h ^ tail);
}

void put_varint(std::string& out, std::uint64_t x) {
    while (x >= 128) {
        out.push_back(static_cast<char>(0x80 | (x & 127)));
        x >>= 7;
    }
    out.push_back(static_cast<char>(x));
}

/// Reads a varint at p; advances p.
std::uint64_t get_varint(const char*& p) {
    std::uint64_t x = 0;
    for (int shift = 0;; shift += 7) {
        const auto b = static_cast<unsigned char>(*p++);
        x |= static_cast<std::uint64_t>(b & 127) << shift;
        if (b < 128) return x;
    }
}

/// One graph's sort record; its form sits in the run's arena at `offset` (varint length, bytes).
struct Rec {
    std::uint64_t hash;
    std::uint32_t index;
    std::uint32_t offset;
};

// Forms of at most kInlineForm bytes (graphs on up to 9 vertices) are their own sort key: the bytes
// and the length packed into 64 bits, exact, with no arena and no hash. 12 bytes per graph.
constexpr std::size_t kInlineForm = 7;
#pragma pack(push, 4)
struct SmallRec {
    std::uint64_t key;
    std::uint32_t index;
};
#pragma pack(pop)
static_assert(sizeof(SmallRec) == 12, "SmallRec must be packed");

std::uint64_t inline_key(std::string_view f) {
    std::uint64_t key = static_cast<std::uint64_t>(f.size()) << 56;
    for (std::size_t k = 0; k < f.size(); ++k)
        key |= static_cast<std::uint64_t>(static_cast<unsigned char>(f[k])) << (8 * k);
    return key;
}

/// Sorts in place on `threads` threads without extra memory: nth_element cuts the array into
/// `threads` ranges whose elements all precede the next range's, then each range is sorted alone.
template <typename T, typename Less>
void parallel_sort(std::vector<T>& v, int threads, Less less) {
    const std::size_t parts = std::max<std::size_t>(1, std::min<std::size_t>(threads, v.size() / 4096 + 1));
    std::vector<std::size_t> cut(parts + 1);
    for (std::size_t p = 0; p <= parts; ++p) cut[p] = v.size() * p / parts;
    auto at = [&](std::size_t k) { return v.begin() + static_cast<std::ptrdiff_t>(k); };
    for (std::size_t p = 1; p < parts; ++p) std::nth_element(at(cut[p - 1]), at(cut[p]), v.end(), less);
    parallel_for(parts, threads, [&](std::size_t p) { std::sort(at(cut[p]), at(cut[p + 1]), less); });
}

/// Forms and records of a run in memory.
struct RunBuffer {
    std::string arena;
    std::vector<Rec> recs;
    std::vector<SmallRec> small;

    std::uint64_t bytes() const { return arena.size() + recs.size() * sizeof(Rec) + small.size() * sizeof(SmallRec); }
    bool empty() const { return recs.empty() && small.empty(); }
    std::string_view form(std::uint32_t offset) const {
        const char* p = arena.data() + offset;
        const std::uint64_t len = get_varint(p);
        return {p, static_cast<std::size_t>(len)};
    }
    void add(std::uint64_t hash, std::uint32_t index, std::string_view f) {
        if (f.size() <= kInlineForm) {
            small.push_back({inline_key(f), index});
            return;
        }
        recs.push_back({hash, index, static_cast<std::uint32_t>(arena.size())});
        put_varint(arena, f.size());
        arena.append(f.data(), f.size());
    }
    /// Records ordered by (hash or key, index). Equal forms have equal hashes (keys), so they end up
    /// in one run of equal hashes, first index first.
    void sort(int threads) {
        parallel_sort(recs, threads, [](const Rec& a, const Rec& b) {
            return a.hash != b.hash ? a.hash < b.hash : a.index < b.index;
        });
        parallel_sort(small, threads, [](const SmallRec& a, const SmallRec& b) {
            return a.key != b.key ? a.key < b.key : a.index < b.index;
        });
    }
    void clear() {
        arena.clear();
        recs.clear();
        small.clear();
    }
};

/// A directory of sorted runs, removed with its files when it goes out of scope.
class SpillDir {
public:
    explicit SpillDir(const std::string& parent) {
        std::string base = parent;
        if (base.empty()) {
            const char* tmp = std::getenv("TMPDIR");
            base = tmp && *tmp ? tmp : "/tmp";
        }
        std::string templ = base + "/brec-dedup-XXXXXX";
        if (!mkdtemp(&templ[0]))
            throw IoError("cannot create a directory for sorted runs in " + base + ": " + std::strerror(errno));
        dir_ = templ;
    }
    SpillDir(const SpillDir&) = delete;
    SpillDir& operator=(const SpillDir&) = delete;
    ~SpillDir() {
        for (const auto& f : files_) std::remove(f.c_str());
        rmdir(dir_.c_str());
    }
    std::string new_file() {
        files_.push_back(dir_ + "/run" + std::to_string(files_.size()));
        return files_.back();
    }
    const std::vector<std::string>& files() const { return files_; }

private:
    std::string dir_;
    std::vector<std::string> files_;
};

using FilePtr = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

FilePtr open_file(const std::string& path, const char* mode) {
    FilePtr f(std::fopen(path.c_str(), mode), &std::fclose);
    if (!f) throw IoError("cannot open " + path + ": " + std::strerror(errno));
    return f;
}

/// Writes a sorted run: per record hash (8 bytes), index (4), varint length, form, in (hash, index)
/// order. An inline form is written as its key with an empty form: a key never shares a group with
/// a longer form, whose bytes differ. Returns the bytes written.
std::uint64_t write_run(const RunBuffer& run, const std::string& path) {
    FilePtr f = open_file(path, "wb");
    std::string out;
    std::uint64_t total = 0;
    auto flush = [&]() {
        if (!out.empty() && std::fwrite(out.data(), 1, out.size(), f.get()) != out.size())
            throw IoError("cannot write " + path + " (disk full?)");
        total += out.size();
        out.clear();
    };
    auto put = [&](std::uint64_t hash, std::uint32_t index, std::string_view form) {
        out.append(reinterpret_cast<const char*>(&hash), 8);
        out.append(reinterpret_cast<const char*>(&index), 4);
        put_varint(out, form.size());
        out.append(form.data(), form.size());
        if (out.size() >= (1u << 20)) flush();
    };
    std::size_t a = 0, b = 0;
    while (a < run.recs.size() || b < run.small.size()) {
        const bool large =
            b == run.small.size() ||
            (a < run.recs.size() && (run.recs[a].hash != run.small[b].key ? run.recs[a].hash < run.small[b].key
                                                                          : run.recs[a].index < run.small[b].index));
        if (large) {
            put(run.recs[a].hash, run.recs[a].index, run.form(run.recs[a].offset));
            ++a;
        } else {
            put(run.small[b].key, run.small[b].index, {});
            ++b;
        }
    }
    flush();
    if (std::fflush(f.get()) != 0) throw IoError("cannot write " + path + " (disk full?)");
    return total;
}

/// Sequential reader of one run file.
class RunReader {
public:
    explicit RunReader(const std::string& path) : path_(path), file_(open_file(path, "rb")) {}
    /// Reads the next record; false at the end.
    bool next() {
        char head[12];
        if (!read(head, 12)) return false;
        std::memcpy(&hash, head, 8);
        std::memcpy(&index, head + 8, 4);
        std::uint64_t len = 0;
        for (int shift = 0;; shift += 7) {
            char b;
            if (!read(&b, 1)) throw IoError(path_ + ": truncated sorted run");
            len |= static_cast<std::uint64_t>(static_cast<unsigned char>(b) & 127) << shift;
            if (static_cast<unsigned char>(b) < 128) break;
        }
        form.resize(static_cast<std::size_t>(len));
        if (len > 0 && !read(&form[0], form.size())) throw IoError(path_ + ": truncated sorted run");
        return true;
    }
    std::uint64_t hash = 0;
    std::uint32_t index = 0;
    std::string form;

private:
    bool read(char* dst, std::size_t n) {
        while (n > 0) {
            if (pos_ == buf_.size()) {
                buf_.resize(1 << 18);
                const std::size_t got = std::fread(&buf_[0], 1, buf_.size(), file_.get());
                if (std::ferror(file_.get())) throw IoError("error while reading " + path_);
                buf_.resize(got);
                pos_ = 0;
                if (got == 0) return false;
            }
            const std::size_t k = std::min(n, buf_.size() - pos_);
            std::memcpy(dst, buf_.data() + pos_, k);
            pos_ += k;
            dst += k;
            n -= k;
        }
        return true;
    }
    std::string path_;
    FilePtr file_;
    std::string buf_;
    std::size_t pos_ = 0;
};

/// Graphs of one hash value, in index order: root[index] = the first index with the same form.
/// Unequal forms under one 64-bit hash are rare; they are told apart here by comparing the bytes.
void group_equal_hashes(const std::vector<std::pair<std::uint32_t, std::string_view>>& group,
                        std::vector<std::uint32_t>& root) {
    const std::string_view first = group[0].second;
    if (std::all_of(group.begin(), group.end(), [&](const auto& g) { return g.second == first; })) {
        for (const auto& g : group) root[g.first] = group[0].first;
        return;
    }
    std::vector<std::size_t> order(group.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return group[a].second < group[b].second; });
    for (std::size_t k = 0, head = 0; k < order.size(); ++k) {
        if (group[order[k]].second != group[order[head]].second) head = k;
        root[group[order[k]].first] = group[order[head]].first;
    }
}

/// Roots over one run sorted in memory.
void roots_from_run(const RunBuffer& run, std::vector<std::uint32_t>& root) {
    for (std::size_t k = 0, e = 0; k < run.small.size(); k = e) {  // equal keys are equal forms
        for (e = k + 1; e < run.small.size() && run.small[e].key == run.small[k].key;) ++e;
        for (std::size_t j = k + 1; j < e; ++j) root[run.small[j].index] = run.small[k].index;
    }
    std::vector<std::pair<std::uint32_t, std::string_view>> group;
    for (std::size_t k = 0, e = 0; k < run.recs.size(); k = e) {
        for (e = k + 1; e < run.recs.size() && run.recs[e].hash == run.recs[k].hash;) ++e;
        if (e - k == 1) continue;  // a graph alone with its hash is its own root
        group.clear();
        for (std::size_t j = k; j < e; ++j) group.emplace_back(run.recs[j].index, run.form(run.recs[j].offset));
        group_equal_hashes(group, root);
    }
}

/// The same over sorted runs on disk, merged by (hash, index).
void roots_from_files(const std::vector<std::string>& files, std::vector<std::uint32_t>& root, RunContext& ctx) {
    std::vector<std::unique_ptr<RunReader>> readers;
    for (const auto& f : files) readers.push_back(std::make_unique<RunReader>(f));
    auto later = [&](std::size_t a, std::size_t b) {  // heap order: the smallest record on top
        const RunReader& x = *readers[a];
        const RunReader& y = *readers[b];
        return x.hash != y.hash ? x.hash > y.hash : x.index > y.index;
    };
    std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heap(later);
    for (std::size_t r = 0; r < readers.size(); ++r)
        if (readers[r]->next()) heap.push(r);
    std::vector<std::string> forms;  // of the current hash value
    std::vector<std::pair<std::uint32_t, std::string_view>> group;
    std::vector<std::uint32_t> indices;
    std::uint64_t done = 0;
    auto close_group = [&]() {
        if (indices.size() > 1) {
            group.clear();
            for (std::size_t k = 0; k < indices.size(); ++k) group.emplace_back(indices[k], forms[k]);
            group_equal_hashes(group, root);
        }
        indices.clear();
    };
    std::uint64_t hash = 0;
    while (!heap.empty()) {
        const std::size_t r = heap.top();
        heap.pop();
        RunReader& x = *readers[r];
        if (indices.empty() || x.hash != hash) {
            close_group();
            hash = x.hash;
        }
        if (forms.size() <= indices.size()) forms.emplace_back();
        forms[indices.size()].swap(x.form);
        indices.push_back(x.index);
        if (++done % (1u << 16) == 0) ctx.throw_if_cancelled();
        if (x.next()) heap.push(r);
    }
    close_group();
}

/// Invariants of the records of one batch, in parallel.
void batch_invariants(const GraphLineReader::Batch& batch, const std::string& path, RunContext& ctx,
                      std::vector<std::uint64_t>& out) {
    const std::size_t base = out.size();
    out.resize(base + batch.size());
    parallel_for_each_worker(
        (batch.size() + kBlock - 1) / kBlock, ctx.threads(), [] { return Worker{}; },
        [&](Worker& w, std::size_t b) {
            for (std::size_t k = b * kBlock; k < std::min(batch.size(), (b + 1) * kBlock); ++k)
                out[base + k] = record_invariant(batch.record(k), SourcePos{path, batch.line[k]}, w);
        });
}

/// Forms of the records of one batch that `needed` selects (all when it is empty), in parallel.
struct BlockForms {
    std::string bytes;
    std::vector<std::uint32_t> index;  // graph index of each form
    std::vector<std::uint32_t> end;    // end offset of each form in `bytes`
    std::vector<std::uint64_t> hash;   // form_hash of each form
    std::uint64_t sparse = 0;
};

/// After the first batch of an in-memory run: room for the whole file as the batch predicts it
/// (its bytes per record, its share of inline forms), so that the arrays do not grow by doubling
/// (up to twice the memory, and a copy, at the last doubling).
void reserve_for_file(const GraphLineReader& reader, std::size_t records, std::vector<std::uint32_t>& root,
                      RunBuffer& run) {
    if (records == 0 || reader.bytes_consumed() == 0) return;
    const double scale = 1.02 * static_cast<double>(reader.file_size()) / static_cast<double>(reader.bytes_consumed());
    const double graphs = scale * static_cast<double>(records);
    if (graphs >= static_cast<double>(std::numeric_limits<std::uint32_t>::max())) return;
    root.reserve(static_cast<std::size_t>(graphs));
    run.small.reserve(static_cast<std::size_t>(scale * static_cast<double>(run.small.size())));
    run.recs.reserve(static_cast<std::size_t>(scale * static_cast<double>(run.recs.size())));
    run.arena.reserve(static_cast<std::size_t>(scale * static_cast<double>(run.arena.size())));
}

}  // namespace

double predicted_unique_share(std::vector<std::uint64_t> sample, double estimated_graphs) {
    const double s = static_cast<double>(sample.size());
    if (sample.size() < 2) return 1.0;
    std::sort(sample.begin(), sample.end());
    double equal_pairs = 0;
    for (std::size_t b = 0, e = 0; b < sample.size(); b = e) {
        for (e = b + 1; e < sample.size() && sample[e] == sample[b];) ++e;
        const double g = static_cast<double>(e - b);
        equal_pairs += g * (g - 1) / 2;
    }
    const double p = equal_pairs / (s * (s - 1) / 2);
    return std::exp(-p * std::max(0.0, std::max(estimated_graphs, s) - 1));
}

Orbits graph_file_orbits(const std::string& path, const StreamOrbitOptions& opt, RunContext& ctx,
                         StreamOrbitStats* stats_out) {
    StreamOrbitStats stats;
    GraphLineReader::Batch batch;
    // 1. Invariants: from a sample (automatic), then for the whole file when they pay.
    std::vector<std::uint64_t> invariants;
    bool use_invariants = opt.invariants == InvariantUse::always;
    if (opt.invariants != InvariantUse::never) {
        GraphLineReader reader(path);
        if (opt.invariants == InvariantUse::automatic) {
            reader.next(kSample, batch);
            batch_invariants(batch, path, ctx, invariants);
            const double per_graph = static_cast<double>(reader.bytes_consumed()) /
                                     static_cast<double>(std::max<std::size_t>(1, batch.size()));
            const double estimate = reader.at_end() ? static_cast<double>(batch.size())
                                                    : static_cast<double>(reader.file_size()) / per_graph;
            stats.predicted_unique = predicted_unique_share(invariants, estimate);
            use_invariants = stats.predicted_unique >= kInvariantPays;
        }
        if (use_invariants) {
            while (reader.next(kBatch, batch)) {
                ctx.throw_if_cancelled();
                batch_invariants(batch, path, ctx, invariants);
                ctx.progress("invariants", invariants.size(), 0);
            }
        }
    }
    // Graphs whose invariant is shared need a form; the others are alone in their orbit.
    std::vector<bool> needed;
    if (use_invariants) {
        std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(invariants.size());
        for (std::size_t i = 0; i < invariants.size(); ++i) keyed[i] = {invariants[i], static_cast<std::uint32_t>(i)};
        std::vector<std::uint64_t>().swap(invariants);
        std::sort(keyed.begin(), keyed.end());
        needed.assign(keyed.size(), false);
        for (std::size_t b = 0, e = 0; b < keyed.size(); b = e) {
            for (e = b + 1; e < keyed.size() && keyed[e].first == keyed[b].first;) ++e;
            if (e - b > 1)
                for (std::size_t k = b; k < e; ++k) needed[keyed[k].second] = true;
        }
    }
    std::vector<std::uint64_t>().swap(invariants);
    stats.invariants = use_invariants;

    // 2. Forms, batch by batch, into runs.
    std::vector<std::uint32_t> root;
    RunBuffer run;
    std::unique_ptr<SpillDir> spill;
    const std::uint64_t budget =
        opt.memory_budget == 0 ? kMaxRunArena : std::min<std::uint64_t>(opt.memory_budget, kMaxRunArena);
    GraphLineReader reader(path);
    std::vector<BlockForms> blocks;
    while (reader.next(kBatch, batch)) {
        ctx.throw_if_cancelled();
        const std::size_t base = root.size();
        if (base + batch.size() > std::numeric_limits<std::uint32_t>::max())
            throw ResourceLimit(path + ": more than 2^32 - 1 graphs");
        root.resize(base + batch.size());
        for (std::size_t k = 0; k < batch.size(); ++k) root[base + k] = static_cast<std::uint32_t>(base + k);
        const std::size_t nblocks = (batch.size() + kBlock - 1) / kBlock;
        blocks.resize(nblocks);
        parallel_for_each_worker(
            nblocks, ctx.threads(), [] { return Worker{}; },
            [&](Worker& w, std::size_t b) {
                BlockForms& out = blocks[b];
                out.bytes.clear();
                out.index.clear();
                out.end.clear();
                out.hash.clear();
                out.sparse = 0;
                for (std::size_t k = b * kBlock; k < std::min(batch.size(), (b + 1) * kBlock); ++k) {
                    const std::size_t i = base + k;
                    if (use_invariants && (i >= needed.size() || !needed[i])) {
                        if (i >= needed.size())  // the file grew since the invariant pass
                            throw IoError(path + " changed while it was read");
                        continue;
                    }
                    const std::size_t from = out.bytes.size();
                    out.sparse += append_record_form(batch.record(k), SourcePos{path, batch.line[k]}, w, out.bytes);
                    out.index.push_back(static_cast<std::uint32_t>(i));
                    out.end.push_back(static_cast<std::uint32_t>(out.bytes.size()));
                    out.hash.push_back(form_hash(std::string_view(out.bytes).substr(from)));
                }
            });
        for (const BlockForms& b : blocks) {
            for (std::size_t f = 0; f < b.index.size(); ++f) {
                const std::uint32_t from = f == 0 ? 0 : b.end[f - 1];
                const std::string_view form(b.bytes.data() + from, b.end[f] - from);
                if (run.bytes() + form.size() + sizeof(Rec) + 10 > budget && !run.empty()) {
                    if (!spill) spill = std::make_unique<SpillDir>(opt.spill_dir);
                    run.sort(ctx.threads());
                    stats.spilled_bytes += write_run(run, spill->new_file());
                    ++stats.runs;
                    run.clear();
                }
                run.add(b.hash[f], b.index[f], form);
            }
            stats.forms += b.index.size();
            stats.sparse_forms += b.sparse;
        }
        if (base == 0 && opt.memory_budget == 0 && !reader.at_end()) reserve_for_file(reader, batch.size(), root, run);
        ctx.progress("dedup", root.size(), 0);
    }
    if (root.empty()) throw ParseError(path, 0, "no graphs found (empty file)");
    if (use_invariants && root.size() != needed.size()) throw IoError(path + " changed while it was read");
    stats.graphs = root.size();
    run.sort(ctx.threads());
    if (!spill) {
        roots_from_run(run, root);
        run = RunBuffer{};  // the forms are not needed any more: free them before the orbits are built
    } else {
        if (!run.empty()) {
            stats.spilled_bytes += write_run(run, spill->new_file());
            ++stats.runs;
        }
        run = RunBuffer{};
        roots_from_files(spill->files(), root, ctx);
    }
    if (stats_out) *stats_out = stats;
    return Orbits::from_roots(root);
}

}  // namespace brec
