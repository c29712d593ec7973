#pragma once
// The typed records of the commands that keep results files (`wl`, `certify`, `eval`, `rpc`,
// `attack run`, `attack ood`): one struct per command with its JSON form defined here only.
// Writers, --resume and `brec report` all go through these functions, so a field cannot be spelled
// two ways.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "brec/core/types.hpp"

namespace brec {

/// The two RPC decision protocols every evaluation record carries.
///  * hotelling: Hotelling's T² = q · d̄ᵀ S⁺ d̄ with a float32 noise floor on S's diagonal; the
///    threshold (q−1)d/(q−d) · F_{d,q−d}(1−α) is calibrated for exactly this statistic.
///  * brec_reference: what the released BREC code computes, which produced the published counts:
///    d̄ᵀ S⁺ d̄ without the factor q (a test q times stricter), no noise floor, and equality of
///    T²_test and T²_reliability by torch.isclose (atol 1e-6, rtol 1e-5). That code: GraphPKU/BREC
///    @966b5ed (branch Release), each model's test_BREC*.py (brec/stats/hotelling.hpp).
enum class Protocol { hotelling, brec_reference };

/// "hotelling" or "brec_reference".
const char* protocol_name(Protocol p);
/// Parses a protocol name. Throws InvalidArgument naming the two protocols.
Protocol parse_protocol(const std::string& name);
/// Both protocols, headline default first.
const std::vector<Protocol>& all_protocols();

/// One protocol's decision on one pair.
struct ProtocolResult {
    double t2_test = 0.0;
    double t2_reliability = 0.0;
    double threshold = 0.0;
    bool distinguished = false;  ///< T²_test > threshold and T²_test differs from T²_reliability
    bool reliable = false;       ///< T²_reliability < threshold
    /// A result counts only when the reliability check passed.
    bool counts() const { return distinguished && reliable; }
};

/// A `brec eval` / `brec rpc` record: one pair, one seed, both protocols.
struct EvalRecord {
    std::string model;
    std::uint64_t seed = 0;
    PairId id = 0;
    std::string category;
    VertexId n = 0;
    ProtocolResult hotelling;
    ProtocolResult brec_reference;
    /// False for records written before both protocols were recorded (one decision at top level,
    /// read as `hotelling`); their brec_reference result is unknown.
    bool has_reference = true;
    int epochs = 0;
    double final_loss = 0.0;
    std::vector<double> losses;
    double seconds = 0.0;        ///< the whole pair: data, training and the decision
    double train_seconds = 0.0;  ///< training only
    std::string settings_id;     ///< the run's settings (resume never mixes two settings)
    /// The model's theoretical bound as a hardness level key ("1wl", "2fwl", "3fwl"; "" = none
    /// proven): pairs at or below it are within the model's theory.
    std::string bound;
    /// Non-empty when the pair was not run (e.g. it needs more memory than allowed): the reason.
    /// A skipped pair counts as not distinguished and not as a reliability failure.
    std::string skipped;
    /// `brec eval --profile`: the seconds of each phase and the counted FLOPs of the pair (see
    /// EvalOptions::profile); null otherwise (and not written).
    nlohmann::json profile;

    const ProtocolResult& result(Protocol p) const { return p == Protocol::hotelling ? hotelling : brec_reference; }
    ProtocolResult& result(Protocol p) { return p == Protocol::hotelling ? hotelling : brec_reference; }
};

/// A `brec wl` record.
struct WlRecord {
    PairId id = 0;
    std::string category;
    std::string method;
    int rounds_limit = -1;  ///< -1: until stable (or the method's own limit)
    bool distinguished = false;
    int rounds = 0;
    std::size_t colours = 0;
    double seconds = 0.0;
    bool reliability_checked = false;
    bool reliability_failure = false;  ///< the method told G from a relabeling of G
    std::uint64_t reliability_seed = 0;
    std::string unsupported;  ///< non-empty: the method cannot run on this pair (why)
};

/// One level of a `brec certify` record.
struct CertifyStep {
    bool distinguished = false;
    int rounds = 0;
    double seconds = 0.0;
};

/// One extra test of a `brec certify --tests` record.
struct CertifyTest {
    std::string method;  ///< the WL method's canonical name, e.g. "gswl:6"
    bool distinguished = false;
    int rounds = 0;
    double seconds = 0.0;
    std::string unsupported;  ///< non-empty: the test cannot run on this pair (why); not distinguished
};

/// A `brec certify` record: the smallest of 1-WL, 2-FWL, 3-FWL that separates the pair, and (with
/// --tests) the verdict of every extra test.
struct CertifyRecord {
    PairId id = 0;
    std::string category;
    std::string level;     ///< "1wl", "2fwl", "3fwl" or "beyond"
    std::string hardness;  ///< human form: "1-WL", "3-WL (2-FWL)", "4-WL (3-FWL)", "beyond 4-WL"
    int max_fwl = 3;
    VertexId n = 0;
    std::vector<CertifyStep> steps;
    double seconds = 0.0;
    std::vector<CertifyTest> tests;  ///< in the order asked; empty without --tests (no "tests" key)

