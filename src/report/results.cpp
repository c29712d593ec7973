#include "brec/report/results.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"
#include "brec/io/files.hpp"
#include "brec/io/pairs.hpp"
#include "detail/jsonl.hpp"

namespace brec {
namespace {

/// Splits one CSV line; fields may be double-quoted ("" inside quotes is a quote).
std::vector<std::string> split_csv(const std::string& line, const std::string& source, std::int64_t no) {
    std::vector<std::string> out;
    std::string field;
    bool quoted = false, was_quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
                std::size_t k = i + 1;
                while (k < line.size() && std::isspace(static_cast<unsigned char>(line[k]))) ++k;
                if (k < line.size() && line[k] != ',')
                    throw ParseError(source, no, "unexpected text after a closing double quote",
                                     static_cast<std::int64_t>(k));
                i = k - 1;
            } else {
                field += c;
            }
        } else if (c == '"' && trim(field).empty()) {
            quoted = was_quoted = true;
            field.clear();
        } else if (c == ',') {
            out.push_back(was_quoted ? field : trim(field));
            field.clear();
            was_quoted = false;
        } else {
            field += c;
        }
    }
    if (quoted) throw ParseError(source, no, "unterminated double quote");
    out.push_back(was_quoted ? field : trim(field));
    return out;
}

bool parse_u64(const std::string& s, std::uint64_t& out) {
    if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (errno != 0 || *end != '\0') return false;
    out = v;
    return true;
}

bool parse_double(const std::string& s, double& out) {
    if (s.empty()) return false;
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (errno == ERANGE || *end != '\0' || !std::isfinite(v)) return false;
    out = v;
    return true;
}

std::string run_name(const std::pair<std::string, std::uint64_t>& key) {
    return "model " + key.first + " seed " + std::to_string(key.second);
}

std::string model_of(const nlohmann::json& j, const std::string& source, std::int64_t line) {
    for (const char* field : {"model", "method"}) {
        if (!j.contains(field)) continue;
        if (!j[field].is_string() || j[field].get<std::string>().empty())
            throw ParseError(source, line, std::string("\"") + field + "\" must be a non-empty string");
        return j[field].get<std::string>();
    }
    throw ParseError(source, line, "no \"model\" or \"method\" field to name the model");
}

std::uint64_t seed_of(const nlohmann::json& j, const std::string& source, std::int64_t line) {
    for (const char* field : {"seed", "reliability_seed"}) {
        if (!j.contains(field)) continue;
        if (!j[field].is_number_unsigned())
            throw ParseError(source, line, std::string("\"") + field + "\" must be a non-negative integer");
        return j[field].get<std::uint64_t>();
    }
    return 0;
}

/// The {name: {pairs, distinguished, reliability_failures}} object of a summary, checked.
/// `protocol` names the protocol the counts belong to in errors ("" for the headline counts).
std::map<std::string, std::array<long long, 3>> category_counts(const nlohmann::json& categories,
                                                                const std::string& source, std::int64_t line,
                                                                const std::string& protocol) {
    const std::string where = protocol.empty() ? "" : "protocol " + protocol + ": ";
    if (!categories.is_object()) throw ParseError(source, line, where + "\"categories\" must be an object");
    std::map<std::string, std::array<long long, 3>> out;
    for (const auto& [name, c] : categories.items()) {
        std::array<long long, 3> counts{};
        const char* fields[] = {"pairs", "distinguished", "reliability_failures"};
        for (std::size_t f = 0; f < 3; ++f) {
            if (!c.is_object() || !c.contains(fields[f]) || !c[fields[f]].is_number_integer() ||
                c[fields[f]].get<long long>() < 0)
                throw ParseError(source, line,
                                 where + "category '" + name + "' needs a non-negative integer \"" + fields[f] + "\"");
            counts[f] = c[fields[f]].get<long long>();
        }
        if (counts[1] > counts[0])
            throw ParseError(source, line, where + "category '" + name + "' distinguishes more pairs than it has");
        out[name] = counts;
    }
    return out;
}

}  // namespace

std::string SourceLine::str() const { return line > 0 ? file + ":" + std::to_string(line) : file; }

bool SourceLine::operator<(const SourceLine& o) const { return file != o.file ? file < o.file : line < o.line; }

