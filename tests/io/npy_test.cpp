#include "brec/io/npy.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <functional>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "brec/io/graph6.hpp"
#include "brec/iso/iso.hpp"
#include "common/test_graphs.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::error_of;

// Fixtures written by NumPy 1.24 itself (tests/data/npy/make_fixtures.py), an independent writer.
const std::string kNpy = std::string(BREC_SOURCE_DIR) + "/tests/data/npy/";
const std::string kBrec = std::string(BREC_SOURCE_DIR) + "/datasets/brec/brec_v3_pairs.tsv";

const PairDataset& official() {
    static const PairDataset ds = read_pair_file(kBrec);
    return ds;
}

std::vector<std::string> first_three_flat() {
    std::vector<std::string> v;
    for (int i = 0; i < 3; ++i) {
        v.push_back(to_graph6(official().pairs[i].a));
        v.push_back(to_graph6(official().pairs[i].b));
    }
    return v;
}

std::string tmp(const std::string& name) { return testing::temp_path("npy", name); }

// A v1.0 file with the given header dict and data bytes.
std::string npy_bytes(const std::string& dict, const std::string& data, char major = 1) {
    std::string h = dict;
    h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
    h.push_back('\n');
    std::string out("\x93NUMPY", 6);
    out.push_back(major);
    out.push_back('\0');
    out.push_back(static_cast<char>(h.size() & 0xff));
    out.push_back(static_cast<char>(h.size() >> 8));
    return out + h + data;
}

TEST(Npy, ReadsEveryVariantNumpyWrites) {
    const auto expected = first_three_flat();
    struct Case {
        const char* file;
        std::vector<std::size_t> shape;
        const char* descr;
        int version;
    };
    const Case cases[] = {
        {"pairs_flat_U_v1.npy", {6}, "<U9", 1},        {"pairs_rows_S_v1.npy", {3, 2}, "|S9", 1},
        {"pairs_rows_U_v2.npy", {3, 2}, "<U9", 2},     {"pairs_flat_S_v3.npy", {6}, "|S9", 3},
        {"pairs_flat_bigendian_U.npy", {6}, ">U9", 1}, {"pairs_rows_fortran_U.npy", {3, 2}, "<U9", 1},
    };
    for (const Case& c : cases) {
        const NpyStringArray a = read_npy_strings(kNpy + c.file);
        EXPECT_EQ(a.shape(), c.shape) << c.file;
        EXPECT_EQ(a.header.descr, c.descr) << c.file;
        EXPECT_EQ(a.header.version_major, c.version) << c.file;
        EXPECT_EQ(a.values, expected) << c.file;  // C order, also for the Fortran-ordered file
        std::vector<std::size_t> shape;
        EXPECT_EQ(read_npy_graph6(kNpy + c.file, &shape), expected);
        EXPECT_EQ(shape, c.shape);
        // Both layouts give the three official pairs with their categories.
        const NpyPairs p = read_npy_pairs(kNpy + c.file);
        ASSERT_EQ(p.dataset.pairs.size(), 3u) << c.file;
        EXPECT_EQ(p.layout, c.shape.size() == 1 ? NpyPairLayout::consecutive : NpyPairLayout::rows);
        for (std::size_t i = 0; i < 3; ++i) {
            EXPECT_EQ(p.dataset.pairs[i].id, static_cast<PairId>(i));
            EXPECT_EQ(p.dataset.pairs[i].category, "unknown");
            EXPECT_EQ(p.dataset.pairs[i].a, official().pairs[i].a);
            EXPECT_EQ(p.dataset.pairs[i].b, official().pairs[i].b);
        }
    }
    EXPECT_TRUE(read_npy_strings(kNpy + "pairs_rows_fortran_U.npy").header.fortran_order);
}

TEST(Npy, WriterIsByteIdenticalToNumpy) {
    const auto flat = first_three_flat();
    EXPECT_EQ(format_npy_strings(flat, {3, 2}, NpyStringKind::bytes), read_text_file(kNpy + "pairs_rows_S_v1.npy"));
    EXPECT_EQ(format_npy_strings(flat, {6}, NpyStringKind::unicode), read_text_file(kNpy + "pairs_flat_U_v1.npy"));
    const std::string path = tmp("w.npy");
    write_npy_strings(path, flat, {6});
    EXPECT_EQ(read_npy_strings(path).values, flat);
    EXPECT_THROW(format_npy_strings(flat, {4}), InvalidArgument);
    EXPECT_THROW(format_npy_strings({std::string("a\0b", 3)}, {1}), InvalidArgument);
}

