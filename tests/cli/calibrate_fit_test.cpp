// analysis::calibrate driven directly (the scenarios from the loader, as the command builds
// them): the difference steps stay inside the bounds, and an interrupt at any point of the
// fit reports the fit as interrupted.
#include <doctest/doctest.h>

#include <atomic>
#include <span>
#include <string>
#include <vector>

#include "analysis/calibration.hpp"
#include "cli/calibrate_scenario.hpp"
#include "scenarios/loader/scenario_loader.hpp"

namespace {

// Two brokers, two partitions, a short run.
const std::string kFitScenario = partsim::testing::CalibrateScenario{"small", 300, {1, 1}, 2, "linger.ms: 0"}.yaml();

partsim::analysis::CalibrationSetup setup(double lo, double hi, double start, std::vector<double>* asked) {
  partsim::analysis::CalibrationSetup s;
  s.parameters = {{"cluster.brokers.*.rtt.ms", lo, hi, start}};
  partsim::analysis::MeasuredRow row;
  row.line = 2;
  row.values = {{"request-latency-avg", 30, 5}};
  s.rows = {row};
  s.replications = 1;
  s.threads = 1;
  s.max_iterations = 1;
  s.scenario = [asked](std::size_t, std::span<const double> x) {
    if (asked) asked->push_back(x[0]);
    return partsim::scenarios::load_scenario_text(kFitScenario, "small.yaml",
                                                  {"cluster.brokers.*.rtt.ms=" + std::to_string(x[0])});
  };
  return s;
}

}  // namespace

TEST_CASE("calibrate's difference steps never leave the bounds, even where 2% of the value is wider than the range") {
  std::vector<double> asked;
  const auto r = partsim::analysis::calibrate(setup(100, 100.5, 100.4, &asked));
  REQUIRE(asked.size() >= 3);  // the start, the Jacobians, a trial step
  for (const double x : asked) {
    CHECK(x >= 100);
    CHECK(x <= 100.5);
  }
  CHECK_FALSE(r.cancelled);
}

TEST_CASE("an interrupt while calibrate differences for the intervals reports the fit as interrupted") {
  std::atomic<bool> cancel{false};
  auto s = setup(0, 200, 1, nullptr);
  s.cancel = &cancel;
  // The last iteration's progress line comes just before the final Jacobian.
  s.progress = [&cancel](const std::string& line) {
    if (line.rfind("iteration 1:", 0) == 0) cancel = true;
  };
  const auto r = partsim::analysis::calibrate(s);
  CHECK(cancel.load());
  CHECK(r.cancelled);
  CHECK(r.stop_reason == "interrupted");
}
