// The catalogue of bad scenarios (tests/bad-scenarios/NAME.yaml): each must be refused with
// exit code 2 and exactly the message in NAME.expected ("FILE" stands for its path), which
// names file:line:column, the key path and what is allowed.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::slurp;

TEST_CASE("every bad scenario gets its exact, located error and exit code 2") {
  const auto dir = std::filesystem::path(PARTSIM_SOURCE_DIR) / "tests" / "bad-scenarios";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 60);
  for (const auto& f : files) {
    CAPTURE(f.filename().string());
    std::string expected = slurp(std::filesystem::path(f).replace_extension(".expected"));
    REQUIRE_FALSE(expected.empty());
    std::string want;
    std::size_t pos = 0;
    while (pos < expected.size()) {  // every line comes prefixed by the command and with the real path
      const auto end = expected.find('\n', pos);
      std::string line = expected.substr(pos, end - pos);
      for (std::size_t at; (at = line.find("FILE")) != std::string::npos;) line.replace(at, 4, f.string());
      want += "partsim run: " + line + "\n";
      pos = end == std::string::npos ? expected.size() : end + 1;
    }
    const auto r = run_cli("run '" + f.string() + "'");
    CHECK(r.exit_code == 2);
    CHECK(r.err == want);
    CHECK(r.out.empty());
  }
}