void Provenance::add(const SourceLine& where) {
    const auto at = std::lower_bound(lines.begin(), lines.end(), where);
    if (at == lines.end() || !(*at == where)) lines.insert(at, where);
}

void Provenance::add(const Provenance& other) {
    for (const auto& l : other.lines) add(l);
}

std::string Provenance::str() const {
    std::string out;
    std::size_t i = 0;
    while (i < lines.size()) {
        const std::string& file = lines[i].file;
        out += (out.empty() ? "" : "; ") + file;
        bool first = true;
        while (i < lines.size() && lines[i].file == file) {
            if (lines[i].line <= 0) {
                ++i;
                continue;
            }
            std::size_t j = i;
            while (j + 1 < lines.size() && lines[j + 1].file == file && lines[j + 1].line == lines[j].line + 1) ++j;
            out += (first ? ":" : ",") + std::to_string(lines[i].line);
            if (j > i) out += "-" + std::to_string(lines[j].line);
            first = false;
            i = j + 1;
        }
    }
    return out;
}

void ResultReader::note_model(const std::string& model) {
    if (std::find(model_order_.begin(), model_order_.end(), model) == model_order_.end()) model_order_.push_back(model);
}

void ResultReader::add_file(const std::string& path) {
    if (std::filesystem::is_directory(path))
        add_board(path);
    else
        add_text(read_text_file(path), path);
}

void ResultReader::add_text(const std::string& text, const std::string& source) {
    inputs_.push_back(source);
    const auto lines = split_lines(text);
    std::size_t first = 0;
    while (first < lines.size() && trim(lines[first]).empty()) ++first;
    if (first == lines.size()) throw ParseError(source, 0, "empty file: expected CSV rows or JSON results");
    const bool csv_name = source.size() >= 4 && lower(source.substr(source.size() - 4)) == ".csv";
    if (csv_name || trim(lines[first])[0] != '{') {
        add_csv(lines, source);
        return;
    }
    // One JSON document (a pretty-printed summary.json) or JSON lines.
    const auto whole = nlohmann::json::parse(text, nullptr, false);
    if (!whole.is_discarded() && whole.is_object()) {
        add_json_object(whole, source, static_cast<std::int64_t>(first) + 1);
        return;
    }
    detail::for_each_json_line(text, source, notes_,
                               [&](const nlohmann::json& j, std::int64_t no) { add_json_object(j, source, no); });
}

void ResultReader::add_csv(const std::vector<std::string>& lines, const std::string& source) {
    bool header_allowed = true;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string line = trim(lines[i]);
        const auto no = static_cast<std::int64_t>(i) + 1;
        if (line.empty() || line[0] == '#') continue;
        auto f = split_csv(line, source, no);
        if (header_allowed && lower(f[0]) == "task") {
            header_allowed = false;
            continue;
        }
        header_allowed = false;
        if (f.size() != 4 && f.size() != 5)
            throw ParseError(
                source, no,
                "expected task,model,seed,value[,direction] but found " + std::to_string(f.size()) + " fields");
        ResultRecord r;
        r.task = f[0];
        r.model = f[1];
        if (r.task.empty()) throw ParseError(source, no, "empty task name");
        if (r.model.empty()) throw ParseError(source, no, "empty model name");
        if (!parse_u64(f[2], r.seed))
            throw ParseError(source, no, "seed must be a non-negative integer, found '" + f[2] + "'");
        if (!parse_double(f[3], r.value))
            throw ParseError(source, no, "value must be a finite number, found '" + f[3] + "'");
        if (f.size() == 5 && !f[4].empty()) {
            const std::string d = lower(f[4]);
            if (d != "max" && d != "min")
                throw ParseError(source, no, "direction must be max or min, found '" + f[4] + "'");
            r.higher_is_better = d == "max";
        }
        const SourceLine here{source, no};
        r.source.add(here);
        if (f.size() == 5 && !f[4].empty()) {
            const auto [it, fresh] = csv_direction_.emplace(r.task, std::make_pair(r.higher_is_better, here));
            if (!fresh && it->second.first != r.higher_is_better)
                throw ParseError(source, no,
                                 "task '" + r.task + "' has direction " + (it->second.first ? "max" : "min") + " at " +
                                     it->second.second.str());
        }
        note_model(r.model);
        csv_.push_back(std::move(r));
    }
}

