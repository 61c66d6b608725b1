#include "cli/options.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <set>
#include <utility>

#include "cli/cli_error.hpp"
#include "model/run_estimate.hpp"
#include "model/scenario.hpp"
#include "scenarios/loader/scenario_loader.hpp"

namespace po = boost::program_options;

namespace partsim::cli {

model::Scenario load_scenario_with_warnings(const std::string& command, const std::string& path,
                                            const std::vector<std::string>& sets, std::set<std::string>* shown,
                                            const std::string* text) {
  std::vector<std::string> warnings;
  model::Scenario s = text ? scenarios::load_scenario_text(*text, path, sets, &warnings)
                           : scenarios::load_scenario_file(path, sets, &warnings);
  for (const auto& w : warnings)
    if (!shown || shown->insert(w).second) std::cerr << "partsim " << command << ": warning: " << w << '\n';
  return s;
}

void refuse_if_too_large(const model::Scenario& s, const std::string& path, bool allow_large,
                         const model::RunPlan& plan) {
  if (allow_large) return;
  const std::string why = model::check_run_limits(s, plan);
  if (!why.empty()) throw UsageError(path + ": refused: " + why + ", or pass --allow-large");
}

OutputFormat parse_format(const std::string& text, bool csv) {
  if (text == "table") return OutputFormat::kTable;
  if (text == "csv" && csv) return OutputFormat::kCsv;
  if (text == "json") return OutputFormat::kJson;
  throw UsageError(std::string("--format: must be ") + (csv ? "table, csv or json" : "table or json") + ", got '" +
                   text + "'");
}

namespace {
std::string& help_example() {
  static std::string example;
  return example;
}
}  // namespace

void set_help_example(std::string example) { help_example() = std::move(example); }

bool help_requested(const std::vector<std::string>& args, const std::string& usage,
                    const boost::program_options::options_description& desc) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << usage << desc;
      if (!help_example().empty()) std::cout << "\nexample:\n  " << help_example() << '\n';
      return true;
    }
  return false;
}

std::int64_t parse_int(std::string_view text, std::string_view option, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  const auto* first = text.data();
  const auto* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, v);
  const std::string range = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (text.empty() || ec == std::errc::invalid_argument || ptr != last)
    throw UsageError(std::string(option) + ": must be " + range + ", got '" + std::string(text) + "'");
  if (ec == std::errc::result_out_of_range || v < lo || v > hi)
    throw UsageError(std::string(option) + ": must be " + range + ", got " + std::string(text));
  return v;
}

double parse_number(std::string_view text, std::string_view option, double lo, double hi) {
  double v = 0;
  const auto* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), last, v);
  char range[96];
  std::snprintf(range, sizeof range, "a number in [%g, %g]", lo, hi);
  if (text.empty() || ec != std::errc() || ptr != last || !std::isfinite(v) || v < lo || v > hi)
    throw UsageError(std::string(option) + ": must be " + range + ", got '" + std::string(text) + "'");
  return v;
}

