#include "brec/gen/geng.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/io/graph6.hpp"

namespace brec {
namespace {

bool executable(const std::string& path) { return access(path.c_str(), X_OK) == 0; }

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
    const std::string cmd = q.command(find_geng());
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) throw IoError("cannot start '" + cmd + "'");
    std::uint64_t count = 0;
    char* buf = nullptr;
    std::size_t cap = 0;
    bool stopped = false;
    ssize_t len;
    while ((len = getline(&buf, &cap, pipe)) > 0) {
        std::size_t l = static_cast<std::size_t>(len);
        while (l > 0 && (buf[l - 1] == '\n' || buf[l - 1] == '\r')) --l;
        if (l == 0) continue;
        ++count;
        if (!line(std::string_view(buf, l))) {
            stopped = true;
            break;
        }
    }
    if (stopped) {
        // Drain so geng does not die of SIGPIPE while we wait for it.
        while (getline(&buf, &cap, pipe) > 0) {
        }
    }
    std::free(buf);
    const int status = pclose(pipe);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw IoError("'" + cmd + "' failed (exit status " + std::to_string(status) + ")");
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
