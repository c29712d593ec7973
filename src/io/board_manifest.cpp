#include "brec/io/board_manifest.hpp"

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"

namespace brec {

using nlohmann::json;

namespace {

constexpr const char* kFormat = "brec board manifest";
constexpr int kVersion = 1;

/// Reads fields of one JSON object, each error naming the source and the field's path.
class Fields {
public:
    Fields(const json& j, std::string source, std::string where) : j_(j), source_(std::move(source)), where_(where) {
        if (!j_.is_object()) fail("", "is not a JSON object");
    }
    template <typename T>
    T get(const char* key) const {
        const auto it = j_.find(key);
        if (it == j_.end()) fail(key, "is missing");
        try {
            return it->get<T>();
        } catch (const json::exception&) {
            fail(key, "has the wrong type");
        }
    }
    const json& at(const char* key) const {
        const auto it = j_.find(key);
        if (it == j_.end()) fail(key, "is missing");
        return *it;
    }
    /// Pair ids "0-59,260" ("" = none) read from the field `key`.
    IdRanges ids(const char* key, const std::string& text) const {
        if (text.empty()) return {};
        try {
            return parse_id_ranges(text);
        } catch (const InvalidArgument&) {
            fail(key, "is not a list of pair ids like \"0-59,260\": '" + text + "'");
        }
    }
    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        const std::string name = where_ + (key.empty() || where_.empty() ? "" : ".") + key;
        throw ParseError(source_, 0,
                         "manifest field '" + (name.empty() ? std::string("(top)") : name) + "' " + problem);
    }

private:
    const json& j_;
    std::string source_, where_;
};

json segment_json(const BoardSegment& s) {
    return {{"started", s.started},
            {"ended", s.ended},
            {"brec_version", s.brec_version},
            {"git_commit", s.git_commit},
            {"host", s.host},
            {"cpu", s.cpu},
            {"cores", s.cores},
            {"device", s.device},
            {"gpu", s.gpu},
            {"jobs", s.jobs},
            {"tasks", s.tasks},
            {"wall_seconds", s.wall_seconds},
            {"cpu_seconds", s.cpu_seconds}};
}

BoardSegment segment_from_json(const json& j, const std::string& source, const std::string& where) {
    const Fields f(j, source, where);
    BoardSegment s;
    s.started = f.get<std::string>("started");
    s.ended = f.get<std::string>("ended");
    s.brec_version = f.get<std::string>("brec_version");
    s.git_commit = f.get<std::string>("git_commit");
    s.host = f.get<std::string>("host");
    s.cpu = f.get<std::string>("cpu");
    s.cores = f.get<int>("cores");
    s.device = f.get<std::string>("device");
    s.gpu = f.get<std::string>("gpu");
    s.jobs = f.get<int>("jobs");
    s.tasks = f.get<std::size_t>("tasks");
    s.wall_seconds = f.get<double>("wall_seconds");
    s.cpu_seconds = f.get<double>("cpu_seconds");
    return s;
}

json model_json(const BoardModel& m) {
    json not_run = json::object();
    for (const auto& [seed, ids] : m.not_run)
        if (!ids.empty()) not_run[std::to_string(seed)] = ids.str();
    return {{"name", m.name},
            {"settings_id", m.settings_id},
            {"settings", m.settings},
            {"file", m.file},
            {"pairs", m.pairs.str()},
            {"not_run", not_run},
            {"records", m.records},
            {"estimated_seconds", m.estimated_seconds},
            {"not_run_estimated_seconds", m.not_run_estimated_seconds}};
}

BoardModel model_from_json(const json& j, const std::string& source, const std::string& where) {
    const Fields f(j, source, where);
    BoardModel m;
    m.name = f.get<std::string>("name");
    m.settings_id = f.get<std::string>("settings_id");
    m.settings = f.at("settings");
    m.file = f.get<std::string>("file");
    if (m.file.empty() || m.file.find('/') != std::string::npos) f.fail("file", "must name a file of the directory");
    m.pairs = f.ids("pairs", f.get<std::string>("pairs"));
    const json& not_run = f.at("not_run");
    if (!not_run.is_object()) f.fail("not_run", "is not an object of seeds");
    for (const auto& [seed, ids] : not_run.items()) {
        std::uint64_t value = 0;
        std::size_t used = 0;
        try {
            value = std::stoull(seed, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != seed.size() || seed.empty() || !ids.is_string())
            f.fail("not_run", "must map seeds to pair ids (\"100\": \"360-399\")");
        m.not_run[value] = f.ids("not_run", ids.get<std::string>());
    }
    m.records = f.get<std::size_t>("records");
    m.estimated_seconds = f.get<double>("estimated_seconds");
    m.not_run_estimated_seconds = f.get<double>("not_run_estimated_seconds");
    return m;
}

}  // namespace

const BoardModel* BoardManifest::find(const std::string& name) const {
    for (const BoardModel& m : models)
        if (m.name == name) return &m;
    return nullptr;
}

BoardModel* BoardManifest::find(const std::string& name) {
    return const_cast<BoardModel*>(static_cast<const BoardManifest&>(*this).find(name));
}

json to_json(const BoardManifest& m) {
    json models = json::array(), segments = json::array();
    for (const BoardModel& x : m.models) models.push_back(model_json(x));
    for (const BoardSegment& s : m.segments) segments.push_back(segment_json(s));
    return {{"format", kFormat},
            {"version", kVersion},
            {"dataset", {{"path", m.dataset}, {"sha256", m.dataset_sha256}, {"pairs", m.dataset_pairs}}},
            {"subset", m.subset},
            {"seeds", m.seeds},
            {"max_cost_seconds", m.max_cost_seconds},
            {"models", models},
            {"segments", segments}};
}

BoardManifest board_manifest_from_json(const json& j, const std::string& source) {
    const Fields f(j, source, "");
    if (f.get<std::string>("format") != kFormat) f.fail("format", "is not '" + std::string(kFormat) + "'");
    if (f.get<int>("version") != kVersion) f.fail("version", "is not " + std::to_string(kVersion));
    BoardManifest m;
    const Fields d(f.at("dataset"), source, "dataset");
    m.dataset = d.get<std::string>("path");
    m.dataset_sha256 = d.get<std::string>("sha256");
    m.dataset_pairs = d.get<std::size_t>("pairs");
    m.subset = f.get<std::string>("subset");
    if (m.subset != "paper" && m.subset != "all") f.fail("subset", "is neither 'paper' nor 'all'");
    m.seeds = f.get<std::vector<std::uint64_t>>("seeds");
    m.max_cost_seconds = f.get<double>("max_cost_seconds");
    const json& models = f.at("models");
    const json& segments = f.at("segments");
    if (!models.is_array()) f.fail("models", "is not an array");
    if (!segments.is_array()) f.fail("segments", "is not an array");
    for (std::size_t i = 0; i < models.size(); ++i) {
        BoardModel model = model_from_json(models[i], source, "models[" + std::to_string(i) + "]");
        if (m.find(model.name)) f.fail("models", "names model " + model.name + " twice");
        m.models.push_back(std::move(model));
    }
    for (std::size_t i = 0; i < segments.size(); ++i)
        m.segments.push_back(segment_from_json(segments[i], source, "segments[" + std::to_string(i) + "]"));
    return m;
}

std::string board_manifest_path(const std::string& dir) { return dir + "/manifest.json"; }

BoardManifest read_board_manifest(const std::string& dir) {
    const std::string path = board_manifest_path(dir);
    const json j = json::parse(read_text_file(path), nullptr, false);
    if (j.is_discarded()) throw ParseError(path, 0, "not JSON: expected a board manifest");
    return board_manifest_from_json(j, path);
}

void write_board_manifest(const std::string& dir, const BoardManifest& m) {
    write_text_file_atomic(board_manifest_path(dir), to_json(m).dump(1) + "\n");
}

}  // namespace brec
