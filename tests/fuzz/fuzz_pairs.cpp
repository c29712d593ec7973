// libFuzzer target: BREC pair TSV text, then the pair selection flags on what parsed.
#include <vector>

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
    // The batch reader of a pair file: the selection select_pairs makes on what parse_pair_text
    // parses, or an error where either fails.
    {
        const std::string path = brec::fuzz::scratch_dir() + "/pairs.tsv";
        brec::fuzz::write_file(path, s);
        brec::PairSelection sel;
        sel.shard_index = 1;
        sel.shard_count = 2;
        std::vector<brec::PairId> want, got;
        bool want_ok = false, got_ok = false;
        brec::fuzz::run([&] {
            const brec::PairDataset ds = brec::parse_pair_text(s, path);
            for (std::size_t i : brec::select_pairs(ds, sel)) want.push_back(ds.pairs[i].id);
            want_ok = true;
        });
        brec::fuzz::run([&] {
            brec::PairFileReader reader(path, sel);
            std::vector<brec::GraphPairRecord> part;
            while (reader.next(2, part, 16))
                for (const auto& p : part) got.push_back(p.id);
            got_ok = true;
        });
        brec::fuzz::check(want_ok == got_ok, "the batch reader fails where the whole-text reader fails");
        // (Pairs before a bad line come out before the error does.)
        brec::fuzz::check(!got_ok || want == got, "the batch reader selects what select_pairs selects");
    }
    // The id-range and shard syntax of --pairs / --shard.
    brec::fuzz::run([&] { brec::parse_id_ranges(s.substr(0, 64)); });
    brec::fuzz::run([&] {
        int i = 0, n = 0;
        brec::parse_shard(s.substr(0, 32), i, n);
        brec::fuzz::check(1 <= i && i <= n, "shard in range");
    });
    return 0;
}
