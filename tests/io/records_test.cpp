// The per-pair records of the pair commands (eval/rpc, wl, certify): JSON round trips of fully
// populated records, the exact field names a hand-written record must use, optional fields and
// their defaults, legacy eval records (one decision at top level), infinite T² (written as null),
// ParseErrors that name the source, the line and the field for every missing or mistyped field,
// the record classification and the protocol names.
#include "brec/io/records.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "brec/core/error.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using nlohmann::json;

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The ParseError that f() throws; fails the test when it throws none (or another type).
ParseError parse_error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const ParseError& e) {
        return e;
    } catch (const std::exception& e) {
        ADD_FAILURE() << "expected a ParseError, got: " << e.what();
        return ParseError("", 0, "");
    }
    ADD_FAILURE() << "expected a ParseError, none was thrown";
    return ParseError("", 0, "");
}

/// Checks that `message` starts with "results.jsonl:12: " and names `field` in quotes.
void expect_names(const std::string& message, const std::string& field) {
    EXPECT_EQ(message.rfind("results.jsonl:12: ", 0), 0u) << message;
    EXPECT_NE(message.find("\"" + field + "\""), std::string::npos) << "field " << field << ": " << message;
}

// ---------------------------------------------------------------------------------------------
// Protocols.

TEST(Records, ProtocolNamesParseBackAndUnknownNamesListBoth) {
    EXPECT_STREQ(protocol_name(Protocol::hotelling), "hotelling");
    EXPECT_STREQ(protocol_name(Protocol::brec_reference), "brec_reference");
    EXPECT_EQ(parse_protocol("hotelling"), Protocol::hotelling);
    EXPECT_EQ(parse_protocol("brec_reference"), Protocol::brec_reference);
    EXPECT_EQ(all_protocols(), (std::vector<Protocol>{Protocol::hotelling, Protocol::brec_reference}))
        << "the headline default comes first";
    for (const std::string bad : {"", "Hotelling", "brec-reference", "reference", "hotelling "}) {
        EXPECT_THROW(parse_protocol(bad), InvalidArgument) << "'" << bad << "'";
        EXPECT_EQ(testing::error_of([&] { parse_protocol(bad); }),
                  "unknown protocol '" + bad + "' (use hotelling or brec_reference)");
    }
}

TEST(Records, ProtocolResultCountsOnlyWhenDistinguishedAndReliable) {
    ProtocolResult p;
    EXPECT_FALSE(p.counts());
    p.distinguished = true;
    EXPECT_FALSE(p.counts()) << "distinguished but unreliable";
    p.reliable = true;
    EXPECT_TRUE(p.counts());
    p.distinguished = false;
    EXPECT_FALSE(p.counts());
}

// ---------------------------------------------------------------------------------------------
// Eval records.

EvalRecord full_eval_record() {
    EvalRecord r;
    r.model = "ppgn";
    r.seed = std::numeric_limits<std::uint64_t>::max();  // beyond int64: must stay unsigned
    r.id = 287;
    r.category = "cfi";
    r.n = 40;
    r.hotelling = {12.5, 0.25, 3.75, true, true};
    r.brec_reference = {0.125, 0.0625, 7.5, false, true};
    r.has_reference = true;
    r.epochs = 20;
    r.final_loss = 0.03125;
    r.losses = {1.5, 0.75, 0.03125};
    r.seconds = 2.5;
    r.train_seconds = 2.0;
    r.settings_id = "a1b2c3";
    r.bound = "2fwl";
    r.skipped = "needs 9 GiB";
    return r;
}

void expect_same_protocol(const ProtocolResult& a, const ProtocolResult& b, const char* what) {
    EXPECT_EQ(a.t2_test, b.t2_test) << what;
    EXPECT_EQ(a.t2_reliability, b.t2_reliability) << what;
    EXPECT_EQ(a.threshold, b.threshold) << what;
    EXPECT_EQ(a.distinguished, b.distinguished) << what;
    EXPECT_EQ(a.reliable, b.reliable) << what;
}

void expect_same_eval(const EvalRecord& a, const EvalRecord& b) {
    EXPECT_EQ(a.model, b.model);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.category, b.category);
    EXPECT_EQ(a.n, b.n);
    expect_same_protocol(a.hotelling, b.hotelling, "hotelling");
    expect_same_protocol(a.brec_reference, b.brec_reference, "brec_reference");
    EXPECT_EQ(a.has_reference, b.has_reference);
    EXPECT_EQ(a.epochs, b.epochs);
    EXPECT_EQ(a.final_loss, b.final_loss);
    EXPECT_EQ(a.losses, b.losses);
    EXPECT_EQ(a.seconds, b.seconds);
    EXPECT_EQ(a.train_seconds, b.train_seconds);
    EXPECT_EQ(a.settings_id, b.settings_id);
    EXPECT_EQ(a.bound, b.bound);
    EXPECT_EQ(a.skipped, b.skipped);
}