TEST(Npy, RelabelledLayoutOfTheBrecAuthors) {
    // 3 pairs, R = 4 relabelings per graph: 3 traintest blocks of 8, then 3 reliability blocks.
    const NpyStringArray a = read_npy_strings(kNpy + "relabelled_R4.npy");
    ASSERT_EQ(a.values.size(), 48u);
    for (std::size_t b = 0; b < 6; ++b)
        for (std::size_t k = 0; k < 8; ++k) {
            const Graph g = parse_graph6(a.values[8 * b + k]);
            const std::size_t pair = b % 3;
            // Traintest blocks interleave G and H; reliability blocks hold one of them.
            const Graph& want = b < 3 ? (k % 2 ? official().pairs[pair].b : official().pairs[pair].a)
                                      : (pair % 2 ? official().pairs[pair].b : official().pairs[pair].a);
            EXPECT_TRUE(are_isomorphic(g, want)) << "block " << b << " position " << k;
        }
    const NpyPairs p = read_npy_pairs(kNpy + "relabelled_R4.npy", NpyPairOptions{4, "basic", 0});
    EXPECT_EQ(p.layout, NpyPairLayout::relabelled);
    EXPECT_EQ(p.relabelings, 4u);
    ASSERT_EQ(p.dataset.pairs.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(p.dataset.pairs[i].a, official().pairs[i].a);  // the originals come first
        EXPECT_EQ(p.dataset.pairs[i].b, official().pairs[i].b);
        EXPECT_EQ(p.dataset.pairs[i].category, "basic");
    }
    // The same strings as a (6, 8) array are read as blocks of 8.
    const NpyPairs rows = npy_pairs_from_array(NpyStringArray{[&] {
                                                                  NpyHeader h = a.header;
                                                                  h.shape = {6, 8};
                                                                  return h;
                                                              }(),
                                                              a.values},
                                               "rows");
    EXPECT_EQ(rows.relabelings, 4u);
    EXPECT_EQ(rows.dataset.pairs[2].b, official().pairs[2].b);
    // A wrong R is caught where relabelings would change vertex or edge counts.
    for (std::size_t r : {3u, 6u}) {
        const std::string e = error_of([&] { read_npy_pairs(kNpy + "relabelled_R4.npy", NpyPairOptions{r, "", 0}); });
        EXPECT_NE(e.find("check --relabelings"), std::string::npos) << r << ": " << e;
    }
    EXPECT_NE(error_of([&] {
                  read_npy_pairs(kNpy + "relabelled_R4.npy", NpyPairOptions{5, "", 0});
              }).find("do not form P traintest and P reliability blocks"),
              std::string::npos);
}

TEST(Npy, FullSizeBrecLayoutIsDetectedAndNamedByCategory) {
    // 400 pairs x (64 traintest + 64 reliability) = 51,200 strings, as in brec_v3.npy, built from
    // small random graphs so that the file stays small.
    Rng rng(3);
    std::vector<std::string> values;
    std::vector<std::pair<std::string, std::string>> pairs;
    for (int i = 0; i < 400; ++i) {
        const Graph g = testing::random_graph(6, 0.5, rng);
        const Graph h = testing::random_graph(6, 0.5, rng);
        pairs.emplace_back(to_graph6(g), to_graph6(h));
        for (int k = 0; k < 32; ++k) {
            values.push_back(to_graph6(k ? permute(g, rng.permutation(6)) : g));
            values.push_back(to_graph6(k ? permute(h, rng.permutation(6)) : h));
        }
    }
    for (int i = 0; i < 400; ++i)
        for (int k = 0; k < 64; ++k) values.push_back(pairs[static_cast<std::size_t>(i)].first);
    const std::string path = tmp("brec_v3_like.npy");
    write_npy_strings(path, values, {values.size()});
    const NpyPairs p = read_npy_pairs(path);
    EXPECT_EQ(p.layout, NpyPairLayout::relabelled);
    EXPECT_EQ(p.relabelings, 32u);
    ASSERT_EQ(p.dataset.pairs.size(), 400u);
    EXPECT_EQ(to_graph6(p.dataset.pairs[123].a), pairs[123].first);
    EXPECT_EQ(to_graph6(p.dataset.pairs[123].b), pairs[123].second);
    EXPECT_EQ(p.dataset.pairs[0].category, "basic");
    EXPECT_EQ(p.dataset.pairs[110].category, "strongly_regular");
    EXPECT_EQ(p.dataset.pairs[399].category, "distance_regular");
    EXPECT_EQ(brec_category_of_id(260), "cfi");
    EXPECT_EQ(brec_category_of_id(400), "unknown");
}

