#include "brec/core/text.hpp"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <sstream>

namespace brec {

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::uint64_t fnv1a(const std::string& bytes) {
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

std::string xml_escape(const std::string& s) {
    std::string o;
    o.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&':
                o += "&amp;";
                break;
            case '<':
                o += "&lt;";
                break;
            case '>':
                o += "&gt;";
                break;
            case '"':
                o += "&quot;";
                break;
            default:
                o += c;
        }
    }
    return o;
}

std::string format_fixed(double value, int digits) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(digits) << value;
    return o.str();
}

std::string format_seconds(double s) {
    std::ostringstream o;
    if (s < 60) {
        o << std::fixed << std::setprecision(s < 10 ? 2 : 1) << s << "s";
    } else if (s < 3600) {
        o << static_cast<int>(s) / 60 << "m" << std::setw(2) << std::setfill('0') << static_cast<int>(s) % 60 << "s";
    } else {
        o << static_cast<int>(s) / 3600 << "h" << std::setw(2) << std::setfill('0') << (static_cast<int>(s) % 3600) / 60
          << "m";
    }
    return o.str();
}

std::string TextTable::str() const {
    std::vector<std::size_t> width(header_.size(), 0);
    for (std::size_t c = 0; c < header_.size(); ++c) width[c] = header_[c].size();
    for (const auto& r : rows_)
        for (std::size_t c = 0; c < r.size() && c < width.size(); ++c) width[c] = std::max(width[c], r[c].size());
    std::ostringstream out;
    auto emit = [&](const std::vector<std::string>& r) {
        for (std::size_t c = 0; c < width.size(); ++c) {
            const std::string cell = c < r.size() ? r[c] : "";
            if (c == 0)
                out << std::left << std::setw(static_cast<int>(width[c])) << cell;
            else
                out << "  " << std::right << std::setw(static_cast<int>(width[c])) << cell;
        }
        out << '\n';
    };
    std::size_t total = 0;
    for (auto w : width) total += w + 2;
    const std::string rule = std::string(total > 2 ? total - 2 : 0, '-') + "\n";
    emit(header_);
    out << rule;
    for (const auto& r : rows_) {
        if (r.empty())
            out << rule;
        else
            emit(r);
    }
    return out.str();
}

}  // namespace brec
