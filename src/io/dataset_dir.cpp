#include "brec/io/dataset_dir.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec {

namespace fs = std::filesystem;

namespace {

/// Removes the directories (listed outermost first) that are empty, innermost first; fs::remove
/// refuses a non-empty directory, so nothing that someone else put there is deleted.
void remove_empty(const std::vector<std::string>& dirs) {
    std::error_code ec;
    for (auto it = dirs.rbegin(); it != dirs.rend(); ++it)
        if (fs::is_empty(*it, ec) && !ec) fs::remove(*it, ec);
}

}  // namespace

DatasetDirWriter::DatasetDirWriter(std::string dir) : dir_(std::move(dir)) {
    std::error_code ec;
    if (!fs::exists(dir_, ec)) {
        // Remember every directory about to be created (the missing ancestors and dir itself), so
        // that a failed run removes exactly those and nothing that existed before.
        fs::path p = fs::path(dir_).lexically_normal();
        if (!p.has_filename() && p.has_parent_path()) p = p.parent_path();  // "out/" -> "out"
        std::vector<std::string> missing;
        for (; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
            missing.push_back(p.string());
            if (p == p.parent_path()) break;
        }
        created_.assign(missing.rbegin(), missing.rend());
        fs::create_directories(dir_, ec);
        if (ec) {
            remove_empty(created_);
            throw IoError("cannot create output directory " + dir_ + ": " + ec.message());
        }
    } else if (!fs::is_directory(dir_, ec)) {
        throw IoError("output directory " + dir_ + " exists and is not a directory");
    }
    if (::access(dir_.c_str(), W_OK) != 0) {
        remove_empty(created_);  // a throwing constructor runs no destructor
        throw IoError("output directory " + dir_ + " is not writable");
    }
}

DatasetDirWriter::~DatasetDirWriter() {
    if (!committed_) remove_empty(created_);
}

void DatasetDirWriter::commit(const std::vector<GraphPairRecord>& pairs, const nlohmann::json& meta,
                              const std::string& comment) {
    if (committed_) throw Error("internal error: dataset directory " + dir_ + " committed twice");
    for (const auto& p : pairs)
        if (p.category.empty() || p.category.find_first_of("\t\r\n") != std::string::npos)
            throw InvalidArgument("pair " + std::to_string(p.id) + " has category '" + p.category +
                                  "', which a pair file cannot hold (empty, or a tab or line break)");
    AtomicFileWriter pairs_file(pairs_path());
    pairs_file.stream() << format_pair_file(pairs, comment);
    AtomicFileWriter meta_file(meta_path());
    meta_file.stream() << meta.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    pairs_file.commit();
    try {
        meta_file.commit();
    } catch (...) {
        std::remove(pairs_path().c_str());  // never one file without the other
        throw;
    }
    committed_ = true;
}

}  // namespace brec
