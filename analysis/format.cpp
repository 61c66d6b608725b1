#include "analysis/format.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace partsim::analysis {

std::string fixed(double v, int decimals) {
  char buf[64];
  const int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return std::string(buf, static_cast<std::size_t>(n > 0 ? n : 0));
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

double round_to(double v, int decimals) {
  return std::strtod(fixed(v, decimals).c_str(), nullptr);
}

}  // namespace partsim::analysis
