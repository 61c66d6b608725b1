#include "analysis/format.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>

namespace partsim::analysis {

std::string fixed(double v, int decimals) {
  char buf[64];
  const int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return std::string(buf, static_cast<std::size_t>(n > 0 ? n : 0));
}

std::string human_bytes(double bytes) {
  static const char* units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
  std::size_t u = 0;
  while (std::fabs(bytes) >= 999.5 && u + 1 < std::size(units)) {
    bytes /= 1000;
    ++u;
  }
  if (u == 0) return fixed(bytes, 0) + " B";
  const int decimals = std::fabs(bytes) >= 99.95 ? 0 : std::fabs(bytes) >= 9.995 ? 1 : 2;
  return fixed(bytes, decimals) + " " + units[u];
}

std::string human_duration(double seconds) {
  const auto s = static_cast<long long>(std::llround(seconds));
  char buf[64];
  if (s < 60) std::snprintf(buf, sizeof buf, "%lld s", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%lld min %02lld s", s / 60, s % 60);
  else if (s < 86400) std::snprintf(buf, sizeof buf, "%lld h %02lld min", s / 3600, s % 3600 / 60);
  else std::snprintf(buf, sizeof buf, "%lld d %02lld h", s / 86400, s % 86400 / 3600);
  return buf;
}

namespace {
__extension__ typedef unsigned __int128 Uint128;  // 64x64-bit products without overflow
}  // namespace

std::string exact_ratio(std::uint64_t num, std::uint64_t den, int decimals) {
  Uint128 scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  const Uint128 scaled = (static_cast<Uint128>(num) * scale * 2 + den) / (2 * static_cast<Uint128>(den));
  const auto whole = static_cast<std::uint64_t>(scaled / scale);
  auto frac = static_cast<std::uint64_t>(scaled % scale);
  std::string out = std::to_string(whole);
  if (decimals > 0) {
    std::string digits = std::to_string(frac);
    out += '.';
    out.append(static_cast<std::size_t>(decimals) - digits.size(), '0');
    out += digits;
  }
  return out;
}

std::string exact(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

std::string escape_controls(std::string_view text) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kDigits[c >> 4];
      out += kDigits[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

double round_to(double v, int decimals) { return std::strtod(fixed(v, decimals).c_str(), nullptr); }

std::string count_of(std::int64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string ordinal(std::size_t n) {
  const std::size_t tens = n % 100, ones = n % 10;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                       : ones == 1                ? "st"
                       : ones == 2                ? "nd"
                       : ones == 3                ? "rd"
                                                  : "th";
  return std::to_string(n) + suffix;
}

}  // namespace partsim::analysis