TEST(Records, EvalRecordIsWrittenWithTheDocumentedFieldNames) {
    const json expected = json::parse(R"({
        "model": "ppgn", "seed": 18446744073709551615, "id": 287, "category": "cfi", "n": 40,
        "protocols": {
            "hotelling": {"t2_test": 12.5, "t2_reliability": 0.25, "threshold": 3.75,
                          "distinguished": true, "reliable": true},
            "brec_reference": {"t2_test": 0.125, "t2_reliability": 0.0625, "threshold": 7.5,
                               "distinguished": false, "reliable": true}},
        "epochs": 20, "final_loss": 0.03125, "seconds": 2.5, "train_seconds": 2.0,
        "losses": [1.5, 0.75, 0.03125], "settings_id": "a1b2c3", "bound": "2fwl",
        "skipped": "needs 9 GiB"})");
    EXPECT_EQ(to_json(full_eval_record()), expected) << to_json(full_eval_record()).dump();
}

TEST(Records, EvalRecordRoundTripsThroughItsJsonText) {
    const EvalRecord r = full_eval_record();
    const EvalRecord back = eval_record_from_json(json::parse(to_json(r).dump()), "results.jsonl", 12);
    expect_same_eval(back, r);
    // The field values differ from the defaults, so a reader that skipped one would be caught.
    EXPECT_EQ(back.seed, std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(back.brec_reference.threshold, 7.5);
}

TEST(Records, EvalRecordWithoutOptionalTextLeavesThoseKeysOut) {
    EvalRecord r = full_eval_record();
    r.bound.clear();
    r.skipped.clear();
    r.losses.clear();
    const json j = to_json(r);
    EXPECT_FALSE(j.contains("bound"));
    EXPECT_FALSE(j.contains("skipped"));
    EXPECT_EQ(j["losses"], json::array()) << "losses are always written, maybe empty";
    const EvalRecord back = eval_record_from_json(json::parse(j.dump()), "r", 1);
    EXPECT_EQ(back.bound, "");
    EXPECT_EQ(back.skipped, "");
    EXPECT_TRUE(back.losses.empty());
}

TEST(Records, HandWrittenMinimalEvalRecordGetsTheDefaults) {
    // Only the required fields: model, seed, id, category and the hotelling decision.
    const json j = json::parse(R"({"model": "gin", "seed": 3, "id": 7, "category": "basic",
        "protocols": {"hotelling": {"t2_test": 9.5, "t2_reliability": 1.25, "threshold": 4.5,
                                    "distinguished": true, "reliable": false}}})");
    ASSERT_TRUE(is_eval_record(j));
    const EvalRecord r = eval_record_from_json(j, "hand.jsonl", 1);
    EXPECT_EQ(r.model, "gin");
    EXPECT_EQ(r.seed, 3u);
    EXPECT_EQ(r.id, 7);
    EXPECT_EQ(r.category, "basic");
    EXPECT_EQ(r.n, 0u);
    EXPECT_EQ(r.hotelling.t2_test, 9.5);
    EXPECT_EQ(r.hotelling.t2_reliability, 1.25);
    EXPECT_EQ(r.hotelling.threshold, 4.5);
    EXPECT_TRUE(r.hotelling.distinguished);
    EXPECT_FALSE(r.hotelling.reliable);
    EXPECT_FALSE(r.has_reference) << "no brec_reference object: its result is unknown";
    EXPECT_EQ(r.epochs, 0);
    EXPECT_EQ(r.final_loss, 0.0);
    EXPECT_TRUE(r.losses.empty());
    EXPECT_EQ(r.seconds, 0.0);
    EXPECT_EQ(r.train_seconds, 0.0);
    EXPECT_EQ(r.settings_id, "");
    EXPECT_EQ(r.bound, "");
    EXPECT_EQ(r.skipped, "");
    // Written again, it keeps only the hotelling decision.
    const json again = to_json(r);
    EXPECT_TRUE(again["protocols"].contains("hotelling"));
    EXPECT_FALSE(again["protocols"].contains("brec_reference"));
}

TEST(Records, IntegerValuedNumbersAreAcceptedWhereNumbersAreExpected) {
    // Hand-written files say 4 rather than 4.0.
    const json j = json::parse(R"({"model": "gin", "seed": 0, "id": 0, "category": "basic",
        "protocols": {"hotelling": {"t2_test": 10, "t2_reliability": 0, "threshold": 4,
                                    "distinguished": true, "reliable": true}},
        "seconds": 3, "losses": [2, 1]})");
    const EvalRecord r = eval_record_from_json(j, "hand.jsonl", 1);
    EXPECT_EQ(r.hotelling.t2_test, 10.0);
    EXPECT_EQ(r.hotelling.threshold, 4.0);
    EXPECT_EQ(r.seconds, 3.0);
    EXPECT_EQ(r.losses, (std::vector<double>{2.0, 1.0}));
}

