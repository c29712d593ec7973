// The certificate view: each model's distinguished pairs per hardness level, and against its
// theoretical bound the pairs it failed within the bound and those it distinguished beyond it.
// Expected values are worked out by hand from the fixtures. tests/data/report_certify.jsonl
// certifies pairs 0, 1, 5, 60, 61 at 2-FWL, 300 at 3-FWL and 2 beyond; the eval fixtures
// (report_eval_both_*.jsonl, pairs 0, 1, 2, 60, 61, 300) give ppgn the bound 2fwl and gin 1wl:
//
//   pair (level)     ppgn hotelling / brec_reference    gin hotelling / brec_reference
//   0 (2fwl)         yes / yes                          no / no
//   1 (2fwl)         yes / no                           yes / no
//   2 (beyond)       unreliable / no                    no / unreliable
//   60 (2fwl)        yes / yes                          no / no
//   61 (2fwl)        no / no                            no / no
//   300 (3fwl)       yes / no                           no / no
#include "brec/report/certificate.hpp"

#include <gtest/gtest.h>

#include <string>

#include "brec/core/error.hpp"

namespace brec {
namespace {

const std::string kData = std::string(BREC_SOURCE_DIR) + "/tests/data/";
const std::string kCertify = kData + "report_certify.jsonl";

CertificateView view(const std::vector<std::string>& results, Protocol p = Protocol::hotelling) {
    ResultReadOptions o;
    o.protocol = p;
    return certificate_view(read_results(results, o), read_certificate(kCertify));
}

const RunCertificate& run(const CertificateView& v, const std::string& model) {
    for (const auto& r : v.runs)
        if (r.model == model) return r;
    throw std::runtime_error("no run " + model);
}

std::vector<PairId> ids(const std::vector<CertifiedPair>& pairs) {
    std::vector<PairId> out;
    for (const auto& p : pairs) out.push_back(p.id);
    return out;
}

/// (distinguished, pairs, reliability failures) of each level, 1wl to beyond.
std::vector<std::vector<int>> levels(const RunCertificate& r) {
    std::vector<std::vector<int>> out;
    for (const auto& l : r.levels) out.push_back({l.distinguished, l.pairs, l.reliability_failures});
    return out;
}

std::string error_of(const std::string& text) {
    try {
        parse_certificate(text, "c.jsonl");
    } catch (const ParseError& e) {
        return e.what();
    }
    return "";
}

TEST(CertificateView, CountsPerLevelAndAgainstTheBoundUnderHotelling) {
    const auto v = view({kData + "report_eval_both_ppgn.jsonl", kData + "report_eval_both_gin.jsonl"});
    EXPECT_TRUE(v.bounds_known);
    ASSERT_EQ(v.runs.size(), 2u);
    const auto& ppgn = run(v, "ppgn");
    EXPECT_EQ(ppgn.bound, "2fwl");
    EXPECT_EQ(levels(ppgn), (std::vector<std::vector<int>>{{0, 0, 0}, {3, 4, 0}, {1, 1, 0}, {0, 1, 1}}));
    EXPECT_EQ(ppgn.within_bound, 4);
    EXPECT_EQ(ppgn.within_bound_distinguished, 3);
    EXPECT_EQ(ids(ppgn.failed_within_bound), (std::vector<PairId>{61}));
    EXPECT_EQ(ids(ppgn.distinguished_beyond_bound), (std::vector<PairId>{300}));
    EXPECT_EQ(ppgn.distinguished_beyond_bound[0].level, "3fwl");
    EXPECT_EQ(ppgn.uncertified, 0);
    const auto& gin = run(v, "gin");
    EXPECT_EQ(gin.bound, "1wl");
    EXPECT_EQ(levels(gin), (std::vector<std::vector<int>>{{0, 0, 0}, {1, 4, 0}, {0, 1, 0}, {0, 1, 0}}));
    EXPECT_EQ(gin.within_bound, 0);  // BREC pairs are all beyond 1-WL
    EXPECT_TRUE(gin.failed_within_bound.empty());
    EXPECT_EQ(ids(gin.distinguished_beyond_bound), (std::vector<PairId>{1}));

    const std::string md = certificate_markdown(v);
    EXPECT_NE(md.find("| ppgn | 3-WL (2-FWL) | 0 / 0 | 3 / 4 | 1 / 1 | 0 / 1 [rf 1] | 3 / 4 |"), std::string::npos)
        << md;
    EXPECT_NE(md.find("| gin | 1-WL | 0 / 0 | 1 / 4 | 0 / 1 | 0 / 1 | 0 / 0 |"), std::string::npos);
    EXPECT_NE(md.find("## Failed within the bound"), std::string::npos);
    EXPECT_NE(md.find("| ppgn | 61 | regular | 3-WL (2-FWL) | – |"), std::string::npos);
    EXPECT_NE(md.find("| ppgn | 300 | cfi | 4-WL (3-FWL) | – |"), std::string::npos);
    EXPECT_NE(md.find("| gin | 1 | basic | 3-WL (2-FWL) | – |"), std::string::npos);

    const auto j = certificate_json(v);
    EXPECT_EQ(j["view"], "certificate");
    EXPECT_EQ(j["protocol"], "hotelling");
    EXPECT_EQ(j["runs"][0]["model"], "ppgn");
    EXPECT_EQ(j["runs"][0]["levels"]["2fwl"]["distinguished"], 3);
    EXPECT_EQ(j["runs"][0]["levels"]["beyond"]["reliability_failures"], 1);
    EXPECT_EQ(j["runs"][0]["within_bound"]["pairs"], 4);
    EXPECT_EQ(j["runs"][0]["failed_within_bound"][0]["id"], 61);
    EXPECT_EQ(j["runs"][1]["distinguished_beyond_bound"][0]["id"], 1);
}

TEST(CertificateView, TheProtocolReadDecides) {
    const auto v =
        view({kData + "report_eval_both_ppgn.jsonl", kData + "report_eval_both_gin.jsonl"}, Protocol::brec_reference);
    const auto& ppgn = run(v, "ppgn");
    EXPECT_EQ(levels(ppgn), (std::vector<std::vector<int>>{{0, 0, 0}, {2, 4, 0}, {0, 1, 0}, {0, 1, 0}}));
    EXPECT_EQ(ids(ppgn.failed_within_bound), (std::vector<PairId>{1, 61}));
    EXPECT_TRUE(ppgn.distinguished_beyond_bound.empty());
    const auto& gin = run(v, "gin");
    EXPECT_EQ(levels(gin), (std::vector<std::vector<int>>{{0, 0, 0}, {0, 4, 0}, {0, 1, 0}, {0, 1, 1}}));
    EXPECT_TRUE(gin.distinguished_beyond_bound.empty());
    EXPECT_NE(certificate_markdown(v).find("None."), std::string::npos);
}

TEST(CertificateView, WithoutBoundsOnlyTheCountsAndSeveralSeeds) {
    // The older ppgn file names no bound, has three seeds and 30 pairs per seed, of which 0, 1, 2,
    // 5, 60, 61 are certified. Seed 100 distinguishes all of them but 60.
    const auto v = view({kData + "report_eval_ppgn_full.jsonl"});
    EXPECT_FALSE(v.bounds_known);
    EXPECT_TRUE(v.several_seeds);
    ASSERT_EQ(v.runs.size(), 3u);
    const RunCertificate* s100 = nullptr;
    for (const auto& r : v.runs)
        if (r.seed == 100) s100 = &r;
    ASSERT_NE(s100, nullptr);
    EXPECT_EQ(levels(*s100), (std::vector<std::vector<int>>{{0, 0, 0}, {4, 5, 0}, {0, 0, 0}, {1, 1, 0}}));
    EXPECT_EQ(s100->uncertified, 24);
    EXPECT_TRUE(s100->failed_within_bound.empty());
    const std::string md = certificate_markdown(v);
    EXPECT_NE(md.find("No record names its model's theoretical bound"), std::string::npos);
    EXPECT_EQ(md.find("## Failed within the bound"), std::string::npos);
    EXPECT_NE(md.find("| ppgn (seed 100) | 0 / 0 | 4 / 5 | 0 / 0 | 1 / 1 |"), std::string::npos) << md;
    EXPECT_NE(md.find("24 pair(s) run but not in the certificate"), std::string::npos);
    const auto j = certificate_json(v);
    EXPECT_FALSE(j["bounds_known"].get<bool>());
    EXPECT_TRUE(j["runs"][0]["bound"].is_null());
    EXPECT_TRUE(j["runs"][0]["failed_within_bound"].is_null());
    // Summaries alone have no pairs to set against a certificate.
    EXPECT_THROW(view({kData + "report_eval_both_ppgn.summary.json"}), InvalidArgument);
}

TEST(CertificateView, CertificatesThatStoppedBelowTheBound) {
    // Certified with --max-fwl 2: pair 0 separated at 2-FWL, pair 1 not ("beyond" 2-FWL). Against
    // a 3-FWL bound pair 1 may or may not be within it; against a 2-FWL bound it is beyond.
    const std::string cert =
        R"({"id":0,"category":"basic","level":"2fwl","max_fwl":2}
{"id":1,"category":"basic","level":"beyond","max_fwl":2}
)";
    auto record = [](PairId id, const std::string& bound) {
        return R"({"model":"m","seed":1,"id":)" + std::to_string(id) +
               R"(,"category":"basic","distinguished":true,"reliable":true,"t2_test":100,"bound":")" + bound + "\"}\n";
    };
    for (const std::string bound : {"3fwl", "2fwl"}) {
        ResultReader r;
        r.add_text(record(0, bound) + record(1, bound), "m.jsonl");
        const auto v = certificate_view(r.finish(), parse_certificate(cert, "c.jsonl"));
        const auto& m = v.runs[0];
        EXPECT_EQ(m.within_bound, 1) << bound;
        EXPECT_EQ(m.undetermined, bound == "3fwl" ? 1 : 0);
        EXPECT_EQ(ids(m.distinguished_beyond_bound), bound == "3fwl" ? std::vector<PairId>{} : std::vector<PairId>{1});
        EXPECT_FALSE(v.notes.empty());  // 'beyond' means beyond 2-FWL here
    }
}

