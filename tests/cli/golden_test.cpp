// Every shipped scenario, run with its own seed, must print exactly its checked-in summary
// (tests/golden/). A change of results is regenerated on purpose with `make golden`.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::slurp;

TEST_CASE("every shipped scenario reproduces its golden summary byte for byte") {
  const std::filesystem::path golden = std::filesystem::path(PARTSIM_SOURCE_DIR) / "tests" / "golden";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(golden))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 15);
  for (const auto& f : files) {
    std::string rel = f.stem().string();
    for (std::size_t at; (at = rel.find("__")) != std::string::npos;) rel.replace(at, 2, "/");
    CAPTURE(rel);
    const auto r = run_cli("run '" + std::string(PARTSIM_SOURCE_DIR) + "/scenarios/" + rel + ".yaml' --format json");
    CHECK(r.exit_code == 0);
    CHECK(r.out == slurp(f));
  }
}

TEST_CASE("every shipped scenario has a golden summary") {
  std::size_t scenarios = 0;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(std::filesystem::path(PARTSIM_SOURCE_DIR) / "scenarios"))
    if (e.path().extension() == ".yaml" && e.path().parent_path().filename() != "sweeps")
      ++scenarios;  // sweep files are no scenarios
  std::size_t goldens = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(PARTSIM_SOURCE_DIR) / "tests" / "golden"))
    if (e.path().extension() == ".json") ++goldens;
  CHECK(goldens == scenarios);
}
