#include "brec/rpc/embeddings.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/npy_numeric.hpp"
#include "brec/io/pair_records.hpp"
#include "brec/stats/hotelling.hpp"

namespace brec {
namespace {

using nlohmann::json;

// The largest number of relabelings per graph a manifest may give: its 4q rows per pair are read
// into memory (the exports brec writes use q = 32).
constexpr std::uint64_t kMaxQ = 1u << 20;

std::string join_path(const std::string& dir, const std::string& name) {
    return dir.empty() || dir.back() == '/' ? dir + name : dir + "/" + name;
}

std::string shape_text(const std::vector<std::size_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

/// Rows [first, first + rows) × d of a C-order array as a matrix; ParseError for a non-finite value.
Eigen::MatrixXd matrix_of(const NpyNumbers& a, std::size_t first, std::size_t rows, std::size_t d,
                          const std::string& file, const std::string& what) {
    Eigen::MatrixXd m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(d));
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < d; ++j) {
            const double v = a.values[(first + i) * d + j];
            if (!std::isfinite(v))
                throw ParseError(file, 0,
                                 what + "row " + std::to_string(i) + ", column " + std::to_string(j) + " is " +
                                     (std::isnan(v) ? "NaN" : "infinite") + "; embeddings must be finite");
            m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = v;
        }
    return m;
}

void check_dtype(const NpyNumbers& a, const std::string& file) {
    if (a.descr.size() != 3 || a.descr[1] != 'f')
        throw ParseError(
            file, 0, "dtype '" + a.descr + "': embeddings must be float32 (or float64); save arr.astype(np.float32)");
}

}  // namespace

ExportManifest read_export_manifest(const std::string& path) {
    const json j = json::parse(read_text_file(path), nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw ParseError(path, 0, "not a JSON object (expected the manifest.json of brec export)");
    // An optional string field ("" when absent); another type is an error, not an exception of the
    // JSON library.
    const auto text = [&](const char* key) -> std::string {
        if (!j.contains(key)) return "";
        if (!j[key].is_string()) throw ParseError(path, 0, std::string("\"") + key + "\" is not a string");
        return j[key].get<std::string>();
    };
    if (text("format") != "brec-export")
        throw ParseError(path, 0, "not a brec export manifest (\"format\" is not \"brec-export\")");
    if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<std::int64_t>() != 1)
        throw ParseError(path, 0, "unsupported manifest version (this brec reads version 1)");
    const auto need = [&](const json& o, const char* key, bool integer, const std::string& where) -> const json& {
        if (!o.contains(key) || (integer ? !o[key].is_number_integer() : !o[key].is_string()))
            throw ParseError(path, 0, where + "has no " + (integer ? "integer" : "string") + " \"" + key + "\"");
        return o[key];
    };
    // A non-negative integer field no larger than `max` (a negative one would wrap around).
    const auto count = [&](const json& o, const char* key, std::uint64_t max, const std::string& where) {
        const json& v = need(o, key, true, where);
        const bool bad = v.is_number_unsigned()
                             ? v.get<std::uint64_t>() > max
                             : v.get<std::int64_t>() < 0 || static_cast<std::uint64_t>(v.get<std::int64_t>()) > max;
        if (bad)
            throw ParseError(
                path, 0,
                where + "\"" + key + "\" must be an integer from 0 to " + std::to_string(max) + ", found " + v.dump());
        return v.get<std::uint64_t>();
    };
    ExportManifest m;
    m.source = path;
    m.dataset = text("dataset");
    m.seed = count(j, "seed", std::numeric_limits<std::uint64_t>::max(), "");
    m.q = static_cast<int>(count(j, "q", kMaxQ, ""));
    if (m.q < 2) throw ParseError(path, 0, "\"q\" must be at least 2");
    if (!j.contains("pairs") || !j["pairs"].is_array() || j["pairs"].empty())
        throw ParseError(path, 0, "has no non-empty \"pairs\" array");
    std::set<PairId> ids;
    for (std::size_t k = 0; k < j["pairs"].size(); ++k) {
        const json& p = j["pairs"][k];
        const std::string where = "pairs[" + std::to_string(k) + "] ";
        if (!p.is_object()) throw ParseError(path, 0, where + "is not an object");
        ManifestPair e;
        e.id = static_cast<PairId>(count(p, "id", std::numeric_limits<PairId>::max(), where));
        e.category = need(p, "category", false, where).get<std::string>();
        e.n = static_cast<VertexId>(count(p, "n", std::numeric_limits<VertexId>::max(), where));
        e.embeddings = need(p, "embeddings", false, where).get<std::string>();
        if (e.embeddings.empty() || e.embeddings.find('/') != std::string::npos)
            throw ParseError(path, 0, where + "\"embeddings\" must be a file name without '/'");
        if (!ids.insert(e.id).second) throw ParseError(path, 0, where + "repeats pair id " + std::to_string(e.id));
        m.pairs.push_back(std::move(e));
    }
    return m;
}