bool ResultReader::SummaryCounts::operator==(const SummaryCounts& o) const {
    const auto same = [](const ProtocolCount& a, const ProtocolCount& b) {
        return a.known == b.known && a.distinguished == b.distinguished &&
               a.reliability_failures == b.reliability_failures;
    };
    return pairs == o.pairs && same(hotelling, o.hotelling) && same(brec_reference, o.brec_reference);
}

void ResultReader::add_json_object(const nlohmann::json& j, const std::string& source, std::int64_t line) {
    if (j.contains("categories")) {
        add_summary(j, source, line);
        return;
    }
    PairResult p;
    p.source = SourceLine{source, line};
    if (is_eval_record(j)) {
        const EvalRecord e = eval_record_from_json(j, source, line);
        if (e.model.empty()) throw ParseError(source, line, "\"model\" must be a non-empty string");
        if (!e.bound.empty()) {
            if (e.bound != "1wl" && e.bound != "2fwl" && e.bound != "3fwl")
                throw ParseError(source, line, "\"bound\" must be 1wl, 2fwl or 3fwl, got '" + e.bound + "'");
            const auto [it, fresh] = bounds_.emplace(e.model, std::make_pair(e.bound, SourceLine{source, line}));
            if (!fresh && it->second.first != e.bound)
                throw ParseError(source, line,
                                 "model " + e.model + " has bound " + e.bound + " here but " + it->second.first +
                                     " at " + it->second.second.str());
        }
        if (!e.settings_id.empty() && !options_.mixed_settings) {
            // Records written before settings ids existed have none and match any.
            const auto [it, fresh] =
                settings_.emplace(e.model, std::make_pair(e.settings_id, SourceLine{source, line}));
            if (!fresh && it->second.first != e.settings_id)
                throw ParseError(source, line,
                                 "model " + e.model + " was run with settings " + e.settings_id + " here but " +
                                     it->second.first + " at " + it->second.second.str() +
                                     " (runs of other settings measure other things; --mixed-settings merges them)");
        }
        p.id = e.id;
        p.category = e.category;
        p.rpc = true;
        p.skipped = !e.skipped.empty();
        p.seconds = e.seconds;
        if (p.skipped) {
            // A pair that was not run counts as not distinguished and not as a failure.
            p.hotelling = p.brec_reference = PairDecision{true, false, true};
        } else {
            p.hotelling = PairDecision{true, e.hotelling.distinguished, e.hotelling.reliable, e.hotelling.t2_test,
                                       e.hotelling.threshold};
            if (e.has_reference)
                p.brec_reference = PairDecision{true, e.brec_reference.distinguished, e.brec_reference.reliable,
                                                e.brec_reference.t2_test, e.brec_reference.threshold};
            else if (options_.protocol == Protocol::brec_reference)
                throw ParseError(source, line,
                                 "no brec_reference decision: the record was written before both "
                                 "RPC protocols were recorded, so only the hotelling protocol can "
                                 "be reported from it");
        }
        add_pair({e.model, e.seed}, std::move(p));
        return;
    }
    if (is_wl_record(j)) {
        const WlRecord w = wl_record_from_json(j, source, line);
        if (w.method.empty()) throw ParseError(source, line, "\"method\" must be a non-empty string");
        p.id = w.id;
        p.category = w.category;
        // A WL test has one decision, whatever RPC protocol the report counts.
        p.hotelling = p.brec_reference = PairDecision{true, w.distinguished, !w.reliability_failure};
        add_pair({w.method, w.reliability_seed}, std::move(p));
        return;
    }
    if (j.contains("id") && j.contains("distinguished")) {
        // A hand-made record (or another tool's) with one decision and no T² values.
        if (!j["id"].is_number_integer()) throw ParseError(source, line, "\"id\" must be an integer");
        if (!j["distinguished"].is_boolean()) throw ParseError(source, line, "\"distinguished\" must be true or false");
        if (!j.contains("category") || !j["category"].is_string())
            throw ParseError(source, line, "per-pair record without a \"category\" string");
        const RunKey key{model_of(j, source, line), seed_of(j, source, line)};
        p.id = j["id"].get<PairId>();
        p.category = j["category"].get<std::string>();
        PairDecision d{true, j["distinguished"].get<bool>(), true};
        if (j.contains("reliable")) {
            if (!j["reliable"].is_boolean()) throw ParseError(source, line, "\"reliable\" must be true or false");
            d.reliable = j["reliable"].get<bool>();
        } else if (j.contains("reliability_failure")) {
            if (!j["reliability_failure"].is_boolean())
                throw ParseError(source, line, "\"reliability_failure\" must be true or false");
            d.reliable = !j["reliability_failure"].get<bool>();
        }
        p.hotelling = p.brec_reference = d;
        add_pair(key, std::move(p));
        return;
    }
    throw ParseError(source, line,
                     "expected a summary object (with \"categories\") or a per-pair record (with "
                     "\"id\" and \"distinguished\")");
}

