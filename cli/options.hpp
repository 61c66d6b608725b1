#pragma once
// Parsing helpers shared by the subcommands: Boost.Program_options does the option
// grammar; these validate values and turn them into typed settings with messages that
// name the option.

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

namespace partsim::cli {

enum class OutputFormat { kTable, kCsv, kJson };

}  // namespace partsim::cli
namespace partsim::model {
struct Scenario;
struct RunPlan;
}  // namespace partsim::model
namespace partsim::cli {

/// Loads a scenario file with --set overrides (scenarios::load_scenario_file) and prints
/// each load warning on stderr as "partsim COMMAND: warning: file:line:col: ...". A command
/// that loads several variants passes one `shown` set so each warning prints once.
/// With `text`, the file's contents already read (a command that loads the same file again
/// and again reads it once), loaded as `path`.
model::Scenario load_scenario_with_warnings(const std::string& command, const std::string& path,
                                            const std::vector<std::string>& sets,
                                            std::set<std::string>* shown = nullptr, const std::string* text = nullptr);

/// Refuses (UsageError) a scenario whose estimated records or memory (with what `plan`
/// keeps: time series, batch rows, replications) are beyond partsim's limits, naming the
/// estimate and how to override it, unless `allow_large`.
void refuse_if_too_large(const model::Scenario& s, const std::string& path, bool allow_large,
                         const model::RunPlan& plan);

/// Parses "table", "csv" or "json" ("table" or "json" when a command has no CSV form).
OutputFormat parse_format(const std::string& text, bool csv = true);

/// The example the command being run shows at the end of its --help (set by run_app from
/// its command table).
void set_help_example(std::string example);

/// True (after printing `usage`, the options and the command's example) when the arguments
/// ask for --help / -h.
bool help_requested(const std::vector<std::string>& args, const std::string& usage,
                    const boost::program_options::options_description& desc);

/// Parses a decimal integer in [lo, hi]; `option` names it in the error.
std::int64_t parse_int(std::string_view text, std::string_view option, std::int64_t lo, std::int64_t hi);

/// Parses a finite decimal number in [lo, hi]; `option` names it in the error.
double parse_number(std::string_view text, std::string_view option, double lo, double hi);

/// Parses a byte count: "1073741824", "1.5GB", "500 MiB" (B, KB/MB/GB/TB in powers of
/// 1000, KiB/MiB/GiB/TiB in powers of 1024). With `rate`, a trailing "/s" is accepted.
std::int64_t parse_bytes(std::string_view text, std::string_view option, bool rate = false);

/// Parses broker ids as ranges: "0-18,20" -> 0..18, 20 (ids >= 0, each once).
std::vector<std::int32_t> parse_id_ranges(const std::string& text, std::string_view option);

/// Parses "3" or "3,6,12": partition counts, each in [1, 2^31-1].
std::vector<std::int32_t> parse_partition_counts(const std::string& text, std::string_view option);

/// The options every scenario command shares (run, compare).
struct ScenarioCommandOptions {
  std::string scenario_path;
  std::string seed_text;
  std::vector<std::string> sets;
  std::string format_text = "table";
  std::string replications_text = "1";
  std::string threads_text = "0";
  bool allow_large = false;
};

/// Adds --seed, --set, --format, --replications, --threads and --allow-large to `desc`.
void add_scenario_options(boost::program_options::options_description& desc, ScenarioCommandOptions& o);

/// Parses a scenario command's arguments: the options in `desc` and the scenario file as
/// the one positional argument. Returns false (after printing usage and options) for --help;
/// without a scenario file, the error shows `synopsis`.
bool parse_scenario_command(const std::vector<std::string>& args,
                            const boost::program_options::options_description& desc, ScenarioCommandOptions& o,
                            const char* usage, const char* synopsis);

/// Parses argv[first..] with `desc` (and positional names); translates Boost's errors into
/// UsageError with the option named. `--help` is left for the caller to check.
boost::program_options::variables_map parse_command_line(
    const std::vector<std::string>& args, const boost::program_options::options_description& desc,
    const boost::program_options::positional_options_description* positional = nullptr);

}  // namespace partsim::cli