std::vector<Eigen::MatrixXd> read_pair_embeddings(const std::string& dir, const ExportManifest& manifest) {
    const std::size_t rows = 4 * static_cast<std::size_t>(manifest.q);
    const std::string single = join_path(dir, "embeddings.npy");
    bool any_pair_file = false;
    for (const auto& p : manifest.pairs) any_pair_file = any_pair_file || file_exists(join_path(dir, p.embeddings));
    std::vector<Eigen::MatrixXd> out;
    std::size_t d = 0;
    std::string d_file;
    const auto check_d = [&](std::size_t got, const std::string& file) {
        if (got == 0) throw ParseError(file, 0, "embeddings have dimension d = 0");
        if (got >= static_cast<std::size_t>(manifest.q))
            throw ParseError(
                file, 0,
                "d = " + std::to_string(got) + " embedding dimensions need more than d relabelings per graph (q = " +
                    std::to_string(manifest.q) + "): T² needs q > d; embed in fewer dimensions or export a larger q");
        if (d != 0 && got != d)
            throw ParseError(file, 0,
                             "d = " + std::to_string(got) + " but " + d_file + " has d = " + std::to_string(d) +
                                 ": every pair needs the same embedding dimension");
        d = got;
        d_file = file;
    };
    if (file_exists(single)) {
        if (any_pair_file)
            throw InvalidArgument(dir + " holds both embeddings.npy and per-pair files; keep one of them");
        const NpyNumbers a = read_npy_numbers(single);
        check_dtype(a, single);
        const std::size_t pairs = manifest.pairs.size();
        if (a.shape.size() != 3 || a.shape[0] != pairs || a.shape[1] != rows)
            throw ParseError(single, 0,
                             "shape " + shape_text(a.shape) + ": expected [pairs = " + std::to_string(pairs) +
                                 ", 4q = " + std::to_string(rows) +
                                 ", d] (pairs in manifest order: traintest rows then reliability rows)");
        check_d(a.shape[2], single);
        for (std::size_t k = 0; k < pairs; ++k)
            out.push_back(
                matrix_of(a, k * rows, rows, d, single,
                          "pair " + std::to_string(manifest.pairs[k].id) + " (index " + std::to_string(k) + "): "));
        return out;
    }
    for (const auto& p : manifest.pairs) {
        const std::string file = join_path(dir, p.embeddings);
        if (!file_exists(file))
            throw ParseError(file, 0,
                             "missing: pair " + std::to_string(p.id) + " of " + manifest.source +
                                 " has no embeddings (expected float32 [" + std::to_string(rows) +
                                 ", d], or one embeddings.npy for all pairs)");
        const NpyNumbers a = read_npy_numbers(file);
        check_dtype(a, file);
        if (a.shape.size() != 2 || a.shape[0] != rows)
            throw ParseError(file, 0,
                             "shape " + shape_text(a.shape) + ": expected [4q = " + std::to_string(rows) +
                                 ", d] (2q traintest rows, then 2q reliability rows, as in the pair's graph6 file)");
        check_d(a.shape[1], file);
        out.push_back(matrix_of(a, 0, rows, d, file, ""));
    }
    return out;
}

