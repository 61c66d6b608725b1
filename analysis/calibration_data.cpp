#include "analysis/calibration_data.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>

#include "analysis/run_producer_metrics.hpp"

namespace partsim::analysis {
namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();  // a ratio of nothing, a missing node

// Per-broker columns: broker-<id>.<name>, over the records measured (after the warm-up).
constexpr const char* kBrokerMetrics[] = {"records-share", "records-per-batch"};
// Run-wide columns beside the producer's JMX names.
constexpr const char* kRunMetric = "records-per-batch";

struct Cell {
  std::string text;
  std::size_t column = 0;
};

std::string where(const std::string& file, std::size_t line, std::size_t column) {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

// One CSV line into cells (a quoted cell may hold commas, and "" for a quote, as in RFC
// 4180, but must end on its line; blanks before the opening quote are allowed).
std::vector<Cell> split_cells(std::string_view line, const std::string& file, std::size_t line_no) {
  std::vector<Cell> cells;
  std::size_t i = 0;
  for (;;) {
    Cell c{"", i + 1};
    const std::size_t first = std::min(line.find_first_not_of(" \t", i), line.size());
    if (first < line.size() && line[first] == '"') {
      i = first;
      c.column = i + 1;
      for (++i;; ++i) {
        if (i >= line.size())
          throw MeasurementsError(where(file, line_no, c.column) +
                                  "a quoted cell has no closing quote (a quoted cell must end on its line)");
        if (line[i] == '"' && i + 1 < line.size() && line[i + 1] == '"') {
          c.text += '"';
          ++i;
        } else if (line[i] == '"') {
          ++i;
          break;
        } else {
          c.text += line[i];
        }
      }
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i < line.size() && line[i] != ',')
        throw MeasurementsError(where(file, line_no, i + 1) + "expected ',' after a quoted cell, got '" +
                                std::string(1, line[i]) + "'");
    } else {
      const std::size_t comma = std::min(line.find(',', i), line.size());
      c.text = std::string(line.substr(i, comma - i));
      i = comma;
    }
    cells.push_back(std::move(c));
    if (i >= line.size()) return cells;
    ++i;  // the comma
  }
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t") - b + 1));
}

bool is_producer_metric(std::string_view name) {
  const auto specs = producer_metric_specs();
  return std::any_of(specs.begin(), specs.end(), [&](const auto& s) { return name == s.jmx; });
}

std::optional<std::size_t> node_metric_index(std::string_view name) {
  const auto specs = producer_node_metric_specs();
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (name == specs[i].jmx) return i;
  return std::nullopt;
}

// "node-12.request-latency-avg" -> {"node", 12, "request-latency-avg"}.
struct ScopedName {
  std::string scope;
  std::int64_t id = -1;
  std::string name;
};

std::optional<ScopedName> scoped(std::string_view metric) {
  const auto dash = metric.find('-');
  const auto dot = metric.find('.');
  if (dash == std::string_view::npos || dot == std::string_view::npos || dash > dot) return std::nullopt;
  ScopedName s{std::string(metric.substr(0, dash)), -1, std::string(metric.substr(dot + 1))};
  const auto digits = metric.substr(dash + 1, dot - dash - 1);
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), s.id);
  if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() || s.id < 0) return std::nullopt;
  return s;
}

bool known_metric(std::string_view metric) {
  if (is_producer_metric(metric) || metric == kRunMetric) return true;
  const auto s = scoped(metric);
  if (!s) return false;
  if (s->scope == "node") return node_metric_index(s->name).has_value();
  if (s->scope == "broker")
    return std::any_of(std::begin(kBrokerMetrics), std::end(kBrokerMetrics),
                       [&](const char* m) { return s->name == m; });
  return false;
}

std::vector<std::string> split_sets(const std::string& text) {
  std::vector<std::string> sets;
  std::size_t pos = 0;
  for (;;) {
    const auto semi = std::min(text.find(';', pos), text.size());
    std::string piece = trim(std::string_view(text).substr(pos, semi - pos));
    if (!piece.empty()) sets.push_back(std::move(piece));
    if (semi == text.size()) return sets;
    pos = semi + 1;
  }
}

// The header: `set` once, then distinct known metrics. Returns the index of `set`.
std::size_t check_header(std::vector<Cell>& header, const std::string& file, std::size_t line) {
  std::optional<std::size_t> set_index;
  std::set<std::string> seen;
  for (std::size_t k = 0; k < header.size(); ++k) {
    auto& c = header[k];
    c.text = trim(c.text);
    if (!seen.insert(c.text).second)
      throw MeasurementsError(where(file, line, c.column) + "the column '" + c.text + "' appears twice");
    if (c.text == "set") {
      set_index = k;
    } else if (!known_metric(c.text)) {
      throw MeasurementsError(where(file, line, c.column) + "unknown column '" + c.text + "'; allowed: set, " +
                              allowed_metric_columns());
    }
  }
  if (!set_index)
    throw MeasurementsError(where(file, line, 1) +
                            "the header has no 'set' column (the --set assignments of each row, separated by ';')");
  if (header.size() < 2)
    throw MeasurementsError(where(file, line, 1) + "the header names no metric; allowed: " + allowed_metric_columns());
  return *set_index;
}

