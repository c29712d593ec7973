#pragma once
// `brec rpc`: judges embeddings that a model trained outside brec wrote for the graphs of an export
// (rpc/export.hpp), under both RPC protocols, into the same records and summaries as `brec eval`.

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "brec/core/run_context.hpp"
#include "brec/io/records.hpp"
#include "brec/rpc/run_summary.hpp"

namespace brec {

/// One pair of an export's manifest.
struct ManifestPair {
    PairId id = 0;
    std::string category;
    VertexId n = 0;
    std::string embeddings;  ///< file name of the pair's embeddings, relative to the directory
};

/// The manifest.json of an export.
struct ExportManifest {
    std::string source;  ///< the file read
    std::string dataset;
    std::uint64_t seed = 0;
    int q = 0;
    std::vector<ManifestPair> pairs;
};

/// Reads an export's manifest. Throws IoError or ParseError naming the file and the field.
ExportManifest read_export_manifest(const std::string& path);

/// Where one seed's embeddings are.
struct EmbeddingSource {
    std::string dir;       ///< per-pair pair_ID.npy files, or one embeddings.npy
    std::string manifest;  ///< "" = dir/manifest.json
};

struct EmbeddingJudgeOptions {
    std::string model = "embeddings";  ///< the records' model name
    double alpha = 0.05;
    double relative_noise = 1e-5;             ///< Hotelling protocol's noise floor (RpcSettings::relative_noise)
    Protocol protocol = Protocol::hotelling;  ///< the headline protocol of the summaries
    /// Results file of the records ("" = none), a results store (io/results_store.hpp): written
    /// once every pair is judged; with `resume`, records already there (of the same settings) are
    /// kept and only the missing ones appended.
    std::string out;
    bool resume = false;
};

/// The embeddings of one source as 4q × d matrices per manifest pair (rows in manifest order).
/// Throws ParseError naming the file and the problem: a missing pair file, a dtype other than
/// float32/float64, a shape other than [4q, d] (or [pairs, 4q, d]), a d that differs between pairs
/// or is not below q (T² needs q > d), a NaN or infinite entry (with its row); InvalidArgument when
/// a directory holds both per-pair files and embeddings.npy.
std::vector<Eigen::MatrixXd> read_pair_embeddings(const std::string& dir, const ExportManifest& manifest);

/// Judges every pair of every source (one source per seed; seeds must differ): T² of the traintest
/// rows (2i, 2i + 1) and of the reliability rows under both protocols, one EvalRecord per pair
/// (model opt.model, the manifest's seed, no training fields), one summary per seed as `brec
/// eval` writes it (command "rpc") and the multi-seed protocol over the sources.
/// Throws as read_export_manifest and read_pair_embeddings, and InvalidArgument for no source or a
/// repeated seed. Complexity O(pairs · (q d² + d³)) plus reading the files.
EvalRunResult judge_embeddings(const std::vector<EmbeddingSource>& sources, const EmbeddingJudgeOptions& opt,
                               const RunContext& ctx);

}  // namespace brec