EvalRunResult judge_embeddings(const std::vector<EmbeddingSource>& sources, const EmbeddingJudgeOptions& opt,
                               const RunContext& ctx) {
    if (sources.empty()) throw InvalidArgument("no embeddings to judge");
    if (opt.model.empty()) throw InvalidArgument("the model name of the records is empty");
    const auto t0 = std::chrono::steady_clock::now();
    std::set<std::uint64_t> seeds;
    EvalRunResult result;
    for (const auto& src : sources) {
        const auto start = std::chrono::steady_clock::now();
        const ExportManifest m =
            read_export_manifest(src.manifest.empty() ? join_path(src.dir, "manifest.json") : src.manifest);
        if (!seeds.insert(m.seed).second)
            throw InvalidArgument(m.source + ": seed " + std::to_string(m.seed) +
                                  " is given twice; each embeddings directory must come from another seed");
        const std::vector<Eigen::MatrixXd> emb = read_pair_embeddings(src.dir, m);
        const Eigen::Index q2 = 2 * m.q, d = emb.front().cols();
        RpcSettings rs;
        rs.alpha = opt.alpha;
        rs.relative_noise = opt.relative_noise;
        RunDescription run;
        run.command = "rpc";
        run.model = opt.model;
        run.dataset = m.dataset;
        run.protocol = opt.protocol;
        run.settings = {
            {"model", opt.model}, {"source", "embeddings"},           {"q", m.q}, {"d", d}, {"alpha", opt.alpha},
            {"method", "rpc"},    {"noise_floor", opt.relative_noise}};
        run.settings_id = settings_hash(run.settings);
        run.runtime = {{"embeddings", src.dir}, {"manifest", m.source}};
        SeedRun seed_run;
        seed_run.seed = m.seed;
        for (std::size_t k = 0; k < m.pairs.size(); ++k) {
            if (ctx.cancelled()) throw Cancelled("rpc cancelled");
            const auto pair_start = std::chrono::steady_clock::now();
            const RpcProtocols decision = rpc_from_embeddings(emb[k].topRows(q2), emb[k].bottomRows(q2), rs);
            EvalRecord r;
            r.model = opt.model;
            r.seed = m.seed;
            r.id = m.pairs[k].id;
            r.category = m.pairs[k].category;
            r.n = m.pairs[k].n;
            const auto to_result = [](const RpcDecision& x) {
                return ProtocolResult{x.t2_test, x.t2_reliability, x.threshold, x.distinguished, x.reliable};
            };
            r.hotelling = to_result(decision.hotelling);
            r.brec_reference = to_result(decision.brec_reference);
            r.settings_id = run.settings_id;
            r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - pair_start).count();
            seed_run.records.push_back(std::move(r));
            ctx.progress("rpc seed " + std::to_string(m.seed), k + 1, m.pairs.size());
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        seed_run.summary = seed_summary(seed_run.records, run, m.seed, seconds);
        result.runs.push_back(std::move(seed_run));
    }
    // The records, after every pair was judged (a judgement takes microseconds): with resume, the
    // records of the file must be of this model and the settings of their seed's source.
    std::map<std::uint64_t, std::string> settings;  // seed -> settings id
    for (const auto& run : result.runs)
        if (!run.records.empty()) settings[run.seed] = run.records.front().settings_id;
    const ResultsSettings same{[&](const nlohmann::json& j, std::int64_t line) {
                                   if (!is_eval_record(j)) return std::string("not an rpc record");
                                   const EvalRecord r = eval_record_from_json(j, opt.out, line);
                                   return eval_settings_text(r.model, r.settings_id);
                               },
                               [&](const nlohmann::json& j) {
                                   const auto seed = j.value("seed", std::uint64_t{0});
                                   const auto it = settings.count(seed) ? settings.find(seed) : settings.begin();
                                   return eval_settings_text(opt.model, it == settings.end() ? "" : it->second);
                               }};
    PairRecords records(opt.out, opt.resume, same);
    for (const auto& run : result.runs)
        for (const auto& r : run.records)
            if (!records.contains(r.seed, r.id)) records.add(r.seed, r.id, to_json(r));
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    summarise_seeds(result, opt.protocol);
    return result;
}

}  // namespace brec
