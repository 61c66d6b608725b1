#include "scenarios/loader/go_duration.hpp"

#include <stdexcept>
#include <utility>

namespace partsim::scenarios {
namespace {

// `n` / 10^digits with its trailing zeros (and point) left out: "1.5", "10".
std::string decimal_text(std::int64_t n, int digits) {
  std::int64_t scale = 1;
  for (int d = 0; d < digits; ++d) scale *= 10;
  std::string whole = std::to_string(n / scale);
  std::string frac = std::to_string(n % scale);
  frac.insert(0, static_cast<std::size_t>(digits) - frac.size(), '0');
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return frac.empty() ? whole : whole + "." + frac;
}

}  // namespace

std::optional<double> parse_go_duration_ms(std::string_view text) {
  if (text == "0") return 0.0;
  if (text.empty()) return std::nullopt;
  double total = 0;
  while (!text.empty()) {
    std::size_t i = 0;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
    if (i == 0) return std::nullopt;
    double number = 0;
    try {
      std::size_t used = 0;
      number = std::stod(std::string(text.substr(0, i)), &used);
      if (used != i) return std::nullopt;
    } catch (const std::exception&) {
      return std::nullopt;
    }
    text.remove_prefix(i);
    double unit = 0;
    for (const auto& [name, ms] : {std::pair<std::string_view, double>{"ns", 1e-6},
                                   {"us", 1e-3},
                                   {"µs", 1e-3},
                                   {"ms", 1},
                                   {"s", 1e3},
                                   {"m", 6e4},
                                   {"h", 3.6e6}})
      if (text.substr(0, name.size()) == name && (name != "m" || text.substr(0, 2) != "ms")) {
        unit = ms;
        text.remove_prefix(name.size());
        break;
      }
    if (unit == 0) return std::nullopt;
    total += number * unit;
  }
  return total;
}

std::string go_duration_text(std::int64_t ns) {
  if (ns == 0) return "0s";
  if (ns < 1'000) return std::to_string(ns) + "ns";
  if (ns < 1'000'000) return decimal_text(ns, 3) + "µs";
  if (ns < 1'000'000'000) return decimal_text(ns, 6) + "ms";
  const std::int64_t hours = ns / 3'600'000'000'000, minutes = ns / 60'000'000'000 % 60;
  const std::string seconds = decimal_text(ns % 60'000'000'000, 9) + "s";
  if (hours > 0) return std::to_string(hours) + "h" + std::to_string(minutes) + "m" + seconds;
  if (minutes > 0) return std::to_string(minutes) + "m" + seconds;
  return seconds;
}

}  // namespace partsim::scenarios
