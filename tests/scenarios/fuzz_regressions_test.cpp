// Inputs the fuzzers found (or that were written to probe the same code) replayed through
// the fuzz targets' entries: each must end in an InputError or succeed, never crash or hang.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "fuzz/fuzz_entries.hpp"

namespace {
std::vector<std::string> inputs(const char* target) {
  std::vector<std::string> out;
  const auto dir = std::filesystem::path(PARTSIM_SOURCE_DIR) / "tests" / "fuzz-regressions" / target;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE_MESSAGE(!files.empty(), (dir.string() + " holds no inputs: the replay would test nothing"));
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    out.push_back(ss.str());
  }
  return out;
}
}  // namespace

TEST_CASE("scenario loader regressions") {
  for (const auto& in : inputs("scenario_loader")) partsim::fuzz::scenario_loader(in);
}
TEST_CASE("key reader regressions") {
  for (const auto& in : inputs("key_reader")) partsim::fuzz::key_reader(in);
}
TEST_CASE("--set regressions") {
  for (const auto& in : inputs("set_override")) partsim::fuzz::set_override(in);
}
TEST_CASE("placement input regressions") {
  for (const auto& in : inputs("assignment_inputs")) partsim::fuzz::assignment_inputs(in);
}