TEST(Records, LegacyEvalRecordWithTopLevelDecisionIsReadAsHotelling) {
    const json j = json::parse(R"({"model": "gin", "seed": 1, "id": 5, "category": "basic",
        "distinguished": true, "reliable": false, "t2_test": 9.5, "t2_reliability": 1.5,
        "threshold": 4.25, "epochs": 8, "seconds": 0.5})");
    ASSERT_TRUE(is_eval_record(j));
    const EvalRecord r = eval_record_from_json(j, "old.jsonl", 3);
    EXPECT_FALSE(r.has_reference);
    EXPECT_TRUE(r.hotelling.distinguished);
    EXPECT_FALSE(r.hotelling.reliable);
    EXPECT_EQ(r.hotelling.t2_test, 9.5);
    EXPECT_EQ(r.hotelling.t2_reliability, 1.5);
    EXPECT_EQ(r.hotelling.threshold, 4.25);
    EXPECT_FALSE(r.brec_reference.distinguished);
    EXPECT_EQ(r.brec_reference.t2_test, 0.0);
    EXPECT_EQ(r.epochs, 8);
    EXPECT_EQ(r.seconds, 0.5);
    // Written back it is a current record with the hotelling decision only.
    const json now = to_json(r);
    EXPECT_FALSE(now.contains("distinguished"));
    EXPECT_EQ(now["protocols"], json::parse(R"({"hotelling": {"t2_test": 9.5, "t2_reliability": 1.5,
        "threshold": 4.25, "distinguished": true, "reliable": false}})"));
}

TEST(Records, LegacyEvalRecordWithoutTheT2ValuesReadsThemAsZero) {
    const json j = json::parse(R"({"model": "gin", "seed": 1, "id": 5, "category": "basic",
        "distinguished": false, "reliable": true})");
    const EvalRecord r = eval_record_from_json(j, "old.jsonl", 3);
    EXPECT_FALSE(r.has_reference);
    EXPECT_FALSE(r.hotelling.distinguished);
    EXPECT_TRUE(r.hotelling.reliable);
    EXPECT_EQ(r.hotelling.t2_test, 0.0);
    EXPECT_EQ(r.hotelling.threshold, 0.0);
    // The decision itself is required.
    json no_decision = j;
    no_decision.erase("reliable");
    expect_names(parse_error_of([&] { eval_record_from_json(no_decision, "results.jsonl", 12); }).what(), "reliable");
}

TEST(Records, InfiniteT2IsWrittenAsNullAndReadBackAsInfinity) {
    EvalRecord r = full_eval_record();
    r.hotelling.t2_test = kInf;
    r.brec_reference.t2_reliability = kInf;
    const std::string text = to_json(r).dump();
    EXPECT_NE(text.find("\"t2_test\":null"), std::string::npos) << text;
    EXPECT_NE(text.find("\"t2_reliability\":null"), std::string::npos) << text;
    const EvalRecord back = eval_record_from_json(json::parse(text), "r", 1);
    EXPECT_TRUE(std::isinf(back.hotelling.t2_test) && back.hotelling.t2_test > 0) << back.hotelling.t2_test;
    EXPECT_TRUE(std::isinf(back.brec_reference.t2_reliability) && back.brec_reference.t2_reliability > 0);
    EXPECT_EQ(back.hotelling.t2_reliability, 0.25) << "the finite values are unchanged";
    EXPECT_EQ(back.brec_reference.t2_test, 0.125);
    // NaN is written as null as well, and comes back as infinity (the comment in records.cpp).
    r.hotelling.threshold = std::numeric_limits<double>::quiet_NaN();
    const EvalRecord nan_back = eval_record_from_json(json::parse(to_json(r).dump()), "r", 1);
    EXPECT_TRUE(std::isinf(nan_back.hotelling.threshold));
    // A hand-written null is read the same way.
    const json legacy = json::parse(R"({"model": "gin", "seed": 1, "id": 5, "category": "basic",
        "distinguished": true, "reliable": true, "t2_test": null})");
    EXPECT_TRUE(std::isinf(eval_record_from_json(legacy, "r", 1).hotelling.t2_test));
}

/// A valid current eval record as JSON, to break one field at a time.
json valid_eval_json() { return json::parse(to_json(full_eval_record()).dump()); }

TEST(Records, EveryMissingRequiredEvalFieldIsAParseErrorNamingIt) {
    for (const char* key : {"model", "seed", "id", "category"}) {
        json j = valid_eval_json();
        j.erase(key);
        const ParseError e = parse_error_of([&] { eval_record_from_json(j, "results.jsonl", 12); });
        EXPECT_EQ(e.source(), "results.jsonl");
        EXPECT_EQ(e.line(), 12);
        EXPECT_EQ(std::string(e.what()), std::string("results.jsonl:12: record without \"") + key + "\"");
    }
    for (const char* protocol : {"hotelling", "brec_reference"}) {
        for (const char* key : {"t2_test", "t2_reliability", "threshold", "distinguished", "reliable"}) {
            json j = valid_eval_json();
            j["protocols"][protocol].erase(key);
            const ParseError e = parse_error_of([&] { eval_record_from_json(j, "results.jsonl", 12); });
            EXPECT_EQ(std::string(e.what()), std::string("results.jsonl:12: record without \"") + key + "\"")
                << protocol;
        }
    }
    json no_hotelling = valid_eval_json();
    no_hotelling["protocols"].erase("hotelling");
    expect_names(parse_error_of([&] { eval_record_from_json(no_hotelling, "results.jsonl", 12); }).what(), "hotelling");
}

