#include "analysis/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>

#include <Eigen/Dense>

#include "analysis/format.hpp"
#include "analysis/probability.hpp"
#include "analysis/table.hpp"
#include "model/cluster_simulation.hpp"
#include "sim/replications.hpp"

namespace partsim::analysis {
namespace {

using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Forward-difference step: 2% of the value, at least 0.1% of the range. Large enough that
// the simulations' event order changes in many places at once (a smooth average), small
// enough for a local slope.
constexpr double kStepShare = 0.02;
constexpr double kStepRangeShare = 0.001;
// Levenberg-Marquardt damping: start, bounds, factor; and the stopping rules.
constexpr double kLambdaStart = 1e-2, kLambdaMin = 1e-9, kLambdaMax = 1e8, kLambdaFactor = 10;
constexpr double kMinRelativeDecrease = 1e-4;  // of the sum of squares, per iteration
constexpr double kMinStepShare = 1e-6;         // of each parameter's range

std::string sig(double v) {
  if (std::isnan(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The simulations of one fit: every parameter vector runs rows x replications with the same
// seeds (common random numbers), so differences come from the parameters alone.
class Simulator {
public:
  explicit Simulator(const CalibrationSetup& s) : s_(s) {
    for (const auto& row : s.rows) points_ += row.values.size();
  }
  std::size_t points() const { return points_; }
  std::size_t evaluations = 0, simulations = 0;

  // The simulated mean of every measured point (rows in order, their values in order) for
  // each parameter vector; std::nullopt once cancelled.
  std::optional<std::vector<Vec>> means(const std::vector<Vec>& xs) {
    const std::size_t rows = s_.rows.size(), reps = s_.replications;
    std::vector<model::Scenario> scenarios;
    scenarios.reserve(xs.size() * rows);
    for (const auto& x : xs)
      for (std::size_t row = 0; row < rows; ++row)
        scenarios.push_back(s_.scenario(row, std::span<const double>(x.data(), x.size())));
    std::vector<Vec> sums(xs.size(), Vec::Zero(static_cast<Eigen::Index>(points_)));
    std::vector<Vec> counts = sums;
    const std::size_t total = scenarios.size() * reps;
    const std::size_t done = sim::for_each_replication<std::vector<double>>(
        total, s_.threads,
        [&](std::size_t k) {
          return row_values(model::run_scenario(scenarios[k / reps], s_.seed, k % reps), (k / reps) % rows);
        },
        [&](std::size_t k, std::vector<double>&& v) {
          const std::size_t x = k / reps / rows, row = (k / reps) % rows;
          for (std::size_t j = 0; j < v.size(); ++j) {
            if (std::isnan(v[j])) continue;
            const auto p = static_cast<Eigen::Index>(offset(row) + j);
            sums[x][p] += v[j];
            counts[x][p] += 1;
          }
        },
        {}, s_.cancel);
    simulations += done;
    if (done < total) return std::nullopt;
    evaluations += xs.size();
    for (std::size_t x = 0; x < xs.size(); ++x)
      for (Eigen::Index p = 0; p < sums[x].size(); ++p)
        sums[x][p] = counts[x][p] > 0 ? sums[x][p] / counts[x][p] : kNaN;
    return sums;
  }

  // Relative residuals; a point the simulations leave undefined counts as kUndefinedRelative
  // off, more than any defined point of a fit worth reporting, so that leaving a point
  // undefined never pays.
  Vec residuals(const Vec& means) const {
    Vec r(means.size());
    std::size_t p = 0;
    for (const auto& row : s_.rows)
      for (const auto& v : row.values) {
        const double m = means[static_cast<Eigen::Index>(p)];
        r[static_cast<Eigen::Index>(p++)] = std::isnan(m) ? kUndefinedRelative : (m - v.value) / v.value;
      }
    return r;
  }

  std::vector<PointResidual> report(const Vec& means) const {
    std::vector<PointResidual> out;
    const Vec r = residuals(means);
    std::size_t p = 0;
    for (std::size_t row = 0; row < s_.rows.size(); ++row)
      for (const auto& v : s_.rows[row].values) {
        const auto i = static_cast<Eigen::Index>(p++);
        out.push_back({row, s_.rows[row].line, v.column, s_.rows[row].set_text, v.metric, v.value, means[i], r[i]});
      }
    return out;
  }

private:
  std::size_t offset(std::size_t row) const {
    std::size_t o = 0;
    for (std::size_t k = 0; k < row; ++k) o += s_.rows[k].values.size();
    return o;
  }

  std::vector<double> row_values(const model::RunResult& r, std::size_t row) const {
    std::vector<double> out;
    for (const auto& v : s_.rows[row].values) {
      std::string why;
      const auto value = simulated_metric(r, v.metric, &why);
      if (!value)
        throw std::runtime_error("line " + std::to_string(s_.rows[row].line) + ", column " + std::to_string(v.column) +
                                 ": " + v.metric + ": " + why);
      out.push_back(*value);
    }
    return out;
  }

  const CalibrationSetup& s_;
  std::size_t points_ = 0;
};

struct Bounds {
  Vec lo, hi;
  Vec clamp(const Vec& x) const { return x.cwiseMax(lo).cwiseMin(hi); }
};

// The difference step of a parameter at x in [lo, hi] (lo < hi): 2% of the value, at least
// 0.1% of the range, forward when there is room for it below hi, else backward when there
// is room above lo, else the whole room of the side with more (the step never leaves the
// bounds the user gave: a field may refuse values outside them).
double step(double x, double lo, double hi) {
  const double h = std::max(kStepShare * std::abs(x), kStepRangeShare * (hi - lo));
  const double up = hi - x, down = x - lo;
  if (h <= up) return h;
  if (h <= down) return -h;
  return up >= down ? up : -down;
}

// The Jacobian of the residuals at x (residuals r there) by forward differences, backward
// where the forward step would leave the bounds. std::nullopt once cancelled.
std::optional<Mat> jacobian(Simulator& sim, const Bounds& b, const Vec& x, const Vec& r) {
  const Eigen::Index n = x.size();
  std::vector<Vec> xs;
  Vec h(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    h[i] = step(x[i], b.lo[i], b.hi[i]);
    Vec xi = x;
    xi[i] += h[i];
    xs.push_back(std::move(xi));
  }
  const auto means = sim.means(xs);
  if (!means) return std::nullopt;
  Mat j(r.size(), n);
  for (Eigen::Index i = 0; i < n; ++i) j.col(i) = (sim.residuals((*means)[static_cast<std::size_t>(i)]) - r) / h[i];
  return j;
}

// Standard errors from s^2 (J^T J)^-1 through the SVD of J; a parameter that loads on a
// direction J does not see (singular value ~0) gets NaN: the data do not determine it.
Vec standard_errors(const Mat& j, double s2) {
  const Eigen::Index n = j.cols();
  Vec se = Vec::Constant(n, kNaN);
  if (std::isnan(s2)) return se;
  Eigen::JacobiSVD<Mat> svd(j, Eigen::ComputeThinV);
  const Vec& sv = svd.singularValues();
  const double tol = 1e-9 * std::max(sv.size() ? sv.maxCoeff() : 0.0, 1e-300);
  Vec var = Vec::Zero(n);
  std::vector<bool> unseen(static_cast<std::size_t>(n), false);
  for (Eigen::Index k = 0; k < sv.size(); ++k)
    for (Eigen::Index i = 0; i < n; ++i) {
      const double v = svd.matrixV()(i, k);
      if (sv[k] > tol) var[i] += v * v / (sv[k] * sv[k]);
      else if (std::abs(v) > 1e-6) unseen[static_cast<std::size_t>(i)] = true;
    }
  for (Eigen::Index i = 0; i < n; ++i)
    if (!unseen[static_cast<std::size_t>(i)] && sv.size() == n) se[i] = std::sqrt(var[i] * s2);
  return se;
}

std::string parameter_values(const CalibrationSetup& s, const Vec& x) {
  std::string out;
  for (std::size_t i = 0; i < s.parameters.size(); ++i)
    out += (i ? " " : "") + s.parameters[i].path + "=" + sig(x[static_cast<Eigen::Index>(i)]);
  return out;
}

void say(const CalibrationSetup& s, const std::string& line) {
  if (s.progress) s.progress(line);
}

// The Levenberg-Marquardt iterations (Marquardt's diagonal scaling; a step that leaves the
// bounds is clamped onto them). Updates x, means, cost; returns why it stopped.
struct FitState {
  Vec x, means, r;
  double cost = 0;
  std::size_t iterations = 0;
  bool cancelled = false;
};

std::string iterate(const CalibrationSetup& s, Simulator& sim, const Bounds& b, FitState& st) {
  auto interrupted = [&st] {
    st.cancelled = true;
    return std::string("interrupted");
  };
  double lambda = kLambdaStart;
  while (st.iterations < s.max_iterations) {
    const auto j = jacobian(sim, b, st.x, st.r);
    if (!j) return interrupted();
    const Mat a = j->transpose() * *j;
    const Vec g = j->transpose() * st.r;
    const double old_cost = st.cost;
    bool accepted = false;
    while (lambda <= kLambdaMax && !accepted) {
      Mat m = a;
      m.diagonal() += lambda * a.diagonal().cwiseMax(1e-12 * std::max(a.diagonal().maxCoeff(), 1e-300));
      const Vec xn = b.clamp(st.x + m.ldlt().solve(-g));
      if (((xn - st.x).cwiseAbs().array() <= kMinStepShare * (b.hi - b.lo).array()).all()) {
        ++st.iterations;
        return "the step is below 1e-6 of every parameter's range";
      }
      const auto means = sim.means({xn});
      if (!means) return interrupted();
      const Vec rn = sim.residuals(means->front());
      if (rn.squaredNorm() < st.cost) {
        st.x = xn, st.means = means->front(), st.r = rn, st.cost = rn.squaredNorm();
        lambda = std::max(lambda / kLambdaFactor, kLambdaMin);
        accepted = true;
      } else {
        lambda *= kLambdaFactor;
      }
    }
    ++st.iterations;
    say(s, "iteration " + std::to_string(st.iterations) + ": sum of squares " + sig(st.cost) + ", lambda " +
               sig(lambda) + ", " + parameter_values(s, st.x));
    if (!accepted) return "no step lowers the sum of squares (a minimum within the simulations' noise)";
    if (old_cost - st.cost <= kMinRelativeDecrease * old_cost)
      return "the sum of squares fell by less than 1e-4 of itself";
  }
  return "the iteration limit (" + std::to_string(s.max_iterations) + ")";
}

}  // namespace

CalibrationResult calibrate(const CalibrationSetup& s) {
  const auto n = static_cast<Eigen::Index>(s.parameters.size());
  Bounds b{Vec(n), Vec(n)};
  FitState st{Vec(n), {}, {}};
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& p = s.parameters[static_cast<std::size_t>(i)];
    b.lo[i] = p.lo, b.hi[i] = p.hi, st.x[i] = std::clamp(p.start, p.lo, p.hi);
  }
  Simulator sim(s);
  CalibrationResult out;
  out.points = sim.points();
  out.dof = out.points > s.parameters.size() ? out.points - s.parameters.size() : 0;
  out.replications = s.replications;
  out.seed = s.seed;
  const auto start = sim.means({st.x});
  if (!start) throw std::runtime_error("interrupted before the first evaluation; nothing fitted");
  st.means = start->front();
  st.r = sim.residuals(st.means);
  st.cost = st.r.squaredNorm();
  out.start_residuals = sim.report(st.means);
  out.start_sum_squares = st.cost;
  say(s, "start: sum of squares " + sig(st.cost) + " over " + std::to_string(out.points) + " points, " +
             parameter_values(s, st.x));
  out.stop_reason = iterate(s, sim, b, st);
  out.cancelled = st.cancelled;
  // The intervals from the Jacobian at the fitted point.
  out.s2 = out.dof > 0 ? st.cost / static_cast<double>(out.dof) : kNaN;
  const auto j = st.cancelled ? std::nullopt : jacobian(sim, b, st.x, st.r);
  if (!j && !st.cancelled) {
    // Interrupted while differencing for the intervals: the fit is not finished.
    out.cancelled = true;
    out.stop_reason = "interrupted";
  }
  const Vec se = j ? standard_errors(*j, out.s2) : Vec::Constant(n, kNaN);
  const double t = out.dof > 0 ? students_t_upper_quantile(static_cast<double>(out.dof), 0.025) : kNaN;
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& p = s.parameters[static_cast<std::size_t>(i)];
    const double v = st.x[i];
    ParameterEstimate e{p, v, se[i], v - t * se[i], v + t * se[i], v <= p.lo || v >= p.hi, false};
    // The field takes no value outside the bounds: an interval reaching past one is cut there.
    e.ci_clipped = e.ci_low < p.lo || e.ci_high > p.hi;
    e.ci_low = std::max(e.ci_low, p.lo), e.ci_high = std::min(e.ci_high, p.hi);
    out.parameters.push_back(std::move(e));
  }
  out.residuals = sim.report(st.means);
  out.sum_squares = st.cost;
  out.iterations = st.iterations;
  out.evaluations = sim.evaluations;
  out.simulations = sim.simulations;
  return out;
}

std::string calibration_to_text(const CalibrationResult& r) {
  std::string out = "calibration: " + std::to_string(r.parameters.size()) + " parameters, " + std::to_string(r.points) +
                    " measured points, " + std::to_string(r.replications) + " replications per configuration (seed " +
                    std::to_string(r.seed) + ", the same seeds for every parameter vector)\n";
  out += "stopped after " + std::to_string(r.iterations) + " iterations (" + std::to_string(r.evaluations) +
         " parameter vectors, " + std::to_string(r.simulations) + " simulations): " + r.stop_reason + "\n";
  out += "sum of squared relative residuals: " + sig(r.start_sum_squares) + " at the start, " + sig(r.sum_squares) +
         " fitted; dof " + std::to_string(r.dof) + ", s = " + sig(std::sqrt(r.s2)) +
         " (the typical relative residual)\n\n";
  Table params({{"parameter", Align::kLeft},
                {"start"},
                {"fitted"},
                {"std_error"},
                {"ci95_low"},
                {"ci95_high"},
                {"note", Align::kLeft}});
  for (const auto& p : r.parameters)
    params.add_row({p.parameter.path, sig(p.parameter.start), sig(p.value), sig(p.std_error), sig(p.ci_low),
                    sig(p.ci_high),
                    std::string(p.at_bound ? "at a bound " : "") +
                        (p.ci_clipped ? "interval clipped to the bounds " : "") +
                        (std::isnan(p.std_error) ? "not determined by these measurements" : "")});
  out += params.to_text() + "\n";
  Table points({{"line"},
                {"set", Align::kLeft},
                {"metric", Align::kLeft},
                {"measured"},
                {"simulated"},
                {"relative"},
                {"start_simulated"},
                {"start_relative"}});
  for (std::size_t k = 0; k < r.residuals.size(); ++k) {
    const auto& p = r.residuals[k];
    const auto& s = r.start_residuals[k];
    points.add_row({std::to_string(p.line), p.set_text.empty() ? "(scenario as is)" : p.set_text, p.metric,
                    sig(p.measured), sig(p.simulated), fixed(p.relative, 4), sig(s.simulated), fixed(s.relative, 4)});
  }
  out += "residuals (relative = (simulated - measured) / measured; simulated = mean over the replications)\n" +
         points.to_text();
  return out;
}

nlohmann::ordered_json calibration_to_json(const CalibrationResult& r) {
  using Json = nlohmann::ordered_json;
  auto num = [](double v) { return std::isnan(v) ? Json(nullptr) : Json(v); };
  Json out = Json::object();
  out["seed"] = r.seed;
  out["replications"] = r.replications;
  out["iterations"] = r.iterations;
  out["evaluations"] = r.evaluations;
  out["simulations"] = r.simulations;
  out["stop_reason"] = r.stop_reason;
  out["interrupted"] = r.cancelled;
  out["points"] = r.points;
  out["dof"] = r.dof;
  out["start_sum_squares"] = num(r.start_sum_squares);
  out["sum_squares"] = num(r.sum_squares);
  out["s"] = num(std::sqrt(r.s2));
  Json params = Json::array();
  for (const auto& p : r.parameters)
    params.push_back({{"path", p.parameter.path},
                      {"lo", p.parameter.lo},
                      {"hi", p.parameter.hi},
                      {"start", p.parameter.start},
                      {"value", num(p.value)},
                      {"std_error", num(p.std_error)},
                      {"ci95_low", num(p.ci_low)},
                      {"ci95_high", num(p.ci_high)},
                      {"at_bound", p.at_bound},
                      {"ci95_clipped", p.ci_clipped}});
  out["parameters"] = std::move(params);
  Json points = Json::array();
  for (std::size_t k = 0; k < r.residuals.size(); ++k) {
    const auto& p = r.residuals[k];
    points.push_back({{"line", p.line},
                      {"column", p.column},
                      {"set", p.set_text},
                      {"metric", p.metric},
                      {"measured", p.measured},
                      {"simulated", num(p.simulated)},
                      {"relative", p.relative},
                      {"start_simulated", num(r.start_residuals[k].simulated)},
                      {"start_relative", r.start_residuals[k].relative}});
  }
  out["residuals"] = std::move(points);
  return out;
}

}  // namespace partsim::analysis
