#pragma once
// `brec generate` as one library call: validate the options, prepare the output directory, generate
// and verify the dataset, write DIR/pairs.tsv and DIR/meta.json all or nothing, and describe the
// result (a table for people, a JSON object for programs).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "brec/core/run_context.hpp"
#include "brec/gen/generate.hpp"
#include "brec/io/pairs.hpp"

namespace brec {

/// What generate_to_directory did.
struct GenerateRun {
    GeneratedDataset dataset;
    std::string directory;  ///< where pairs.tsv and meta.json were written
    double seconds = 0.0;   ///< wall-clock time of generation and verification
};

/// The records of the pair file of a generated dataset: ids 0..n-1 in dataset order.
std::vector<GraphPairRecord> pair_records(const GeneratedDataset& dataset);

/// Writes DIR/pairs.tsv and DIR/meta.json of a dataset (DatasetDirWriter: DIR is created if
/// missing; a failure leaves neither file, nor a directory this call created). Throws IoError.
void write_generated_dataset(const GeneratedDataset& dataset, const std::string& dir);

/// Generates the dataset (generate_dataset) and writes it to `dir`. The options are validated and
/// the directory prepared (created if missing, checked writable) before any generation, so bad
/// arguments fail at once; on any later failure, cancellation included, nothing is left behind:
/// neither file, nor a directory this call created. Throws what resolve_composition,
/// generate_dataset and DatasetDirWriter throw.
GenerateRun generate_to_directory(const GenerateOptions& opt, const std::string& dir, RunContext& ctx);

/// The summary for people: a table of the categories (pairs, vertex range, seconds), the families
/// of each category, and a last line saying how many pairs were written where.
std::string format_generate_summary(const GenerateRun& run);
/// The same as one JSON object: {"command": "generate", "out": DIR, "seed", "pairs", "seconds",
/// "categories": {name: {"pairs", "nodes", "kinds", "seconds"}}}.
nlohmann::json generate_summary_json(const GenerateRun& run);

}  // namespace brec
