#include "brec/io/file_set.hpp"

#include "brec/core/error.hpp"
#include "brec/io/dir_writer.hpp"
#include "brec/io/files.hpp"

namespace brec {

std::vector<std::string> write_files_atomic(const std::string& dir,
                                            const std::vector<std::pair<std::string, std::string>>& files) {
    // The wording of `brec report --out`'s own check (apps/brec/main.cpp) for a path that is a file.
    if (file_exists(dir) && !is_directory(dir))
        throw IoError("cannot write to " + dir + ": it exists and is not a directory");
    // A rename that fails when merging into an existing directory keeps the files already moved
    // (the policy this function always had); a new directory appears whole or not at all.
    AtomicDirWriter out(dir, AtomicDirOptions().set_undo_partial_merge(false).set_label("directory"));
    std::vector<std::string> paths;
    for (const auto& [name, content] : files) {
        out.write(name, content);
        paths.push_back(out.final_path(name));
    }
    out.commit();
    return paths;
}

}  // namespace brec
