#include "brec/core/bytes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <sstream>

#include "brec/core/error.hpp"
#include "brec/core/text.hpp"

namespace brec {

std::uint64_t parse_byte_size(const std::string& text) {
    const std::string t = lower(trim(text));
    const auto bad = [&]() {
        return InvalidArgument("invalid memory size '" + text +
                               "' (expected a number with an optional unit K, M, G or T, e.g. 8G or 512M)");
    };
    std::size_t digits = 0;
    while (digits < t.size() && (std::isdigit(static_cast<unsigned char>(t[digits])) || t[digits] == '.')) ++digits;
    const std::string number = t.substr(0, digits);
    std::string unit = trim(t.substr(digits));
    if (number.empty() || number == "." || std::count(number.begin(), number.end(), '.') > 1) throw bad();
    for (const char* suffix : {"ib", "b"})
        if (unit.size() > std::strlen(suffix) &&
            unit.compare(unit.size() - std::strlen(suffix), std::string::npos, suffix) == 0) {
            unit.resize(unit.size() - std::strlen(suffix));
            break;
        }
    if (unit == "b") unit.clear();
    static const std::string kUnits = "kmgt";
    double scale = 1.0;
    if (!unit.empty()) {
        const auto k = kUnits.find(unit);
        if (unit.size() != 1 || k == std::string::npos) throw bad();
        scale = std::ldexp(1.0, 10 * static_cast<int>(k + 1));
    }
    const double bytes = std::strtod(number.c_str(), nullptr) * scale;
    if (!(bytes >= 1.0) || bytes > std::ldexp(1.0, 63)) throw bad();
    return static_cast<std::uint64_t>(bytes);
}

std::string format_bytes(std::uint64_t bytes) {
    static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < sizeof kUnits / sizeof *kUnits) {
        value /= 1024.0;
        ++unit;
    }
    std::ostringstream o;
    if (unit == 0)
        o << bytes << " B";
    else
        o << std::fixed << std::setprecision(1) << value << ' ' << kUnits[unit];
    return o.str();
}

}  // namespace brec
