#include "scenarios/loader/field_table.hpp"

#include <charconv>
#include <cstdio>

namespace partsim::scenarios {

// The conversions the loader has always used, so a duration reads to the same nanosecond:
// ms as is, us / 1000, s * 1000, then SimTime::from_ms (rounded to the nearest ns).
sim::SimTime time_from(double value, TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSeconds: return sim::SimTime::from_ms(value * 1000);
    case TimeUnit::kMillis: return sim::SimTime::from_ms(value);
    case TimeUnit::kMicros: return sim::SimTime::from_ms(value / 1000.0);
  }
  return sim::SimTime::zero();
}

double time_value(sim::SimTime t, TimeUnit unit) {
  const auto ns = static_cast<double>(t.count_ns());
  switch (unit) {
    case TimeUnit::kSeconds: return ns / 1e9;
    case TimeUnit::kMillis: return ns / 1e6;
    case TimeUnit::kMicros: return ns / 1e3;
  }
  return 0;
}

std::string number_text(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("0");
}

std::string yaml_text(const YAML::Node& n) {
  if (!n.IsDefined()) return "";
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
}

namespace detail {

std::string integer_range(std::int64_t lo, std::int64_t hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

std::string number_range(double lo, double hi) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "[%g, %g]", lo, hi);
  return buf;
}

std::string choice_range(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " | ") + n;
  return out;
}

}  // namespace detail
}  // namespace partsim::scenarios
