// Numeric .npy arrays and .npz archives: read back what NumPy wrote (fixtures from
// tests/data/npy/make_numeric_fixtures.py) and what brec writes.
#include "brec/io/npy_numeric.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "brec/core/error.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using testing::error_of;

const std::string kNpy = std::string(BREC_SOURCE_DIR) + "/tests/data/npy/";

std::uint32_t get32(const std::string& s, std::size_t at) {
    std::uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(k)]);
    return v;
}
std::uint32_t get16(const std::string& s, std::size_t at) {
    return static_cast<unsigned char>(s[at]) | (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 8);
}

TEST(NpyNumbers, ReadsNumpyFilesInEveryDtypeAndOrder) {
    for (const char* name :
         {"numbers_f4.npy", "numbers_fortran_f4.npy", "numbers_bigendian_f8.npy", "numbers_i8.npy"}) {
        SCOPED_TRACE(name);
        const NpyNumbers a = read_npy_numbers(kNpy + name);
        ASSERT_EQ(a.shape, (std::vector<std::size_t>{2, 3, 2}));
        ASSERT_EQ(a.values.size(), 12u);
        const double scale = std::string(name) == "numbers_i8.npy" ? 2.0 : 1.0;
        for (std::size_t i = 0; i < 12; ++i) EXPECT_EQ(a.values[i], scale * (0.5 * static_cast<double>(i) - 1)) << i;
    }
    // The float64 fixture of the string reader's tests.
    EXPECT_EQ(read_npy_numbers(kNpy + "floats.npy").values, (std::vector<double>{0, 1, 2, 3, 4, 5}));
}

TEST(NpyNumbers, RejectsOtherDtypesAndWrongSizesByName) {
    EXPECT_NE(error_of([] { read_npy_numbers(kNpy + "numbers_f2.npy"); }).find("dtype '<f2' is not read here"),
              std::string::npos);
    EXPECT_NE(error_of([] { read_npy_numbers(kNpy + "pairs_flat_U_v1.npy"); }).find("astype(np.float32)"),
              std::string::npos);
    std::string bytes = format_npy_float32({1, 2, 3, 4}, {2, 2});
    EXPECT_NE(error_of([&] { parse_npy_numbers(bytes.substr(0, bytes.size() - 1), "x.npy"); }).find("truncated"),
              std::string::npos);
    EXPECT_NE(error_of([&] { parse_npy_numbers(bytes + "0000", "x.npy"); }).find("found 20"), std::string::npos);
    EXPECT_NE(error_of([] { parse_npy_numbers("not numpy", "y.npy"); }).find("y.npy"), std::string::npos);
    EXPECT_THROW(format_npy_int64({1, 2, 3}, {2, 2}), InvalidArgument);
}

TEST(NpyNumbers, WritesWhatItReads) {
    const std::vector<std::int64_t> ints{0, -1, 5, 1LL << 40, 7, 8};
    const NpyNumbers a = parse_npy_numbers(format_npy_int64(ints, {2, 3}), "ints");
    EXPECT_EQ(a.descr, "<i8");
    EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3}));
    for (std::size_t i = 0; i < ints.size(); ++i) EXPECT_EQ(a.values[i], static_cast<double>(ints[i]));
    const NpyNumbers f = parse_npy_numbers(format_npy_float32({0.25f, -3.5f}, {2}), "floats");
    EXPECT_EQ(f.values, (std::vector<double>{0.25, -3.5}));
    const NpyNumbers empty = parse_npy_numbers(format_npy_float32({}, {0, 4}), "empty");
    EXPECT_EQ(empty.shape, (std::vector<std::size_t>{0, 4}));
    EXPECT_TRUE(empty.values.empty());
    // Data starts at a multiple of 64 bytes, as NumPy writes it.
    EXPECT_EQ(format_npy_int64(ints, {6}).size() % 64, (6 * 8) % 64);
}

TEST(Npz, IsAStoredZipOfNpyMembers) {
    EXPECT_EQ(crc32("123456789"), 0xcbf43926u);  // the CRC-32 check value
    const std::string a = format_npy_int64({1, 2}, {2}), b = format_npy_float32({3}, {1});
    const std::string z = format_npz({{"edge_index", a}, {"x", b}});
    // Local header of the first member, its data, then the second.
    EXPECT_EQ(get32(z, 0), 0x04034b50u);
    EXPECT_EQ(get16(z, 8), 0u);  // stored
    EXPECT_EQ(get32(z, 14), crc32(a));
    EXPECT_EQ(get32(z, 18), a.size());
    EXPECT_EQ(z.substr(30, 14), "edge_index.npy");
    EXPECT_EQ(z.substr(44, a.size()), a);
    // End of central directory: two entries, and the directory where it says.
    const std::size_t end = z.size() - 22;
    EXPECT_EQ(get32(z, end), 0x06054b50u);
    EXPECT_EQ(get16(z, end + 10), 2u);
    const std::size_t central = get32(z, end + 16);
    EXPECT_EQ(get32(z, central), 0x02014b50u);
    EXPECT_EQ(central + get32(z, end + 12), end);
    EXPECT_EQ(get32(z, central + 42), 0u);  // offset of the first local header
    EXPECT_THROW(format_npz({{"x", a}, {"x", b}}), InvalidArgument);
    EXPECT_THROW(format_npz({{"a/b", a}}), InvalidArgument);
}

}  // namespace
}  // namespace brec