// Every metric the file may name is a count, latency, size, rate or share: none is
// negative, and none may be 0 since residuals are relative to the measured value.
double parse_value(const Cell& c, const std::string& metric, const std::string& file, std::size_t line) {
  const std::string t = trim(c.text);
  double v = 0;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  const std::string at = where(file, line, c.column) + metric + ": ";
  if (ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(v) || v == 0)
    throw MeasurementsError(
        at + "must be a number above 0 (residuals are relative to it) or empty (not measured), got '" + c.text + "'" +
        (v == 0 && ec == std::errc() ? "; a value measured as 0 cannot be fitted relatively: leave the cell empty"
                                     : ""));
  if (v < 0)
    throw MeasurementsError(
        at + "must be a number above 0 (a latency, size, rate, count or share is never negative) or empty, got '" +
        c.text + "'");
  return v;
}

// A row's assignments may set anything but the seed: the fit runs every configuration on
// the same seeds (common random numbers).
void refuse_seed(const MeasuredRow& row, const std::string& file) {
  for (const auto& set : row.sets)
    if (trim(std::string_view(set).substr(0, set.find('='))) == "run.seed")
      throw MeasurementsError(
          where(file, row.line, row.set_column) + "set: '" + set +
          "': a row cannot set run.seed (the fit owns the seeds: --seed and --replications choose them)");
}

}  // namespace

std::string allowed_metric_columns() {
  std::string out;
  for (const auto& s : producer_metric_specs()) out += std::string(s.jmx) + ", ";
  out += std::string(kRunMetric) + ", ";
  for (const auto& s : producer_node_metric_specs()) out += "node-<id>." + std::string(s.jmx) + ", ";
  for (const char* m : kBrokerMetrics)
    out += "broker-<id>." + std::string(m) + (m == kBrokerMetrics[std::size(kBrokerMetrics) - 1] ? "" : ", ");
  return out;
}

std::vector<MeasuredRow> parse_measurements(std::string_view text, const std::string& file) {
  std::vector<MeasuredRow> rows;
  std::vector<Cell> header;
  std::size_t set_index = 0;
  std::size_t line_no = 0;
  constexpr std::string_view kBom = "\xEF\xBB\xBF";  // a UTF-8 byte order mark, as spreadsheets write
  if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());
  for (std::size_t pos = 0; pos < text.size();) {
    const auto nl = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const std::string t = trim(line); t.empty() || t.front() == '#') continue;
    auto cells = split_cells(line, file, line_no);
    if (header.empty()) {
      header = std::move(cells);
      set_index = check_header(header, file, line_no);
      continue;
    }
    if (cells.size() != header.size())
      throw MeasurementsError(where(file, line_no,
                                    cells.size() > header.size() ? cells[header.size()].column : line.size() + 1) +
                              "the row has " + std::to_string(cells.size()) + " cells, the header " +
                              std::to_string(header.size()));
    MeasuredRow row{line_no, cells[set_index].column, cells[set_index].text, split_sets(cells[set_index].text), {}};
    for (std::size_t k = 0; k < cells.size(); ++k)
      if (k != set_index && !trim(cells[k].text).empty())
        row.values.push_back({header[k].text, parse_value(cells[k], header[k].text, file, line_no), cells[k].column});
    refuse_seed(row, file);
    if (row.values.empty())
      throw MeasurementsError(where(file, line_no, 1) + "the row measures nothing (every metric cell is empty)");
    rows.push_back(std::move(row));
  }
  if (rows.empty())
    throw MeasurementsError(
        file + ": no measurements (a header naming 'set' and metric columns, then one row per configuration)");
  return rows;
}

std::string metric_problem(const model::Scenario& s, const std::string& metric) {
  if (metric == kRunMetric) return "";
  if (s.producers.empty()) return "the scenario has no producer";
  const auto scope = scoped(metric);
  if (!scope) return known_metric(metric) ? "" : "unknown metric";
  std::string ids;
  for (const auto& b : s.brokers) {
    if (b.id == scope->id) return "";
    ids += (ids.empty() ? "" : ", ") + std::to_string(b.id);
  }
  return "the scenario has no broker " + std::to_string(scope->id) + " (brokers: " + ids + ")";
}

std::optional<double> simulated_metric(const model::RunResult& r, const std::string& metric, std::string* why) {
  auto fail = [&](const std::string& reason) -> std::optional<double> {
    if (why) *why = reason;
    return std::nullopt;
  };
  auto ratio = [](std::int64_t a, std::int64_t b) {
    return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : kNoValue;
  };
  if (metric == kRunMetric) {
    std::int64_t records = 0, batches = 0;
    for (const auto& b : r.brokers) {
      records += b.records;
      batches += b.batches;
    }
    return ratio(records, batches);
  }
  if (r.producer_metrics.empty()) return fail("the scenario has no producer");
  const auto& pm = r.producer_metrics.front();
  for (const auto& s : producer_metric_specs())
    if (metric == s.jmx) return s.value(pm);
  const auto s = scoped(metric);
  if (!s) return fail("unknown metric '" + metric + "'");
  std::string ids;
  for (const auto& b : r.brokers) ids += (ids.empty() ? "" : ", ") + std::to_string(b.broker);
  const auto broker =
      std::find_if(r.brokers.begin(), r.brokers.end(), [&](const auto& b) { return b.broker == s->id; });
  if (broker == r.brokers.end())
    return fail("the scenario has no broker " + std::to_string(s->id) + " (brokers: " + ids + ")");
  if (s->scope == "node") {
    const auto node = std::find_if(pm.nodes.begin(), pm.nodes.end(), [&](const auto& n) { return n.node == s->id; });
    if (node == pm.nodes.end()) return kNoValue;
    return producer_node_value(*node_metric_index(s->name), *node);
  }
  if (s->name == "records-per-batch") return ratio(broker->records, broker->batches);
  std::int64_t total = 0;
  for (const auto& b : r.brokers) total += b.records;
  return ratio(broker->records, total);
}

}  // namespace partsim::analysis
