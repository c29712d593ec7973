// libFuzzer target: BREC pair TSV text, then the pair selection flags on what parsed.
#include "brec/io/pairs.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string s = brec::fuzz::text(data, size);
    // The graphs of a pair file are graph6/sparse6 records: at most 2^16 vertices per iteration
    // (see fuzz_graph6.cpp).
    if (brec::fuzz::declares_more_than(s, 1u << 16)) return 0;
    brec::fuzz::run([&] {
        const brec::PairDataset ds = brec::parse_pair_text(s, "fuzz.tsv");
        brec::fuzz::check(!ds.pairs.empty(), "a parsed pair file has pairs");
        brec::PairSelection sel;
        sel.categories = {ds.pairs[0].category};
        brec::fuzz::check(!brec::select_pairs(ds, sel).empty(), "a present category selects");
    });
    // The id-range and shard syntax of --pairs / --shard.
    brec::fuzz::run([&] { brec::parse_id_ranges(s.substr(0, 64)); });
    brec::fuzz::run([&] {
        int i = 0, n = 0;
        brec::parse_shard(s.substr(0, 32), i, n);
        brec::fuzz::check(1 <= i && i <= n, "shard in range");
    });
    return 0;
}