TEST(Records, EveryMistypedEvalFieldIsAParseErrorNamingIt) {
    struct Case {
        const char* pointer;  // JSON pointer of the field to replace
        json value;
        const char* field;  // the name the message must give
    };
    const std::vector<Case> cases = {
        {"/model", 5, "model"},
        {"/seed", -1, "seed"},
        {"/seed", 1.5, "seed"},
        {"/seed", "7", "seed"},
        {"/id", "x", "id"},
        {"/id", 1.5, "id"},
        {"/category", 3, "category"},
        {"/n", "40", "n"},
        {"/epochs", 2.5, "epochs"},
        {"/final_loss", "low", "final_loss"},
        {"/seconds", true, "seconds"},
        {"/train_seconds", "2", "train_seconds"},
        {"/losses", "1.5", "losses"},
        {"/losses", json::array({1.0, "x"}), "losses"},
        {"/losses", json::object(), "losses"},
        {"/settings_id", 3, "settings_id"},
        {"/bound", 2, "bound"},
        {"/skipped", false, "skipped"},
        {"/protocols", json::array(), "protocols"},
        {"/protocols", "hotelling", "protocols"},
        {"/protocols/hotelling/t2_test", "big", "t2_test"},
        {"/protocols/hotelling/threshold", json::array(), "threshold"},
        {"/protocols/hotelling/distinguished", 1, "distinguished"},
        {"/protocols/brec_reference/reliable", "yes", "reliable"},
        {"/protocols/brec_reference/t2_reliability", json::object(), "t2_reliability"},
    };
    for (const Case& c : cases) {
        json j = valid_eval_json();
        j[json::json_pointer(c.pointer)] = c.value;
        const ParseError e = parse_error_of([&] { eval_record_from_json(j, "results.jsonl", 12); });
        SCOPED_TRACE(std::string(c.pointer) + " = " + c.value.dump());
        expect_names(e.what(), c.field);
        EXPECT_EQ(e.line(), 12);
    }
}

TEST(Records, ARecordThatIsNotAnObjectIsAParseError) {
    for (const json& j : {json::array({1, 2}), json("model"), json(3), json(nullptr)}) {
        EXPECT_EQ(std::string(parse_error_of([&] { eval_record_from_json(j, "results.jsonl", 12); }).what()),
                  "results.jsonl:12: a record must be a JSON object");
        EXPECT_EQ(std::string(parse_error_of([&] { wl_record_from_json(j, "results.jsonl", 12); }).what()),
                  "results.jsonl:12: a record must be a JSON object");
        EXPECT_EQ(std::string(parse_error_of([&] { certify_record_from_json(j, "results.jsonl", 12); }).what()),
                  "results.jsonl:12: a record must be a JSON object");
    }
}

// A protocol, step or test entry that is not an object names the field that holds it.
TEST(Records, ANestedEntryThatIsNotAnObjectIsNamed) {
    json eval = valid_eval_json();
    eval["protocols"]["hotelling"] = 5;
    expect_names(parse_error_of([&] { eval_record_from_json(eval, "results.jsonl", 12); }).what(), "hotelling");
    const json certify = json::parse(R"({"id": 1, "category": "cfi", "level": "1wl", "steps": [true]})");
    expect_names(parse_error_of([&] { certify_record_from_json(certify, "results.jsonl", 12); }).what(), "steps");
    const json tests = json::parse(R"({"id": 1, "category": "cfi", "level": "1wl", "tests": ["1wl"]})");
    expect_names(parse_error_of([&] { certify_record_from_json(tests, "results.jsonl", 12); }).what(), "tests");
}

TEST(Records, ErrorsNameTheSourceAndLineGiven) {
    json j = valid_eval_json();
    j.erase("model");
    const ParseError e = parse_error_of([&] { eval_record_from_json(j, "runs/seed3.jsonl", 4711); });
    EXPECT_EQ(e.source(), "runs/seed3.jsonl");
    EXPECT_EQ(e.line(), 4711);
    EXPECT_EQ(std::string(e.what()), "runs/seed3.jsonl:4711: record without \"model\"");
    // Line 0 means "unknown line" (a record from memory): the message gives the source only.
    EXPECT_EQ(std::string(parse_error_of([&] { eval_record_from_json(j, "results.jsonl", 0); }).what()),
              "results.jsonl: record without \"model\"");
}

// ---------------------------------------------------------------------------------------------
// WL records.

WlRecord full_wl_record() {
    WlRecord r;
    r.id = 365;
    r.category = "four_vertex_condition";
    r.method = "3fwl";
    r.rounds_limit = 5;
    r.distinguished = true;
    r.rounds = 3;
    r.colours = 123456;
    r.seconds = 0.75;
    r.reliability_checked = true;
    r.reliability_failure = true;
    r.reliability_seed = std::numeric_limits<std::uint64_t>::max() - 1;
    r.unsupported = "n > 64";
    return r;
}

void expect_same_wl(const WlRecord& a, const WlRecord& b) {
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.category, b.category);
    EXPECT_EQ(a.method, b.method);
    EXPECT_EQ(a.rounds_limit, b.rounds_limit);
    EXPECT_EQ(a.distinguished, b.distinguished);
    EXPECT_EQ(a.rounds, b.rounds);
    EXPECT_EQ(a.colours, b.colours);
    EXPECT_EQ(a.seconds, b.seconds);
    EXPECT_EQ(a.reliability_checked, b.reliability_checked);
    EXPECT_EQ(a.reliability_failure, b.reliability_failure);
    EXPECT_EQ(a.reliability_seed, b.reliability_seed);
    EXPECT_EQ(a.unsupported, b.unsupported);
}

