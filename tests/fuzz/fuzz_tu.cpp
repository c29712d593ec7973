// libFuzzer target: TU datasets. The input is split at NUL bytes into the contents of
// DS_A.txt, DS_graph_indicator.txt, DS_graph_labels.txt, DS_node_labels.txt and
// DS_edge_labels.txt (missing parts = missing files), written to a scratch directory, and read.
#include <cstdio>
#include <vector>

#include "brec/io/tu.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string& dir = brec::fuzz::scratch_dir();
    const char* names[] = {"FZ_A.txt", "FZ_graph_indicator.txt", "FZ_graph_labels.txt", "FZ_node_labels.txt",
                           "FZ_edge_labels.txt"};
    const std::vector<std::string> parts = brec::fuzz::split(brec::fuzz::text(data, size), 5);
    for (std::size_t i = 0; i < 5; ++i) {
        const std::string path = dir + "/" + names[i];
        if (i < parts.size())
            brec::fuzz::write_file(path, parts[i]);
        else
            std::remove(path.c_str());
    }
    // The graph-by-graph reader: the same graphs, or TuOrderError, where the whole-file reader reads
    // the dataset; an error where it fails.
    bool whole_ok = false;
    brec::TuDataset whole;
    brec::fuzz::run([&] {
        whole = brec::read_tu_dataset(dir, "FZ");
        whole_ok = true;
    });
    bool order = false, stream_ok = false;
    std::vector<brec::Graph> graphs;
    try {
        brec::TuGraphReader reader(dir, "FZ");
        std::vector<brec::Graph> part;
        while (reader.next(3, part))
            for (auto& g : part) graphs.push_back(std::move(g));
        stream_ok = true;
        if (whole_ok) {
            const brec::TuStats &a = whole.stats, &b = reader.stats();
            brec::fuzz::check(a.edges == b.edges && a.self_loops == b.self_loops &&
                                  a.duplicate_edge_lines == b.duplicate_edge_lines &&
                                  a.one_direction_edges == b.one_direction_edges &&
                                  a.isolated_nodes == b.isolated_nodes,
                              "streamed statistics equal the whole-file ones");
        }
    } catch (const brec::TuOrderError&) {
        order = true;
    } catch (const brec::Error&) {
    }
    if (!whole_ok) brec::fuzz::check(!stream_ok, "the stream rejects what the whole-file reader rejects");
    if (whole_ok && !order) {
        brec::fuzz::check(stream_ok, "the stream reads what the whole-file reader reads, in graph order");
        brec::fuzz::check(graphs.size() == whole.graphs.size(), "same graph count");
        for (std::size_t i = 0; i < graphs.size(); ++i)
            brec::fuzz::check(graphs[i].edges() == whole.graphs[i].edges(), "same edges");
    }
    return 0;
}