    /// The extra test named `method`, or nullptr.
    const CertifyTest* test(const std::string& method) const;
};

/// The settings an eval or rpc record shares with every record of its run (and of a run that
/// resumes it), as text: the model and the settings id.
std::string eval_settings_text(const std::string& model, const std::string& settings_id);

/// One budget stage of an `attack run` record.
struct AttackStageRecord {
    int budget = 0;  ///< cumulative flips allowed
    std::vector<std::pair<VertexId, VertexId>> flips;
    std::int64_t count = 0;  ///< exact count of the attacked graph
    double prediction = 0.0;
    double loss = 0.0;
    bool success = false;
    /// Whether the adversarial graph also fools the other seeds' models (only for a success with
    /// several seeds): all of them, any, the first; and which seeds it fools.
    bool has_transfer = false;
    bool transfer_all = false, transfer_any = false, transfer_first = false;
    std::vector<std::uint64_t> fooled;
};

/// An `attack run` record: one test graph attacked with one seed's model.
struct AttackRecord {
    std::string settings;  ///< the run's settings id (resume never mixes two settings)
    std::string model, pattern, space;
    std::uint64_t seed = 0;
    std::uint64_t graph = 0;  ///< index in the counting dataset
    std::int64_t count = 0;   ///< of the clean graph
    double prediction = 0.0;
    double loss = 0.0;
    std::vector<AttackStageRecord> stages;
};

/// An `attack ood` row: one (model, pattern, seed, setting) measured.
struct OodRecord {
    std::string model, pattern;
    std::uint64_t seed = 0;
    std::string setting;  ///< in_dist, ood, ood_scratch or ood_head
    std::string trained_on, tested_on;
    double l1 = 0.0, lc = 0.0, mean_count = 0.0;
    std::uint64_t graphs = 0;
    int epochs_run = 0, best_epoch = 0;
    double train_seconds = 0.0;
    std::string model_file;
    /// The run's datasets and training settings (resume never mixes two); empty in rows written
    /// before rows recorded them (then the "settings" key is absent).
    std::string settings;
};

nlohmann::json to_json(const EvalRecord& r);
nlohmann::json to_json(const WlRecord& r);
nlohmann::json to_json(const CertifyRecord& r);
nlohmann::json to_json(const AttackRecord& r);
/// In the order the fields are listed above (rows are read by people too).
nlohmann::ordered_json to_json(const OodRecord& r);

/// Parses a record; `source` and `line` name the place in errors. Throws ParseError naming the
/// missing or mistyped field. eval records written before both protocols were recorded (decision
/// fields at top level) are accepted with has_reference = false.
EvalRecord eval_record_from_json(const nlohmann::json& j, const std::string& source, std::int64_t line);
WlRecord wl_record_from_json(const nlohmann::json& j, const std::string& source, std::int64_t line);
CertifyRecord certify_record_from_json(const nlohmann::json& j, const std::string& source, std::int64_t line);
AttackRecord attack_record_from_json(const nlohmann::json& j, const std::string& source, std::int64_t line);
OodRecord ood_record_from_json(const nlohmann::json& j, const std::string& source, std::int64_t line);

/// Whether a JSON object is an eval record (has "model" and either "protocols" or the legacy
/// top-level "t2_test"), a certify record ("level") or a wl record ("method" and "distinguished").
bool is_eval_record(const nlohmann::json& j);
bool is_certify_record(const nlohmann::json& j);
bool is_wl_record(const nlohmann::json& j);

}  // namespace brec
