#include "brec/io/records.hpp"

#include <limits>

#include "brec/core/error.hpp"

namespace brec {
namespace {

using nlohmann::json;

/// Typed field access with errors that name the source, the line and the field.
class Fields {
public:
    /// `within`: the field that holds this object, for a nested one ("" for the record itself).
    Fields(const json& j, const std::string& source, std::int64_t line, const std::string& within = "")
        : j_(j), source_(source), line_(line) {
        if (!j.is_object())
            fail(within.empty() ? std::string("a record must be a JSON object")
                                : "\"" + within + "\" must hold JSON objects");
    }

    [[noreturn]] void fail(const std::string& problem) const { throw ParseError(source_, line_, problem); }

    bool has(const char* key) const { return j_.contains(key); }

    const json& at(const char* key) const {
        if (!j_.contains(key)) fail(std::string("record without \"") + key + "\"");
        return j_[key];
    }
    std::int64_t integer(const char* key) const {
        const json& v = at(key);
        if (!v.is_number_integer()) fail(std::string("\"") + key + "\" must be an integer");
        return v.get<std::int64_t>();
    }
    std::uint64_t unsigned_integer(const char* key) const {
        const json& v = at(key);
        if (!v.is_number_unsigned()) fail(std::string("\"") + key + "\" must be a non-negative integer");
        return v.get<std::uint64_t>();
    }
    double number(const char* key) const {
        const json& v = at(key);
        // Infinite and NaN T² values are written as null by nlohmann; read them back as infinity.
        if (v.is_null()) return std::numeric_limits<double>::infinity();
        if (!v.is_number()) fail(std::string("\"") + key + "\" must be a number");
        return v.get<double>();
    }
    bool boolean(const char* key) const {
        const json& v = at(key);
        if (!v.is_boolean()) fail(std::string("\"") + key + "\" must be true or false");
        return v.get<bool>();
    }
    std::string text(const char* key) const {
        const json& v = at(key);
        if (!v.is_string()) fail(std::string("\"") + key + "\" must be a string");
        return v.get<std::string>();
    }
    // Optional fields.
    double number_or(const char* key, double fallback) const { return has(key) ? number(key) : fallback; }
    std::int64_t integer_or(const char* key, std::int64_t fallback) const { return has(key) ? integer(key) : fallback; }
    std::string text_or(const char* key, const std::string& fallback) const { return has(key) ? text(key) : fallback; }

private:
    const json& j_;
    const std::string& source_;
    std::int64_t line_;
};

json protocol_json(const ProtocolResult& p) {
    return {{"t2_test", p.t2_test},
            {"t2_reliability", p.t2_reliability},
            {"threshold", p.threshold},
            {"distinguished", p.distinguished},
            {"reliable", p.reliable}};
}

ProtocolResult protocol_from(const Fields& f) {
    ProtocolResult p;
    p.t2_test = f.number("t2_test");
    p.t2_reliability = f.number("t2_reliability");
    p.threshold = f.number("threshold");
    p.distinguished = f.boolean("distinguished");
    p.reliable = f.boolean("reliable");
    return p;
}

}  // namespace

const char* protocol_name(Protocol p) { return p == Protocol::hotelling ? "hotelling" : "brec_reference"; }

Protocol parse_protocol(const std::string& name) {
    if (name == "hotelling") return Protocol::hotelling;
    if (name == "brec_reference") return Protocol::brec_reference;
    throw InvalidArgument("unknown protocol '" + name + "' (use hotelling or brec_reference)");
}

const std::vector<Protocol>& all_protocols() {
    static const std::vector<Protocol> kAll = {Protocol::hotelling, Protocol::brec_reference};
    return kAll;
}

std::string eval_settings_text(const std::string& model, const std::string& settings_id) {
    return "model " + model + ", settings_id " + (settings_id.empty() ? std::string("none") : settings_id);
}

json to_json(const EvalRecord& r) {
    json j{{"model", r.model}, {"seed", r.seed}, {"id", r.id}, {"category", r.category}, {"n", r.n}};
    json protocols{{"hotelling", protocol_json(r.hotelling)}};
    if (r.has_reference) protocols["brec_reference"] = protocol_json(r.brec_reference);
    j["protocols"] = std::move(protocols);
    j["epochs"] = r.epochs;
    j["final_loss"] = r.final_loss;
    j["seconds"] = r.seconds;
    j["train_seconds"] = r.train_seconds;
    j["losses"] = r.losses;
    j["settings_id"] = r.settings_id;
    if (!r.bound.empty()) j["bound"] = r.bound;
    if (!r.skipped.empty()) j["skipped"] = r.skipped;
    if (!r.profile.is_null()) j["profile"] = r.profile;
    return j;
}

EvalRecord eval_record_from_json(const json& j, const std::string& source, std::int64_t line) {
    const Fields f(j, source, line);
    EvalRecord r;
    r.model = f.text("model");
    r.seed = f.unsigned_integer("seed");
    r.id = f.integer("id");
    r.category = f.text("category");
    r.n = static_cast<VertexId>(f.integer_or("n", 0));
    if (f.has("protocols")) {
        const json& p = f.at("protocols");
        if (!p.is_object() || !p.contains("hotelling"))
            f.fail("\"protocols\" must be an object with \"hotelling\" (and \"brec_reference\")");
        r.hotelling = protocol_from(Fields(p["hotelling"], source, line, "hotelling"));
        r.has_reference = p.contains("brec_reference");
        if (r.has_reference)
            r.brec_reference = protocol_from(Fields(p["brec_reference"], source, line, "brec_reference"));
    } else {
        // Written before both protocols were recorded: one decision at top level.
        r.hotelling.distinguished = f.boolean("distinguished");
        r.hotelling.reliable = f.boolean("reliable");
        r.hotelling.t2_test = f.number_or("t2_test", 0.0);
        r.hotelling.t2_reliability = f.number_or("t2_reliability", 0.0);
        r.hotelling.threshold = f.number_or("threshold", 0.0);
        r.has_reference = false;
    }
    r.epochs = static_cast<int>(f.integer_or("epochs", 0));
    r.final_loss = f.number_or("final_loss", 0.0);
    r.seconds = f.number_or("seconds", 0.0);
    r.train_seconds = f.number_or("train_seconds", 0.0);
    if (f.has("profile")) r.profile = f.at("profile");
    if (f.has("losses")) {
        const json& l = f.at("losses");
        if (!l.is_array()) f.fail("\"losses\" must be an array of numbers");
        for (const auto& v : l) {
            if (!v.is_number()) f.fail("\"losses\" must be an array of numbers");
            r.losses.push_back(v.get<double>());
        }
    }
    r.settings_id = f.text_or("settings_id", "");
    r.bound = f.text_or("bound", "");
    r.skipped = f.text_or("skipped", "");
    return r;
}

json to_json(const WlRecord& r) {
    json j{{"id", r.id},
           {"category", r.category},
           {"method", r.method},
           {"rounds_limit", r.rounds_limit},
           {"distinguished", r.distinguished},
           {"rounds", r.rounds},
           {"colours", r.colours},
           {"seconds", r.seconds}};
    if (r.reliability_checked) {
        j["reliability_failure"] = r.reliability_failure;
        j["reliability_seed"] = r.reliability_seed;
    }
    if (!r.unsupported.empty()) j["unsupported"] = r.unsupported;
    return j;
}

WlRecord wl_record_from_json(const json& j, const std::string& source, std::int64_t line) {
    const Fields f(j, source, line);
    WlRecord r;
    r.id = f.integer("id");
    r.category = f.text("category");
    r.method = f.text("method");
    r.rounds_limit = static_cast<int>(f.integer_or("rounds_limit", -1));
    r.distinguished = f.boolean("distinguished");
    r.rounds = static_cast<int>(f.integer_or("rounds", 0));
    r.colours = static_cast<std::size_t>(f.integer_or("colours", 0));
    r.seconds = f.number_or("seconds", 0.0);
    r.reliability_checked = f.has("reliability_failure");
    if (r.reliability_checked) {
        r.reliability_failure = f.boolean("reliability_failure");
        r.reliability_seed = f.has("reliability_seed") ? f.unsigned_integer("reliability_seed") : 0;
    }
    r.unsupported = f.text_or("unsupported", "");
    return r;
}

json to_json(const CertifyRecord& r) {
    json steps = json::array();
    for (const auto& s : r.steps)
        steps.push_back({{"distinguished", s.distinguished}, {"rounds", s.rounds}, {"seconds", s.seconds}});
    json j{
        {"id", r.id}, {"category", r.category}, {"level", r.level},    {"hardness", r.hardness}, {"max_fwl", r.max_fwl},
        {"n", r.n},   {"steps", steps},         {"seconds", r.seconds}};
    if (!r.tests.empty()) {
        json tests = json::array();
        for (const auto& t : r.tests) {
            json x{
                {"method", t.method}, {"distinguished", t.distinguished}, {"rounds", t.rounds}, {"seconds", t.seconds}};
            if (!t.unsupported.empty()) x["unsupported"] = t.unsupported;
            tests.push_back(std::move(x));
        }
        j["tests"] = std::move(tests);
    }
    return j;
}

const CertifyTest* CertifyRecord::test(const std::string& method) const {
    for (const auto& t : tests)
        if (t.method == method) return &t;
    return nullptr;
}

CertifyRecord certify_record_from_json(const json& j, const std::string& source, std::int64_t line) {
    const Fields f(j, source, line);
    CertifyRecord r;
    r.id = f.integer("id");
    r.category = f.text("category");
    r.level = f.text("level");
    if (r.level != "1wl" && r.level != "2fwl" && r.level != "3fwl" && r.level != "beyond")
        f.fail("\"level\" must be 1wl, 2fwl, 3fwl or beyond, got '" + r.level + "'");
    r.hardness = f.text_or("hardness", "");
    r.max_fwl = static_cast<int>(f.integer_or("max_fwl", 3));
    r.n = static_cast<VertexId>(f.integer_or("n", 0));
    if (f.has("steps")) {
        const json& s = f.at("steps");
        if (!s.is_array()) f.fail("\"steps\" must be an array");
        for (const auto& step : s) {
            const Fields g(step, source, line, "steps");
            r.steps.push_back(
                {g.boolean("distinguished"), static_cast<int>(g.integer_or("rounds", 0)), g.number_or("seconds", 0.0)});
        }
    }
    r.seconds = f.number_or("seconds", 0.0);
    if (f.has("tests")) {
        const json& tests = f.at("tests");
        if (!tests.is_array()) f.fail("\"tests\" must be an array");
        for (const auto& t : tests) {
            const Fields g(t, source, line, "tests");
            CertifyTest x;
            x.method = g.text("method");
            x.distinguished = g.boolean("distinguished");
            x.rounds = static_cast<int>(g.integer_or("rounds", 0));
            x.seconds = g.number_or("seconds", 0.0);
            x.unsupported = g.text_or("unsupported", "");
            if (r.test(x.method)) f.fail("test '" + x.method + "' appears twice");
            r.tests.push_back(std::move(x));
        }
    }
    return r;
}

bool is_eval_record(const json& j) {
    return j.is_object() && j.contains("model") && (j.contains("protocols") || j.contains("t2_test"));
}
bool is_certify_record(const json& j) { return j.is_object() && j.contains("level") && j.contains("id"); }
bool is_wl_record(const json& j) {
    return j.is_object() && j.contains("method") && j.contains("distinguished") && j.contains("id");
}

json to_json(const AttackRecord& r) {
    json stages = json::array();
    for (const auto& st : r.stages) {
        json j{{"budget", st.budget},         {"flips", st.flips}, {"count", st.count},
               {"prediction", st.prediction}, {"loss", st.loss},   {"success", st.success}};
        if (st.has_transfer)
            j["transfer"] = {{"all", st.transfer_all},
                             {"any", st.transfer_any},
                             {"first", st.transfer_first},
                             {"fooled", st.fooled}};
        stages.push_back(std::move(j));
    }
    return {{"settings", r.settings}, {"model", r.model}, {"pattern", r.pattern}, {"space", r.space},
            {"seed", r.seed},         {"graph", r.graph}, {"count", r.count},     {"prediction", r.prediction},
            {"loss", r.loss},         {"stages", stages}};
}

AttackRecord attack_record_from_json(const json& j, const std::string& source, std::int64_t line) {
    const Fields f(j, source, line);
    AttackRecord r;
    r.settings = f.text("settings");
    r.model = f.text("model");
    r.pattern = f.text("pattern");
    r.space = f.text("space");
    r.seed = f.unsigned_integer("seed");
    r.graph = f.unsigned_integer("graph");
    r.count = f.integer("count");
    r.prediction = f.number("prediction");
    r.loss = f.number("loss");
    const json& stages = f.at("stages");
    if (!stages.is_array()) f.fail("\"stages\" must be an array");
    for (const json& s : stages) {
        const Fields g(s, source, line, "stages");
        AttackStageRecord st;
        st.budget = static_cast<int>(g.integer("budget"));
        const json& flips = g.at("flips");
        if (!flips.is_array()) g.fail("\"flips\" must be an array of vertex pairs");
        for (const json& e : flips) {
            if (!e.is_array() || e.size() != 2 || !e[0].is_number_unsigned() || !e[1].is_number_unsigned())
                g.fail("\"flips\" must be an array of vertex pairs");
            st.flips.emplace_back(e[0].get<VertexId>(), e[1].get<VertexId>());
        }
        st.count = g.integer("count");
        st.prediction = g.number("prediction");
        st.loss = g.number("loss");
        st.success = g.boolean("success");
        st.has_transfer = g.has("transfer");
        if (st.has_transfer) {
            const Fields t(g.at("transfer"), source, line, "transfer");
            st.transfer_all = t.boolean("all");
            st.transfer_any = t.boolean("any");
            st.transfer_first = t.boolean("first");
            const json& fooled = t.at("fooled");
            if (!fooled.is_array()) t.fail("\"fooled\" must be an array of seeds");
            for (const json& x : fooled) {
                if (!x.is_number_unsigned()) t.fail("\"fooled\" must be an array of seeds");
                st.fooled.push_back(x.get<std::uint64_t>());
            }
        }
        r.stages.push_back(std::move(st));
    }
    return r;
}

nlohmann::ordered_json to_json(const OodRecord& r) {
    nlohmann::ordered_json j;
    j["model"] = r.model;
    j["pattern"] = r.pattern;
    j["seed"] = r.seed;
    j["setting"] = r.setting;
    j["trained_on"] = r.trained_on;
    j["tested_on"] = r.tested_on;
    j["l1"] = r.l1;
    j["lc"] = r.lc;
    j["mean_count"] = r.mean_count;
    j["graphs"] = r.graphs;
    j["epochs_run"] = r.epochs_run;
    j["best_epoch"] = r.best_epoch;
    j["train_seconds"] = r.train_seconds;
    j["model_file"] = r.model_file;
    if (!r.settings.empty()) j["settings"] = r.settings;
    return j;
}

OodRecord ood_record_from_json(const json& j, const std::string& source, std::int64_t line) {
    const Fields f(j, source, line);
    OodRecord r;
    r.model = f.text("model");
    r.pattern = f.text("pattern");
    r.seed = f.unsigned_integer("seed");
    r.setting = f.text("setting");
    r.trained_on = f.text("trained_on");
    r.tested_on = f.text("tested_on");
    r.l1 = f.number("l1");
    r.lc = f.number("lc");
    r.mean_count = f.number("mean_count");
    r.graphs = f.unsigned_integer("graphs");
    r.epochs_run = static_cast<int>(f.integer("epochs_run"));
    r.best_epoch = static_cast<int>(f.integer("best_epoch"));
    r.train_seconds = f.number("train_seconds");
    r.model_file = f.text("model_file");
    r.settings = f.text_or("settings", "");
    return r;
}

}  // namespace brec