TEST(Certificate, ParsingSkipsTheSummaryAndNamesBadLines) {
    const auto c = read_certificate(kCertify);
    EXPECT_EQ(c.pairs.size(), 7u);  // the summary line is not a pair
    EXPECT_EQ(c.pairs.at(300).level, "3fwl");
    EXPECT_EQ(c.where.at(300).line, 7);
    EXPECT_EQ(error_of(R"({"id":1,"category":"basic","level":"5wl"})"),
              "c.jsonl:1: \"level\" must be 1wl, 2fwl, 3fwl or beyond, got '5wl'");
    EXPECT_EQ(error_of("{\"id\":1,\"category\":\"basic\",\"level\":\"2fwl\"}\n{\"model\":\"x\"}\n"),
              "c.jsonl:2: expected a certify record (with \"id\" and \"level\")");
    EXPECT_EQ(error_of("{\"id\":1,\"category\":\"basic\",\"level\":\"2fwl\"}\n"
                       "{\"id\":1,\"category\":\"basic\",\"level\":\"3fwl\"}\n"),
              "c.jsonl:2: pair 1 is certified 3fwl here but 2fwl at c.jsonl:1");
    EXPECT_EQ(error_of("\n"), "c.jsonl: no certify records: expected the JSON lines of brec certify");
    // The same record twice (a resumed run) and a torn last line are fine.
    const auto again = parse_certificate(
        "{\"id\":1,\"category\":\"basic\",\"level\":\"2fwl\"}\n"
        "{\"id\":1,\"category\":\"basic\",\"level\":\"2fwl\"}\n{\"id\":2,\"cat",
        "c.jsonl");
    EXPECT_EQ(again.pairs.size(), 1u);
    ASSERT_EQ(again.notes.size(), 1u);
    EXPECT_EQ(again.notes[0], "c.jsonl:3: torn last line skipped (a run still writing, or interrupted)");
    EXPECT_EQ(hardness_label("3fwl"), "4-WL (3-FWL)");
    EXPECT_THROW(hardness_label("4fwl"), InvalidArgument);
}