TEST(Records, WlRecordIsWrittenWithTheDocumentedFieldNames) {
    const json expected = json::parse(R"({"id": 365, "category": "four_vertex_condition", "method": "3fwl",
        "rounds_limit": 5, "distinguished": true, "rounds": 3, "colours": 123456, "seconds": 0.75,
        "reliability_failure": true, "reliability_seed": 18446744073709551614, "unsupported": "n > 64"})");
    EXPECT_EQ(to_json(full_wl_record()), expected) << to_json(full_wl_record()).dump();
}

TEST(Records, WlRecordRoundTripsThroughItsJsonText) {
    const WlRecord r = full_wl_record();
    expect_same_wl(wl_record_from_json(json::parse(to_json(r).dump()), "wl.jsonl", 2), r);
}

TEST(Records, WlRecordWithoutReliabilityCheckHasNoReliabilityKeys) {
    WlRecord r = full_wl_record();
    r.reliability_checked = false;
    r.reliability_failure = false;
    r.reliability_seed = 0;
    r.unsupported.clear();
    r.rounds_limit = -1;
    const json j = to_json(r);
    EXPECT_FALSE(j.contains("reliability_failure"));
    EXPECT_FALSE(j.contains("reliability_seed"));
    EXPECT_FALSE(j.contains("unsupported"));
    EXPECT_EQ(j["rounds_limit"], -1);
    const WlRecord back = wl_record_from_json(json::parse(j.dump()), "wl.jsonl", 2);
    EXPECT_FALSE(back.reliability_checked);
    expect_same_wl(back, r);
}

TEST(Records, HandWrittenMinimalWlRecordGetsTheDefaults) {
    const json j = json::parse(R"({"id": 12, "category": "basic", "method": "1wl", "distinguished": false})");
    ASSERT_TRUE(is_wl_record(j));
    const WlRecord r = wl_record_from_json(j, "hand.jsonl", 1);
    EXPECT_EQ(r.id, 12);
    EXPECT_EQ(r.category, "basic");
    EXPECT_EQ(r.method, "1wl");
    EXPECT_FALSE(r.distinguished);
    EXPECT_EQ(r.rounds_limit, -1) << "no limit: until stable";
    EXPECT_EQ(r.rounds, 0);
    EXPECT_EQ(r.colours, 0u);
    EXPECT_EQ(r.seconds, 0.0);
    EXPECT_FALSE(r.reliability_checked);
    EXPECT_FALSE(r.reliability_failure);
    EXPECT_EQ(r.unsupported, "");
    // A reliability verdict without its seed is still a checked record, seed 0.
    const json checked = json::parse(R"({"id": 12, "category": "basic", "method": "1wl", "distinguished": true,
        "reliability_failure": false})");
    const WlRecord c = wl_record_from_json(checked, "hand.jsonl", 1);
    EXPECT_TRUE(c.reliability_checked);
    EXPECT_FALSE(c.reliability_failure);
    EXPECT_EQ(c.reliability_seed, 0u);
}

TEST(Records, EveryMissingOrMistypedWlFieldIsAParseErrorNamingIt) {
    const json valid = json::parse(to_json(full_wl_record()).dump());
    for (const char* key : {"id", "category", "method", "distinguished"}) {
        json j = valid;
        j.erase(key);
        EXPECT_EQ(std::string(parse_error_of([&] { wl_record_from_json(j, "results.jsonl", 12); }).what()),
                  std::string("results.jsonl:12: record without \"") + key + "\"");
    }
    const std::vector<std::pair<const char*, json>> cases = {
        {"id", "1"},
        {"id", 1.0},
        {"category", nullptr},
        {"method", json::array()},
        {"rounds_limit", "5"},
        {"distinguished", "true"},
        {"distinguished", 0},
        {"rounds", 2.5},
        {"colours", "many"},
        {"seconds", "fast"},
        {"reliability_failure", 1},
        {"reliability_seed", -3},
        {"reliability_seed", 2.5},
        {"unsupported", true},
    };
    for (const auto& [key, value] : cases) {
        json j = valid;
        j[key] = value;
        SCOPED_TRACE(std::string(key) + " = " + value.dump());
        expect_names(parse_error_of([&] { wl_record_from_json(j, "results.jsonl", 12); }).what(), key);
    }
}

// ---------------------------------------------------------------------------------------------
// Certify records.

CertifyRecord full_certify_record() {
    CertifyRecord r;
    r.id = 270;
    r.category = "cfi";
    r.level = "3fwl";
    r.hardness = "4-WL (3-FWL)";
    r.max_fwl = 3;
    r.n = 22;
    r.steps = {{false, 4, 0.25}, {false, 6, 1.5}, {true, 2, 8.0}};
    r.seconds = 9.75;
    r.tests = {{"gswl:6", true, 3, 0.5, ""}, {"lfwl2", false, 0, 0.0, "disconnected graph"}};
    return r;
}

