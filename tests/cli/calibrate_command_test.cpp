#include <doctest/doctest.h>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/calibrate_scenario.hpp"
#include "cli/cli_runner.hpp"

using partsim::testing::q;
using partsim::testing::run_cli;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

namespace {

// Three brokers, six partitions, 100-byte null-key records at a constant rate; every broker
// at request.ms 0.5 and broker 1 at rtt.ms 10: the fit's starting point.
const partsim::testing::CalibrateScenario kSynthetic{
    "synthetic", 1500, {1, 10, 1}, 6, "linger.ms: 0, batch.size: 16384"};
const std::string kScenario = kSynthetic.yaml();

// One measured row made by partsim itself at the true values (broker 1's rtt.ms 40, every
// request.ms 2): the mean of 5 replications with a seed the fit does not use, as a real
// measurement is the mean of a few runs with noise of their own.
std::string measured_row(const std::filesystem::path& scenario, const std::string& set) {
  const auto r =
      run_cli("run " + q(scenario) + " --seed 99 --replications 5 --format json --set cluster.brokers.1.rtt.ms=40 " +
              "--set 'cluster.brokers.*.request.ms=2' --set " + set);
  REQUIRE(r.exit_code == 0);
  std::map<std::string, double> mean;
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& m : j.at("metrics"))
    if (m.at("mean").is_number()) mean[m.at("name").get<std::string>()] = m.at("mean").get<double>();
  std::string row = set;
  for (const char* node : {"0", "1", "2"}) {
    const auto it = mean.find(std::string("producer.app.node.") + node + ".request_latency_avg_ms");
    REQUIRE(it != mean.end());
    row += "," + std::to_string(it->second);
  }
  return row + "\n";
}

}  // namespace

TEST_CASE("partsim calibrate recovers known parameters from measurements partsim made, within its intervals") {
  ScratchDir dir;
  const auto scenario = dir.write("synthetic.yaml", kScenario);
  const std::string csv = "set,node-0.request-latency-avg,node-1.request-latency-avg,node-2.request-latency-avg\n" +
                          measured_row(scenario, "producers.0.workload.arrivals.rate=300") +
                          measured_row(scenario, "producers.0.workload.arrivals.rate=3000");
  const auto measurements = dir.write("m.csv", csv);
  const std::string args =
      "calibrate " + q(scenario) + " --measurements " + q(measurements) +
      " --fit cluster.brokers.1.rtt.ms=0:200 --fit cluster.brokers.*.request.ms=0.01:20 --replications 3 --format json";
  const auto r = run_cli(args + " --threads 2 --out " + q(dir.path / "calibrated.yaml"));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("partsim calibrate: iteration 1: sum of squares") != std::string::npos);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("sum_squares").get<double>() < j.at("start_sum_squares").get<double>() / 100);
  const double truth[] = {40, 2};
  const double start[] = {10, 0.5};
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& p = j.at("parameters").at(i);
    INFO(p.dump());
    CHECK(p.at("start").get<double>() == start[i]);
    const double lo = p.at("ci95_low").get<double>(), hi = p.at("ci95_high").get<double>();
    CHECK(lo <= truth[i]);
    CHECK(truth[i] <= hi);
    CHECK(hi - lo < 0.2 * truth[i]);  // an interval that says something
  }
  CHECK(j.at("residuals").size() == 6);
  CHECK(j.at("residuals").at(1).at("metric") == "node-1.request-latency-avg");
  // The calibrated scenario runs as it is, with the fitted value in place.
  const auto calibrated = slurp(dir.path / "calibrated.yaml");
  CHECK(calibrated.rfind("# partsim calibrate ", 0) == 0);
  CHECK(run_cli("run " + q(dir.path / "calibrated.yaml") + " --format json").exit_code == 0);
  // The same result on one thread: replications are common random numbers, summed in order.
  const auto one = run_cli(args + " --threads 1");
  CHECK(one.out == r.out);
}

