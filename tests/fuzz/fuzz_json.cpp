// libFuzzer target: dataset JSON. Property: what parses is reproduced by the writer.
#include "brec/io/dataset_json.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string s = brec::fuzz::text(data, size);
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
