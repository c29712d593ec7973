// libFuzzer target: TU datasets. The input is split at NUL bytes into the contents of
// DS_A.txt, DS_graph_indicator.txt, DS_graph_labels.txt, DS_node_labels.txt and
// DS_edge_labels.txt (missing parts = missing files), written to a scratch directory, and read.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <vector>

#include "brec/io/tu.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string dir = [] {
        char tmpl[] = "/tmp/brec_fuzz_tu_XXXXXX";
        const char* d = ::mkdtemp(tmpl);
        return std::string(d ? d : "/tmp");
    }();
    const char* names[] = {"FZ_A.txt", "FZ_graph_indicator.txt", "FZ_graph_labels.txt", "FZ_node_labels.txt",
                           "FZ_edge_labels.txt"};
    const std::string s = brec::fuzz::text(data, size);
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t z = s.find('\0', start);
        parts.push_back(s.substr(start, z == std::string::npos ? std::string::npos : z - start));
        if (z == std::string::npos || parts.size() == 5) break;
        start = z + 1;
    }
    for (std::size_t i = 0; i < 5; ++i) {
        const std::string path = dir + "/" + names[i];
        if (i < parts.size())
            std::ofstream(path, std::ios::binary | std::ios::trunc) << parts[i];
        else
            std::remove(path.c_str());
    }
    brec::fuzz::run([&] { brec::read_tu_dataset(dir, "FZ"); });
    return 0;
}
