// partsim calibrate: fit scenario fields (--fit PATH=LO:HI) to measurements (a CSV of
// configurations and the client's metrics) by Levenberg-Marquardt (analysis/calibration.hpp);
// the fit report on stdout, progress on stderr, the calibrated scenario with --out.

#include <cstdio>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/calibration.hpp"
#include "analysis/format.hpp"
#include "analysis/run_report.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/run_estimate.hpp"
#include "scenarios/loader/field_value.hpp"
#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/key_reader.hpp"
#include "scenarios/loader/scenario_fields.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/loader/scenario_writer.hpp"
#include "scenarios/loader/set_override.hpp"
#include "sim/replications.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kCalibrateUsage =
    "partsim calibrate SCENARIO.yaml --measurements FILE.csv [--fit PATH=LO:HI ...] [--set PATH=VALUE ...]\n"
    "                  [--replications R] [--seed N] [--max-iterations N] [--format table|json] [--out CALIBRATED.yaml]\n"
    "Fits scenario fields to measured metrics by Levenberg-Marquardt over relative residuals.\n"
    "Without --fit: cluster.brokers.*.request.ms=0:100 (one value for every broker) and each broker's rtt.ms=0:1000.\n";

struct CalibrateSettings {
  ScenarioCommandOptions common;
  std::string measurements_path, out_path, max_iterations_text = "20";
  std::vector<std::string> fits;
  std::string scenario_text;  // the file, loaded again with each parameter vector's --sets
  analysis::CalibrationSetup setup;
};

// The whole file; a directory or an unreadable file is a usage error naming the option.
std::string read_input(const std::string& path, const std::string& option) {
  try {
    return scenarios::read_input_file(path);
  } catch (const scenarios::InputError& e) {
    throw UsageError(option + ": cannot read '" + path + "': " + e.messages().front());
  }
}

// "p=v q=w": a parameter vector for messages.
std::string fit_values(const CalibrateSettings& cs, std::span<const double> x) {
  std::string out;
  for (std::size_t i = 0; i < x.size(); ++i)
    out += (i ? " " : "") + cs.setup.parameters[i].path + "=" + analysis::exact(x[i]);
  return out;
}

// The --set assignments of the base, the parameters at x, then the row (the measured
// configuration wins over a fitted value of the same field).
std::vector<std::string> sets_for(const CalibrateSettings& cs, const std::vector<std::string>& row_sets,
                                  std::span<const double> x) {
  std::vector<std::string> sets = cs.common.sets;
  for (std::size_t i = 0; i < x.size(); ++i) sets.push_back(cs.setup.parameters[i].path + "=" + analysis::exact(x[i]));
  sets.insert(sets.end(), row_sets.begin(), row_sets.end());
  return sets;
}

// --fit PATH=LO:HI: the path checked as --set checks it (did you mean), a number or duration
// field, bounds the field accepts; the start is the scenario's value, clamped into them.
analysis::FitParameter parse_fit(const CalibrateSettings& cs, const model::Scenario& base, const std::string& spec) {
  const std::string option = "--fit " + spec;
  const auto eq = spec.find('=');
  const auto colon = spec.find(':', eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || eq == 0 || colon == std::string::npos)
    throw UsageError("--fit: must be PATH=LO:HI (e.g. cluster.brokers.*.request.ms=0.01:20), got '" + spec + "'");
  analysis::FitParameter p;
  p.lo = parse_number(spec.substr(eq + 1, colon - eq - 1), option + ": LO", -1e15, 1e15);
  p.hi = parse_number(spec.substr(colon + 1), option + ": HI", -1e15, 1e15);
  if (p.lo == p.hi)
    throw UsageError(option + ": LO equals HI, a range of zero width leaves nothing to fit (fix the field with --set " +
                     spec.substr(0, eq) + "=VALUE instead)");
  if (!(p.lo < p.hi)) throw UsageError(option + ": LO must be below HI");
  try {
    p.path = scenarios::parse_override(spec.substr(0, eq) + "=0", scenarios::scenario_table().schema()).pattern;
  } catch (const scenarios::InputError& e) {
    std::string m = e.messages().front();
    const std::string prefix = "--set " + spec.substr(0, eq) + "=0: ";
    throw UsageError(option + ": " + (m.rfind(prefix, 0) == 0 ? m.substr(prefix.size()) : m));
  }
  const auto field = scenarios::resolved_field(base, p.path, option);
  if (field.type != "number" && field.type != "duration")
    throw UsageError(option + ": only number and duration fields can be fitted; " + p.path + " is " + field.type);
  p.start = std::clamp(field.value.value_or(p.lo), p.lo, p.hi);
  for (const double bound : {p.lo, p.hi}) {
    try {
      auto sets = cs.common.sets;
      sets.push_back(p.path + "=" + analysis::exact(bound));
      (void)scenarios::load_scenario_text(cs.scenario_text, cs.common.scenario_path, sets);
    } catch (const scenarios::InputError& e) {
      throw UsageError(option + ": the bound " + analysis::exact(bound) + " is refused: " + e.messages().front());
    }
  }
  return p;
}

