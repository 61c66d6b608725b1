// Ctrl-C and SIGTERM (cli/interrupt.hpp) reach every phase of a run: the producers' run,
// the consumer groups that read the logs after it, the bookkeeping of a topic that grows.
// The run stops within a second and writes what it has, marked partial (exit 1).

#include <doctest/doctest.h>

#include <string>

#include "cli/cli_runner.hpp"

using partsim::testing::ScratchDir;
using partsim::testing::slurp;

namespace {

// A topic that grows from 4 to 100,000 partitions at 5.5 s, read by a classic group whose
// members come and go: every rebalance assigns the 100,000 partitions. The run lasts 820 s
// of simulated time so that every step of the schedule (the last at 805 s) is inside it (a
// step after the run's end is not played). Uninterrupted it runs for over a minute, most of
// it in the consumer group.
constexpr const char* kLongGrowth = R"(name: long-growth
run: {seed: 14, duration.ms: 820000, trace: 0}
cluster: {brokers: [{id: 0}, {id: 1}, {id: 2}]}
topics:
  - name: events
    partitions: 4
    schedule: [{at.ms: 5500, set.partitions: 100000}]
producers:
  - name: app
    config: {metadata.max.age.ms: 1000}
    workload:
      topic: events
      arrivals: {kind: poisson, rate: 200}
      keys: {kind: template, template: "user-{i}", cardinality: 500}
consumers:
  - group: readers
    topics: [events]
    members: 2
    processing.us: 2000
    config: {auto.offset.reset: earliest, metadata.max.age.ms: 1000}
    schedule: [JOINS]
)";

std::string long_growth() {
  // 400 joiners: the group's members are c000 .. c401; c002 joins at 6 s and leaves at 7 s,
  // c003 joins at 8 s and leaves at 9 s, ...
  std::string joins;
  for (int k = 0; k < 400; ++k) {
    const std::string name = std::to_string(1000 + k + 2).substr(1);
    if (!joins.empty()) joins += ", ";
    joins += "{at.ms: " + std::to_string(6000 + 2000 * k) + ", join: 1}, {at.ms: " + std::to_string(7000 + 2000 * k) +
             ", leave: c" + name + "}";
  }
  std::string s = kLongGrowth;
  s.replace(s.find("JOINS"), 5, joins);
  return s;
}

struct Stopped {
  int exit_code = -1;
  double seconds_after_signal = 0;  // from the signal to the process's exit
};

// Runs `args` in the background, sends `signal` after `after_s` seconds, and times the exit.
Stopped run_and_signal(const std::string& args, const ScratchDir& dir, const char* signal, double after_s) {
  const std::string rc = (dir.path / "rc").string(), t = (dir.path / "t").string();
  const std::string cmd = "'" + std::string(PARTSIM_BINARY) + "' " + args + " >'" + (dir.path / "stdout").string() +
                          "' 2>'" + (dir.path / "stderr").string() + "' & pid=$!; sleep " + std::to_string(after_s) +
                          "; kill -" + signal + " $pid; a=$(date +%s%N); wait $pid; echo $? >'" + rc +
                          "'; b=$(date +%s%N); echo $((b - a)) >'" + t + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return {std::stoi(slurp(rc)), static_cast<double>(std::stoll(slurp(t))) / 1e9};  // ns
}

}  // namespace

TEST_CASE(
    "Ctrl-C and SIGTERM stop a run of a topic grown to 100,000 partitions within a second, with partial results") {
  // Two seconds in, the run is in its consumer group (the producers' 4,000 records take a
  // fraction of a second), which before polled no signal and ran to the end (exit 0).
  struct Case {
    const char* signal;
    const char* format;
    double seconds;  // to stop and write: the table, or the 23 MB of JSON of 100,000 rows
    const char* partial;
  };
  for (const Case& c : {Case{"INT", "table", 1.5, "PARTIAL RESULT: the run was interrupted"},
                        Case{"TERM", "json", 3.0, "\"partial\": true"}}) {
    CAPTURE(c.signal);
    ScratchDir dir;
    const auto scenario = dir.write("long-growth.yaml", long_growth());
    const Stopped s = run_and_signal("run '" + scenario.string() + "' --format " + c.format, dir, c.signal, 2.0);
    CHECK(s.exit_code == 1);  // docs/robustness.md (Ctrl-C): interrupted, partial results written, exit 1
    // Under ASan + UBSan the same work takes several times as long: the bound there is 5x.
    CHECK(s.seconds_after_signal < c.seconds * (partsim::testing::kSanitized ? 5 : 1));
    const std::string out = slurp(dir.path / "stdout");
    CHECK(out.find(c.partial) != std::string::npos);
    CHECK(out.find("events") != std::string::npos);  // the partitions' rows were written
    CHECK(slurp(dir.path / "stderr").find("interrupted: the results are partial") != std::string::npos);
  }
}
