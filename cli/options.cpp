#include "cli/options.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "cli/cli_error.hpp"
#include "model/run_estimate.hpp"

namespace po = boost::program_options;

namespace partsim::cli {

void refuse_if_too_large(const model::Scenario& s, const std::string& path, bool allow_large) {
  if (allow_large) return;
  const std::string why = model::check_run_limits(s);
  if (!why.empty())
    throw UsageError(path + ": refused: " + why + ", or pass --allow-large");
}

OutputFormat parse_format(const std::string& text) {
  if (text == "table") return OutputFormat::kTable;
  if (text == "csv") return OutputFormat::kCsv;
  if (text == "json") return OutputFormat::kJson;
  throw UsageError("--format: must be table, csv or json, got '" + text + "'");
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

std::vector<std::int32_t> parse_partition_counts(const std::string& text, std::string_view option) {
  std::vector<std::int32_t> counts;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = text.find(',', pos);
    const std::string_view item = std::string_view(text).substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    counts.push_back(static_cast<std::int32_t>(parse_int(item, option, 1, std::numeric_limits<std::int32_t>::max())));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return counts;
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
