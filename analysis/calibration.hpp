#pragma once
// Fitting scenario parameters to measurements (`partsim calibrate`): a bounded
// Levenberg-Marquardt on Eigen matrices over relative residuals, with the Jacobian by
// forward differences over common-random-number replications (every parameter vector runs
// the same seeds, so the objective moves only with the parameters), an approximate
// confidence interval per parameter from s^2 (J^T J)^-1, and the report.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/calibration_data.hpp"
#include "model/scenario.hpp"

namespace partsim::analysis {

/// One fitted parameter: a --set path (a list item by index, or * for one value shared by
/// every item) between bounds, from a start inside them.
struct FitParameter {
  std::string path;  ///< "cluster.brokers.*.request.ms"
  double lo = 0, hi = 0;
  double start = 0;
};

struct CalibrationSetup {
  std::vector<FitParameter> parameters;
  std::vector<MeasuredRow> rows;
  std::uint64_t seed = 1;
  std::size_t replications = 5;  ///< per row and parameter vector: replications 0..R-1 of `seed`
  unsigned threads = 0;          ///< 0 = all cores; the result does not depend on it
  std::size_t max_iterations = 20;
  /// The scenario of row `row` with the parameters at `x` (in `parameters` order).
  std::function<model::Scenario(std::size_t row, std::span<const double> x)> scenario;
  /// A line of progress (stderr); may be empty.
  std::function<void(const std::string&)> progress;
  const std::atomic<bool>* cancel = nullptr;
};

struct ParameterEstimate {
  FitParameter parameter;
  double value = 0;
  double std_error = 0;            ///< NaN when not identifiable (or no degrees of freedom)
  double ci_low = 0, ci_high = 0;  ///< value -+ t(0.975, dof) * std_error cut to [lo, hi], NaN as above
  bool at_bound = false;
  bool ci_clipped = false;  ///< the interval reached past a bound and was cut there
};

/// The relative residual of a measured point the simulations leave undefined in every
/// replication (a node that got no request): 1000 (simulated 1000 times the measured),
/// beyond any defined residual of a plausible fit, so a fit never gains by leaving a point
/// undefined.
inline constexpr double kUndefinedRelative = 1000;

struct PointResidual {
  std::size_t row = 0;  ///< index into CalibrationSetup::rows
  std::size_t line = 0, column = 0;
  std::string set_text, metric;
  double measured = 0;
  double simulated = 0;  ///< mean over the replications (NaN: undefined in every one)
  double relative = 0;   ///< (simulated - measured) / measured; kUndefinedRelative when undefined
};

struct CalibrationResult {
  std::vector<ParameterEstimate> parameters;
  std::vector<PointResidual> start_residuals, residuals;
  double start_sum_squares = 0, sum_squares = 0;
  std::size_t points = 0, dof = 0;  ///< measured values; points - parameters
  double s2 = 0;                    ///< sum of squares / dof (NaN without dof)
  std::size_t iterations = 0, evaluations = 0, simulations = 0;
  std::size_t replications = 0;
  std::uint64_t seed = 0;
  std::string stop_reason;
  bool cancelled = false;
};

/// Fits setup.parameters to setup.rows. Throws std::runtime_error when a measured metric
/// names something the scenario lacks (a broker id) or every simulation fails to run.
CalibrationResult calibrate(const CalibrationSetup& setup);

/// The fit report: parameters with intervals, the residual of every measured point before
/// and after, the sums of squares and the iterations.
std::string calibration_to_text(const CalibrationResult& r);
nlohmann::ordered_json calibration_to_json(const CalibrationResult& r);

}  // namespace partsim::analysis
