#include "brec/gen/geng.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/io/graph6.hpp"

namespace brec {
namespace {

bool executable(const std::string& path) { return access(path.c_str(), X_OK) == 0; }

/// A running geng with the read end of its output pipe, owned: whatever ends the read loop (the end
/// of the output, an early stop, an exception from the visitor, a cancelled run), the pipe is
/// closed and the child stopped and reaped exactly once, without reading the rest of the
/// enumeration. geng is started directly (no shell) with SIGPIPE at its default action, whatever
/// the caller's disposition, and its pipe is close-on-exec, so that geng runs started in parallel
/// by other threads never hold each other's pipes open.
class GengProcess {
public:
    GengProcess(const std::string& geng, const std::vector<std::string>& args, std::string command)
        : command_(std::move(command)) {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0) throw IoError("cannot start '" + command_ + "': pipe: " + std::strerror(errno));
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        sigset_t defaults;
        sigemptyset(&defaults);
        sigaddset(&defaults, SIGPIPE);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>(geng.c_str()));
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        const int rc = posix_spawn(&pid_, geng.c_str(), &actions, &attr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
        ::close(fds[1]);
        if (rc != 0) {
            ::close(fds[0]);
            pid_ = -1;
            throw IoError("cannot start '" + command_ + "': " + std::strerror(rc));
        }
        out_ = fdopen(fds[0], "r");
        if (!out_) {
            ::close(fds[0]);
            stop();
            throw IoError("cannot read from '" + command_ + "'");
        }
    }
    ~GengProcess() {
        if (out_) std::fclose(out_);
        if (pid_ > 0) stop();
        std::free(line_);
    }
    GengProcess(const GengProcess&) = delete;
    GengProcess& operator=(const GengProcess&) = delete;

    /// The next line without its line end (empty lines are skipped); false at the end of output.
    bool next(std::string_view& out) {
        ssize_t len;
        while ((len = getline(&line_, &cap_, out_)) > 0) {
            std::size_t l = static_cast<std::size_t>(len);
            while (l > 0 && (line_[l - 1] == '\n' || line_[l - 1] == '\r')) --l;
            if (l == 0) continue;
            out = std::string_view(line_, l);
            return true;
        }
        return false;
    }

    /// After the whole output was read: waits for geng, which must exit with status 0.
    void finish() {
        std::fclose(out_);
        out_ = nullptr;
        const int status = wait();
        if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            throw IoError("'" + command_ + "' failed (exit status " + std::to_string(status) + ")");
    }

    /// Stops geng before the end of its output and reaps it.
    void stop() {
        ::kill(pid_, SIGKILL);
        wait();
    }

private:
    int wait() {
        int status = 0;
        pid_t r;
        do {
            r = ::waitpid(pid_, &status, 0);
        } while (r == -1 && errno == EINTR);
        pid_ = -1;
        return r == -1 ? -1 : status;
    }

    std::string command_;
    pid_t pid_ = -1;
    FILE* out_ = nullptr;
    char* line_ = nullptr;
    std::size_t cap_ = 0;
};

}  // namespace

std::string find_geng() {
    if (const char* env = std::getenv("BREC_GENG"); env && *env) {
        if (!executable(env)) throw Unsupported(std::string("BREC_GENG=") + env + " is not an executable file");
        return env;
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (const char* name : {"nauty-geng", "geng"}) {
        std::size_t start = 0;
        while (start <= dirs.size()) {
            const std::size_t end = std::min(dirs.find(':', start), dirs.size());
            const std::string dir = dirs.substr(start, end - start);
            const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
            if (executable(candidate)) return candidate;
            start = end + 1;
        }
    }
    throw Unsupported(
        "nauty's geng was not found (looked for 'nauty-geng' and 'geng' on PATH): install the Debian "
        "package 'nauty' (scripts/setup.sh does), or set BREC_GENG to the geng binary; it is needed "
        "for the basic, regular, extension and cfi categories");
}

std::string GengQuery::command(const std::string& geng) const {
    std::string c = "'" + geng + "' -q";
    if (connected) c += " -c";
    if (min_degree >= 0) c += " -d" + std::to_string(min_degree);
    if (max_degree >= 0) c += " -D" + std::to_string(max_degree);
    c += " " + std::to_string(n);
    if (mod > 1) c += " " + std::to_string(res) + "/" + std::to_string(mod);
    return c;
}

std::uint64_t stream_geng(const GengQuery& q, const std::function<bool(std::string_view)>& line) {
    if (q.n > 32) throw InvalidArgument("stream_geng: n = " + std::to_string(q.n) + " is too large (max 32)");
    if (q.mod < 1 || q.res < 0 || q.res >= q.mod) throw InvalidArgument("stream_geng: bad res/mod split");
    const std::string geng_path = find_geng();
    std::vector<std::string> args = {"-q"};
    if (q.connected) args.push_back("-c");
    if (q.min_degree >= 0) args.push_back("-d" + std::to_string(q.min_degree));
    if (q.max_degree >= 0) args.push_back("-D" + std::to_string(q.max_degree));
    args.push_back(std::to_string(q.n));
    if (q.mod > 1) args.push_back(std::to_string(q.res) + "/" + std::to_string(q.mod));
    GengProcess geng(geng_path, args, q.command(geng_path));
    std::uint64_t count = 0;
    std::string_view record;
    while (geng.next(record)) {
        ++count;
        if (!line(record)) {
            geng.stop();
            return count;
        }
    }
    geng.finish();
    return count;
}

std::vector<Graph> geng_graphs(const GengQuery& q) {
    std::vector<Graph> out;
    stream_geng(q, [&](std::string_view s) {
        out.push_back(parse_graph6(s, SourcePos{"geng", static_cast<std::int64_t>(out.size() + 1)}));
        return true;
    });
    return out;
}

}  // namespace brec
