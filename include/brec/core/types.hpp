#pragma once
// Basic vocabulary types shared by every module.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace brec {

/// Vertex ids are 0-based and dense.
using VertexId = std::uint32_t;
/// Colours of refinement algorithms are dense small integers, never strings.
using ColorId = std::uint32_t;
/// Ids of pairs in a pair dataset (BREC ids are 0..399).
using PairId = std::int64_t;

/// The "absent" vertex; can never be a real id.
inline constexpr VertexId kNoVertex = std::numeric_limits<VertexId>::max();

/// A read-only view of contiguous memory (C++17 has no std::span).
template <typename T>
class Span {
public:
    Span() = default;
    Span(T* data, std::size_t size) : data_(data), size_(size) {}
    template <typename U>
    Span(const std::vector<U>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT(implicit)

    T* begin() const { return data_; }
    T* end() const { return data_ + size_; }
    T* data() const { return data_; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](std::size_t i) const { return data_[i]; }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace brec
