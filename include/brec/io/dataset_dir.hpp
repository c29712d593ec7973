#pragma once
// The directory of a generated pair dataset: DIR/pairs.tsv (a BREC pair file) and DIR/meta.json
// (how the pairs were made). Written all or nothing: a run that fails leaves neither file, and
// no directory it created.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "brec/io/dir_writer.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

/// Writes one generated dataset directory. The constructor prepares the directory, so that a bad
/// path fails before any long computation; commit() writes both files; a writer destroyed
/// without a successful commit() removes the directories it created (when they are still empty),
/// so that a failed run leaves nothing behind.
class DatasetDirWriter {
public:
    /// Creates `dir` (and missing parents) if needed and checks that it is a writable directory.
    /// Throws IoError: "cannot create output directory DIR: reason", "output directory DIR exists
    /// and is not a directory", "output directory DIR is not writable".
    explicit DatasetDirWriter(std::string dir);

    /// Writes DIR/pairs.tsv (with `comment` as '#' header lines) and DIR/meta.json (`meta`,
    /// indented by one space). Both files are written in full under temporary names before either
    /// is renamed into place, and if the second rename fails the first file is removed again:
    /// afterwards both files are new or neither exists. Throws InvalidArgument for a category that
    /// a pair file cannot hold (empty, or with a tab or line break) and IoError when writing
    /// fails; may be called once.
    void commit(const std::vector<GraphPairRecord>& pairs, const nlohmann::json& meta, const std::string& comment);

    const std::string& dir() const { return writer_.dir(); }
    std::string pairs_path() const { return dir() + "/pairs.tsv"; }
    std::string meta_path() const { return dir() + "/meta.json"; }
    /// Whether the constructor created the directory.
    bool created() const { return writer_.created(); }

private:
    AtomicDirWriter writer_;  ///< create_now: the directory exists from the constructor on
};

}  // namespace brec
