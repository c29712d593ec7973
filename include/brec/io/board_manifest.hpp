#pragma once
// The provenance manifest of a board directory (`brec board run`): which data, which pairs, which
// seeds and settings, which rule left tasks out, and which machines ran it when. A board built
// over several sessions adds one segment per run. `brec report` checks a board's records against
// it and refuses what does not match.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/io/pairs.hpp"

namespace brec {

/// One run of `brec board run` on one machine.
struct BoardSegment {
    std::string started, ended;  ///< UTC, ISO 8601; `ended` empty while the run goes on
    std::string brec_version, git_commit;
    std::string host, cpu, device, gpu;  ///< gpu: the CUDA device's name, "" on the CPU
    int cores = 0, jobs = 0;
    std::size_t tasks = 0;  ///< records the run added
    double wall_seconds = 0.0, cpu_seconds = 0.0;
};

/// One model of a board.
struct BoardModel {
    std::string name;
    std::string settings_id;  ///< of every record in `file`
    nlohmann::json settings;  ///< what the id hashes
    std::string file;         ///< the records, a file of the directory ("gin.jsonl")
    IdRanges pairs;           ///< the pair ids of the board for this model ("0-319,380-399" in the file)
    /// Per seed, the pair ids the inclusion rule leaves out (empty or absent: none).
    std::map<std::uint64_t, IdRanges> not_run;
    std::size_t records = 0;                 ///< records in `file` when the manifest was written
    double estimated_seconds = 0.0;          ///< estimated cost of the tasks run or to run, one core
    double not_run_estimated_seconds = 0.0;  ///< and of those left out
};

struct BoardManifest {
    std::string dataset;         ///< the pair file as given
    std::string dataset_sha256;  ///< of its bytes
    std::size_t dataset_pairs = 0;
    std::string subset;  ///< "paper" (each model's paper subset) or "all"
    std::vector<std::uint64_t> seeds;
    /// The inclusion rule: tasks estimated above this many core-seconds are not run; 0 = none.
    double max_cost_seconds = 0.0;
    std::vector<BoardModel> models;
    std::vector<BoardSegment> segments;

    /// The model's entry, or nullptr.
    const BoardModel* find(const std::string& name) const;
    BoardModel* find(const std::string& name);
};

nlohmann::json to_json(const BoardManifest& m);
/// Throws ParseError naming `source` and the field that is missing or of the wrong type.
BoardManifest board_manifest_from_json(const nlohmann::json& j, const std::string& source);

/// The manifest's file in a board directory.
std::string board_manifest_path(const std::string& dir);
/// Reads DIR/manifest.json. Throws IoError when it cannot be read, ParseError when it is not a
/// manifest.
BoardManifest read_board_manifest(const std::string& dir);
/// Writes DIR/manifest.json whole or not at all (a temporary file renamed over it).
void write_board_manifest(const std::string& dir, const BoardManifest& m);

}  // namespace brec