void ResultReader::add_pair(const RunKey& key, PairResult p) {
    note_model(key.first);
    if (!summaries_.count(key) && !pairs_.count(key)) run_order_.push_back(key);
    auto& run = pairs_[key];
    const auto it = run.find(p.id);
    if (it == run.end()) {
        run.emplace(p.id, std::move(p));
        return;
    }
    const auto same = [](const PairDecision& a, const PairDecision& b) {
        return a.known == b.known && a.distinguished == b.distinguished && a.reliable == b.reliable;
    };
    const PairResult& o = it->second;
    if (o.category != p.category || o.rpc != p.rpc || o.skipped != p.skipped || !same(o.hotelling, p.hotelling) ||
        !same(o.brec_reference, p.brec_reference))
        throw ParseError(p.source.file, p.source.line,
                         "pair " + std::to_string(p.id) + " of " + run_name(key) + " conflicts with the record at " +
                             o.source.str());
    // The same record in two shards or twice in one file: counted once.
}

void ResultReader::add_summary(const nlohmann::json& j, const std::string& source, std::int64_t line) {
    const RunKey key{model_of(j, source, line), seed_of(j, source, line)};
    Summary s;
    s.source = SourceLine{source, line};
    if (j.contains("shard") && j["shard"].is_string()) s.shard = j["shard"].get<std::string>();
    // Eval summaries name a model, WL ones a method: only the former are RPC results.
    s.rpc = j.contains("model");
    for (const auto& [name, c] : category_counts(j["categories"], source, line, "")) s.categories[name].pairs = c[0];
    const auto set = [&](Protocol p, const std::string& name, long long distinguished, long long failures) {
        auto& count = p == Protocol::hotelling ? s.categories[name].hotelling : s.categories[name].brec_reference;
        count = ProtocolCount{true, static_cast<int>(distinguished), static_cast<int>(failures)};
    };
    if (j.contains("protocols")) {
        const auto& protocols = j["protocols"];
        if (!protocols.is_object()) throw ParseError(source, line, "\"protocols\" must be an object");
        for (const Protocol p : all_protocols()) {
            const std::string pname = protocol_name(p);
            if (!protocols.contains(pname)) continue;
            const auto& pj = protocols[pname];
            if (!pj.is_object() || !pj.contains("categories"))
                throw ParseError(source, line, "protocol " + pname + " needs a \"categories\" object");
            const auto counts = category_counts(pj["categories"], source, line, pname);
            for (const auto& [name, c] : counts) {
                const auto it = s.categories.find(name);
                if (it == s.categories.end() || it->second.pairs != c[0])
                    throw ParseError(source, line,
                                     "protocol " + pname + ": category '" + name +
                                         "' does not have the pairs of the headline counts");
                set(p, name, c[1], c[2]);
            }
            if (counts.size() != s.categories.size())
                throw ParseError(source, line, "protocol " + pname + " lacks categories of the headline counts");
        }
    } else {
        // One decision per pair: an eval summary written before both protocols were recorded
        // (hotelling), or a WL summary, whose decision holds under either protocol.
        for (const auto& [name, c] : category_counts(j["categories"], source, line, "")) {
            set(Protocol::hotelling, name, c[1], c[2]);
            if (!s.rpc) set(Protocol::brec_reference, name, c[1], c[2]);
        }
    }
    if (s.rpc && !s.categories.empty()) {
        const auto& first = s.categories.begin()->second;
        const ProtocolCount& read = options_.protocol == Protocol::hotelling ? first.hotelling : first.brec_reference;
        if (!read.known)
            throw ParseError(source, line,
                             std::string("summary without the ") + protocol_name(options_.protocol) +
                                 " protocol's counts" +
                                 (j.contains("protocols") ? ""
                                                          : " (written before both RPC protocols were recorded, so "
                                                            "only the hotelling protocol can be reported from it)"));
    }
    note_model(key.first);
    if (!summaries_.count(key) && !pairs_.count(key)) run_order_.push_back(key);
    summaries_[key].push_back(std::move(s));
}