TEST(Records, CertifyRecordIsWrittenWithTheDocumentedFieldNames) {
    const json expected = json::parse(R"json({"id": 270, "category": "cfi", "level": "3fwl",
        "hardness": "4-WL (3-FWL)", "max_fwl": 3, "n": 22,
        "steps": [{"distinguished": false, "rounds": 4, "seconds": 0.25},
                  {"distinguished": false, "rounds": 6, "seconds": 1.5},
                  {"distinguished": true, "rounds": 2, "seconds": 8.0}],
        "seconds": 9.75,
        "tests": [{"method": "gswl:6", "distinguished": true, "rounds": 3, "seconds": 0.5},
                  {"method": "lfwl2", "distinguished": false, "rounds": 0, "seconds": 0.0,
                   "unsupported": "disconnected graph"}]})json");
    EXPECT_EQ(to_json(full_certify_record()), expected) << to_json(full_certify_record()).dump();
    CertifyRecord no_tests = full_certify_record();
    no_tests.tests.clear();
    EXPECT_FALSE(to_json(no_tests).contains("tests")) << "no \"tests\" key without --tests";
}

TEST(Records, CertifyRecordRoundTripsThroughItsJsonText) {
    const CertifyRecord r = full_certify_record();
    const CertifyRecord b = certify_record_from_json(json::parse(to_json(r).dump()), "cert.jsonl", 9);
    EXPECT_EQ(b.id, 270);
    EXPECT_EQ(b.category, "cfi");
    EXPECT_EQ(b.level, "3fwl");
    EXPECT_EQ(b.hardness, "4-WL (3-FWL)");
    EXPECT_EQ(b.max_fwl, 3);
    EXPECT_EQ(b.n, 22u);
    ASSERT_EQ(b.steps.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_EQ(b.steps[k].distinguished, r.steps[k].distinguished) << k;
        EXPECT_EQ(b.steps[k].rounds, r.steps[k].rounds) << k;
        EXPECT_EQ(b.steps[k].seconds, r.steps[k].seconds) << k;
    }
    EXPECT_EQ(b.seconds, 9.75);
    ASSERT_EQ(b.tests.size(), 2u);
    EXPECT_EQ(b.tests[0].method, "gswl:6");
    EXPECT_TRUE(b.tests[0].distinguished);
    EXPECT_EQ(b.tests[0].rounds, 3);
    EXPECT_EQ(b.tests[0].seconds, 0.5);
    EXPECT_EQ(b.tests[0].unsupported, "");
    EXPECT_EQ(b.tests[1].method, "lfwl2");
    EXPECT_FALSE(b.tests[1].distinguished);
    EXPECT_EQ(b.tests[1].unsupported, "disconnected graph");
}

TEST(Records, CertifyTestLooksUpByMethodName) {
    const CertifyRecord r = full_certify_record();
    ASSERT_NE(r.test("lfwl2"), nullptr);
    EXPECT_EQ(r.test("lfwl2")->unsupported, "disconnected graph");
    ASSERT_NE(r.test("gswl:6"), nullptr);
    EXPECT_EQ(r.test("gswl:6")->rounds, 3);
    EXPECT_EQ(r.test("gswl"), nullptr) << "names match exactly";
    EXPECT_EQ(r.test(""), nullptr);
    EXPECT_EQ(CertifyRecord{}.test("gswl:6"), nullptr);
}

TEST(Records, HandWrittenMinimalCertifyRecordGetsTheDefaults) {
    const json j = json::parse(R"({"id": 3, "category": "basic", "level": "1wl"})");
    ASSERT_TRUE(is_certify_record(j));
    const CertifyRecord r = certify_record_from_json(j, "hand.jsonl", 1);
    EXPECT_EQ(r.id, 3);
    EXPECT_EQ(r.level, "1wl");
    EXPECT_EQ(r.hardness, "");
    EXPECT_EQ(r.max_fwl, 3);
    EXPECT_EQ(r.n, 0u);
    EXPECT_TRUE(r.steps.empty());
    EXPECT_EQ(r.seconds, 0.0);
    EXPECT_TRUE(r.tests.empty());
    // A step needs only its verdict.
    const json step = json::parse(R"({"id": 3, "category": "basic", "level": "2fwl",
        "steps": [{"distinguished": false}, {"distinguished": true, "rounds": 2}]})");
    const CertifyRecord s = certify_record_from_json(step, "hand.jsonl", 1);
    ASSERT_EQ(s.steps.size(), 2u);
    EXPECT_FALSE(s.steps[0].distinguished);
    EXPECT_EQ(s.steps[0].rounds, 0);
    EXPECT_TRUE(s.steps[1].distinguished);
    EXPECT_EQ(s.steps[1].rounds, 2);
    EXPECT_EQ(s.steps[1].seconds, 0.0);
}

TEST(Records, EveryCertifyLevelIsAcceptedAndNoOther) {
    for (const char* level : {"1wl", "2fwl", "3fwl", "beyond"}) {
        json j = {{"id", 1}, {"category", "cfi"}, {"level", level}};
        EXPECT_EQ(certify_record_from_json(j, "c", 1).level, level);
    }
    for (const char* level : {"", "1WL", "4fwl", "1-WL", "beyond 4-WL"}) {
        json j = {{"id", 1}, {"category", "cfi"}, {"level", level}};
        EXPECT_EQ(std::string(parse_error_of([&] { certify_record_from_json(j, "results.jsonl", 12); }).what()),
                  std::string("results.jsonl:12: \"level\" must be 1wl, 2fwl, 3fwl or beyond, got '") + level + "'");
    }
}

