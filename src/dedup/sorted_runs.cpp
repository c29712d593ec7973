#include "detail/sorted_runs.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <queue>

#include "brec/core/error.hpp"
#include "brec/core/parallel.hpp"
#include "brec/io/files.hpp"

namespace brec::detail {
namespace {

void put_varint(std::string& out, std::uint64_t x) {
    while (x >= 128) {
        out.push_back(static_cast<char>(0x80 | (x & 127)));
        x >>= 7;
    }
    out.push_back(static_cast<char>(x));
}

/// Decodes a varint from next_byte(), which returns the next byte as unsigned char.
template <typename NextByte>
std::uint64_t decode_varint(NextByte next_byte) {
    std::uint64_t x = 0;
    for (int shift = 0;; shift += 7) {
        const unsigned char b = next_byte();
        x |= static_cast<std::uint64_t>(b & 127) << shift;
        if (b < 128) return x;
    }
}

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

using FilePtr = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

FilePtr open_file(const std::string& path, const char* mode) {
    FilePtr f(std::fopen(path.c_str(), mode), &std::fclose);
    if (!f) throw IoError("cannot open " + path + ": " + std::strerror(errno));
    return f;
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
        const std::uint64_t len = decode_varint([&]() {
            char b;
            if (!read(&b, 1)) throw IoError(path_ + ": truncated sorted run");
            return static_cast<unsigned char>(b);
        });
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

}  // namespace

std::string_view RunBuffer::form(std::uint32_t offset) const {
    const char* p = arena.data() + offset;
    const std::uint64_t len = decode_varint([&]() { return static_cast<unsigned char>(*p++); });
    return {p, static_cast<std::size_t>(len)};
}

void RunBuffer::add(std::uint64_t hash, std::uint32_t index, std::string_view f) {
    if (f.size() <= kInlineForm) {
        small.push_back({inline_key(f), index});
        return;
    }
    recs.push_back({hash, index, static_cast<std::uint32_t>(arena.size())});
    put_varint(arena, f.size());
    arena.append(f.data(), f.size());
}

void RunBuffer::sort(int threads) {
    parallel_sort(recs, threads,
                  [](const Rec& a, const Rec& b) { return a.hash != b.hash ? a.hash < b.hash : a.index < b.index; });
    parallel_sort(small, threads, [](const SmallRec& a, const SmallRec& b) {
        return a.key != b.key ? a.key < b.key : a.index < b.index;
    });
}

void RunBuffer::clear() {
    arena.clear();
    recs.clear();
    small.clear();
}

SpillDir::SpillDir(const std::string& parent) {
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

SpillDir::~SpillDir() {
    for (const auto& f : files_) std::remove(f.c_str());
    rmdir(dir_.c_str());
}

std::string SpillDir::new_file() {
    files_.push_back(dir_ + "/run" + std::to_string(files_.size()));
    return files_.back();
}

// An inline form is written as its key with an empty form: a key never shares a group with a longer
// form, whose bytes differ.
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

}  // namespace brec::detail
