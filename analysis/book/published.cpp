#include "analysis/book/published.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace partsim::analysis::book {

PublishedFigures::PublishedFigures()
    : figures_{
          {"R1.run-length", {14}, "every complete run of one partition is 14 records long (28, 42, ... when redrawn)"},
          {"R1.same-partition", {1.0 / 6}, "the switch may draw the same partition again: 1 in 6", false, true},
          {"R1.counts", {26, 40, 93, 28, 74, 39}, "p3=28 p2=93 p4=74 p1=40 p5=39 p0=26"},
          {"R2.counts", {50, 30, 60, 61, 49, 50}, "p0=50 p5=50 p4=49 p1=30 p3=61 p2=60"},
          {"R3.counts", {11, 13, 9, 11, 5, 251}, "p5=251 p1=13 p2=9 p4=5 p3=11 p0=11"},
          {"R5.window-kb", {12}, "one linger window holds about 12 KB: one batch per window"},
          {"R5.fragment-kb", {4}, "without the rule, a mix of 12 KB and 4 KB batches"},
          {"R5.builtin-windows", {2}, "the built-in keeps a partition for two linger batches"},
          {"R5.kip480-windows", {1}, "KIP-480 keeps a partition for one linger batch"},
          {"R6.lower-half", {1129}, "half of the partitions received about 1,129 records"},
          {"R6.split", {0.5}, "half of the partitions (the other half about 2,970)"},
      } {}

namespace {

std::string known_keys(const std::vector<PublishedFigure>& figures) {
  std::string s;
  for (const auto& f : figures) s += (s.empty() ? "" : ", ") + f.key;
  return s;
}

double parse_finite(std::string_view text, std::string_view key) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    throw std::invalid_argument(std::string(key) + ": '" + std::string(text) + "' is not a finite number");
  return v;
}

}  // namespace

const std::vector<double>& PublishedFigures::values(std::string_view key) const {
  for (const auto& f : figures_)
    if (f.key == key) return f.values;
  throw std::logic_error("no published figure " + std::string(key));
}

bool PublishedFigures::replaced(std::string_view key) const {
  return std::any_of(figures_.begin(), figures_.end(), [&](const auto& f) { return f.key == key && f.replaced; });
}

void PublishedFigures::set(std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos)
    throw std::invalid_argument("must be KEY=VALUE, got '" + std::string(assignment) +
                                "' (keys: " + known_keys(figures_) + ")");
  const auto key = assignment.substr(0, eq);
  const auto it = std::find_if(figures_.begin(), figures_.end(), [&](const auto& f) { return f.key == key; });
  if (it == figures_.end())
    throw std::invalid_argument("unknown figure '" + std::string(key) + "' (keys: " + known_keys(figures_) + ")");
  std::vector<double> values;
  auto rest = assignment.substr(eq + 1);
  for (;;) {
    const auto comma = rest.find(',');
    values.push_back(parse_finite(rest.substr(0, comma), key));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (values.size() != it->values.size())
    throw std::invalid_argument(std::string(key) + ": needs " + std::to_string(it->values.size()) + " number" +
                                (it->values.size() == 1 ? "" : "s (one per partition, p0 first)") + ", got " +
                                std::to_string(values.size()));
  if (it->probability && !(values[0] >= 0 && values[0] <= 1))
    throw std::invalid_argument(std::string(key) + ": a probability, in [0, 1], got " + std::string(rest));
  it->values = std::move(values);
  it->replaced = true;
}

}  // namespace partsim::analysis::book
