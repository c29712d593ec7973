#pragma once
// Sorted runs of (hash, index, canonical form) records: the grouping half of the streaming
// deduplication. A run is sorted in memory; beyond a memory budget sorted runs go to files and are
// merged. Either way, root[i] becomes the first graph with graph i's form.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "brec/core/run_context.hpp"

namespace brec::detail {

/// One graph's sort record; its form sits in the run's arena at `offset` (varint length, bytes).
struct Rec {
    std::uint64_t hash;
    std::uint32_t index;
    std::uint32_t offset;
};

/// Forms of at most kInlineForm bytes (graphs on up to 9 vertices) are their own sort key: the
/// bytes and the length packed into 64 bits, exact, with no arena and no hash. 12 bytes per graph.
inline constexpr std::size_t kInlineForm = 7;
#pragma pack(push, 4)
struct SmallRec {
    std::uint64_t key;
    std::uint32_t index;
};
#pragma pack(pop)
static_assert(sizeof(SmallRec) == 12, "SmallRec must be packed");

/// Forms and records of a run in memory.
struct RunBuffer {
    std::string arena;
    std::vector<Rec> recs;
    std::vector<SmallRec> small;

    std::uint64_t bytes() const { return arena.size() + recs.size() * sizeof(Rec) + small.size() * sizeof(SmallRec); }
    bool empty() const { return recs.empty() && small.empty(); }
    /// The form stored at `offset` of the arena.
    std::string_view form(std::uint32_t offset) const;
    /// Adds graph `index` with form f (and its hash, unused for inline forms).
    void add(std::uint64_t hash, std::uint32_t index, std::string_view f);
    /// Records ordered by (hash or key, index) on `threads` threads. Equal forms have equal hashes
    /// (keys), so they end up in one run of equal hashes, first index first.
    void sort(int threads);
    void clear();
};

/// A directory of sorted runs (mkdtemp under `parent`, "" = $TMPDIR, else /tmp), removed with its
/// files when it goes out of scope. Throws IoError when it cannot be made.
class SpillDir {
public:
    explicit SpillDir(const std::string& parent);
    SpillDir(const SpillDir&) = delete;
    SpillDir& operator=(const SpillDir&) = delete;
    ~SpillDir();
    std::string new_file();
    const std::vector<std::string>& files() const { return files_; }

private:
    std::string dir_;
    std::vector<std::string> files_;
};

/// Writes a sorted run: per record hash (8 bytes), index (4), varint length, form, in (hash, index)
/// order; an inline form as its key with an empty form. Returns the bytes written; throws IoError.
std::uint64_t write_run(const RunBuffer& run, const std::string& path);

/// root[index] = the first index with the same form, over one sorted run in memory.
void roots_from_run(const RunBuffer& run, std::vector<std::uint32_t>& root);
/// The same over sorted run files, merged by (hash, index). Throws IoError, Cancelled.
void roots_from_files(const std::vector<std::string>& files, std::vector<std::uint32_t>& root, RunContext& ctx);

}  // namespace brec::detail
