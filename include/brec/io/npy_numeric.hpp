#pragma once
// NumPy .npy files of numbers and .npz archives: how brec hands graphs to Python, JAX or any
// framework (edge_index arrays of `brec export`) and reads back the embeddings a user's model made
// (`brec rpc`). The string arrays of the BREC data files are in npy.hpp.
//
// An .npz file is a ZIP archive whose members are .npy files named ARRAY.npy; numpy.load reads
// stored (uncompressed) members, which is what brec writes: no compression library is needed.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace brec {

/// A numeric array read from an .npy file, converted to double, in C (row-major) order whatever
/// the file's order.
struct NpyNumbers {
    std::string descr;               ///< as written, e.g. "<f4"
    std::vector<std::size_t> shape;  ///< () for a scalar
    std::vector<double> values;
};

/// Parses an .npy array of float32, float64, int32 or int64 (either byte order, C or Fortran
/// order). Throws ParseError naming `source` for a malformed file, another dtype (saying which
/// dtypes are read) or data shorter or longer than the shape. Complexity O(file size).
NpyNumbers parse_npy_numbers(std::string_view bytes, const std::string& source);
/// Reads an .npy numeric array. Throws IoError (missing file) or ParseError.
NpyNumbers read_npy_numbers(const std::string& path);

/// .npy bytes (format 1.0, C order, little-endian '<i8') of an int64 array; values.size() must be
/// the product of `shape` (InvalidArgument otherwise).
std::string format_npy_int64(const std::vector<std::int64_t>& values, const std::vector<std::size_t>& shape);
/// .npy bytes of a float32 array ('<f4'), as format_npy_int64.
std::string format_npy_float32(const std::vector<float>& values, const std::vector<std::size_t>& shape);

/// An .npz archive of the given members (name without ".npy", .npy bytes), in the order given,
/// stored without compression; ZIP64 is not used, so the archive must stay below 4 GiB
/// (ResourceLimit otherwise). Names must be non-empty, unique, ASCII and without '/'
/// (InvalidArgument otherwise).
std::string format_npz(const std::vector<std::pair<std::string, std::string>>& members);

/// CRC-32 (ISO-HDLC, the ZIP and PNG checksum) of `bytes`.
std::uint32_t crc32(std::string_view bytes);

}  // namespace brec
