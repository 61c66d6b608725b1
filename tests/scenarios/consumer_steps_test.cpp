// The consumer fields of round three: commit, auto.offset.reset none and by_duration,
// group.instance.id with restart steps, and the schedule's impossible or late steps.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "scenarios/error_of.hpp"
#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/loader/scenario_writer.hpp"

using namespace partsim;
using namespace partsim::model;
using partsim::testing::error_of;

namespace {

std::string scenario(const std::string& run, const std::string& group) {
  return "run: {" + run +
         "}\ncluster:\n  brokers: [{id: 0}]\ntopics: [{name: t, partitions: 3}]\n"
         "producers: [{workload: {keys: {kind: none}}}]\nconsumers:\n  - " +
         group + "\n";
}

Scenario load(const std::string& text, std::vector<std::string>* warnings = nullptr) {
  return scenarios::load_scenario_text(text, "f.yaml", {}, warnings);
}

}  // namespace

TEST_CASE("commit, by_duration and group.instance.id read, and the resolved scenario reads back the same") {
  const auto s =
      load(scenario("records: 10", "{group: g, topics: [t], members: 2, commit: sync-per-poll, "
                                   "config: {auto.offset.reset: by_duration:PT1M30.5S, group.instance.id: app-1.}, "
                                   "schedule: [{at.ms: 100, crash: c1}, {at.ms: 200, restart: c1}]}"));
  const auto& g = s.consumers.at(0);
  CHECK(g.commit == ConsumerGroupSpec::Commit::kSyncPerPoll);
  CHECK(g.config.auto_offset_reset == ConsumerConfig::OffsetReset::kByDuration);
  CHECK(g.config.auto_offset_reset_by == SimTime::ms(90500));
  CHECK(g.config.group_instance_id == "app-1.");
  CHECK(g.schedule.at(1).kind == MemberChange::Kind::kRestart);
  const auto text = scenarios::write_scenario_yaml(s);
  CHECK(text.find("by_duration:PT90.5S") != std::string::npos);
  CHECK(scenarios::write_scenario_yaml(load(text)) == text);
  // Defaults: no application commits, dynamic members.
  const auto d = load(scenario("records: 10", "{group: g, topics: [t]}"));
  CHECK(d.consumers.at(0).commit == ConsumerGroupSpec::Commit::kNone);
  CHECK(d.consumers.at(0).config.group_instance_id.empty());
  CHECK(scenarios::write_scenario_yaml(load(scenarios::write_scenario_yaml(d))) == scenarios::write_scenario_yaml(d));
}

TEST_CASE("by_duration is written back in a form that reads back: no exponent, however long or short") {
  for (const char* v :
       {"by_duration:P1157DT9H46M40S", "by_duration:PT0.000001S", "by_duration:PT0.123456789S", "by_duration:PT0S"}) {
    CAPTURE(v);
    const auto s = load(scenario("records: 10",
                                 std::string("{group: g, topics: [t], config: {auto.offset.reset: \"") + v + "\"}}"));
    const auto text = scenarios::write_scenario_yaml(s);
    const auto at = text.find("by_duration:");
    REQUIRE(at != std::string::npos);
    const std::string written = text.substr(at, text.find('\n', at) - at);
    CAPTURE(written);
    CHECK(written.find('e') == std::string::npos);
    const auto again = load(text);  // 100,000,000 s and 1 us once came back as PT1e+08S and PT1e-06S, which do not load
    CHECK(again.consumers.at(0).config.auto_offset_reset_by == s.consumers.at(0).config.auto_offset_reset_by);
  }
}

TEST_CASE("by_duration takes java.time.Duration's ISO-8601 forms, without a sign") {
  const auto reset = [](const std::string& v) {
    return load(scenario("records: 10", "{group: g, topics: [t], config: {auto.offset.reset: \"" + v + "\"}}"))
        .consumers.at(0)
        .config;
  };
  CHECK(reset("by_duration:PT10S").auto_offset_reset_by == SimTime::sec(10));
  CHECK(reset("by_duration:pt2m").auto_offset_reset_by == SimTime::sec(120));
  CHECK(reset("by_duration:P1DT1H").auto_offset_reset_by == SimTime::sec(90000));
  CHECK(reset("by_duration:PT0.25S").auto_offset_reset_by == SimTime::ms(250));
  CHECK(reset("by_duration:PT0S").auto_offset_reset == ConsumerConfig::OffsetReset::kByDuration);
  for (const char* bad :
       {"by_duration:10s", "by_duration:PT", "by_duration:P", "by_duration:-PT1S", "by_duration:PT1S1M",
        "by_duration:PT1.5M", "by_duration:P1H", "by_duration:", "by_duration:PT99999999999999S"}) {
    CAPTURE(bad);
    CHECK(error_of([&] { reset(bad); }).find("by_duration takes a non-negative ISO-8601 duration") !=
          std::string::npos);
  }
  CHECK(error_of([&] { reset("oldest"); }).find("must be latest, earliest, none or by_duration") != std::string::npos);
}

