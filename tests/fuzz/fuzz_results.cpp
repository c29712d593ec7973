// libFuzzer target: the result files `brec report` reads (CSV tables, eval/wl summaries, per-pair
// JSONL records of several shards). The input is split at NUL bytes into up to four files, read
// one after the other by one reader and merged, once per RPC protocol (the second time with one
// task per fine category). Property: what merges is consistent (every record's task and model are
// listed, every per-pair run has ascending unique ids).
#include <algorithm>
#include <vector>

#include "brec/report/results.hpp"
#include "fuzz_common.hpp"

namespace {

void read(const std::vector<std::string>& files, brec::Protocol protocol, bool fine) {
    brec::ResultReadOptions opt;
    opt.protocol = protocol;
    opt.fine = fine;
    brec::ResultReader reader(opt);
    for (std::size_t i = 0; i < files.size(); ++i) reader.add_text(files[i], "fuzz" + std::to_string(i) + ".jsonl");
    const brec::ResultSet rs = reader.finish();
    const auto listed = [](const std::vector<std::string>& v, const std::string& s) {
        return std::find(v.begin(), v.end(), s) != v.end();
    };
    for (const auto& r : rs.records) {
        brec::fuzz::check(listed(rs.tasks, r.task), "every record's task is listed");
        brec::fuzz::check(listed(rs.models, r.model), "every record's model is listed");
    }
    for (const auto& run : rs.runs)
        for (std::size_t k = 1; k < run.pairs.size(); ++k)
            brec::fuzz::check(run.pairs[k - 1].id < run.pairs[k].id, "a run's pairs ascend, each once");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::string> files = brec::fuzz::split(brec::fuzz::text(data, size), 4);
    brec::fuzz::run([&] { read(files, brec::Protocol::hotelling, false); });
    brec::fuzz::run([&] { read(files, brec::Protocol::brec_reference, true); });
    return 0;
}
