#include "brec/io/file_set.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec {

std::vector<std::string> write_files_atomic(const std::string& dir,
                                            const std::vector<std::pair<std::string, std::string>>& files) {
    namespace fs = std::filesystem;
    std::error_code ec;
    // The directories about to be created, outermost first, to remove again on failure.
    std::vector<fs::path> created;
    for (fs::path p = fs::path(dir).lexically_normal(); !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        if (p.has_filename()) created.insert(created.begin(), p);
        if (p == p.parent_path()) break;
    }
    auto remove_created = [&created] {
        std::error_code ignore;
        for (auto it = created.rbegin(); it != created.rend(); ++it) fs::remove(*it, ignore);  // empty ones only
    };
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        throw IoError("cannot write to " + dir + ": it exists and is not a directory");
    fs::create_directories(dir, ec);
    if (ec) {
        remove_created();
        throw IoError("cannot create directory " + dir + ": " + ec.message());
    }
    std::vector<std::unique_ptr<AtomicFileWriter>> writers;
    std::vector<std::string> paths;
    try {
        for (const auto& [name, content] : files) {
            paths.push_back((fs::path(dir) / name).string());
            writers.push_back(std::make_unique<AtomicFileWriter>(paths.back()));
            writers.back()->stream() << content;
            writers.back()->stream().flush();
            if (!writers.back()->stream())
                throw IoError("cannot write " + paths.back() + (errno ? std::string(": ") + std::strerror(errno) : ""));
        }
        for (auto& w : writers) w->commit();
    } catch (...) {
        writers.clear();  // removes the temporary files
        std::error_code ignore;
        if (!created.empty())
            for (const auto& p : paths) fs::remove(p, ignore);
        remove_created();
        throw;
    }
    return paths;
}

}  // namespace brec