ResultSet ResultReader::finish() const {
    ResultSet rs;
    rs.inputs = inputs_;
    rs.notes = notes_;
    rs.boards = boards_;
    // BREC runs: fine category -> pairs, each protocol's counts, and the lines they came from.
    struct Counts {
        long long pairs = 0;
        ProtocolCount hotelling{true, 0, 0}, brec_reference{true, 0, 0};
        bool rpc = false;
        Provenance where;

        ProtocolCount& protocol(Protocol p) { return p == Protocol::hotelling ? hotelling : brec_reference; }
        const ProtocolCount& protocol(Protocol p) const {
            return p == Protocol::hotelling ? hotelling : brec_reference;
        }
        void add(const Counts& o) {
            pairs += o.pairs;
            for (const Protocol p : all_protocols()) {
                auto& mine = protocol(p);
                const auto& theirs = p == Protocol::hotelling ? o.hotelling : o.brec_reference;
                mine.known = mine.known && theirs.known;
                mine.distinguished += theirs.distinguished;
                mine.reliability_failures += theirs.reliability_failures;
            }
            rpc = rpc || o.rpc;
            where.add(o.where);
        }
    };
    const Protocol read = options_.protocol;
    // The summaries of a run merged into counts per category: a whole-run summary wins over
    // shard summaries, distinct shards are summed, two different summaries of one shard conflict.
    auto merge_summaries = [&](const RunKey& key, const std::vector<Summary>& summaries,
                               std::map<std::string, Counts>& cats, bool strict) {
        std::map<std::string, const Summary*> by_shard;
        for (const auto& s : summaries) {
            const auto found = by_shard.find(s.shard);
            if (found == by_shard.end()) {
                by_shard[s.shard] = &s;
            } else if (found->second->categories != s.categories) {
                if (!strict) return false;
                throw ParseError(s.source.file, s.source.line,
                                 "summary of " + run_name(key) + (s.shard.empty() ? "" : " shard " + s.shard) +
                                     " conflicts with the one at " + found->second->source.str());
            }
        }
        if (by_shard.count("") && by_shard.size() > 1) {
            if (strict)
                rs.notes.push_back(run_name(key) + ": whole-run summary at " + by_shard[""]->source.str() +
                                   " used, shard summaries ignored");
            const Summary* whole = by_shard[""];
            by_shard.clear();
            by_shard[""] = whole;
        }
        for (const auto& [shard, s] : by_shard)
            for (const auto& [name, v] : s->categories) {
                Counts c;
                c.pairs = v.pairs;
                c.hotelling = v.hotelling;
                c.brec_reference = v.brec_reference;
                c.rpc = s->rpc;
                c.where.add(s->source);
                cats[name].add(c);
            }
        return true;
    };
    std::vector<ResultRecord> brec_records;
    std::set<std::string> brec_tasks;
    for (const auto& key : run_order_) {
        std::map<std::string, Counts> cats;
        const auto pit = pairs_.find(key);
        const auto sit = summaries_.find(key);
        if (pit != pairs_.end()) {
            for (const auto& [id, p] : pit->second) {
                Counts c;
                c.pairs = 1;
                for (const Protocol pr : all_protocols()) {
                    const PairDecision& d = p.decision(pr);
                    c.protocol(pr) = ProtocolCount{d.known, d.counts() ? 1 : 0, d.known && !d.reliable ? 1 : 0};
                }
                c.rpc = p.rpc;
                c.where.add(p.source);
                cats[p.category].add(c);
            }
            // Per-pair records are the raw data and win. A summary that agrees with them (the
            // last line of `brec wl --json`, the summary.json of a complete run) needs no note.
            if (sit != summaries_.end()) {
                std::map<std::string, Counts> from_summaries;
                bool agree =
                    merge_summaries(key, sit->second, from_summaries, false) && from_summaries.size() == cats.size();
                for (const auto& [name, c] : cats) {
                    const auto f = from_summaries.find(name);
                    agree = agree && f != from_summaries.end() && f->second.pairs == c.pairs &&
                            f->second.protocol(read).known &&
                            f->second.protocol(read).distinguished == c.protocol(read).distinguished &&
                            f->second.protocol(read).reliability_failures == c.protocol(read).reliability_failures;
                }
                if (!agree)
                    rs.notes.push_back(run_name(key) + ": summary object(s) at " + sit->second[0].source.str() +
                                       (sit->second.size() > 1 ? " and others" : "") +
                                       " disagree with the per-pair records (a partial, resumed or "
                                       "multi-seed run?); the per-pair records are used");
            }
        } else {
            merge_summaries(key, sit->second, cats, true);
        }
        // Fine categories -> tasks (groups unless fine).
        std::map<std::string, Counts> tasks;
        for (const auto& [name, c] : cats) {
            std::string task = name;
            if (!options_.fine) {
                const std::string g = brec_group_of(name);
                if (g != "Other") task = g;
            }
            tasks[task].add(c);
        }
        for (const auto& [task, c] : tasks) {
            if (c.pairs == 0) continue;
            ResultRecord r;
            r.task = task;
            r.model = key.first;
            r.seed = key.second;
            r.value = c.protocol(read).distinguished;
            r.pairs = static_cast<int>(c.pairs);
            r.reliability_failures = c.protocol(read).reliability_failures;
            r.source = c.where;
            r.rpc = c.rpc;
            r.hotelling = c.hotelling;
            r.brec_reference = c.brec_reference;
            rs.rpc = rs.rpc || r.rpc;
            rs.both_protocols = rs.both_protocols || (r.rpc && r.brec_reference.known);
            brec_tasks.insert(task);
            brec_records.push_back(std::move(r));
        }
    }
    rs.records = csv_;
    rs.records.insert(rs.records.end(), brec_records.begin(), brec_records.end());
    if (rs.records.empty())
        throw InvalidArgument("no results found in " + std::to_string(inputs_.size()) + " input file(s)");
    rs.brec = csv_.empty();
    // A (task, model, seed) may occur once.
    std::map<std::tuple<std::string, std::string, std::uint64_t>, const ResultRecord*> seen;
    for (const auto& r : rs.records) {
        const auto [it, fresh] = seen.emplace(std::make_tuple(r.task, r.model, r.seed), &r);
        if (!fresh) {
            // A CSV row has one line; a merged BREC record names its first file only.
            const auto& lines = r.source.lines;
            const SourceLine at = lines.size() == 1 ? lines[0]
                                  : lines.empty()   ? SourceLine{}
                                                    : SourceLine{lines[0].file, 0};
            throw ParseError(at.file, at.line,
                             "task '" + r.task + "', model '" + r.model + "', seed " + std::to_string(r.seed) +
                                 " given twice (also at " + it->second->source.str() + ")");
        }
    }
    // A CSV direction given on any row of a task applies to its rows without one.
    for (auto& r : rs.records) {
        const auto it = csv_direction_.find(r.task);
        if (it != csv_direction_.end()) r.higher_is_better = it->second.first;
    }
    // Task order: BREC groups / fine categories in official order, then the rest as first seen.
    const auto& official = options_.fine ? brec_fine_categories() : brec_groups();
    for (const auto& t : official)
        if (brec_tasks.count(t)) rs.tasks.push_back(t);
    for (const auto& r : rs.records)
        if (std::find(rs.tasks.begin(), rs.tasks.end(), r.task) == rs.tasks.end()) rs.tasks.push_back(r.task);
    rs.models = model_order_;
    rs.protocol = read;
    for (const auto& key : run_order_) {
        const auto pit = pairs_.find(key);
        if (pit == pairs_.end()) continue;
        const auto bound = bounds_.find(key.first);
        PairRun run{key.first, key.second, bound == bounds_.end() ? "" : bound->second.first, {}};
        for (const auto& [id, p] : pit->second) run.pairs.push_back(p);
        rs.runs.push_back(std::move(run));
    }
    return rs;
}

ResultSet read_results(const std::vector<std::string>& paths, const ResultReadOptions& options) {
    ResultReader reader(options);
    for (const auto& p : paths) reader.add_file(p);
    return reader.finish();
}

}  // namespace brec