std::vector<analysis::FitParameter> fit_parameters(const CalibrateSettings& cs, const model::Scenario& base) {
  std::vector<std::string> specs = cs.fits;
  if (specs.empty()) {
    // The documented default: one request.ms for every broker, each broker's rtt.ms.
    specs.push_back("cluster.brokers.*.request.ms=0:100");
    for (std::size_t i = 0; i < base.brokers.size(); ++i)
      specs.push_back("cluster.brokers." + std::to_string(i) + ".rtt.ms=0:1000");
  }
  std::vector<analysis::FitParameter> params;
  for (const auto& spec : specs) {
    auto p = parse_fit(cs, base, spec);
    for (const auto& q : params)
      if (q.path == p.path) throw UsageError("--fit " + spec + ": " + p.path + " is fitted twice");
    params.push_back(std::move(p));
  }
  return params;
}

// The parameter vectors every row is loaded at before fitting: the start, then the corners
// of the bounds box, all 2^k up to kAllCornersUpTo parameters, beyond that every parameter
// at LO, every one at HI and each at each bound with the others at the start. The rules
// across fields (delivery.timeout.ms >= linger.ms + request.timeout.ms, send.cost.us > 0
// flat out, ...) are linear in the fields, so a vector of the box that breaks one breaks it
// at a corner too: found here, not minutes into the fit.
constexpr std::size_t kAllCornersUpTo = 10;

std::vector<std::vector<double>> check_points(const std::vector<analysis::FitParameter>& ps) {
  std::vector<double> start, lo, hi;
  for (const auto& p : ps) start.push_back(p.start), lo.push_back(p.lo), hi.push_back(p.hi);
  std::vector<std::vector<double>> out{start};
  if (ps.size() <= kAllCornersUpTo) {
    for (std::size_t mask = 0; mask < (std::size_t{1} << ps.size()); ++mask) {
      auto x = lo;
      for (std::size_t i = 0; i < ps.size(); ++i)
        if ((mask >> i) & 1U) x[i] = hi[i];
      out.push_back(std::move(x));
    }
    return out;
  }
  out.push_back(lo), out.push_back(hi);
  for (std::size_t i = 0; i < ps.size(); ++i)
    for (const double bound : {lo[i], hi[i]}) {
      auto x = start;
      x[i] = bound;
      out.push_back(std::move(x));
    }
  return out;
}

std::string row_where(const CalibrateSettings& cs, const analysis::MeasuredRow& row) {
  return cs.measurements_path + ":" + std::to_string(row.line) + ":" + std::to_string(row.set_column) + ": set: ";
}

// The scenario of a row at parameter vector x; a refused combination names the CSV line and
// the --fit values (the start's message reads as the row's own --set error).
model::Scenario row_scenario(const CalibrateSettings& cs, const analysis::MeasuredRow& row, std::span<const double> x,
                             bool at_start) {
  try {
    return scenarios::load_scenario_text(cs.scenario_text, cs.common.scenario_path, sets_for(cs, row.sets, x));
  } catch (const scenarios::InputError& e) {
    throw UsageError(row_where(cs, row) + (at_start ? "" : "with --fit values " + fit_values(cs, x) + ": ") +
                     e.messages().front());
  }
}

// Each row's configuration loads at the start and at every corner of the bounds (its --sets
// are valid there), names brokers the scenario has, and is within the run limits.
void check_rows(const CalibrateSettings& cs, bool allow_large) {
  const auto points = check_points(cs.setup.parameters);
  for (const auto& row : cs.setup.rows) {
    const model::Scenario s = row_scenario(cs, row, points.front(), true);
    for (const auto& v : row.values)
      if (const auto why = analysis::metric_problem(s, v.metric); !why.empty())
        throw UsageError(cs.measurements_path + ":" + std::to_string(row.line) + ":" + std::to_string(v.column) + ": " +
                         v.metric + ": " + why);
    model::RunPlan plan;
    plan.replications = cs.setup.replications;
    plan.concurrent = sim::replication_threads(cs.setup.threads, cs.setup.replications);
    refuse_if_too_large(s, cs.measurements_path + ":" + std::to_string(row.line), allow_large, plan);
    for (std::size_t k = 1; k < points.size(); ++k) (void)row_scenario(cs, row, points[k], false);
  }
}

// The calibrated scenario into `out` (opened before the fit, so an unwritable --out fails
// before minutes of simulation), committed whole.
void write_calibrated(const CalibrateSettings& cs, const analysis::CalibrationResult& r, AtomicFile& out) {
  std::vector<double> x;
  std::string header = "# partsim calibrate " + analysis::escape_controls(cs.common.scenario_path) +
                       " --measurements " + analysis::escape_controls(cs.measurements_path) +
                       ": the scenario with the fitted values (every field written out)\n";
  for (const auto& p : r.parameters) {
    x.push_back(p.value);
    header += "#   " + p.parameter.path + " = " + analysis::exact(p.value) + " (95% interval " +
              analysis::fixed(p.ci_low, 4) + " .. " + analysis::fixed(p.ci_high, 4) + ")\n";
  }
  const auto s = scenarios::load_scenario_text(cs.scenario_text, cs.common.scenario_path, sets_for(cs, {}, x));
  out.write(header + scenarios::write_scenario_yaml(s));
  out.commit();
}

