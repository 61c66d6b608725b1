// partsim book: every entry of the book's tables (../shared/book-tables.md) run through
// partsim beside the published figure. The entries, criteria and verdicts are in
// analysis/book_*; this command reads the options, loads the scenarios and prints.

#include <string>
#include <vector>

#include "analysis/book/report.hpp"
#include "analysis/book/runner.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/scenario_loader.hpp"

namespace po = boost::program_options;

namespace partsim::cli {

int run_book_command(const Args& args) {
  std::string format_text = "table", dir = PARTSIM_SCENARIO_DIR, replications_text = "100",
              outcome_replications_text = std::to_string(analysis::book::kDefaultOutcomeReplications),
              outcome_max_text = std::to_string(analysis::book::kDefaultOutcomeMaxReplications), threads_text = "0",
              only_text;
  std::vector<std::string> sets, published;
  po::options_description desc("book options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("replications", po::value<std::string>(&replications_text), "replications for claims, probabilities and rules (default 100)")
      ("outcome-replications", po::value<std::string>(&outcome_replications_text),
       ("replications a row that compares one run's outcome starts with (default " + outcome_replications_text +
        "); doubled while its p-value's 99.9% interval contains the threshold").c_str())
      ("outcome-max-replications", po::value<std::string>(&outcome_max_text),
       ("the most replications such a row grows to (default " + outcome_max_text +
        "); a row still undecided there is not reproduced").c_str())
      ("threads", po::value<std::string>(&threads_text), "threads (default 0 = all cores); output does not depend on it")
      ("only", po::value<std::string>(&only_text), "entries to run: ids (R4) or row keys (R4.flat-off), comma-separated")
      ("set", po::value<std::vector<std::string>>(&sets), "what if: override a field in every book scenario, after the entry's own (repeatable)")
      ("published", po::value<std::vector<std::string>>(&published), "replace a published figure: KEY=V or KEY=V1,V2,... (repeatable)")
      ("scenarios", po::value<std::string>(&dir), "folder of the shipped scenarios")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table or json");
  // clang-format on
  if (help_requested(
          args,
          "usage: partsim book [--replications R] [--outcome-replications R0] [--outcome-max-replications CAP] [--only IDS]\n"
          "                    [--set PATH=VALUE ...] [--published KEY=V ...] [--format table|json]\n"
          "Runs every published table through partsim and sets it beside the published figure.\n",
          desc))
    return kExitOk;
  parse_command_line(args, desc);
  const auto format = parse_format(format_text, false);
  analysis::book::BookOptions options;
  options.replications = static_cast<std::size_t>(parse_int(replications_text, "--replications", 2, 100000));
  options.outcome_replications =
      static_cast<std::size_t>(parse_int(outcome_replications_text, "--outcome-replications", 2, 10000000));
  options.outcome_max_replications =
      static_cast<std::size_t>(parse_int(outcome_max_text, "--outcome-max-replications", 2, 10000000));
  if (options.outcome_replications > options.outcome_max_replications)
    throw UsageError("--outcome-replications: " + std::to_string(options.outcome_replications) +
                     " is above --outcome-max-replications " + std::to_string(options.outcome_max_replications) +
                     ": a row starts at most at its cap");
  options.threads = static_cast<unsigned>(parse_int(threads_text, "--threads", 0, 1024));
  options.sets = sets;
  for (std::size_t at = 0; !only_text.empty() && at <= only_text.size();) {
    const auto comma = std::min(only_text.find(',', at), only_text.size());
    options.only.push_back(only_text.substr(at, comma - at));
    at = comma + 1;
  }
  try {
    for (const auto& p : published) options.published.set(p);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--published: ") + e.what());
  }

  std::vector<std::string> load_errors;
  const analysis::book::ScenarioSource source = [&](const std::string& path, std::vector<std::string> entry_sets) {
    entry_sets.insert(entry_sets.end(), sets.begin(), sets.end());
    try {
      return analysis::book::LoadedScenario{scenarios::load_scenario_file(dir + "/" + path, entry_sets), {}};
    } catch (const scenarios::InputError& e) {
      std::string message;
      for (const auto& m : e.messages()) message += (message.empty() ? "" : "; ") + m;
      load_errors.push_back(message);
      return analysis::book::LoadedScenario{std::nullopt, message};
    }
  };
  Progress progress("book replications", true);  // the whole book runs for minutes: a log gets lines too
  analysis::book::BookResult result;
  try {
    result = analysis::book::run_book(options, source,
                                      [&](std::size_t done, std::size_t total) { progress.update(done, total); });
  } catch (const analysis::book::TooFewOutcomeReplications& e) {
    throw UsageError(std::string("--outcome-max-replications: ") + e.what());
  } catch (const analysis::book::UnknownEntry& e) {
    throw UsageError(std::string("--only: ") + e.what());
  }
  // Nothing loaded: a misspelt --set or a wrong --scenarios, not a finding about the book.
  if (result.setups_loaded == 0 && !load_errors.empty()) throw UsageError(load_errors.front());

  if (format == OutputFormat::kJson) write_stdout(analysis::book::book_to_json(result).dump(2) + "\n");
  else write_stdout(analysis::book::book_to_text(result));
  return result.all_pass() ? kExitOk : kExitRunFailed;
}

}  // namespace partsim::cli
