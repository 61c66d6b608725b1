#include "cli/app.hpp"

#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/options.hpp"
#include "scenarios/loader/input_error.hpp"

namespace partsim::cli {
namespace {

// One row per command: what `partsim --help` lists (the name column as wide as the longest
// name) and the example each command's --help ends with. tests/cli/help_test.cpp runs every
// example, so an example that stops working fails the suite.
struct Command {
  const char* name;
  int (*run)(const Args&);
  const char* summary;
  const char* example;
};

constexpr Command kCommands[] = {
    {"hash", run_hash_command, "where keys land: murmur2, toPositive and the partition per partition count",
     "partsim hash book-0 book-1 book-2 --partitions 3,6"},
    {"keys", run_keys_command, "how many keys move when the partition count changes",
     "partsim keys --template 'book-B{i}' --count 20000 --change 4:8"},
    {"run", run_run_command, "simulate a scenario: producers, batching, brokers, consumer groups",
     "partsim run scenarios/slow-broker.yaml --set producers.0.config.linger.ms=20"},
    {"compare", run_compare_command, "one scenario under several partitioners or settings, side by side",
     "partsim compare scenarios/slow-broker.yaml --partitioners builtin,sticky-kip480"},
    {"calibrate", run_calibrate_command, "fit broker and producer settings to measurements (Levenberg-Marquardt)",
     "partsim calibrate scenarios/reference-client/java-3.6-mock.yaml --measurements "
     "scenarios/reference-client/java-3.6-mock.csv --fit cluster.brokers.0.rtt.ms=20:100 --replications 2"},
    {"book", run_book_command, "reproduce every published table and say whether partsim matches it",
     "partsim book --only T1,T5"},
    {"assign", run_assign_command, "place replicas as Kafka's placers do and score the result",
     "partsim assign --brokers 0,1,2,3 --partitions 6 --rf 2 --start-index 0"},
    {"size", run_size_command, "how many partitions a new topic wants: throughput, members, brokers, later growth",
     "partsim size --peak 200MB/s --per-partition 10MB/s --consumers 12 --brokers 6"},
    {"leaders", run_leaders_command, "balance preferred leaders among existing replicas, and failover order",
     "partsim leaders --current examples/reassign/kafka-assignment-optimizer-demo.json --brokers examples/reassign/brokers-2-zones.json --failover"},
    {"reassign", run_reassign_command,
     "plan a reassignment with the fewest replica moves under rack and balance constraints",
     "partsim reassign --current examples/reassign/kafka-assignment-optimizer-demo.json "
     "--brokers examples/reassign/brokers-2-zones.json --target-brokers 0-18"},
    {"consumers", run_consumers_command,
     "which partitions each consumer gets from Kafka's assignors, and what moves when a group scales",
     "partsim consumers --topics orders:12,payments:6 --members 5 --assignor cooperative-sticky"},
    {"sweep", run_sweep_command,
     "a sweep file's runs (grid, points or sample x partitioners x replications) into a resumable SQLite store;\n"
     "shards for Slurm arrays and Kubernetes Indexed Jobs (--shard, --emit slurm|k8s)",
     "partsim sweep scenarios/sweeps/kip794.yaml --emit slurm --shards 4 --store shard-%a.sqlite"},
    {"merge", run_merge_command, "join the stores of a sweep's shards into one",
     "partsim merge shard-*.sqlite --out kip794.sqlite"},
    {"status", run_status_command, "a sweep's progress across its shards' stores (rows done, rate, ETA)",
     "partsim status shard-*.sqlite"},
    {"report", run_report_command,
     "a sweep's store for people: means and 95% intervals (CSV), charts (gnuplot SVG), report.html",
     "partsim report kip794.sqlite --out kip794-report"},
};

const Command* find_command(const std::string& name) {
  for (const Command& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

std::string usage() {
  std::size_t width = std::string_view("version").size();
  for (const Command& c : kCommands) width = std::max(width, std::string_view(c.name).size());
  std::string out = "partsim: a discrete-event simulator of Kafka producers and clusters\n"
                    "\n"
                    "usage: partsim COMMAND [options]   (partsim COMMAND --help for its options and an example)\n"
                    "\n"
                    "commands:\n";
  const auto row = [&](std::string_view name, std::string_view summary) {
    const std::string indent(2 + width + 2, ' ');
    out += "  " + std::string(name) + std::string(width - name.size() + 2, ' ');
    for (std::size_t at = 0;;) {  // a summary's further lines under its first
      const std::size_t nl = summary.find('\n', at);
      out += std::string(summary.substr(at, nl - at)) + "\n";
      if (nl == std::string_view::npos) break;
      out += indent;
      at = nl + 1;
    }
  };
  for (const Command& c : kCommands) row(c.name, c.summary);
  row("version", "print partsim's version");
  return out;
}

}  // namespace

int run_app(const std::vector<std::string>& argv) {
  if (argv.size() < 2) {
    std::cerr << usage();
    return kExitUsage;
  }
  const std::string& name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    std::cout << usage();
    return kExitOk;
  }
  if (name == "version" || name == "--version") {
    std::cout << "partsim " << PARTSIM_VERSION << " (" << PARTSIM_GIT_REVISION << ")\n";
    return kExitOk;
  }
  const Command* command = find_command(name);
  if (command == nullptr) {
    std::cerr << "partsim: unknown command '" << name << "' (commands: ";
    for (const Command& c : kCommands) std::cerr << c.name << ", ";
    std::cerr << "version)\n";
    return kExitUsage;
  }
  set_help_example(command->example);
  const Args args(argv.begin() + 2, argv.end());
  install_interrupt_handlers();
  try {
    return command->run(args);
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
