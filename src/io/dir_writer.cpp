#include "brec/io/dir_writer.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "brec/core/error.hpp"

namespace brec {

namespace fs = std::filesystem;

namespace {

/// Removes the directories (listed outermost first) that are empty, innermost first; fs::remove
/// refuses a non-empty directory, so nothing that someone else put there is deleted.
void remove_empty(const std::vector<std::string>& dirs) noexcept {
    std::error_code ec;
    for (auto it = dirs.rbegin(); it != dirs.rend(); ++it)
        if (fs::is_empty(*it, ec) && !ec) fs::remove(*it, ec);
}

/// Creates `p` and its missing ancestors, appending every directory created to `created`
/// (outermost first), also when creating a later one fails. Throws IoError("cannot create WHAT:
/// reason").
void create_missing(const fs::path& p, std::vector<std::string>& created, const std::string& what) {
    std::error_code ec;
    std::vector<std::string> missing;
    for (fs::path q = p; !q.empty() && !fs::exists(q, ec); q = q.parent_path()) {
        missing.push_back(q.string());
        if (q == q.parent_path()) break;
    }
    fs::create_directories(p, ec);
    std::error_code ignore;
    for (auto it = missing.rbegin(); it != missing.rend(); ++it)
        if (fs::is_directory(*it, ignore)) created.push_back(*it);
    if (ec) throw IoError("cannot create " + what + ": " + ec.message());
}

std::string without_trailing_slashes(std::string s) {
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
}

}  // namespace

void make_directories(const std::string& dir) {
    std::error_code ec;
    if (fs::is_directory(dir, ec)) return;
    fs::create_directories(without_trailing_slashes(dir), ec);
    if (ec) throw IoError("cannot create directory " + dir + ": " + ec.message());
}

AtomicDirWriter::AtomicDirWriter(std::string dir, AtomicDirOptions options)
    : dir_(std::move(dir)), options_(std::move(options)) {
    if (dir_.empty()) throw InvalidArgument("no " + options_.label + " given");
    std::error_code ec;
    const fs::path absolute = fs::absolute(dir_, ec);
    if (ec) throw IoError("cannot create " + named() + ": " + ec.message());
    target_ = without_trailing_slashes(absolute.lexically_normal().string());
    const fs::file_status st = fs::status(target_, ec);
    const bool exists = fs::exists(st), is_dir = fs::is_directory(st);
    if (options_.existing == ExistingDir::replace_empty) {
        if (exists && !(is_dir && fs::is_empty(target_, ec)))
            throw InvalidArgument(dir_ + " exists and is not an empty directory; choose a new directory or remove it");
    } else if (exists && !is_dir) {
        throw IoError(named() + " exists and is not a directory");
    }
    if (!exists && !options_.create_parents) {
        const fs::path parent = fs::path(target_).parent_path();
        std::string shown = fs::path(without_trailing_slashes(dir_)).parent_path().string();
        if (shown.empty()) shown = ".";
        if (!fs::exists(parent, ec))
            throw IoError("cannot create " + named() + ": directory " + shown + " does not exist");
        if (!fs::is_directory(parent, ec))
            throw IoError("cannot create " + named() + ": " + shown + " is not a directory");
    }
    if (!options_.create_now) return;
    // A throwing constructor runs no destructor: what was created here is removed before rethrowing.
    try {
        if (!exists) {
            if (options_.create_parents) {
                create_missing(target_, created_, named());
            } else if (!fs::create_directory(target_, ec) || ec) {
                throw IoError("cannot create " + named() + ": " + (ec ? ec.message() : "it exists"));
            } else {
                created_.push_back(target_);
            }
            created_target_ = true;
        }
        if (::access(target_.c_str(), W_OK) != 0) throw IoError(named() + " is not writable");
    } catch (...) {
        remove_empty(created_);
        throw;
    }
}

AtomicDirWriter::~AtomicDirWriter() {
    if (!finished_) abandon();
}

void AtomicDirWriter::abandon() noexcept {
    std::error_code ec;
    if (!staging_.empty()) fs::remove_all(staging_, ec);
    remove_empty(created_);
    finished_ = true;
}

std::string AtomicDirWriter::named() const { return options_.label + " " + dir_; }

std::string AtomicDirWriter::final_path(const std::string& name) const {
    return without_trailing_slashes(dir_) + "/" + name;
}

void AtomicDirWriter::ensure_staging() {
    if (finished_) throw Error("internal error: " + named() + " used after commit()");
    if (!staging_.empty()) return;
    std::error_code ec;
    const fs::path target(target_);
    const std::string pid = std::to_string(::getpid());
    fs::path staging;
    const bool inside = options_.existing == ExistingDir::merge && fs::is_directory(target, ec);
    if (inside) {
        staging = target / (".brec.tmp." + pid);
    } else {
        if (options_.create_parents) create_missing(target.parent_path(), created_, named());
        staging = target.parent_path() / (target.filename().string() + ".tmp." + pid);
    }
    fs::remove_all(staging, ec);  // a leftover of a killed run whose process had the same id
    ec.clear();
    if (!fs::create_directory(staging, ec) || ec) {
        const std::string reason = ec ? ec.message() : "a temporary directory of that name exists";
        throw IoError((inside ? "cannot write into " : "cannot create ") + named() + ": " + reason);
    }
    staging_ = staging.string();
    staging_inside_ = inside;
}

std::string AtomicDirWriter::path(const std::string& name) {
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos)
        throw IoError("cannot write " + final_path(name) + ": not a plain file name (a '/', or empty, '.' or '..')");
    std::lock_guard<std::mutex> lock(mutex_);
    ensure_staging();
    if (name_set_.insert(name).second) names_.push_back(name);
    return staging_ + "/" + name;
}

void AtomicDirWriter::write(const std::string& name, const std::string& content) {
    const std::string p = path(name);
    errno = 0;
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    if (out) {
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        out.close();
    }
    if (!out) {
        const int err = errno;
        throw IoError("cannot write " + final_path(name) + ": " + (err ? std::strerror(err) : "write failed"));
    }
}

void AtomicDirWriter::commit() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finished_) throw Error("internal error: " + named() + " committed twice");
    try {
        ensure_staging();
        std::error_code ec;
        if (staging_inside_) {
            // A name taken by a directory would fail its rename half-way: refuse before any file moves.
            for (const auto& name : names_) {
                struct stat st {};
                if (::stat((target_ + "/" + name).c_str(), &st) == 0 && S_ISDIR(st.st_mode))
                    throw IoError("cannot write " + final_path(name) + ": it is a directory");
            }
            std::vector<std::string> moved;
            for (const auto& name : names_) {
                const std::string to = target_ + "/" + name;
                if (std::rename((staging_ + "/" + name).c_str(), to.c_str()) != 0) {
                    const std::string reason = std::strerror(errno);
                    if (options_.undo_partial_merge)
                        for (const auto& m : moved) std::remove(m.c_str());
                    throw IoError("cannot write " + final_path(name) + ": " + reason);
                }
                moved.push_back(to);
            }
            fs::remove_all(staging_, ec);
        } else {
            // rename() replaces an empty directory but not a symbolic link to one: the empty target
            // that replace_empty accepted is removed first.
            if (options_.existing == ExistingDir::replace_empty && fs::is_directory(target_, ec) &&
                fs::is_empty(target_, ec))
                fs::remove(target_, ec);
            fs::rename(staging_, target_, ec);
            if (ec) throw IoError("cannot create " + named() + ": " + ec.message());
        }
    } catch (...) {
        abandon();
        throw;
    }
    finished_ = true;
}

}  // namespace brec
