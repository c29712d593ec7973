// Reading a board directory of `brec board run` for the report: every record checked against the
// board's provenance manifest before it is counted.
#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "brec/core/error.hpp"
#include "brec/io/board_manifest.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
#include "brec/io/records.hpp"
#include "brec/report/results.hpp"
#include "detail/jsonl.hpp"

namespace brec {

namespace {

/// What the manifest says of one model's records, ready to check each record against.
struct ModelRule {
    const BoardModel& model;
    std::set<std::uint64_t> seeds;

    ModelRule(const BoardModel& m, const BoardManifest& manifest) : model(m) {
        seeds.insert(manifest.seeds.begin(), manifest.seeds.end());
    }

    /// The problem of a record, "" when the manifest describes it.
    std::string problem(const EvalRecord& r) const {
        const std::string which = "pair " + std::to_string(r.id) + " seed " + std::to_string(r.seed);
        if (r.model != model.name) return "a record of model " + r.model + " in the file of " + model.name;
        if (r.settings_id != model.settings_id)
            return which + " has settings " + r.settings_id + " but the manifest says " + model.name + " ran with " +
                   model.settings_id;
        if (!seeds.count(r.seed)) return which + ": the manifest has no seed " + std::to_string(r.seed);
        if (!model.pairs.contains(r.id))
            return which + ": pair " + std::to_string(r.id) + " is not in the board's pairs";
        const auto it = model.not_run.find(r.seed);
        if (it != model.not_run.end() && it->second.contains(r.id)) return which + ": the manifest says it was not run";
        return "";
    }
};

}  // namespace

void ResultReader::add_board(const std::string& dir) {
    namespace fs = std::filesystem;
    const std::string manifest_file = board_manifest_path(dir);
    if (!fs::exists(manifest_file))
        throw IoError(dir + " is a directory without a board manifest (manifest.json): give its result files");
    const BoardManifest manifest = read_board_manifest(dir);
    const auto [first, fresh] = board_datasets_.emplace(manifest.dataset_sha256, dir);
    if (fresh && board_datasets_.size() > 1 && !options_.mixed_datasets) {
        const auto other = std::find_if(board_datasets_.begin(), board_datasets_.end(),
                                        [&](const auto& b) { return b.first != manifest.dataset_sha256; });
        throw ParseError(manifest_file, 0,
                         "a board of dataset " + manifest.dataset + " (SHA-256 " +
                             manifest.dataset_sha256.substr(0, 12) + "...), but " + other->second +
                             " is of another (SHA-256 " + other->first.substr(0, 12) +
                             "...): counts of different pairs (--mixed-datasets merges them)");
    }
    std::set<std::string> named = {"costs.jsonl", "certify.jsonl"};
    for (const BoardModel& m : manifest.models) {
        named.insert(m.file);
        const ModelRule rule(m, manifest);
        const std::string path = dir + "/" + m.file;
        std::size_t records = 0;
        if (fs::exists(path)) {
            inputs_.push_back(path);
            detail::for_each_json_line(
                read_text_file(path), path, notes_, [&](const nlohmann::json& j, std::int64_t line) {
                    if (!is_eval_record(j)) throw ParseError(path, line, "not a brec eval record");
                    const std::string problem = rule.problem(eval_record_from_json(j, path, line));
                    if (!problem.empty()) throw ParseError(path, line, problem + " (" + manifest_file + ")");
                    ++records;
                    add_json_object(j, path, line);
                });
        }
        if (records != m.records)
            throw ParseError(manifest_file, 0,
                             "says " + m.file + " holds " + std::to_string(m.records) + " records, but it holds " +
                                 std::to_string(records) + " (an interrupted run? brec board run --resume updates it)");
    }
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() == ".jsonl" && !named.count(name))
            throw ParseError(dir + "/" + name, 0, "a results file that the board's manifest does not name");
    }
    boards_.emplace_back(dir, manifest);
}

}  // namespace brec
