#include "brec/dedup/stream.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/core/rng.hpp"
#include "brec/dedup/invariant.hpp"
#include "brec/io/graph6.hpp"
#include "brec/graph/algorithms.hpp"
#include "brec/io/graph_lines.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/tu.hpp"
#include "brec/iso/iso.hpp"
#include "detail/sorted_runs.hpp"

namespace brec {
namespace {

using detail::Rec;
using detail::roots_from_files;
using detail::roots_from_run;
using detail::RunBuffer;
using detail::SpillDir;
using detail::write_run;

constexpr std::size_t kBatchBytes = 1 << 20;  // text of the records of a batch, at most about
// A TU batch's graphs take about half the memory of their edge lines' text (4 bytes per arc against
// about 10), and most TU datasets fit one batch: then they are read once.
constexpr std::size_t kTuBatchBytes = 8 << 20;
constexpr std::size_t kBlock = 256;  // records per parallel task
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

/// The form of a graph above kDenseFormMaxN vertices: 's' and its sparse-nauty certificate. Returns
/// true (a sparse form).
bool append_sparse_form(const Graph& g, std::string& out) {
    out.push_back('s');
    out += canonical_certificate(g).bytes;
    return true;
}

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
    return append_sparse_form(big, out);
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

/// The share of values that occur once in `values`.
double unique_share(std::vector<std::uint64_t> values) {
    if (values.empty()) return 1.0;
    std::sort(values.begin(), values.end());
    std::size_t unique = 0;
    for (std::size_t b = 0, e = 0; b < values.size(); b = e) {
        for (e = b + 1; e < values.size() && values[e] == values[b];) ++e;
        unique += e - b == 1;
    }
    return static_cast<double>(unique) / static_cast<double>(values.size());
}

/// A graph6/sparse6 file, read a batch of records at a time; forms by dense nauty.
class GraphLineSource {
public:
    using Batch = GraphLineReader::Batch;
    explicit GraphLineSource(std::string path) : path_(std::move(path)) {}
    const std::string& name() const { return path_; }
    void restart() { reader_ = std::make_unique<GraphLineReader>(path_); }
    bool next(std::size_t max, Batch& b) { return reader_->next(max, b, kBatchBytes); }
    bool at_end() const { return reader_->at_end(); }
    /// The file's size over the bytes read so far (> 1 while there is more to read).
    double growth() const {
        return static_cast<double>(reader_->file_size()) /
               static_cast<double>(std::max<std::uint64_t>(1, reader_->bytes_consumed()));
    }
    Worker worker() const { return {}; }
    std::uint64_t invariant(const Batch& b, std::size_t k, Worker& w) const {
        return record_invariant(b.record(k), SourcePos{path_, b.line[k]}, w);
    }
    bool append_form(const Batch& b, std::size_t k, Worker& w, std::string& out) const {
        return append_record_form(b.record(k), SourcePos{path_, b.line[k]}, w, out);
    }

private:
    std::string path_;
    std::unique_ptr<GraphLineReader> reader_;
};

/// A TU dataset, read a batch of graphs at a time; compact forms under the orbit mode's labels.
class TuSource {
public:
    using Batch = std::vector<Graph>;
    TuSource(std::string dir, std::string name, OrbitMode mode)
        : dir_(std::move(dir)), name_(std::move(name)), mode_(mode) {
        options_.edge_labels = mode == OrbitMode::edge_labels;
        options_.node_labels = mode != OrbitMode::topology;
        options_.node_attributes = false;
    }
    const std::string& name() const { return dir_; }
    void restart() { reader_ = std::make_unique<TuGraphReader>(dir_, name_, options_); }
    bool next(std::size_t max, Batch& b) { return reader_->next(max, b, kTuBatchBytes); }
    bool at_end() const { return reader_->at_end(); }
    double growth() const {
        return static_cast<double>(reader_->edge_file_size()) /
               static_cast<double>(std::max<std::uint64_t>(1, reader_->edge_bytes_read()));
    }
    const TuGraphReader& reader() const { return *reader_; }
    Worker worker() const { return {}; }
    std::uint64_t invariant(const Batch& b, std::size_t k, Worker&) const { return refinement_invariant(b[k], mode_); }
    bool append_form(const Batch& b, std::size_t k, Worker&, std::string& out) const {
        const Graph& g = b[k];
        if (use_complement(g, mode_)) {
            out.push_back('~');
            append_compact_form(complement(g), iso_options(mode_), out);
        } else {
            append_compact_form(g, iso_options(mode_), out);
        }
        return false;
    }

private:
    std::string dir_, name_;
    OrbitMode mode_;
    TuReadOptions options_;
    std::unique_ptr<TuGraphReader> reader_;
};

/// The selected pairs of a pair file, read a batch at a time: graphs a and b of each pair in turn;
/// forms as for graph-line files (pair files hold graph6 records).
class PairSource {
public:
    using Batch = std::vector<Graph>;
    PairSource(std::string path, PairSelection selection) : path_(std::move(path)), selection_(std::move(selection)) {}
    const std::string& name() const { return path_; }
    void restart() {
        reader_ = std::make_unique<PairFileReader>(path_, selection_);
        ids_.clear();
    }
    bool next(std::size_t max, Batch& b) {
        b.clear();
        if (!reader_->next(std::max<std::size_t>(1, max / 2), pairs_, kBatchBytes)) return false;
        for (GraphPairRecord& p : pairs_) {
            b.push_back(std::move(p.a));
            b.push_back(std::move(p.b));
            ids_.push_back(p.id);
        }
        return true;
    }
    bool at_end() const { return reader_->at_end(); }
    double growth() const {
        return static_cast<double>(reader_->file_size()) /
               static_cast<double>(std::max<std::uint64_t>(1, reader_->bytes_read()));
    }
    /// The ids of the pairs read since the last restart.
    std::vector<PairId>& ids() { return ids_; }
    Worker worker() const { return {}; }
    std::uint64_t invariant(const Batch& b, std::size_t k, Worker&) const {
        return refinement_invariant(b[k], OrbitMode::topology);
    }
    bool append_form(const Batch& b, std::size_t k, Worker& w, std::string& out) const {
        const Graph& g = b[k];
        if (g.n() > kDenseFormMaxN) return append_sparse_form(g, out);
        w.rows = dense_rows(g);
        w.canoniser.append_form(w.rows, out);
        return false;
    }

private:
    std::string path_;
    PairSelection selection_;
    std::unique_ptr<PairFileReader> reader_;
    std::vector<GraphPairRecord> pairs_;
    std::vector<PairId> ids_;
};

/// Invariants of the graphs of one batch, in parallel.
template <typename Source>
void batch_invariants(const Source& src, const typename Source::Batch& batch, RunContext& ctx,
                      std::vector<std::uint64_t>& out) {
    const std::size_t size = batch.size();
    const std::size_t base = out.size();
    out.resize(base + size);
    parallel_for_each_worker((size + kBlock - 1) / kBlock, ctx.threads(), [&] { return src.worker(); },
                             [&](Worker& w, std::size_t b) {
                                 for (std::size_t k = b * kBlock; k < std::min(size, (b + 1) * kBlock); ++k)
                                     out[base + k] = src.invariant(batch, k, w);
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

/// After the first batch of an in-memory run: room for the whole input as the batch predicts it
/// (`growth` = input size over the bytes read), so that the arrays do not grow by doubling (up to
/// twice the memory, and a copy, at the last doubling).
void reserve_for_input(double growth, std::size_t records, std::vector<std::uint32_t>& root, RunBuffer& run) {
    if (records == 0) return;
    const double scale = 1.02 * growth;
    const double graphs = scale * static_cast<double>(records);
    if (graphs >= static_cast<double>(std::numeric_limits<std::uint32_t>::max())) return;
    root.reserve(static_cast<std::size_t>(graphs));
    run.small.reserve(static_cast<std::size_t>(scale * static_cast<double>(run.small.size())));
    run.recs.reserve(static_cast<std::size_t>(scale * static_cast<double>(run.recs.size())));
    run.arena.reserve(static_cast<std::size_t>(scale * static_cast<double>(run.arena.size())));
}

/// The orbits of a source's graphs (see graph_file_orbits); `src` is left at its end.
template <typename Source>
Orbits source_orbits(Source& src, const StreamOrbitOptions& opt, RunContext& ctx, StreamOrbitStats* stats_out) {
    StreamOrbitStats stats;
    typename Source::Batch batch;
    const std::size_t batch_size = std::max<std::size_t>(2, opt.batch);  // a pair file reads two at a time
    // 1. Invariants: from a sample (automatic), then for the whole input when they pay.
    std::vector<std::uint64_t> invariants;
    bool use_invariants = opt.invariants == InvariantUse::always;
    // Whether the first batch holds the whole input: then it is not read again.
    bool whole = false;
    if (opt.invariants != InvariantUse::never) {
        src.restart();
        src.next(opt.invariants == InvariantUse::automatic ? std::max<std::size_t>(1, opt.sample) : batch_size, batch);
        batch_invariants(src, batch, ctx, invariants);
        whole = src.at_end();
        if (opt.invariants == InvariantUse::automatic) {
            // The whole input: the share of unique invariants itself; else its prediction.
            stats.predicted_unique =
                whole ? unique_share(invariants)
                      : predicted_unique_share(invariants, src.growth() * static_cast<double>(batch.size()));
            use_invariants = stats.predicted_unique >= kInvariantPays;
        }
        if (use_invariants && !whole) {
            while (src.next(batch_size, batch)) {
                ctx.throw_if_cancelled();
                batch_invariants(src, batch, ctx, invariants);
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
    const std::string& path = src.name();
    if (!whole) src.restart();
    std::vector<BlockForms> blocks;
    for (bool held = whole; held || src.next(batch_size, batch); held = false) {
        ctx.throw_if_cancelled();
        const std::size_t size = batch.size();
        const std::size_t base = root.size();
        if (base + size > std::numeric_limits<std::uint32_t>::max())
            throw ResourceLimit(path + ": more than 2^32 - 1 graphs");
        root.resize(base + size);
        for (std::size_t k = 0; k < size; ++k) root[base + k] = static_cast<std::uint32_t>(base + k);
        const std::size_t nblocks = (size + kBlock - 1) / kBlock;
        blocks.resize(nblocks);
        parallel_for_each_worker(
            nblocks, ctx.threads(), [&] { return src.worker(); },
            [&](Worker& w, std::size_t b) {
                BlockForms& out = blocks[b];
                out.bytes.clear();
                out.index.clear();
                out.end.clear();
                out.hash.clear();
                out.sparse = 0;
                for (std::size_t k = b * kBlock; k < std::min(size, (b + 1) * kBlock); ++k) {
                    const std::size_t i = base + k;
                    if (use_invariants && (i >= needed.size() || !needed[i])) {
                        if (i >= needed.size())  // the input grew since the invariant pass
                            throw IoError(path + " changed while it was read");
                        continue;
                    }
                    const std::size_t from = out.bytes.size();
                    out.sparse += src.append_form(batch, k, w, out.bytes);
                    out.index.push_back(static_cast<std::uint32_t>(i));
                    out.end.push_back(static_cast<std::uint32_t>(out.bytes.size()));
                    const std::string_view form = std::string_view(out.bytes).substr(from);
                    out.hash.push_back(form.size() > detail::kInlineForm ? form_hash(form) : 0);  // inline: its own key
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
        if (base == 0 && opt.memory_budget == 0 && !src.at_end()) reserve_for_input(src.growth(), size, root, run);
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
                         StreamOrbitStats* stats) {
    GraphLineSource src(path);
    return source_orbits(src, opt, ctx, stats);
}

Orbits tu_dataset_orbits(const std::string& dir, const std::string& name, OrbitMode mode, const StreamOrbitOptions& opt,
                         RunContext& ctx, LabelledGraphs& data, StreamOrbitStats* stats) {
    TuSource src(dir, name, mode);
    Orbits orbits = source_orbits(src, opt, ctx, stats);
    const TuGraphReader& r = src.reader();
    data = LabelledGraphs{};
    data.path = dir;
    data.source = DedupSource::tu;
    data.name = r.name();
    data.graph_count = orbits.orbit_of.size();
    data.labels = r.graph_labels();
    data.has_node_labels = r.has_node_labels();
    data.has_edge_labels = r.has_edge_labels();
    data.tu_stats = r.stats();
    return orbits;
}

Orbits pair_file_orbits(const std::string& path, const PairSelection& selection, const StreamOrbitOptions& opt,
                        RunContext& ctx, LabelledGraphs& data, StreamOrbitStats* stats) {
    PairSource src(path, selection);
    Orbits orbits = source_orbits(src, opt, ctx, stats);
    data = pairs_without_graphs(path, std::move(src.ids()));
    return orbits;
}

}  // namespace brec
