// libFuzzer target: what `brec rpc` reads, an export's manifest.json, the embeddings a model wrote
// and a --baseline summary. The input is the manifest text, a NUL byte, the bytes of one .npy file,
// and optionally a NUL byte and the baseline JSON. The .npy is
// parsed on its own (property: a float32 array survives the writer), then both are written to a
// scratch directory and read as `brec rpc` reads them: the .npy is the one pair's file when the
// manifest names a single pair, else embeddings.npy for all pairs. Property: the manifest's numbers
// are read as written, the matrices have the manifest's shape.
#include <cmath>
#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/io/npy_numeric.hpp"
#include "brec/rpc/embeddings.hpp"
#include "brec/rpc/run_summary.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::string> parts = brec::fuzz::split(brec::fuzz::text(data, size), 3);
    const std::string manifest_text = parts[0];
    const std::string npy = parts.size() > 1 ? parts[1] : std::string();
    if (parts.size() > 2) {
        // A --baseline summary, compared with a summary of both protocols' counts.
        const nlohmann::json baseline = nlohmann::json::parse(parts[2], nullptr, false);
        const nlohmann::json counts = {{"pairs", 2}, {"distinguished", 1}, {"reliability_failures", 0}};
        const nlohmann::json cats = {{"basic", counts}, {"cfi", counts}};
        const nlohmann::json now = {
            {"categories", cats},
            {"protocols", {{"hotelling", {{"categories", cats}}}, {"brec_reference", {{"categories", cats}}}}}};
        for (brec::Protocol p : {brec::Protocol::hotelling, brec::Protocol::brec_reference})
            brec::fuzz::run([&] {
                const auto worse = brec::baseline_regressions(baseline, now, "baseline.json", p);
                brec::fuzz::check(worse.size() <= 4, "at most two regressions per category");
            });
    }
    brec::fuzz::run([&] {
        const brec::NpyNumbers a = brec::parse_npy_numbers(npy, "fuzz.npy");
        std::size_t count = 1;
        for (std::size_t s : a.shape) count *= s;
        brec::fuzz::check(a.values.size() == count, "one value per element");
        if (a.descr != "<f4" && a.descr != ">f4") return;
        std::vector<float> f;
        for (double v : a.values) {
            if (!std::isfinite(v)) return;
            f.push_back(static_cast<float>(v));
        }
        const brec::NpyNumbers back = brec::parse_npy_numbers(brec::format_npy_float32(f, a.shape), "again.npy");
        brec::fuzz::check(back.shape == a.shape && back.values == a.values, "float32 writer round trip");
    });
    const std::string& dir = brec::fuzz::scratch_dir();
    const std::string manifest = dir + "/manifest.json";
    brec::fuzz::write_file(manifest, manifest_text);
    brec::fuzz::run([&] {
        const brec::ExportManifest m = brec::read_export_manifest(manifest);
        // The numbers read are the numbers written (none wrapped around or cut).
        const nlohmann::json j = nlohmann::json::parse(manifest_text);
        brec::fuzz::check(j["seed"].dump() == std::to_string(m.seed) && j["q"].dump() == std::to_string(m.q),
                          "manifest seed and q as written");
        for (std::size_t k = 0; k < m.pairs.size(); ++k)
            brec::fuzz::check(j["pairs"][k]["id"].dump() == std::to_string(m.pairs[k].id) &&
                                  j["pairs"][k]["n"].dump() == std::to_string(m.pairs[k].n),
                              "manifest pair id and n as written");
        const std::string npy_path = dir + "/" + (m.pairs.size() == 1 ? m.pairs[0].embeddings : "embeddings.npy");
        brec::fuzz::write_file(npy_path, npy);
        brec::fuzz::run([&] {
            const auto emb = brec::read_pair_embeddings(dir, m);
            brec::fuzz::check(emb.size() == m.pairs.size(), "one matrix per manifest pair");
            for (const auto& e : emb)
                brec::fuzz::check(e.rows() == 4 * m.q && e.cols() == emb[0].cols() && e.cols() < m.q,
                                  "every matrix is 4q x d with d < q");
        });
        std::remove(npy_path.c_str());
    });
    return 0;
}
