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
    brec::fuzz::run([&] { brec::read_tu_dataset(dir, "FZ"); });
    return 0;
}
