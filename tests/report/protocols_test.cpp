// Both RPC protocols in reports: the protocol read forms the cells, both are kept and shown side by
// side, older records (one decision) are read as hotelling only, and summaries with both protocols
// give the counts of the per-pair records. Expected counts are worked out by hand from the
// fixtures (tests/data/report_eval_both_*.jsonl):
//
//   pair (category)   ppgn hotelling / brec_reference    gin hotelling / brec_reference
//   0 (basic)         yes / yes                          no / no
//   1 (basic)         yes / no                           yes / no
//   2 (basic)         unreliable / no                    no / unreliable
//   60 (regular)      yes / yes                          no / no
//   61 (regular)      no / no                            no / no
//   300 (cfi)         yes / no                           no / no
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "brec/core/error.hpp"
#include "brec/report/analysis.hpp"
#include "brec/report/render.hpp"
#include "brec/report/results.hpp"

namespace brec {
namespace {

const std::string kData = std::string(BREC_SOURCE_DIR) + "/tests/data/";
const std::string kBothPpgn = kData + "report_eval_both_ppgn.jsonl";
const std::string kBothGin = kData + "report_eval_both_gin.jsonl";
const std::string kBothSummary = kData + "report_eval_both_ppgn.summary.json";
const std::string kLegacyPpgn = kData + "report_eval_ppgn_full.jsonl";

ResultSet read(const std::vector<std::string>& paths, Protocol p = Protocol::hotelling) {
    ResultReadOptions o;
    o.protocol = p;
    return read_results(paths, o);
}

const ResultRecord& find(const ResultSet& rs, const std::string& task, const std::string& model) {
    for (const auto& r : rs.records)
        if (r.task == task && r.model == model) return r;
    throw std::runtime_error("no record " + task + "/" + model);
}

const ProtocolRow& row(const ReportAnalysis& a, const std::string& model, Protocol p) {
    for (const auto& r : a.protocols)
        if (r.model == model && r.protocol == p) return r;
    throw std::runtime_error("no protocol row " + model);
}

std::string parse_error(const std::vector<std::string>& paths, Protocol p) {
    try {
        read(paths, p);
    } catch (const ParseError& e) {
        return e.what();
    }
    return "";
}

TEST(Protocols, TheProtocolReadFormsTheCellsAndBothAreKept) {
    const auto h = read({kBothPpgn, kBothGin});
    EXPECT_TRUE(h.rpc);
    EXPECT_TRUE(h.both_protocols);
    EXPECT_EQ(h.protocol, Protocol::hotelling);
    const auto& basic = find(h, "Basic", "ppgn");
    EXPECT_EQ(basic.pairs, 3);
    EXPECT_DOUBLE_EQ(basic.value, 2.0);  // pairs 0 and 1; pair 2 is unreliable
    EXPECT_EQ(basic.reliability_failures, 1);
    EXPECT_TRUE(basic.brec_reference.known);
    EXPECT_EQ(basic.brec_reference.distinguished, 1);  // pair 0 only
    EXPECT_EQ(basic.brec_reference.reliability_failures, 0);
    EXPECT_DOUBLE_EQ(find(h, "CFI", "ppgn").value, 1.0);

    const auto r = read({kBothPpgn, kBothGin}, Protocol::brec_reference);
    EXPECT_EQ(r.protocol, Protocol::brec_reference);
    EXPECT_DOUBLE_EQ(find(r, "Basic", "ppgn").value, 1.0);
    EXPECT_EQ(find(r, "Basic", "ppgn").reliability_failures, 0);
    EXPECT_DOUBLE_EQ(find(r, "CFI", "ppgn").value, 0.0);
    EXPECT_DOUBLE_EQ(find(r, "Basic", "gin").value, 0.0);
    EXPECT_EQ(find(r, "Basic", "gin").reliability_failures, 1);  // pair 2 under brec_reference
    // The per-pair records are kept per run for views that need them.
    ASSERT_EQ(r.runs.size(), 2u);
    EXPECT_EQ(r.runs[0].model, "ppgn");
    ASSERT_EQ(r.runs[0].pairs.size(), 6u);
    EXPECT_TRUE(r.runs[0].pairs[1].hotelling.counts());
    EXPECT_FALSE(r.runs[0].pairs[1].brec_reference.counts());
}

TEST(Protocols, ReportShowsBothSideBySide) {
    const auto a = analyse_results(read({kBothPpgn, kBothGin}));
    ASSERT_EQ(a.protocols.size(), 4u);  // ppgn and gin, a row per protocol
    const auto& ph = row(a, "ppgn", Protocol::hotelling);
    EXPECT_EQ(ph.seeds, 1);
    ASSERT_EQ(ph.tasks.size(), 3u);
    EXPECT_DOUBLE_EQ(ph.tasks[0].distinguished, 2.0);
    EXPECT_DOUBLE_EQ(ph.total.distinguished, 4.0);  // 2 + 1 + 1
    EXPECT_EQ(ph.total.reliability_failures, 1);
    EXPECT_DOUBLE_EQ(row(a, "ppgn", Protocol::brec_reference).total.distinguished, 2.0);
    EXPECT_DOUBLE_EQ(row(a, "gin", Protocol::hotelling).total.distinguished, 1.0);
    EXPECT_EQ(row(a, "gin", Protocol::brec_reference).total.reliability_failures, 1);

    const std::string md = report_markdown(a);
    EXPECT_NE(md.find("## Both RPC protocols"), std::string::npos);
    EXPECT_NE(md.find("| ppgn | **hotelling** | 2 [rf 1] | 1 | 1 | 4 [rf 1] |"), std::string::npos) << md;
    EXPECT_NE(md.find("| ppgn | brec\\_reference | 1 | 1 | 0 | 2 |"), std::string::npos);
    EXPECT_NE(md.find("| gin | brec\\_reference | 0 [rf 1] | 0 | 0 | 0 [rf 1] |"), std::string::npos);
    EXPECT_NE(md.find("counted under the hotelling RPC protocol"), std::string::npos);
    const std::string tex = report_latex(a);
    EXPECT_NE(tex.find("ppgn & brec\\_reference & 1 & 1 & 0 & 2 \\\\"), std::string::npos) << tex;
    EXPECT_NE(tex.find("ppgn & \\textbf{hotelling} & 2 [rf 1] & 1 & 1 & 4 [rf 1] \\\\"), std::string::npos);
    const auto j = report_json(a);
    EXPECT_EQ(j["protocol"], "hotelling");
    EXPECT_EQ(j["protocols"]["hotelling"]["ppgn"]["total"]["distinguished"], 4.0);
    EXPECT_EQ(j["protocols"]["brec_reference"]["ppgn"]["tasks"]["Basic"]["distinguished"], 1.0);
    EXPECT_EQ(j["protocols"]["brec_reference"]["gin"]["tasks"]["Basic"]["reliability_failures"], 1);

    // Read under brec_reference, that protocol is the bold one and forms the cells.
    const auto b = analyse_results(read({kBothPpgn, kBothGin}, Protocol::brec_reference));
    const std::string mdb = report_markdown(b);
    EXPECT_NE(mdb.find("| ppgn | **brec\\_reference** | 1 | 1 | 0 | 2 |"), std::string::npos);
    EXPECT_NE(mdb.find("| Basic (3) | max | **1.00** | 0.00 [rf 1] |"), std::string::npos) << mdb;
}

TEST(Protocols, SummariesWithBothProtocolsGiveThePerPairCounts) {
    for (const Protocol p : all_protocols()) {
        const auto from_pairs = read({kBothPpgn}, p);
        const auto from_summary = read({kBothSummary}, p);
        ASSERT_EQ(from_summary.records.size(), from_pairs.records.size());
        for (const auto& r : from_pairs.records) {
            const auto& s = find(from_summary, r.task, r.model);
            EXPECT_EQ(s.value, r.value) << r.task;
            EXPECT_EQ(s.pairs, r.pairs);
            EXPECT_EQ(s.reliability_failures, r.reliability_failures);
            EXPECT_EQ(s.brec_reference.distinguished, r.brec_reference.distinguished);
            EXPECT_TRUE(s.rpc);
        }
        // Records and their summary together: they agree, so nothing is noted.
        EXPECT_TRUE(read({kBothPpgn, kBothSummary}, p).notes.empty());
    }
    // A summary whose protocols disagree with its headline pairs is refused.
    ResultReader bad;
    const std::string text =
        R"({"model":"m","seed":1,"categories":{"basic":{"pairs":2,"distinguished":1,"reliability_failures":0}},)"
        R"("protocols":{"hotelling":{"categories":{"basic":{"pairs":3,"distinguished":1,"reliability_failures":0}}}}})";
    try {
        bad.add_text(text, "s.json");
        FAIL() << "no error";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "s.json:1: protocol hotelling: category 'basic' does not have the pairs of the "
                  "headline counts");
    }
}

TEST(Protocols, OlderRecordsAreReadAsHotellingOnly) {
    const auto mixed = analyse_results(read({kLegacyPpgn, kBothGin}));
    EXPECT_TRUE(mixed.results.both_protocols);  // gin carries both
    EXPECT_FALSE(row(mixed, "ppgn", Protocol::brec_reference).total.known);
    EXPECT_TRUE(row(mixed, "ppgn", Protocol::hotelling).total.known);
    EXPECT_NE(report_markdown(mixed).find("| ppgn | brec\\_reference | – | – | – | – |"), std::string::npos);
    EXPECT_TRUE(report_json(mixed)["protocols"]["brec_reference"]["ppgn"]["total"].is_null());
    // Only older records: no side-by-side section (nothing to compare), hotelling named.
    const auto legacy = analyse_results(read({kLegacyPpgn}));
    EXPECT_FALSE(legacy.results.both_protocols);
    EXPECT_EQ(report_markdown(legacy).find("## Both RPC protocols"), std::string::npos);
    EXPECT_EQ(report_json(legacy)["protocol"], "hotelling");
    // They cannot be counted under brec_reference: the error names the file and line.
    EXPECT_EQ(parse_error({kBothGin, kLegacyPpgn}, Protocol::brec_reference),
              kLegacyPpgn +
                  ":1: no brec_reference decision: the record was written before both RPC "
                  "protocols were recorded, so only the hotelling protocol can be reported from it");
    ResultReadOptions o;
    o.protocol = Protocol::brec_reference;
    ResultReader old_summary(o);
    try {
        old_summary.add_text(
            R"({"model":"m","seed":1,"categories":{"basic":{"pairs":2,"distinguished":1,"reliability_failures":0}}})",
            "old.json");
        FAIL() << "no error";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "old.json:1: summary without the brec_reference protocol's counts (written before "
                  "both RPC protocols were recorded, so only the hotelling protocol can be reported "
                  "from it)");
    }
    // WL records have one decision, which holds under either protocol, and are no RPC results.
    ResultReader wl(o);
    wl.add_text(R"({"id":0,"category":"basic","method":"1wl","distinguished":true})", "wl.jsonl");
    const auto w = wl.finish();
    EXPECT_FALSE(w.rpc);
    EXPECT_DOUBLE_EQ(w.records[0].value, 1.0);
}

TEST(Protocols, ARecordThatChangesEitherDecisionConflicts) {
    // Pair 1 of ppgn again, with brec_reference now distinguishing it.
    auto j = nlohmann::json::parse(R"({"model":"ppgn","seed":100,"id":1,"category":"basic",
        "protocols":{"hotelling":{"t2_test":900,"t2_reliability":12,"threshold":72.338,"distinguished":true,"reliable":true},
                     "brec_reference":{"t2_test":80,"t2_reliability":0.4,"threshold":72.338,"distinguished":true,"reliable":true}}})");
    ResultReader r;
    r.add_file(kBothPpgn);
    try {
        r.add_text(j.dump(), "again.jsonl");
        FAIL() << "no error";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "again.jsonl:1: pair 1 of model ppgn seed 100 conflicts "
                  "with the record at " +
                      kBothPpgn + ":2");
    }
    // The same record again is counted once.
    j["protocols"]["brec_reference"]["distinguished"] = false;
    r.add_text(j.dump(), "again.jsonl");
    EXPECT_EQ(find(r.finish(), "Basic", "ppgn").pairs, 3);
}

}  // namespace
}  // namespace brec