TEST(Certificate, BoundsOfEvalRecords) {
    // The field round-trips through the typed record and is written only when known.
    EvalRecord e;
    e.model = "ppgn";
    e.bound = "2fwl";
    const auto j = to_json(e);
    EXPECT_EQ(j["bound"], "2fwl");
    EXPECT_EQ(eval_record_from_json(j, "x", 1).bound, "2fwl");
    e.bound.clear();
    EXPECT_FALSE(to_json(e).contains("bound"));
    EXPECT_EQ(eval_record_from_json(to_json(e), "x", 1).bound, "");
    // A bound that is no level, or two bounds for one model, are errors naming the line.
    const std::string rec =
        R"({"model":"m","seed":1,"category":"basic","distinguished":true,"reliable":true,"t2_test":1,)";
    ResultReader bad;
    EXPECT_THROW(bad.add_text(rec + R"("id":0,"bound":"beyond"})", "b.jsonl"), ParseError);
    ResultReader two;
    try {
        two.add_text(rec + R"("id":0,"bound":"2fwl"})" + "\n" + rec + R"("id":1,"bound":"3fwl"})", "b.jsonl");
        FAIL() << "no error";
    } catch (const ParseError& err) {
        EXPECT_EQ(std::string(err.what()), "b.jsonl:2: model m has bound 3fwl here but 2fwl at b.jsonl:1");
    }
}