TEST(Records, EveryMissingOrMistypedCertifyFieldIsAParseErrorNamingIt) {
    const json valid = json::parse(to_json(full_certify_record()).dump());
    for (const char* key : {"id", "category", "level"}) {
        json j = valid;
        j.erase(key);
        EXPECT_EQ(std::string(parse_error_of([&] { certify_record_from_json(j, "results.jsonl", 12); }).what()),
                  std::string("results.jsonl:12: record without \"") + key + "\"");
    }
    for (const char* pointer : {"/steps/1/distinguished", "/tests/0/method", "/tests/1/distinguished"}) {
        json j = valid;
        const json::json_pointer where(pointer);
        j[where.parent_pointer()].erase(where.back());
        const std::string field = std::string(pointer).substr(std::string(pointer).rfind('/') + 1);
        EXPECT_EQ(std::string(parse_error_of([&] { certify_record_from_json(j, "results.jsonl", 12); }).what()),
                  "results.jsonl:12: record without \"" + field + "\"")
            << pointer;
    }
    struct Case {
        const char* pointer;
        json value;
        const char* field;
    };
    const std::vector<Case> cases = {
        {"/id", "270", "id"},
        {"/category", 1, "category"},
        {"/level", 1, "level"},
        {"/hardness", false, "hardness"},
        {"/max_fwl", "3", "max_fwl"},
        {"/n", 22.5, "n"},
        {"/steps", json::object(), "steps"},
        {"/steps", "1wl", "steps"},
        {"/steps/0/distinguished", "no", "distinguished"},
        {"/steps/2/rounds", 1.5, "rounds"},
        {"/steps/1/seconds", "1", "seconds"},
        {"/seconds", json::array(), "seconds"},
        {"/tests", json::object(), "tests"},
        {"/tests/0/method", 6, "method"},
        {"/tests/1/distinguished", nullptr, "distinguished"},
        {"/tests/0/rounds", "3", "rounds"},
        {"/tests/0/seconds", false, "seconds"},
        {"/tests/1/unsupported", 1, "unsupported"},
    };
    for (const Case& c : cases) {
        json j = valid;
        j[json::json_pointer(c.pointer)] = c.value;
        SCOPED_TRACE(std::string(c.pointer) + " = " + c.value.dump());
        expect_names(parse_error_of([&] { certify_record_from_json(j, "results.jsonl", 12); }).what(), c.field);
    }
}

TEST(Records, ACertifyTestNamedTwiceIsAParseError) {
    json j = json::parse(to_json(full_certify_record()).dump());
    j["tests"][1]["method"] = "gswl:6";
    EXPECT_EQ(std::string(parse_error_of([&] { certify_record_from_json(j, "results.jsonl", 12); }).what()),
              "results.jsonl:12: test 'gswl:6' appears twice");
}

// ---------------------------------------------------------------------------------------------
// Classification.

TEST(Records, ClassificationFollowsTheDistinguishingKeys) {
    const json eval = to_json(full_eval_record());
    const json wl = to_json(full_wl_record());
    const json certify = to_json(full_certify_record());
    EXPECT_TRUE(is_eval_record(eval));
    EXPECT_FALSE(is_wl_record(eval)) << "an eval record has no \"method\"";
    EXPECT_FALSE(is_certify_record(eval));
    EXPECT_TRUE(is_wl_record(wl));
    EXPECT_FALSE(is_eval_record(wl));
    EXPECT_FALSE(is_certify_record(wl));
    EXPECT_TRUE(is_certify_record(certify));
    EXPECT_FALSE(is_eval_record(certify));
    EXPECT_FALSE(is_wl_record(certify)) << "a certify record has no top-level \"method\"";

    // eval: "model" and either "protocols" or the legacy top-level "t2_test".
    EXPECT_TRUE(is_eval_record(json::parse(R"({"model": "gin", "protocols": {}})")));
    EXPECT_TRUE(is_eval_record(json::parse(R"({"model": "gin", "t2_test": 1.0})")));
    EXPECT_FALSE(is_eval_record(json::parse(R"({"model": "gin", "distinguished": true})")));
    EXPECT_FALSE(is_eval_record(json::parse(R"({"protocols": {}, "t2_test": 1.0})")));
    // wl: "method" and "distinguished" (and the pair "id", as every pair record has).
    EXPECT_TRUE(is_wl_record(json::parse(R"({"id": 1, "method": "1wl", "distinguished": true})")));
    EXPECT_FALSE(is_wl_record(json::parse(R"({"id": 1, "method": "1wl"})")));
    EXPECT_FALSE(is_wl_record(json::parse(R"({"id": 1, "distinguished": true})")));
    // certify: "level" (and "id"; brec report says "expected a certify record (with "id" and "level")").
    EXPECT_TRUE(is_certify_record(json::parse(R"({"id": 1, "level": "1wl"})")));
    EXPECT_FALSE(is_certify_record(json::parse(R"({"id": 1, "hardness": "1-WL"})")));
    // A summary line or a non-object is no record at all.
    const json summary = json::parse(R"({"command": "wl", "method": "1wl", "categories": {}, "total": {}})");
    EXPECT_FALSE(is_wl_record(summary));
    EXPECT_FALSE(is_eval_record(summary));
    EXPECT_FALSE(is_certify_record(summary));
    for (const json& j : {json::array({"model", "protocols"}), json("level"), json(nullptr), json::object()}) {
        EXPECT_FALSE(is_eval_record(j)) << j.dump();
        EXPECT_FALSE(is_wl_record(j)) << j.dump();
        EXPECT_FALSE(is_certify_record(j)) << j.dump();
    }
}