TEST_CASE("partsim calibrate refuses a bad measurements file naming file:line:column and what is allowed") {
  ScratchDir dir;
  const auto scenario = q(dir.write("s.yaml", kScenario));
  auto calibrate = [&](const std::string& csv, const std::string& extra = "") {
    return run_cli("calibrate " + scenario + " --measurements " + q(dir.write("m.csv", csv)) + extra);
  };
  auto refused = [](const partsim::testing::CliResult& r, const std::string& message) {
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(message) != std::string::npos);
  };
  refused(calibrate("set,request-latency-avg\nproducers.0.workload.arrivals.rate=10,abc\n"),
          "m.csv:2:39: request-latency-avg: must be a number above 0");
  refused(calibrate("set,request-latency-avg\nproducers.0.workload.arrivals.rate=10,0\n"),
          "m.csv:2:39: request-latency-avg: must be a number above 0");
  refused(calibrate("set,request-latncy-avg\n,1\n"),
          "m.csv:1:5: unknown column 'request-latncy-avg'; allowed: set, record-send-total,");
  refused(calibrate("request-latency-avg\n1\n"), "m.csv:1:1: the header has no 'set' column");
  refused(calibrate("# comment\nset,request-latency-avg\n,1,2\n"), "m.csv:3:4: the row has 3 cells, the header 2");
  refused(calibrate("set,request-latency-avg\n\"a,1\n"), "m.csv:2:1: a quoted cell has no closing quote");
  refused(calibrate("set,request-latency-avg\nrun.records=10,\n"), "m.csv:2:1: the row measures nothing");
  refused(calibrate("set,node-7.request-latency-avg\n,5\n"),
          "m.csv:2:2: node-7.request-latency-avg: the scenario has no broker 7 (brokers: 0, 1, 2)");
  refused(calibrate("set,request-latency-avg\nproducers.0.config.lingr.ms=5,5\n"),
          "m.csv:2:1: set: --set producers.0.config.lingr.ms=5");
  refused(calibrate("set,request-latency-avg\n"), "m.csv: no measurements");
  refused(run_cli("calibrate " + scenario), "--measurements: required");
}

TEST_CASE("partsim calibrate checks --fit paths and bounds as --set checks its paths") {
  ScratchDir dir;
  const auto scenario = q(dir.write("s.yaml", kScenario));
  const auto m = q(dir.write("m.csv", "set,request-latency-avg\n,5\n"));
  auto fit = [&](const std::string& spec) {
    return run_cli("calibrate " + scenario + " --measurements " + m + " --fit '" + spec + "'");
  };
  auto refused = [](const partsim::testing::CliResult& r, const std::string& message) {
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(message) != std::string::npos);
  };
  refused(
      fit("cluster.brokers.*.requst.ms=0:1"),
      "--fit cluster.brokers.*.requst.ms=0:1: unknown key 'requst.ms' under cluster.brokers.* (did you mean 'request.ms'?)");
  refused(fit("cluster.brokers.*.request.ms"), "--fit: must be PATH=LO:HI");
  refused(fit("cluster.brokers.*.request.ms=5:1"), "LO must be below HI");
  refused(fit("cluster.brokers.*.request.ms=-5:1"), "the bound -5 is refused");
  refused(fit("producers.0.config.batch.size=100:20000"),
          "only number and duration fields can be fitted; producers.0.config.batch.size is integer");
  refused(fit("cluster.brokers.5.rtt.ms=0:100"), "the scenario has no item 5 in brokers");
}

