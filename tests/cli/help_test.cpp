// partsim --help and each command's --help: the command list aligned, and every command's
// help ending with an example that runs as printed (from a folder holding the shipped
// scenarios and examples, and a sweep's shard stores for merge, status and report).

#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::ScratchDir;

namespace {

// The command names of `partsim --help`, in its order, and the column their summaries start at.
struct CommandList {
  std::vector<std::string> names;
  std::vector<std::size_t> summary_columns;
};

CommandList command_list(const std::string& help) {
  CommandList list;
  std::istringstream in(help);
  bool in_commands = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "commands:") {
      in_commands = true;
      continue;
    }
    if (!in_commands || line.size() < 3 || line[2] == ' ') continue;  // a summary's second line
    const std::size_t name_end = line.find(' ', 2);
    list.names.push_back(line.substr(2, name_end - 2));
    list.summary_columns.push_back(line.find_first_not_of(' ', name_end));
  }
  return list;
}

}  // namespace

TEST_CASE("partsim --help lists every command with its summary in one column") {
  const auto r = run_cli("--help");
  REQUIRE(r.exit_code == 0);
  const CommandList list = command_list(r.out);
  REQUIRE(list.names.size() == 16);  // 15 commands and version
  for (std::size_t i = 0; i < list.names.size(); ++i) {
    INFO(list.names[i]);
    CHECK(list.summary_columns[i] == list.summary_columns.front());
  }
}

TEST_CASE("every command's --help ends with an example that runs as printed") {
  ScratchDir dir;
  std::filesystem::create_directory_symlink(std::filesystem::path(PARTSIM_SOURCE_DIR) / "scenarios",
                                            dir.path / "scenarios");
  std::filesystem::create_directory_symlink(std::filesystem::path(PARTSIM_SOURCE_DIR) / "examples",
                                            dir.path / "examples");
  // Two shard stores of a small sweep, for the examples of merge, status and report.
  const auto sweep = dir.write("small.yaml",
                               "scenario: scenarios/kip794/slow-broker.yaml\nseed: 11\nreplications: 2\n"
                               "set:\n  run.records: 2000\n  run.warmup.ms: 0\npartitioners: [builtin, sticky-kip480]\n"
                               "grid:\n  workload.arrivals.rate: [300, 3000]\n");
  for (const char* shard : {"0/2", "1/2"}) {
    const auto s = run_cli("sweep '" + sweep.string() + "' --store '" + (dir.path / "shard-%a.sqlite").string() +
                           "' --shard " + shard);
    REQUIRE_MESSAGE(s.exit_code == 0, s.err);
  }

  const CommandList list = command_list(run_cli("--help").out);
  REQUIRE(!list.names.empty());
  for (const std::string& name : list.names) {
    if (name == "version") continue;
    INFO("partsim " << name << " --help");
    const auto help = run_cli(name + " --help");
    REQUIRE(help.exit_code == 0);
    const std::string marker = "\nexample:\n  partsim " + name + " ";
    const std::size_t at = help.out.rfind(marker);
    REQUIRE(at != std::string::npos);
    std::string example = help.out.substr(at + marker.size());
    REQUIRE(example.back() == '\n');
    example.pop_back();
    REQUIRE(example.find('\n') == std::string::npos);  // the example is the help's last line
    // Run it in the scratch folder, as a user in a checkout would.
    const auto ran = run_cli(name + " " + example, "", dir.path);
    INFO("example: partsim " << name << " " << example << "\nstderr: " << ran.err);
    CHECK(ran.exit_code == 0);
    CHECK(!(ran.out + ran.err).empty());  // merge and report say on stderr what they wrote
  }
}