void parse_calibrate_options(const Args& args, CalibrateSettings& cs, bool& help) {
  auto& c = cs.common;
  c.replications_text = "5";
  po::options_description desc("calibrate options");
  // clang-format off
  desc.add_options()("help,h", "show this help")
      ("measurements", po::value<std::string>(&cs.measurements_path), "the measurements CSV (required): set, then metric columns")
      ("fit", po::value<std::vector<std::string>>(&cs.fits), "PATH=LO:HI, a field to fit between bounds (repeatable; * = one value for every list item)")
      ("set", po::value<std::vector<std::string>>(&c.sets), "override a scenario field before fitting (repeatable)")
      ("replications", po::value<std::string>(&c.replications_text), "replications per configuration and parameter vector (default 5)")
      ("seed", po::value<std::string>(&c.seed_text), "master seed (default: the scenario's run.seed)")
      ("threads", po::value<std::string>(&c.threads_text), "threads (default 0 = all cores); the result does not depend on it")
      ("max-iterations", po::value<std::string>(&cs.max_iterations_text), "Levenberg-Marquardt iterations at most (default 20)")
      ("format", po::value<std::string>(&c.format_text)->default_value("table"), "table or json")
      ("out", po::value<std::string>(&cs.out_path), "write the calibrated scenario (YAML) to this file")
      ("allow-large", po::bool_switch(&c.allow_large), "run even when the estimated records or memory exceed partsim's limits");
  // clang-format on
  help = !parse_scenario_command(args, desc, c, kCalibrateUsage,
                                 "partsim calibrate SCENARIO.yaml --measurements FILE.csv");
  if (help) return;
  if (cs.measurements_path.empty()) throw UsageError("--measurements: required (a CSV of measured configurations)");
  cs.setup.replications = static_cast<std::size_t>(parse_int(c.replications_text, "--replications", 1, 10000));
  cs.setup.threads = static_cast<unsigned>(parse_int(c.threads_text, "--threads", 0, 1024));
  cs.setup.max_iterations = static_cast<std::size_t>(parse_int(cs.max_iterations_text, "--max-iterations", 1, 1000));
}

}  // namespace

int run_calibrate_command(const Args& args) {
  CalibrateSettings cs;
  bool help = false;
  parse_calibrate_options(args, cs, help);
  if (help) return kExitOk;
  const OutputFormat format = parse_format(cs.common.format_text, false);
  try {
    cs.setup.rows =
        analysis::parse_measurements(read_input(cs.measurements_path, "--measurements"), cs.measurements_path);
  } catch (const analysis::MeasurementsError& e) {
    throw UsageError(e.what());
  }
  // The file is read once: the base and every parameter vector's scenario load from this text.
  cs.scenario_text = read_input(cs.common.scenario_path, "SCENARIO");
  const model::Scenario base =
      load_scenario_with_warnings("calibrate", cs.common.scenario_path, cs.common.sets, nullptr, &cs.scenario_text);
  cs.setup.seed = cs.common.seed_text.empty()
                      ? base.run.seed
                      : static_cast<std::uint64_t>(parse_int(cs.common.seed_text, "--seed", 0,
                                                             std::numeric_limits<std::int64_t>::max()));
  cs.setup.parameters = fit_parameters(cs, base);
  check_rows(cs, cs.common.allow_large);
  std::optional<AtomicFile> out;
  if (!cs.out_path.empty()) try {
      out.emplace(cs.out_path);
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("--out: ") + e.what());
    }
  cs.setup.scenario = [&cs](std::size_t row, std::span<const double> x) {
    return row_scenario(cs, cs.setup.rows[row], x, false);
  };
  cs.setup.progress = [](const std::string& line) { std::fprintf(stderr, "partsim calibrate: %s\n", line.c_str()); };
  enable_graceful_stop();
  cs.setup.cancel = &interrupted();
  const auto result = analysis::calibrate(cs.setup);
  if (format == OutputFormat::kJson) {
    auto json = nlohmann::ordered_json::object();
    json["scenario"] = cs.common.scenario_path;
    json["measurements"] = cs.measurements_path;
    json.update(analysis::calibration_to_json(result));
    write_stdout(analysis::dump_json(json));
  } else {
    write_stdout(analysis::calibration_to_text(result));
  }
  if (result.cancelled) {
    std::fprintf(stderr,
                 "partsim calibrate: interrupted: the report shows the last accepted parameters; %s not written\n",
                 cs.out_path.empty() ? "nothing" : cs.out_path.c_str());
    return kExitRunFailed;
  }
  if (out) write_calibrated(cs, result, *out);
  return kExitOk;
}

}  // namespace partsim::cli
