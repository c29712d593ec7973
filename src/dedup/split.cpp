#include "brec/dedup/split.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "brec/core/error.hpp"
#include "brec/io/dataset_json.hpp"
#include "brec/io/files.hpp"

namespace brec {
namespace {

struct Line {
    std::int64_t number = 0;
    std::vector<std::string> tokens;
};

/// Non-comment lines split on blanks and commas.
std::vector<Line> token_lines(const std::string& path) {
    const auto lines = split_lines(read_text_file(path));
    std::vector<Line> out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string s = lines[i];
        if (const auto hash = s.find('#'); hash != std::string::npos) s.resize(hash);
        Line l;
        l.number = static_cast<std::int64_t>(i + 1);
        std::string cur;
        for (char c : s) {
            if (c == ' ' || c == '\t' || c == ',' || c == ';' || c == '\r') {
                if (!cur.empty()) l.tokens.push_back(cur);
                cur.clear();
            } else {
                cur += c;
            }
        }
        if (!cur.empty()) l.tokens.push_back(cur);
        if (!l.tokens.empty()) out.push_back(std::move(l));
    }
    return out;
}

std::int64_t need_int(const std::string& tok, const std::string& path, std::int64_t line, const char* what) {
    std::int64_t v = 0;
    if (!parse_int64(tok, v))
        throw ParseError(path, line, std::string("expected an integer ") + what + ", found '" + tok + "'");
    return v;
}

std::size_t need_index(std::int64_t v, std::size_t n, bool one_based, const std::string& path, std::int64_t line) {
    const std::int64_t lo = one_based ? 1 : 0;
    if (v < lo || v >= static_cast<std::int64_t>(n) + lo)
        throw ParseError(path, line,
                         "graph index " + std::to_string(v) + " out of range [" + std::to_string(lo) + "," +
                             std::to_string(static_cast<std::int64_t>(n) + lo - 1) + "]" +
                             (one_based ? "" : " (indices are read as 0-based; is the file 1-based?)"));
    return static_cast<std::size_t>(v - lo);
}

void finish_fold(Fold& f, const std::string& path, std::int64_t line) {
    std::sort(f.train.begin(), f.train.end());
    std::sort(f.test.begin(), f.test.end());
    if (std::adjacent_find(f.test.begin(), f.test.end()) != f.test.end())
        throw ParseError(path, line, f.name + ": a test index is listed twice");
    f.train.erase(std::unique(f.train.begin(), f.train.end()), f.train.end());
    std::vector<std::size_t> both;
    std::set_intersection(f.train.begin(), f.train.end(), f.test.begin(), f.test.end(), std::back_inserter(both));
    if (!both.empty())
        throw ParseError(path, line, f.name + ": graph " + std::to_string(both[0]) + " is in both train and test");
    if (f.test.empty()) throw ParseError(path, line, f.name + ": empty test set");
}

std::vector<std::size_t> complement_of(const std::vector<std::size_t>& test, std::size_t n) {
    std::vector<char> in(n, 0);
    for (auto i : test) in[i] = 1;
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < n; ++i)
        if (!in[i]) out.push_back(i);
    return out;
}

std::vector<std::size_t> json_indices(const nlohmann::json& j, std::size_t n, bool one_based, const std::string& path,
                                      const std::string& where) {
    if (!j.is_array()) throw ParseError(path, 0, where + ": expected an array of graph indices");
    std::vector<std::size_t> out;
    for (const auto& x : j) {
        if (!x.is_number_integer())
            throw ParseError(path, 0, where + ": expected integer graph indices, found " + x.dump());
        try {
            out.push_back(need_index(x.get<std::int64_t>(), n, one_based, path, 0));
        } catch (const ParseError& e) {
            throw ParseError(path, 0, where + ": " + e.problem());
        }
    }
    return out;
}

std::vector<Fold> read_json_split(const std::string& path, const std::string& text, std::size_t n, bool one_based) {
    nlohmann::json j = parse_json_document(text, path);
    if (j.is_object()) j = nlohmann::json::array({j});
    if (!j.is_array()) throw ParseError(path, 0, "expected a JSON list of folds {\"train\": [...], \"test\": [...]}");
    std::vector<Fold> folds;
    for (std::size_t k = 0; k < j.size(); ++k) {
        const auto& f = j[k];
        Fold fold;
        fold.name = "fold " + std::to_string(k + 1);
        if (!f.is_object() || !f.contains("test"))
            throw ParseError(path, 0, fold.name + ": expected an object with a \"test\" list");
        fold.test = json_indices(f["test"], n, one_based, path, fold.name + " test");
        if (f.contains("train")) fold.train = json_indices(f["train"], n, one_based, path, fold.name + " train");
        if (f.contains("model_selection")) {
            for (const auto& ms : f["model_selection"]) {
                for (const char* key : {"train", "validation"})
                    if (ms.contains(key)) {
                        const auto more = json_indices(ms[key], n, one_based, path, fold.name + " model_selection");
                        fold.train.insert(fold.train.end(), more.begin(), more.end());
                    }
            }
        }
        if (!f.contains("train") && !f.contains("model_selection")) fold.train = complement_of(fold.test, n);
        finish_fold(fold, path, 0);
        folds.push_back(std::move(fold));
    }
    if (folds.empty()) throw ParseError(path, 0, "no folds in the JSON split file");
    return folds;
}

}  // namespace

