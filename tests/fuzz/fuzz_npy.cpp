// libFuzzer target: .npy string arrays and the pair layouts built from them.
#include "brec/io/npy.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string s = brec::fuzz::text(data, size);
    brec::fuzz::run([&] {
        const brec::NpyStringArray a = brec::parse_npy_strings(s, "fuzz.npy");
        brec::fuzz::check(a.values.size() == a.header.count(), "one value per element");
        brec::fuzz::run([&] {
            // Values that parse as an array must also survive the writer and be read back.
            std::size_t total = 0;
            for (const auto& v : a.values) total += v.size();
            if (total > (1u << 16)) return;
            const std::string again = brec::format_npy_strings(a.values, a.header.shape);
            brec::fuzz::check(brec::parse_npy_strings(again, "again.npy").values == a.values, "npy writer round trip");
        });
        // The values are graph6/sparse6 records: at most 2^16 vertices per iteration (see
        // fuzz_graph6.cpp).
        for (const auto& v : a.values)
            if (brec::fuzz::declares_more_than(v, 1u << 16)) return;
        brec::npy_pairs_from_array(a, "fuzz.npy");
    });
    return 0;
}