std::int64_t parse_bytes(std::string_view text, std::string_view option, bool rate) {
  const std::string allowed = std::string(option) + ": must be bytes" + (rate ? " per second" : "") +
                              ", e.g. 500000000, 500MB, 1.5GiB" + (rate ? " or 50MB/s" : "") + ", got '" +
                              std::string(text) + "'";
  std::string_view t = text;
  if (rate && t.size() >= 2 && t.substr(t.size() - 2) == "/s") t.remove_suffix(2);
  std::size_t digits = 0;
  while (digits < t.size() && (std::isdigit(static_cast<unsigned char>(t[digits])) || t[digits] == '.')) ++digits;
  std::string_view unit = t.substr(digits);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  static const std::pair<const char*, double> units[] = {
      {"", 1},      {"B", 1},        {"KB", 1e3},        {"MB", 1e6},           {"GB", 1e9},
      {"TB", 1e12}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
  double scale = 0;
  for (const auto& [name, factor] : units)
    if (unit == name) scale = factor;
  double v = 0;
  const auto num = t.substr(0, digits);
  auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
  if (scale == 0 || num.empty() || ec != std::errc() || ptr != num.data() + num.size() || !std::isfinite(v) ||
      v * scale > 9.0e18)
    throw UsageError(allowed);
  return static_cast<std::int64_t>(std::llround(v * scale));
}

std::vector<std::int32_t> parse_id_ranges(const std::string& text, std::string_view option) {
  std::vector<std::int32_t> ids;
  std::set<std::int32_t> seen;
  std::size_t pos = 0;
  const auto max = std::numeric_limits<std::int32_t>::max();
  for (;;) {
    const std::size_t comma = text.find(',', pos);
    const std::string_view item =
        std::string_view(text).substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const auto dash = item.find('-', 1);
    const auto lo = parse_int(item.substr(0, dash), option, 0, max);
    const auto hi = dash == std::string_view::npos ? lo : parse_int(item.substr(dash + 1), option, lo, max);
    if (hi - lo >= 1'000'000)
      throw UsageError(std::string(option) + ": the range '" + std::string(item) + "' is too long");
    for (auto id = lo; id <= hi; ++id) {
      if (!seen.insert(static_cast<std::int32_t>(id)).second)
        throw UsageError(std::string(option) + ": broker " + std::to_string(id) + " is listed twice");
      ids.push_back(static_cast<std::int32_t>(id));
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return ids;
}

std::vector<std::int32_t> parse_partition_counts(const std::string& text, std::string_view option) {
  std::vector<std::int32_t> counts;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = text.find(',', pos);
    const std::string_view item =
        std::string_view(text).substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const auto n = static_cast<std::int32_t>(parse_int(item, option, 1, std::numeric_limits<std::int32_t>::max()));
    if (std::find(counts.begin(), counts.end(), n) != counts.end())
      throw UsageError(std::string(option) + ": " + std::to_string(n) + " is given twice");
    counts.push_back(n);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return counts;
}

void add_scenario_options(po::options_description& desc, ScenarioCommandOptions& o) {
  // clang-format off
  desc.add_options()
      ("seed", po::value<std::string>(&o.seed_text), "master seed (default: the scenario's run.seed)")
      ("set", po::value<std::vector<std::string>>(&o.sets), "override a scenario field, e.g. producers.0.config.linger.ms=0 (repeatable)")
      ("format", po::value<std::string>(&o.format_text)->default_value("table"), "table, json or csv")
      ("replications", po::value<std::string>(&o.replications_text), "independent replications R (default 1): mean and 95% CI per metric")
      ("threads", po::value<std::string>(&o.threads_text), "threads for replications (default 0 = all cores); output does not depend on it")
      ("allow-large", po::bool_switch(&o.allow_large), "run even when the estimated records or memory exceed partsim's limits");
  // clang-format on
}

bool parse_scenario_command(const std::vector<std::string>& args, const po::options_description& desc,
                            ScenarioCommandOptions& o, const char* usage, const char* synopsis) {
  po::options_description hidden;
  hidden.add_options()("scenario", po::value<std::string>(&o.scenario_path), "scenario file");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("scenario", 1);
  if (help_requested(args, std::string("usage: ") + usage, desc)) return false;
  parse_command_line(args, all, &pos);
  if (o.scenario_path.empty()) throw UsageError(std::string("no scenario file: ") + synopsis);
  return true;
}

po::variables_map parse_command_line(const std::vector<std::string>& args, const po::options_description& desc,
                                     const po::positional_options_description* positional) {
  po::variables_map vm;
  try {
    po::command_line_parser parser(args);
    parser.options(desc);
    if (positional) parser.positional(*positional);
    // Negative numbers as positional values (keys such as "-1") must not look like options.
    parser.style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing);
    po::store(parser.run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  return vm;
}

}  // namespace partsim::cli