std::vector<Fold> read_split_file(const std::string& path, std::size_t n, bool one_based) {
    const std::string text = read_text_file(path);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) throw ParseError(path, 0, "file is empty");
    if (text[first] == '[' || text[first] == '{') return read_json_split(path, text, n, one_based);
    const auto lines = token_lines(path);
    if (lines.empty()) throw ParseError(path, 0, "file has no data lines");
    std::int64_t dummy = 0;
    const bool role_lines = lines[0].tokens.size() == 2 && !parse_int64(lines[0].tokens[1], dummy);
    if (role_lines) {
        Fold f;
        f.name = "split";
        for (const auto& l : lines) {
            if (l.tokens.size() != 2)
                throw ParseError(path, l.number,
                                 "expected 'INDEX train|test', found " + std::to_string(l.tokens.size()) + " columns");
            const std::size_t i =
                need_index(need_int(l.tokens[0], path, l.number, "graph index"), n, one_based, path, l.number);
            std::string role = l.tokens[1];
            std::transform(role.begin(), role.end(), role.begin(), [](unsigned char c) { return std::tolower(c); });
            if (role == "train" || role == "training")
                f.train.push_back(i);
            else if (role == "test" || role == "testing")
                f.test.push_back(i);
            else
                throw ParseError(path, l.number, "expected role 'train' or 'test', found '" + l.tokens[1] + "'");
        }
        finish_fold(f, path, lines.back().number);
        return {f};
    }
    const bool single = std::all_of(lines.begin(), lines.end(), [](const Line& l) { return l.tokens.size() == 1; });
    std::vector<Fold> folds;
    if (single) {
        Fold f;
        f.name = "split";
        for (const auto& l : lines)
            f.test.push_back(
                need_index(need_int(l.tokens[0], path, l.number, "graph index"), n, one_based, path, l.number));
        std::sort(f.test.begin(), f.test.end());
        if (std::adjacent_find(f.test.begin(), f.test.end()) != f.test.end())
            throw ParseError(path, 0, "a test index is listed twice");
        f.train = complement_of(f.test, n);
        finish_fold(f, path, lines.back().number);
        folds.push_back(std::move(f));
        return folds;
    }
    for (const auto& l : lines) {
        Fold f;
        f.name = "fold " + std::to_string(folds.size() + 1);
        for (const auto& tok : l.tokens)
            f.test.push_back(need_index(need_int(tok, path, l.number, "graph index"), n, one_based, path, l.number));
        std::sort(f.test.begin(), f.test.end());
        if (std::adjacent_find(f.test.begin(), f.test.end()) != f.test.end())
            throw ParseError(path, l.number, f.name + ": a test index is listed twice");
        f.train = complement_of(f.test, n);
        finish_fold(f, path, l.number);
        folds.push_back(std::move(f));
    }
    return folds;
}

std::optional<Label> Predictions::get(std::size_t fold, std::size_t graph) const {
    if (by_fold.empty()) return std::nullopt;
    if (per_fold && fold >= by_fold.size()) return std::nullopt;
    const auto& table = per_fold ? by_fold[fold] : by_fold[0];
    const auto it = table.find(graph);
    if (it == table.end()) return std::nullopt;
    return it->second;
}