// ---------------------------------------------------------------------------------------------
// attack run and attack ood records.

TEST(Records, AnAttackRecordHasItsDocumentedFieldsAndRoundTrips) {
    AttackRecord r;
    r.settings = "gin/triangle/any/search0";
    r.model = "gin";
    r.pattern = "triangle";
    r.space = "any";
    r.seed = 3;
    r.graph = 41;
    r.count = 7;
    r.prediction = 6.75;
    r.loss = 0.25;
    AttackStageRecord plain;
    plain.budget = 1;
    plain.flips = {{0, 5}};
    plain.count = 6;
    plain.prediction = 6.5;
    plain.loss = 0.5;
    AttackStageRecord fooling = plain;
    fooling.budget = 5;
    fooling.flips = {{0, 5}, {2, 9}};
    fooling.success = true;
    fooling.has_transfer = true;
    fooling.transfer_any = true;
    fooling.fooled = {4};
    r.stages = {plain, fooling};
    const json expected = json::parse(R"({"settings": "gin/triangle/any/search0", "model": "gin",
        "pattern": "triangle", "space": "any", "seed": 3, "graph": 41, "count": 7, "prediction": 6.75,
        "loss": 0.25, "stages": [
          {"budget": 1, "flips": [[0, 5]], "count": 6, "prediction": 6.5, "loss": 0.5, "success": false},
          {"budget": 5, "flips": [[0, 5], [2, 9]], "count": 6, "prediction": 6.5, "loss": 0.5, "success": true,
           "transfer": {"all": false, "any": true, "first": false, "fooled": [4]}}]})");
    EXPECT_EQ(to_json(r), expected);
    const AttackRecord back = attack_record_from_json(json::parse(to_json(r).dump()), "a.jsonl", 1);
    EXPECT_EQ(to_json(back), expected);
    EXPECT_EQ(back.stages[1].flips[1], (std::pair<VertexId, VertexId>{2, 9}));
    EXPECT_FALSE(back.stages[0].has_transfer);

    json bad = expected;
    bad["stages"][1]["transfer"].erase("fooled");
    EXPECT_EQ(std::string(parse_error_of([&] { attack_record_from_json(bad, "a.jsonl", 5); }).what()),
              "a.jsonl:5: record without \"fooled\"");
    bad = expected;
    bad["stages"][0]["flips"] = json::parse("[[0, 5, 1]]");
    EXPECT_EQ(std::string(parse_error_of([&] { attack_record_from_json(bad, "a.jsonl", 5); }).what()),
              "a.jsonl:5: \"flips\" must be an array of vertex pairs");
    bad = expected;
    bad["stages"] = json::parse("[3]");
    EXPECT_EQ(std::string(parse_error_of([&] { attack_record_from_json(bad, "a.jsonl", 5); }).what()),
              "a.jsonl:5: \"stages\" must hold JSON objects");
}

TEST(Records, AnOodRowKeepsItsFieldOrderAndReadsRowsWrittenWithoutSettings) {
    OodRecord r;
    r.model = "gin";
    r.pattern = "triangle";
    r.seed = 2;
    r.setting = "ood_head";
    r.trained_on = "er-ood";
    r.tested_on = "er-ood";
    r.l1 = 0.5;
    r.lc = 0.125;
    r.mean_count = 3.25;
    r.graphs = 100;
    r.epochs_run = 12;
    r.best_epoch = 9;
    r.train_seconds = 1.5;
    r.model_file = "out/head/gin_triangle_seed2.json";
    r.settings = "in er, ood er-ood";
    const std::string text =
        R"({"model":"gin","pattern":"triangle","seed":2,"setting":"ood_head","trained_on":"er-ood",)"
        R"("tested_on":"er-ood","l1":0.5,"lc":0.125,"mean_count":3.25,"graphs":100,"epochs_run":12,"best_epoch":9,)"
        R"("train_seconds":1.5,"model_file":"out/head/gin_triangle_seed2.json","settings":"in er, ood er-ood"})";
    EXPECT_EQ(to_json(r).dump(), text) << "rows are read by people: the fields in the order listed";
    const OodRecord back = ood_record_from_json(json::parse(text), "ood.jsonl", 1);
    EXPECT_EQ(to_json(back).dump(), text);
    // A row written before rows recorded their settings: read with empty settings, written back
    // without the key.
    json legacy = json::parse(text);
    legacy.erase("settings");
    const OodRecord old = ood_record_from_json(legacy, "ood.jsonl", 3);
    EXPECT_EQ(old.settings, "");
    EXPECT_FALSE(to_json(old).contains("settings"));
    legacy.erase("l1");
    EXPECT_EQ(std::string(parse_error_of([&] { ood_record_from_json(legacy, "ood.jsonl", 3); }).what()),
              "ood.jsonl:3: record without \"l1\"");
}

}  // namespace
}  // namespace brec
