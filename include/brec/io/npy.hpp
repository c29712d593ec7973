#pragma once
// NumPy .npy files of graph6 strings, the form in which the BREC authors distribute their data:
// per-category files such as basic.npy, str.npy, 4vtx.npy (1-D, consecutive pairs, unicode),
// regular.npy, cfi.npy (shape (N, 2), bytes), and the relabelled brec_v3.npy built by their
// customize/dataset_v3.py (1-D, 51,200 byte strings; layout below). Users can point brec at the
// files they already have.
//
// The .npy format (numpy.lib.format): magic "\x93NUMPY", version byte pair (1.0, 2.0 or 3.0), a
// little-endian header length (2 bytes in 1.0, 4 bytes otherwise), a Python dict literal header
// {'descr': ..., 'fortran_order': ..., 'shape': (...)}, then the raw array data. Supported dtypes:
// '<U k' / '>U k' (k UTF-32 code units per item, NUL padded) and '|S k' (k bytes, NUL padded).
// Object arrays ('|O') are pickles and are refused: re-save them with arr.astype(str).
//
// Relabelled layout (R relabelings per graph; BREC v3: R = 32, P = 400, 51,200 strings): P
// "traintest" blocks of 2R strings, block i holding G_i, H_i, G_i', H_i', ... (R relabelings of
// each graph of pair i, interleaved, the first two being the original graphs), followed by P
// "reliability" blocks of 2R relabelings of one graph of pair i (the first being the original).
// The pair i is (string 2R·i, string 2R·i + 1).

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "brec/io/pairs.hpp"

namespace brec {

/// Element type of a string array.
enum class NpyStringKind {
    bytes,    ///< '|S k': k bytes per item
    unicode,  ///< '<U k' (or '>U k'): k UTF-32 code units per item
};

/// The header of a string array.
struct NpyHeader {
    int version_major = 1;
    int version_minor = 0;
    std::string descr;  ///< as written, e.g. "<U9" or "|S60"
    NpyStringKind kind = NpyStringKind::bytes;
    bool big_endian = false;  ///< '>U k'
    std::size_t width = 0;    ///< k (characters per item)
    bool fortran_order = false;
    std::vector<std::size_t> shape;  ///< () for a scalar
    std::size_t data_offset = 0;     ///< byte offset of the first item
    std::size_t item_bytes = 0;      ///< k or 4k
    std::size_t count() const;       ///< product of the shape
};

/// A string array, items in C (row-major) order whatever the file's order.
struct NpyStringArray {
    NpyHeader header;
    std::vector<std::string> values;
    const std::vector<std::size_t>& shape() const { return header.shape; }
};

/// Parses the header of an .npy file held in `bytes`. Throws ParseError (naming `source`, the
/// byte offset and what was expected) for a bad magic, an unsupported version, a malformed header
/// dict, a non-string dtype (object arrays with the astype(str) advice), items of width 0, or data
/// that is shorter than the shape says (checked before anything is allocated for the items).
NpyHeader parse_npy_header(std::string_view bytes, const std::string& source);

/// Calls `visit(index, text)` for every item in C order (`index` is the C-order index). Trailing
/// NULs are removed (as numpy does); a code unit above 126 is a ParseError naming the item, its
/// position in the array and the byte offset. Complexity O(file size).
void for_each_npy_string(std::string_view bytes, const std::string& source,
                         const std::function<void(std::size_t, std::string_view)>& visit);

/// Parses a whole string array.
NpyStringArray parse_npy_strings(std::string_view bytes, const std::string& source);
/// Reads an .npy string array. Throws IoError (missing file) or ParseError.
NpyStringArray read_npy_strings(const std::string& path);
/// The graph6 strings of an .npy file in C order; `shape` receives the array's shape.
std::vector<std::string> read_npy_graph6(const std::string& path, std::vector<std::size_t>* shape = nullptr);

/// Encodes a string array as .npy bytes (format 1.0, or 2.0 when the header needs it; C order),
/// readable by numpy.load. Items must be ASCII without NUL (graph6 records are). Used to hand
/// data back to Python tools and to write test fixtures.
std::string format_npy_strings(const std::vector<std::string>& values, const std::vector<std::size_t>& shape,
                               NpyStringKind kind = NpyStringKind::bytes);
/// Writes format_npy_strings(...) atomically.
void write_npy_strings(const std::string& path, const std::vector<std::string>& values,
                       const std::vector<std::size_t>& shape, NpyStringKind kind = NpyStringKind::bytes);

/// How the strings of an array form pairs.
enum class NpyPairLayout {
    consecutive,  ///< (2P,): strings 2i and 2i+1 form pair i
    rows,         ///< (P, 2): row i is pair i
    relabelled,   ///< the relabelled layout (header comment), from a 1-D or a (2P, 2R) array
};

struct NpyPairOptions {
    /// 0 = detect: the relabelled layout with R = 32 for 51,200 strings (1-D) or shape
    /// (800, 64), an (M, B) array with B > 2 as blocks of B = 2R, else consecutive pairs/rows.
    /// R > 0: the strings are in the relabelled layout with R relabelings per graph.
    std::size_t relabelings = 0;
    /// Category of every pair; empty = the official BREC categories by id when the array has
    /// exactly 400 pairs and ids start at 0 (basic 0-59, ..., distance_regular 380-399), else
    /// "unknown".
    std::string category;
    /// Id of the first pair (ids are consecutive).
    PairId first_id = 0;
};

/// Pairs read from an .npy file.
struct NpyPairs {
    PairDataset dataset;  ///< pairs with ids, categories and the graphs (line = 0)
    NpyPairLayout layout = NpyPairLayout::consecutive;
    std::size_t relabelings = 0;  ///< R of the relabelled layout (0 otherwise)
    std::size_t strings = 0;      ///< strings in the file
    std::vector<std::size_t> shape;
};

/// Builds pairs from a parsed array. In the relabelled layout every string is checked to be a
/// graph6 record with the vertex and edge counts of the graph it relabels (a cheap test that
/// catches a wrong R); a failure names the string's index. Throws ParseError.
/// Complexity: O(total length of the strings) plus parsing the 2P graphs of the pairs.
NpyPairs npy_pairs_from_array(const NpyStringArray& array, const std::string& source,
                              const NpyPairOptions& options = {});
/// Reads an .npy file and builds its pairs (see npy_pairs_from_array).
NpyPairs read_npy_pairs(const std::string& path, const NpyPairOptions& options = {});

}  // namespace brec