// Against the tight bound: report_certify_tight.jsonl is report_certify.jsonl with the verdicts of
// 2-FWL (separates 0, 1, 5, 60, 61; not 300 — a made-up verdict, against the level, so that the
// test's record is seen to win) and 1-WL (separates nothing) on every pair but 2, whose verdicts
// come from its level (beyond 3-FWL: neither separates). ppgn (tight bound 2fwl) under hotelling:
// 6 pairs tested; the test separates 0, 1, 60, 61, of which ppgn distinguished 0, 1, 60: gap
// [61]; ppgn distinguished 300, which the test does not separate: beyond [300] with its T². gin
// (tight bound 1wl): nothing separated, but gin distinguished 1 under hotelling: beyond [1].
TEST(CertificateView, AgainstTheTightBound) {
    ResultReadOptions o;
    const CertificateView v =
        certificate_view(read_results({kData + "report_eval_both_ppgn.jsonl", kData + "report_eval_both_gin.jsonl"}, o),
                         read_certificate(kData + "report_certify_tight.jsonl"), {{"ppgn", "2fwl"}, {"gin", "1wl"}});
    EXPECT_TRUE(v.tight_known);
    const RunCertificate& ppgn = run(v, "ppgn");
    ASSERT_TRUE(ppgn.has_tight);
    EXPECT_EQ(ppgn.tight.method, "2fwl");
    EXPECT_EQ(ppgn.tight.tested, 6);
    EXPECT_EQ(ppgn.tight.untested, 0);
    EXPECT_EQ(ppgn.tight.separated, 4);
    EXPECT_EQ(ppgn.tight.realized, 3);
    ASSERT_EQ(ppgn.tight.gap.size(), 1u);
    EXPECT_EQ(ppgn.tight.gap[0].id, 61);
    ASSERT_EQ(ppgn.tight.beyond.size(), 1u);
    EXPECT_EQ(ppgn.tight.beyond[0].id, 300);
    EXPECT_DOUBLE_EQ(ppgn.tight.beyond[0].t2_hotelling, 900.0);
    EXPECT_DOUBLE_EQ(ppgn.tight.beyond[0].t2_reference, 0.9375);
    const RunCertificate& gin = run(v, "gin");
    EXPECT_EQ(gin.tight.separated, 0);
    ASSERT_EQ(gin.tight.beyond.size(), 1u);
    EXPECT_EQ(gin.tight.beyond[0].id, 1);
    // A test the certificate lacks: a note names the certify run that would add it.
    const CertificateView missing =
        certificate_view(read_results({kData + "report_eval_both_gin.jsonl"}, o),
                         read_certificate(kData + "report_certify_tight.jsonl"), {{"gin", "sswl"}});
    EXPECT_EQ(run(missing, "gin").tight.untested, 6);
    bool noted = false;
    for (const auto& n : missing.notes) noted = noted || n.find("brec certify --tests sswl") != std::string::npos;
    EXPECT_TRUE(noted);
    // The Markdown lists the gap and the evidence.
    const std::string md = certificate_markdown(v);
    EXPECT_NE(md.find("## Against the tight bound"), std::string::npos);
    EXPECT_NE(md.find("- ppgn: regular [61]"), std::string::npos) << md;
    EXPECT_NE(md.find("900 / 72.34"), std::string::npos) << md;
    const auto j = certificate_json(v);
    EXPECT_EQ(j["runs"][0]["tight_bound"]["gap"][0]["id"], 61);
    // Without tight bounds the section is absent.
    const CertificateView plain = certificate_view(read_results({kData + "report_eval_both_ppgn.jsonl"}, o),
                                                   read_certificate(kData + "report_certify_tight.jsonl"));
    EXPECT_FALSE(plain.tight_known);
    EXPECT_EQ(certificate_markdown(plain).find("tight bound"), std::string::npos);
}

TEST(CertificateView, TightBoundsOfAModelList) {
    const TightBounds t = parse_tight_bounds(
        R"([{"name": "ppgn", "tight_bound": "2fwl"}, {"name": "osan", "tight_bound": ""}])", "m.json");
    EXPECT_EQ(t.at("ppgn"), "2fwl");
    EXPECT_EQ(t.at("osan"), "");
    EXPECT_THROW(parse_tight_bounds("[{\"name\": \"ppgn\"}]", "m.json"), ParseError);
    EXPECT_THROW(parse_tight_bounds("{", "m.json"), ParseError);
}

}  // namespace
}  // namespace brec
