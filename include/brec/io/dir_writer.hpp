#pragma once
// Output directories written all or nothing: every file is staged under a temporary directory and
// moved into place only once all of them exist, so that a failed or killed run never leaves a
// partial output directory behind.

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace brec {

/// Creates `dir` and its missing parents; nothing happens when it is a directory already. Throws
/// IoError("cannot create directory DIR: reason").
void make_directories(const std::string& dir);

/// What an AtomicDirWriter does with a target that already is a directory.
enum class ExistingDir : std::uint8_t {
    /// The staged files go into it, each replacing a file of the same name; everything else in it
    /// stays. A target that is not a directory is an IoError.
    merge,
    /// It must be empty, and is replaced; a non-empty directory or a file is an InvalidArgument
    /// (so that no earlier output is ever mixed with or lost to a new one).
    replace_empty,
};

/// The policy of an AtomicDirWriter. The defaults suit a plain output directory.
struct AtomicDirOptions {
    /// What happens to a target that exists (default merge).
    ExistingDir existing = ExistingDir::merge;
    /// Create missing parent directories (removed again when nothing is committed); when false,
    /// the parent must be an existing directory. Default true.
    bool create_parents = true;
    /// Create the target (and, with create_parents, its missing parents) in the constructor and
    /// check that it is writable, so that a bad path fails before any long computation; a writer
    /// that never commits removes what it created, when still empty. Default false: nothing is
    /// created before the first file is staged.
    bool create_now = false;
    /// When merging, a rename that fails in commit() removes the files that this commit already
    /// moved into the target, so that the target never holds part of the new set (default true);
    /// when false they stay (only the files not yet moved are dropped).
    bool undo_partial_merge = true;
    /// How messages name the target: "cannot create output directory DIR: reason" (default).
    std::string label = "output directory";

    AtomicDirOptions& set_existing(ExistingDir e) {
        existing = e;
        return *this;
    }
    AtomicDirOptions& set_create_parents(bool b) {
        create_parents = b;
        return *this;
    }
    AtomicDirOptions& set_create_now(bool b) {
        create_now = b;
        return *this;
    }
    AtomicDirOptions& set_undo_partial_merge(bool b) {
        undo_partial_merge = b;
        return *this;
    }
    AtomicDirOptions& set_label(std::string l) {
        label = std::move(l);
        return *this;
    }
};

/// Writes a set of files into one directory all or nothing. Files are staged in a temporary
/// directory: when the target does not exist yet (or is an empty directory that replace_empty
/// replaces), a sibling DIR.tmp.PID that commit() renames onto DIR in one step; when the target is
/// a directory to merge into, DIR/.brec.tmp.PID, whose files commit() renames into DIR one by one
/// (same file system, no write access to DIR's parent needed) after checking that no name is taken
/// by a directory there. A writer destroyed without a successful commit() removes the staging
/// directory and the directories it created.
///
/// Errors (IoError unless said otherwise; DIR as given, LABEL = options.label, "output
/// directory" by default): "LABEL DIR exists and is not a directory"; InvalidArgument "DIR exists
/// and is not an empty directory; choose a new directory or remove it" (replace_empty); "cannot
/// create LABEL DIR: reason" (creating it or its parents, a missing or non-directory parent
/// without create_parents, the sibling staging directory, the final rename); "LABEL DIR is not
/// writable" (create_now); "cannot write into LABEL DIR: reason" (the staging directory inside
/// it); "cannot write DIR/NAME: reason" (a name that is not a plain file name, staging a file, a
/// name taken by a directory, moving a file).
class AtomicDirWriter {
public:
    /// Checks the target against the policy (creating it with create_now). Throws as listed above.
    explicit AtomicDirWriter(std::string dir, AtomicDirOptions options = {});
    ~AtomicDirWriter();
    AtomicDirWriter(const AtomicDirWriter&) = delete;
    AtomicDirWriter& operator=(const AtomicDirWriter&) = delete;

    /// The staging path of file `name` (a plain file name: no '/', not "." or ".."), for a writer
    /// that needs a path; the file must exist there before commit(). Creates the staging directory
    /// on first use. Safe to call from several threads. Throws IoError for a bad name or when the
    /// staging directory cannot be made.
    std::string path(const std::string& name);
    /// Stages `content` as file `name`. Safe to call from several threads (distinct names).
    /// Throws IoError("cannot write DIR/NAME: reason").
    void write(const std::string& name, const std::string& content);
    /// Moves the staged files into place (see the class comment); with nothing staged, a missing
    /// target is created empty. May be called once; after a failure the writer has cleaned up and
    /// must not be used again.
    void commit();

    /// The target directory as given.
    const std::string& dir() const { return dir_; }
    /// Where file `name` ends up: DIR/NAME (DIR without trailing slashes).
    std::string final_path(const std::string& name) const;
    /// Whether the constructor created the target directory (create_now only).
    bool created() const { return created_target_; }

private:
    void ensure_staging();  ///< with mutex_ held
    void abandon() noexcept;
    std::string named() const;  ///< "LABEL DIR", for messages

    std::string dir_;     ///< as given, for messages
    std::string target_;  ///< absolute, normalised, no trailing slash
    AtomicDirOptions options_;
    std::vector<std::string> created_;  ///< directories this writer created, outermost first
    bool created_target_ = false;
    std::string staging_;             ///< empty until the first file is staged
    bool staging_inside_ = false;     ///< staging_ lies inside the target (merge into an existing directory)
    std::vector<std::string> names_;  ///< staged files, in staging order
    std::unordered_set<std::string> name_set_;
    std::mutex mutex_;       ///< guards staging_ creation and names_
    bool finished_ = false;  ///< committed, or abandoned after a failed commit
};

}  // namespace brec
