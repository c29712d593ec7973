#pragma once
// Small text helpers shared by the readers and by the modules that write XML (SVG, JUnit).

#include <cstdint>
#include <string>

namespace brec {

/// s without leading and trailing white space (std::isspace).
std::string trim(const std::string& s);

/// s in lower case (ASCII, std::tolower).
std::string lower(std::string s);

/// FNV-1a, 64 bit: a stable fingerprint of bytes (certificates, canonical settings text).
std::uint64_t fnv1a(const std::string& bytes);

/// Escapes &, <, > and " for XML text and attribute values.
std::string xml_escape(const std::string& s);

}  // namespace brec
