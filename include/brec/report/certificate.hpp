#pragma once
// Realized against theoretical expressiveness: a model's distinguished pairs set against the
// hardness certificate of every pair (the smallest of 1-WL, 3-WL = 2-FWL, 4-WL = 3-FWL that
// separates it, from `brec certify`). Where a model's records name its theoretical bound, the
// view lists the pairs within the bound that the model failed (the gap between what the
// architecture could do and what training achieved, as measured in the BREC study) and the pairs
// beyond the bound that it distinguished, which theory rules out.
//
// @article{wang2023towards, title={Towards Better Evaluation of GNN Expressiveness with BREC
//   Dataset}, author={Wang, Yanbo and Zhang, Muhan}, journal={arXiv preprint arXiv:2304.07702},
//   year={2023}}

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "brec/core/types.hpp"
#include "brec/io/records.hpp"
#include "brec/report/results.hpp"

namespace brec {

/// The hardness levels in increasing order: "1wl", "2fwl", "3fwl", "beyond".
const std::vector<std::string>& hardness_levels();

/// The reading of a level key: "1-WL", "3-WL (2-FWL)", "4-WL (3-FWL)", "beyond 4-WL".
/// Throws InvalidArgument for another key.
std::string hardness_label(const std::string& level);

/// The hardness certificate of a pair set, as read from `brec certify` records.
struct Certificate {
    std::string source;                     ///< the file read
    std::map<PairId, CertifyRecord> pairs;  ///< by pair id
    std::map<PairId, SourceLine> where;     ///< the line of each pair's record
    std::vector<std::string> notes;         ///< e.g. a torn last line skipped
};

/// Reads `brec certify` JSON lines (from --out, or the --json output with its summary line, which
/// is skipped). A pair certified twice with the same level is kept once; with different levels it
/// is an error naming both lines. Throws ParseError naming the file and line of a bad record, and
/// for a file without records.
Certificate parse_certificate(const std::string& text, const std::string& source);

/// parse_certificate of a file (throws IoError if it cannot be read).
Certificate read_certificate(const std::string& path);

/// A pair named in the lists of the view.
struct CertifiedPair {
    PairId id = 0;
    std::string category;
    std::string level;  ///< its hardness level key
    std::string note;   ///< "unreliable" (reliability check failed), "skipped" (not run), or ""
};

/// One hardness level of one run: pairs run at that level and how many the model distinguished.
struct LevelCount {
    std::string level;
    int pairs = 0;
    int distinguished = 0;  ///< reliable pairs distinguished
    int reliability_failures = 0;
};

/// A pair named in the tight-bound lists, with the model's RPC evidence on it.
struct TightPair {
    PairId id = 0;
    std::string category;
    std::string note;  ///< "unreliable", "skipped" or ""
    bool rpc = false;  ///< the evidence below exists (an RPC record)
    double t2_hotelling = 0.0, threshold_hotelling = 0.0;
    double t2_reference = 0.0, threshold_reference = 0.0;
    bool reference_known = false;
};

/// One run against its model's tight bound: the test exactly as powerful as the model's design,
/// whose per-pair verdicts `brec certify --tests` recorded (for 1wl, 2fwl and 3fwl the
/// certificate's levels give them when no test does).
struct TightBoundCount {
    std::string method;             ///< the tight bound, e.g. "gswl:6"
    int tested = 0;                 ///< pairs run whose certificate carries the test
    int separated = 0;              ///< of those, the pairs the test separates
    int realized = 0;               ///< of those, the pairs the model also distinguished
    int beyond_count = 0;           ///< pairs the model distinguished that the test does not separate
    int untested = 0;               ///< pairs run whose certificate lacks the test
    std::vector<TightPair> gap;     ///< the test separates them, the model did not
    std::vector<TightPair> beyond;  ///< the model distinguished them, the test does not separate them
};

/// One run (a model with one seed) against the certificate.
struct RunCertificate {
    std::string model;
    std::uint64_t seed = 0;
    std::string bound;               ///< the model's bound ("1wl", "2fwl", "3fwl"), "" if unknown
    std::vector<LevelCount> levels;  ///< one per hardness_levels() entry
    int uncertified = 0;             ///< pairs run that the certificate does not cover
    /// With a bound: pairs at or below it, and how many of them the model distinguished.
    int within_bound = 0;
    int within_bound_distinguished = 0;
    /// With a bound: pairs whose certificate stopped below the bound without separating them, so
    /// that whether they lie within it is unknown (e.g. "beyond 2-FWL" against a 3-FWL bound).
    int undetermined = 0;
    std::vector<CertifiedPair> failed_within_bound;         ///< the realized-vs-theoretical gap
    std::vector<CertifiedPair> distinguished_beyond_bound;  ///< what theory rules out
    bool has_tight = false;                                 ///< the model's tight bound is known (TightBounds)
    TightBoundCount tight;
};

struct CertificateView {
    std::vector<std::string> inputs;  ///< the result files
    std::string certificate;          ///< the certificate file
    Protocol protocol = Protocol::hotelling;
    bool bounds_known = false;         ///< some run's records name its model's bound
    bool tight_known = false;          ///< some run's model has a tight bound
    bool several_seeds = false;        ///< some model has runs with several seeds
    std::vector<RunCertificate> runs;  ///< in the order of the results
    std::vector<std::string> notes;
};

/// Each model's tight bound as a WL method name, by model name ("" = the model has none).
using TightBounds = std::map<std::string, std::string>;

/// The tight bounds of a model list: the JSON array of `brec eval --list-models --json` (objects
/// with "name" and "tight_bound"). Throws ParseError naming `source` for anything else.
TightBounds parse_tight_bounds(const std::string& text, const std::string& source);

/// Sets every run with per-pair records in `results` against `certificate`. A pair counts as
/// distinguished under the protocol the results were read with, and only when reliable. Models
/// without per-pair records are left out with a note. A run whose model has a tight bound in
/// `tight` is also set against that test's verdicts in the certificate (a note names the
/// `brec certify --tests` run that is missing when no record carries it). Throws InvalidArgument
/// when no run has per-pair records. Complexity: O(pairs · log(certified pairs)).
CertificateView certificate_view(const ResultSet& results, const Certificate& certificate,
                                 const TightBounds& tight = {});

/// The view as Markdown: per-level counts, then (with bounds) the failed and the surprising pairs.
std::string certificate_markdown(const CertificateView& v);

/// The view as JSON: {"command":"report", "view":"certificate", "inputs", "certificate",
/// "protocol", "levels", "bounds_known", "runs":[{model, seed, bound, levels:{1wl:{pairs,
/// distinguished, reliability_failures}, ...}, uncertified, within_bound:{pairs, distinguished},
/// undetermined, failed_within_bound:[{id, category, level, note}],
/// distinguished_beyond_bound:[...]}], "notes"}. Without a bound, bound, within_bound and the two
/// lists are null.
nlohmann::json certificate_json(const CertificateView& v);

}  // namespace brec