TEST_CASE("partsim calibrate reads spreadsheet CSVs and refuses values no metric can take") {
  ScratchDir dir;
  const auto scenario = q(dir.write("s.yaml", kScenario));
  auto calibrate = [&](const std::string& csv, const std::string& extra = " --max-iterations 1 --replications 1") {
    return run_cli("calibrate " + scenario + " --measurements " + q(dir.write("m.csv", csv)) +
                   " --fit 'cluster.brokers.*.request.ms=0.1:5'" + extra);
  };
  auto refused = [](const partsim::testing::CliResult& r, const std::string& message) {
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(message) != std::string::npos);
  };
  // A byte order mark, a comment indented, blanks around a quoted cell: read as meant.
  const auto ok = calibrate("\xEF\xBB\xBFset,request-latency-avg\n  # a comment\n \"run.records=300\" ,5\n",
                            " --max-iterations 1 --replications 1 --format json");
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
  refused(
      calibrate("set,request-latency-avg\nproducers.0.workload.arrivals.rate=10,-3\n"),
      "m.csv:2:39: request-latency-avg: must be a number above 0 (a latency, size, rate, count or share is never negative)");
  refused(calibrate("set,broker-1.records-share\n,0\n"), "m.csv:2:2: broker-1.records-share: must be a number above 0");
  refused(calibrate("set,broker-1.records-share\n,0\n"), "leave the cell empty");
  refused(calibrate("set,request-latency-avg\nrun.seed=7,5\n"),
          "m.csv:2:1: set: 'run.seed=7': a row cannot set run.seed");
  refused(calibrate("set,request-latency-avg\n\"a\nb\",5\n"), "a quoted cell must end on its line");
  refused(run_cli("calibrate " + scenario + " --measurements " + q(dir.path)), "--measurements: cannot read '");
}

TEST_CASE("partsim calibrate checks every row at the corners of the --fit bounds before fitting") {
  ScratchDir dir;
  const auto scenario = q(dir.write("s.yaml", kScenario));
  // linger.ms up to 80000 is fine alone, not with this row's delivery.timeout.ms:
  // delivery.timeout.ms >= linger.ms + request.timeout.ms (30000).
  const auto m =
      q(dir.write("m.csv", "set,request-latency-avg\n,5\nproducers.0.config.delivery.timeout.ms=100000,5\n"));
  const auto r = run_cli("calibrate " + scenario + " --measurements " + m +
                         " --fit producers.0.config.linger.ms=0:80000 --replications 1");
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("m.csv:3:1: set: with --fit values producers.0.config.linger.ms=80000: ") != std::string::npos);
  CHECK(r.err.find("iteration") == std::string::npos);  // refused before anything ran
  // A zero-width range fixes the field: --set says that.
  const auto z =
      run_cli("calibrate " + scenario + " --measurements " + m + " --fit 'cluster.brokers.*.request.ms=2:2'");
  CHECK(z.exit_code == 2);
  CHECK(z.err.find("--fit cluster.brokers.*.request.ms=2:2: LO equals HI") != std::string::npos);
}

TEST_CASE(
    "partsim calibrate: an undefined point costs more than a bad fit, intervals stay in the bounds, --out is checked first") {
  ScratchDir dir;
  // Broker 2 leads no partition of a one-partition topic: node-2's latency is undefined.
  partsim::testing::CalibrateScenario one_partition = kSynthetic;
  one_partition.partitions = 1;
  const auto scenario = q(dir.write("s.yaml", one_partition.yaml()));
  const auto m =
      q(dir.write("m.csv", "set,request-latency-avg,node-2.request-latency-avg\n,3,3\n,4,\nrun.records=500,5,\n"));
  const std::string args = "calibrate " + scenario + " --measurements " + m +
                           " --fit 'cluster.brokers.*.request.ms=0.4:0.6' --replications 1 --max-iterations 2";
  const auto r = run_cli(args + " --format json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("residuals").at(1).at("simulated").is_null());
  CHECK(j.at("residuals").at(1).at("relative").get<double>() == 1000);
  const auto& p = j.at("parameters").at(0);
  INFO(p.dump());
  if (!p.at("ci95_low").is_null()) {
    CHECK(p.at("ci95_low").get<double>() >= 0.4);
    CHECK(p.at("ci95_high").get<double>() <= 0.6);
  }
  // An --out in a folder that does not exist: refused before the fit.
  const auto o = run_cli(args + " --out " + q(dir.path / "no-such-dir" / "c.yaml"));
  CHECK(o.exit_code == 2);
  CHECK(o.err.find("--out: ") != std::string::npos);
  CHECK(o.err.find("start: sum of squares") == std::string::npos);
}
