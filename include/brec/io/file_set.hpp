#pragma once
// A set of files written into one directory all or none (a report directory, say).

#include <string>
#include <utility>
#include <vector>

namespace brec {

/// Writes files (name inside `dir`, content) into `dir`, creating it and its missing parents. All
/// of them go to temporary files first and are renamed into place only once every one was
/// written, so a failure (a full disk) leaves none of them behind and removes the directories it
/// created. Returns the paths written, in order. Throws IoError naming the path and the reason.
std::vector<std::string> write_files_atomic(const std::string& dir,
                                            const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace brec