TEST(Npy, MalformedFilesGiveClearErrors) {
    const std::string good = read_text_file(kNpy + "pairs_flat_S_v3.npy");
    auto err = [](const std::string& bytes) { return error_of([&] { parse_npy_strings(bytes, "x.npy"); }); };
    EXPECT_NE(err("").find("bad magic"), std::string::npos);
    EXPECT_NE(error_of([] { read_npy_strings(kBrec); }).find("bad magic"), std::string::npos);
    std::string v4 = good;
    v4[6] = 4;
    EXPECT_NE(err(v4).find("unsupported .npy format version 4.0"), std::string::npos);
    EXPECT_NE(err(good.substr(0, 20)).find("truncated .npy header"), std::string::npos);
    EXPECT_NE(err(good.substr(0, good.size() - 3)).find("truncated .npy data"), std::string::npos);
    // Object arrays are pickles: the message says how to re-save them.
    const std::string obj = error_of([] { read_npy_strings(kNpy + "objects.npy"); });
    EXPECT_NE(obj.find("pickle"), std::string::npos);
    EXPECT_NE(obj.find("astype(str)"), std::string::npos);
    EXPECT_NE(error_of([] { read_npy_strings(kNpy + "floats.npy"); }).find("not an array of strings"),
              std::string::npos);
    EXPECT_NE(err(npy_bytes("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,), }", "xxxx"))
                  .find("structured dtypes"),
              std::string::npos);
    EXPECT_NE(err(npy_bytes("{'descr': '|S2', 'shape': (1,), }", "C~")).find("no 'fortran_order'"), std::string::npos);
    EXPECT_NE(err(npy_bytes("{'descr': '|S2', 'fortran_order': Maybe, 'shape': (1,), }", "C~")).find("True or False"),
              std::string::npos);
    EXPECT_NE(err(npy_bytes("{'descr': '|S2', 'fortran_order': False, 'shape': (1,-2), }", "C~"))
                  .find("non-negative integer"),
              std::string::npos);
    // Non-ASCII content names the item and the byte.
    const std::string bad_char = npy_bytes("{'descr': '|S2', 'fortran_order': False, 'shape': (2,), }", "C~C\xff");
    const std::string e = err(bad_char);
    EXPECT_NE(e.find("item 1"), std::string::npos) << e;
    EXPECT_NE(e.find("at byte " + std::to_string(bad_char.size() - 1)), std::string::npos) << e;
    // Python 2 long literals and double quotes are accepted; trailing NULs are padding.
    const auto py2 = parse_npy_strings(
        npy_bytes("{\"descr\": \"|S3\", \"fortran_order\": False, \"shape\": (2L,), }", std::string("C~\0Bw\0", 6)),
        "py2.npy");
    EXPECT_EQ(py2.values, (std::vector<std::string>{"C~", "Bw"}));
}

TEST(Npy, HeaderSizesAreCheckedAgainstTheBytesPresentBeforeAllocating) {
    auto err = [](const std::string& bytes) { return error_of([&] { parse_npy_strings(bytes, "x.npy"); }); };
    // The fuzzing reproducer: '|S0' items take no bytes, so shape (1, 8e16, 2) passed the size
    // check and reached vector::reserve (std::length_error, "internal error").
    const std::string repro =
        read_text_file(std::string(BREC_SOURCE_DIR) + "/tests/fuzz/corpus/npy/npy-huge-alloc.bin");
    const std::string e = err(repro);
    EXPECT_NE(e.find("x.npy: at byte 128: dtype '|S0' has items of width 0"), std::string::npos) << e;
    EXPECT_NE(e.find("160020000567891336"), std::string::npos) << e;  // the item count
    // A shape whose product overflows is named as such, for zero and non-zero widths.
    const std::string wide = "{'descr': '|S0', 'fortran_order': False, 'shape': (4294967296, 4294967296, 2), }";
    EXPECT_NE(err(npy_bytes(wide, "")).find("more than 2^64"), std::string::npos);
    const std::string huge = "{'descr': '|S4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }";
    EXPECT_NE(err(npy_bytes(huge, "C~")).find("truncated .npy data"), std::string::npos);
    // An empty array of zero-width items holds nothing and is fine.
    EXPECT_TRUE(parse_npy_strings(npy_bytes("{'descr': '|S0', 'fortran_order': False, 'shape': (0,), }", ""), "e.npy")
                    .values.empty());
}

TEST(Npy, PairErrorsNameTheItem) {
    auto pairs_of = [](const std::vector<std::string>& v, std::vector<std::size_t> shape) {
        NpyStringArray a;
        a.header.shape = std::move(shape);
        a.values = v;
        return npy_pairs_from_array(a, "p.npy");
    };
    EXPECT_NE(error_of([&] {
                  pairs_of({"C~", "C~", "C~"}, {3});
              }).find("odd number of strings (3)"),
              std::string::npos);
    EXPECT_NE(error_of([&] {
                  pairs_of({"C~", "C~", "C~", "C~"}, {1, 2, 2});
              }).find("more than 2 dimensions"),
              std::string::npos);
    EXPECT_NE(error_of([&] { pairs_of({}, {0}); }).find("holds no graphs"), std::string::npos);
    const std::string e = error_of([&] { pairs_of({"C~", "Cr", "C~", "C"}, {2, 2}); });
    EXPECT_NE(e.find("p.npy: item 3 [1, 1]"), std::string::npos) << e;
    EXPECT_NE(e.find("truncated"), std::string::npos) << e;
    EXPECT_NE(error_of([&] { read_npy_pairs("/no/such/file.npy"); }).find("cannot open /no/such/file.npy"),
              std::string::npos);
}

}  // namespace
}  // namespace brec