Predictions read_predictions(const std::string& path, std::size_t n, bool one_based) {
    const auto lines = token_lines(path);
    if (lines.empty()) throw ParseError(path, 0, "file is empty");
    const std::size_t cols = lines[0].tokens.size();
    if (cols < 1 || cols > 3)
        throw ParseError(
            path, lines[0].number,
            "expected 1 (LABEL), 2 (INDEX LABEL) or 3 (FOLD INDEX LABEL) columns, found " + std::to_string(cols));
    Predictions p;
    p.per_fold = cols == 3;
    for (std::size_t k = 0; k < lines.size(); ++k) {
        const auto& l = lines[k];
        if (l.tokens.size() != cols)
            throw ParseError(path, l.number,
                             "expected " + std::to_string(cols) + " columns like line " +
                                 std::to_string(lines[0].number) + ", found " + std::to_string(l.tokens.size()));
        std::size_t fold = 0, index = k;
        if (cols == 3) {
            const std::int64_t f = need_int(l.tokens[0], path, l.number, "fold number") - (one_based ? 1 : 0);
            if (f < 0 || f > 100000) throw ParseError(path, l.number, "fold number out of range");
            fold = static_cast<std::size_t>(f);
        }
        if (cols >= 2)
            index =
                need_index(need_int(l.tokens[cols - 2], path, l.number, "graph index"), n, one_based, path, l.number);
        else if (k >= n)
            throw ParseError(path, l.number,
                             "more predictions than the " + std::to_string(n) + " graphs of the dataset");
        const Label y = need_int(l.tokens[cols - 1], path, l.number, "predicted label");
        if (p.by_fold.size() <= fold) p.by_fold.resize(fold + 1);
        if (!p.by_fold[fold].emplace(index, y).second)
            throw ParseError(path, l.number, "graph " + std::to_string(index) + " is predicted twice");
    }
    if (cols == 1 && lines.size() != n)
        throw ParseError(path, lines.back().number,
                         "has " + std::to_string(lines.size()) + " predictions for " + std::to_string(n) +
                             " graphs (one label per graph expected)");
    return p;
}

std::vector<std::map<Label, std::size_t>> orbit_train_labels(const Orbits& orbits, const std::vector<Label>& labels,
                                                             const Fold& fold) {
    std::vector<std::map<Label, std::size_t>> counts(orbits.size());
    for (std::size_t i : fold.train) {
        if (i >= orbits.orbit_of.size() || i >= labels.size())
            throw InvalidArgument("train index " + std::to_string(i) + " out of range");
        ++counts[orbits.orbit_of[i]][labels[i]];
    }
    return counts;
}

Label peer_label(const std::map<Label, std::size_t>& counts, std::optional<Label> prediction) {
    std::size_t best = 0;
    for (const auto& [y, c] : counts) best = std::max(best, c);
    if (prediction) {
        const auto it = counts.find(*prediction);
        if (it != counts.end() && it->second == best) return *prediction;
    }
    for (const auto& [y, c] : counts)
        if (c == best) return y;
    throw InvalidArgument("peer_label: an orbit without training labels");
}

FoldReport analyse_fold(const Orbits& orbits, const std::vector<Label>& labels, const Fold& fold,
                        std::size_t fold_index, const Predictions* predictions) {
    FoldReport r;
    r.name = fold.name;
    r.train = fold.train.size();
    r.test = fold.test.size();
    const std::size_t n = orbits.orbit_of.size();
    // Training graphs and their label counts per orbit.
    std::vector<std::size_t> train_count(orbits.size(), 0);
    for (std::size_t i : fold.train) {
        if (i >= n) throw InvalidArgument("analyse_fold: train index " + std::to_string(i) + " out of range");
        ++train_count[orbits.orbit_of[i]];
    }
    const auto train_labels =
        labels.empty() ? std::vector<std::map<Label, std::size_t>>() : orbit_train_labels(orbits, labels, fold);
    const bool acc = predictions != nullptr && !labels.empty();
    r.has_accuracy = acc;
    std::size_t right_test = 0, right_iso = 0, right_new = 0, right_peer = 0;
    for (std::size_t i : fold.test) {
        if (i >= n) throw InvalidArgument("analyse_fold: test index " + std::to_string(i) + " out of range");
        const std::uint32_t o = orbits.orbit_of[i];
        const bool iso = train_count[o] > 0;
        (iso ? r.y_iso : r.y_new) += 1;
        std::optional<Label> pred;
        if (acc) {
            pred = predictions->get(fold_index, i);
            if (!pred) throw InvalidArgument("no prediction for test graph " + std::to_string(i) + " of " + fold.name);
        }
        if (iso && !labels.empty()) {
            const Label peer = peer_label(train_labels[o], pred);
            if (peer != labels[i]) ++r.y_iso_label_conflicts;
            if (acc && peer == labels[i]) ++right_peer;
        }
        if (acc) {
            const bool ok = *pred == labels[i];
            right_test += ok;
            (iso ? right_iso : right_new) += ok;
            if (!iso) right_peer += ok;
        }
    }
    if (acc) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        auto frac = [&](std::size_t a, std::size_t b) {
            return b == 0 ? nan : static_cast<double>(a) / static_cast<double>(b);
        };
        r.acc_test = frac(right_test, r.test);
        r.acc_iso = frac(right_iso, r.y_iso);
        r.acc_new = frac(right_new, r.y_new);
        r.acc_peering = frac(right_peer, r.test);
    }
    return r;
}

}  // namespace brec
