#pragma once
// The parts of the .npy format shared by the string arrays (npy.cpp) and the numeric arrays
// (npy_numeric.cpp): the preamble with its header dict, read and written.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "brec/io/npy.hpp"

namespace brec::detail {

/// Parses magic, version and the header dict of an .npy file: fills version, descr,
/// fortran_order, shape and data_offset of the result, nothing that depends on the dtype.
/// Throws ParseError naming `source` and the byte offset.
NpyHeader parse_npy_preamble(std::string_view bytes, const std::string& source);

/// The preamble of an .npy file (format 1.0, or 2.0 when the header needs it) for dtype `descr`
/// and `shape` in C order, padded so that the data starts at a multiple of 64 bytes.
std::string format_npy_preamble(const std::string& descr, const std::vector<std::size_t>& shape);

/// A shape as Python writes it: (6,) or (3, 2).
std::string npy_shape_text(const std::vector<std::size_t>& shape);

}  // namespace brec::detail