TEST_CASE("impossible consumer steps are refused where they stand, saying why") {
  const auto err = [](const std::string& schedule, const std::string& config = "{}") {
    return error_of([&] {
      load(scenario("records: 10",
                    "{group: g, topics: [t], members: 3, config: " + config + ", schedule: " + schedule + "}"));
    });
  };
  CHECK(err("[{at.ms: 9000, leave: c1}, {at.ms: 12000, crash: c1}]").find("crash: c1 has left at 9000 ms") !=
        std::string::npos);
  CHECK(err("[{at.ms: 12000, crash: c2}, {at.ms: 13000, crash: c2}]").find("crash: c2 already crashed at 12000 ms") !=
        std::string::npos);
  CHECK(err("[{at.ms: 12000, crash: c2}, {at.ms: 13000, leave: c2}]").find("leave: c2 already crashed at 12000 ms") !=
        std::string::npos);
  // Time order decides, not file order: the crash at 5 s comes before the leave at 8 s.
  CHECK(err("[{at.ms: 8000, leave: c0}, {at.ms: 5000, crash: c0}]")
            .find("schedule.0.leave: c0 already crashed at 5000 ms") != std::string::npos);
  CHECK(err("[{at.ms: 100, crash: c3}, {at.ms: 200, join: 1}]").find("crash: c3 has not joined by 100 ms") !=
        std::string::npos);
  CHECK(err("[{at.ms: 100, crash: c1}, {at.ms: 200, restart: c1}]").find("restart: c1 is a dynamic member") !=
        std::string::npos);
  CHECK(err("[{at.ms: 200, restart: c1}]", "{group.instance.id: i}").find("restart: c1 is running at 200 ms") !=
        std::string::npos);
  // A static member may crash, restart and crash again.
  CHECK(err("[{at.ms: 100, crash: c1}, {at.ms: 200, restart: c1}, {at.ms: 300, crash: c1}, {at.ms: 400, restart: c1}, "
            "{at.ms: 500, leave: c1}, {at.ms: 600, restart: c1}]",
            "{group.instance.id: i}")
            .empty());
  CHECK(err("[{at.ms: 100, leave: c1}, {at.ms: 200, leave: c1}]", "{group.instance.id: i}")
            .find("leave: c1 has left at 100 ms (restart it first)") != std::string::npos);
}

TEST_CASE("auto.offset.reset none is refused: a scenario's group has no committed offsets") {
  const auto e =
      error_of([&] { load(scenario("records: 10", "{group: g, topics: [t], config: {auto.offset.reset: none}}")); });
  CHECK(e.find("auto.offset.reset: none: a scenario's group starts without committed offsets") != std::string::npos);
  CHECK(e.find("NoOffsetForPartitionException") != std::string::npos);
}

TEST_CASE("group.instance.id takes Kafka's characters only") {
  const auto e =
      error_of([&] { load(scenario("records: 10", "{group: g, topics: [t], config: {group.instance.id: \"a b\"}}")); });
  CHECK(e.find("has a character Kafka refuses in a group.instance.id") != std::string::npos);
}

TEST_CASE("a consumer step after the run's duration is a warning naming the step") {
  std::vector<std::string> warnings;
  load(scenario("duration.ms: 20000",
                "{group: g, topics: [t], members: 2, schedule: [{at.ms: 5000, join: 1}, {at.ms: 1000000, leave: c1}]}"),
       &warnings);
  REQUIRE(warnings.size() == 1);
  CAPTURE(warnings[0]);
  CHECK(warnings[0].find("f.yaml:7:") == 0);
  CHECK(warnings[0].find("consumers.0.schedule.1.at.ms: 1000000 ms is after the run ends (run.duration.ms 20000 ms)") !=
        std::string::npos);
  warnings.clear();
  load(scenario("duration.ms: 20000", "{group: g, topics: [t], schedule: [{at.ms: 20000, join: 1}]}"), &warnings);
  CHECK(warnings.empty());
}
