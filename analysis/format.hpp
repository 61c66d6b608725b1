#pragma once
// Number formatting shared by every output format, so a table, a CSV and a JSON file of
// one result show the same digits.

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace partsim::analysis {

/// Fixed-point with `decimals` digits after the point, e.g. fixed(0.49185, 4) == "0.4919".
std::string fixed(double v, int decimals);

/// Appends an integer in decimal without allocating.
template <class Int>
void append_int(std::string& out, Int v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

/// num/den to `decimals` places, rounded half up on the exact fraction (13309/20000 =
/// 0.66545 -> "0.6655", where binary floating point would print 0.6654). den > 0.
std::string exact_ratio(std::uint64_t num, std::uint64_t den, int decimals);

/// Bytes in decimal units with 3 significant digits: 950 B, 1.50 GB, 12.3 TB.
std::string human_bytes(double bytes);

/// A duration for people: "45 s", "12 min 30 s", "3 h 05 min", "2 d 04 h".
std::string human_duration(double seconds);

/// `n` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 22nd, 113th.
std::string ordinal(std::size_t n);

/// Text with control characters (below 0x20, and 0x7f) shown as \xNN, so one key or
/// name stays on one line of a table.
std::string escape_controls(std::string_view text);

/// The shortest text that reads back as the same double ("0.1", "3117000", "1e-07"); ""
/// for NaN, "inf" / "-inf" for the infinities.
std::string exact(double v);

/// "1 partition", "3 partitions": a count and its noun, plural with an s.
std::string count_of(std::int64_t n, const std::string& noun);

/// Nanoseconds as milliseconds (the unit every report shows durations in).
inline double ns_to_ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

/// Rounds to `decimals` places for JSON output (same digits as fixed()).
double round_to(double v, int decimals);

}  // namespace partsim::analysis
