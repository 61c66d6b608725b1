#include "cli/app.hpp"

#include <exception>
#include <iostream>
#include <map>
#include <string>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "scenarios/loader/input_error.hpp"

namespace partsim::cli {
namespace {

constexpr const char* kUsage =
    "partsim: a discrete-event simulator of Kafka producers and clusters\n"
    "\n"
    "usage: partsim COMMAND [options]   (partsim COMMAND --help for its options)\n"
    "\n"
    "commands:\n"
    "  hash     where keys land: murmur2, toPositive and the partition per partition count\n"
    "  keys     how many keys move when the partition count changes\n"
    "  run      simulate a scenario: producers, batching, brokers\n"
    "  compare  one scenario under several partitioners or settings, side by side\n"
    "  calibrate fit broker and producer settings to measurements (Levenberg-Marquardt)\n"
    "  book     reproduce every published table and say whether partsim matches it\n"
    "  assign   place replicas as Kafka's placers do and score the result\n"
    "  leaders  balance preferred leaders among existing replicas, and failover order\n"
    "  reassign plan a reassignment with the fewest replica moves under rack and balance constraints\n"
    "  consumers which partitions each consumer gets from Kafka's assignors, and what moves when a group scales\n"
    "  sweep    a sweep file's runs (grid, points or sample x partitioners x replications) into a resumable SQLite store;\n"
    "           shards for Slurm arrays and Kubernetes Indexed Jobs (--shard, --emit slurm|k8s)\n"
    "  merge    join the stores of a sweep's shards into one\n"
    "  status   a sweep's progress across its shards' stores (rows done, rate, ETA)\n"
    "  report   a sweep's store for people: means and 95% intervals (CSV), charts (gnuplot SVG), report.html\n"
    "  version  print partsim's version\n";

struct Command {
  int (*run)(const Args&);
};

const std::map<std::string, Command>& commands() {
  static const std::map<std::string, Command> table{
      {"assign", {run_assign_command}},
      {"book", {run_book_command}},
      {"calibrate", {run_calibrate_command}},
      {"compare", {run_compare_command}},
      {"consumers", {run_consumers_command}},
      {"hash", {run_hash_command}},
      {"keys", {run_keys_command}},
      {"leaders", {run_leaders_command}},
      {"merge", {run_merge_command}},
      {"reassign", {run_reassign_command}},
      {"report", {run_report_command}},
      {"run", {run_run_command}},
      {"status", {run_status_command}},
      {"sweep", {run_sweep_command}},
  };
  return table;
}

}  // namespace

int run_app(const std::vector<std::string>& argv) {
  if (argv.size() < 2) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  const std::string& name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    std::cout << kUsage;
    return kExitOk;
  }
  if (name == "version" || name == "--version") {
    std::cout << "partsim " << PARTSIM_VERSION << " (" << PARTSIM_GIT_REVISION << ")\n";
    return kExitOk;
  }
  const auto it = commands().find(name);
  if (it == commands().end()) {
    std::cerr << "partsim: unknown command '" << name << "' (commands: ";
    bool first = true;
    for (const auto& [n, c] : commands()) {
      std::cerr << (first ? "" : ", ") << n;
      first = false;
    }
    std::cerr << ", version)\n";
    return kExitUsage;
  }
  const Args args(argv.begin() + 2, argv.end());
  install_interrupt_handlers();
  try {
    return it->second.run(args);
  } catch (const UsageError& e) {
    std::cerr << "partsim " << name << ": " << e.what() << '\n';
    return kExitUsage;
  } catch (const scenarios::InputError& e) {
    for (const auto& m : e.messages()) std::cerr << "partsim " << name << ": " << m << '\n';
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    std::cerr << "partsim " << name << ": out of memory\n";
    return kExitRunFailed;
  } catch (const std::exception& e) {
    std::cerr << "partsim " << name << ": " << e.what() << '\n';
    return kExitRunFailed;
  }
}

}  // namespace partsim::cli
