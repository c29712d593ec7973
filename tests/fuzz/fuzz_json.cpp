// libFuzzer target: dataset JSON. Property: what parses is reproduced by the writer.
#include "brec/io/dataset_json.hpp"
#include "fuzz_common.hpp"

namespace {

// What one iteration may build: a graph object declares its vertex count "n" (the reader allows up
// to 2^26, which takes seconds under the sanitizers and the round trip); inputs declaring more than
// kMaxDeclared anywhere are skipped.
constexpr std::int64_t kMaxDeclared = 1 << 16;

bool declares_more(const nlohmann::json& j) {
    if (j.is_object()) {
        const auto n = j.find("n");
        if (n != j.end() && n->is_number() && n->get<double>() > static_cast<double>(kMaxDeclared)) return true;
    }
    if (j.is_structured())
        for (const auto& e : j)
            if (declares_more(e)) return true;
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string s = brec::fuzz::text(data, size);
    if (declares_more(nlohmann::json::parse(s, nullptr, false))) return 0;
    brec::fuzz::run([&] {
        const brec::JsonDataset d = brec::parse_dataset_json(s, "fuzz.json");
        const nlohmann::json j =
            d.paired ? brec::pairs_to_json(d.pairs) : brec::graphs_to_json(d.graphs, d.graph_labels, d.label_rows);
        const brec::JsonDataset back = brec::parse_dataset_json(j.dump(), "again.json");
        brec::fuzz::check(back.paired == d.paired && back.graphs == d.graphs && back.graph_labels == d.graph_labels &&
                              back.label_rows == d.label_rows && back.pairs.size() == d.pairs.size(),
                          "json round trip");
    });
    return 0;
}
