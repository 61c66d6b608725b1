#include "scenarios/loader/field_table.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>

#include "scenarios/loader/consumer_fields.hpp"
#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/scenario_fields.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/loader/scenario_writer.hpp"

using namespace partsim;
using scenarios::FieldInfo;
using scenarios::Schema;

namespace {

// Every variant the tables know: schedule actions, rule matches, optional keys, null values.
constexpr const char* kEverything = R"(name: everything
client: kafka-3.x
run: {seed: 7, duration.ms: 50, warmup.ms: 1.5, trace: 3, window.ms: 10, partition.order: sorted}
cluster:
  brokers:
    - id: 4
      rack: r1
      jitter: {kind: lognormal, mean.ms: 0.25, sigma: 0.3}
      schedule:
        - {at.ms: 1, set.rtt.ms: 2.5}
        - {at.ms: 2, set.request.ms: 0.003}
        - {at.ms: 3, set.byte.rate: 1e6}
        - {at.ms: 4, fail: true}
        - {at.ms: 5, recover: true}
    - {id: 9, byte.rate: 5e7, batch.ms: 0.01}
  auto.leader.rebalance.enable: false
  leader.imbalance.check.interval.seconds: 0.5
topics: [{name: t, partitions: 8, replication.factor: 2}, {name: u}]
producers:
  - name: rules
    config:
      acks: 1
      compression.type: zstd
      partitioner: rules
      partsim.partitioner.rules: [{prefix: "vip-", partition: 1}, {key: "k7", partition: 2}, {regex: "u[0-9]+", partition: 3}]
      partsim.partitioner.fallback: {hash: java-string, from: 4, count: 4}
    workload:
      topic: t
      arrivals: {kind: on-off, rate: 500, on.ms: 3, off.ms: 7, send.cost.us: 0.5, threads: 2, partition.gap.us: 1.25}
      keys: {kind: hot, hot.key: "caf\u00e9", hot.share: 0.25, templates: ["a-{i}", "b-{i}"]}
      values: {kind: "null"}
      headers: {count: 1, key.bytes: 3, value.bytes: 4}
      records: 30
  - config: {acks: 0, enable.idempotence: false}
    workload:
      topic: u
      partition: 0
      keys: {kind: list, list: ["x", "true", "~", ""]}
      values: {kind: lognormal, median: 250, sigma: 1.5}
)";

void walk(const Schema& schema, const std::string& path, std::map<std::string, const Schema*>& out,
          const YAML::Node& node) {
  out[path] = &schema;
  if (!node.IsMap()) return;
  for (const auto& f : schema.fields) {
    const YAML::Node v = node[f.key];
    if (!v.IsDefined() || !f.sub) continue;
    const std::string p = path.empty() ? f.key : path + "." + f.key;
    if (f.shape == FieldInfo::Shape::kMapping) walk(*f.sub, p, out, v);
    else
      for (std::size_t i = 0; i < v.size(); ++i) walk(*f.sub, p + "." + std::to_string(i), out, v[i]);
  }
}

void add_unknown_keys(YAML::Node node, const Schema& schema) {
  if (!node.IsMap()) return;
  for (const auto& f : schema.fields) {
    YAML::Node v = node[f.key];
    if (!v.IsDefined() || !f.sub) continue;
    if (f.shape == FieldInfo::Shape::kMapping) add_unknown_keys(v, *f.sub);
    else
      for (std::size_t i = 0; i < v.size(); ++i) add_unknown_keys(v[i], *f.sub);
  }
  node["zzz"] = 1;
}

}  // namespace

TEST_CASE("the resolved YAML of every variant loads back to the same scenario") {
  const auto s = scenarios::load_scenario_text(kEverything, "everything.yaml");
  const std::string once = scenarios::write_scenario_yaml(s);
  const auto again = scenarios::load_scenario_text(once, "resolved");
  CHECK(scenarios::write_scenario_yaml(again) == once);
  CHECK(again.producers[0].config.linger == model::SimTime::zero());  // kafka-3.x, written out
  CHECK(again.brokers[0].schedule.size() == 5);
  CHECK(again.brokers[0].schedule[1].duration == model::SimTime::ns(3000));
  CHECK(again.brokers[0].schedule[4].kind == model::BrokerChange::Kind::kRecover);
  CHECK(again.producers[0].config.partitioner.rules[2].match == model::PartitionRule::Match::kRegex);
  CHECK(again.producers[0].workload.values.null_value);
  CHECK(again.producers[1].workload.keys.list == std::vector<std::string>{"x", "true", "~", ""});
  CHECK(again.producers[1].workload.partition == 0);
  CHECK(again.producers[0].workload.arrivals.partition_gap == model::SimTime::ns(1250));
  CHECK(again.run.duration == model::SimTime::ms(50));
  CHECK_FALSE(again.run.records.has_value());
  CHECK(again.controller.imbalance_check_interval == model::SimTime::ms(500));
}

TEST_CASE("a scenario that sets nothing optional loads to the model's own defaults") {
  const auto loaded = scenarios::load_scenario_text(
      "run: {records: 10}\ncluster: {brokers: [{id: 0}]}\ntopics: [{name: t}]\nproducers: [{}]\n", "s.yaml");
  model::Scenario expected;
  expected.run.records = 10;
  expected.brokers.push_back(model::BrokerConfig{});
  expected.topics.push_back(model::TopicConfig{});
  model::ProducerSpec p;
  p.name = "p0";
  p.workload.topic = "t";
  expected.producers.push_back(p);
  CHECK(scenarios::write_scenario_yaml(loaded) == scenarios::write_scenario_yaml(expected));
}

TEST_CASE("the table's defaults are the model's, and the ones that depend on the client say how") {
  std::map<std::string, const Schema*> schemas;
  walk(scenarios::scenario_table().schema(), "", schemas,
       scenarios::scenario_table().write(scenarios::load_scenario_text(kEverything, "e")));
  const Schema& config = *schemas.at("producers.0.config");
  CHECK(config.find("batch.size")->default_text == std::to_string(model::ProducerConfig{}.batch_size_bytes));
  CHECK(config.find("linger.ms")->default_text == "5");
  CHECK(config.find("linger.ms")->client_text == "0 before kafka-4.0");
  CHECK(config.find("request.timeout.ms")->unit == "ms");
  CHECK(config.find("enable.idempotence")->default_text == "true");
  std::set<std::string> differing;
  for (const auto& [path, schema] : schemas)
    for (const auto& f : schema->fields)
      if (!f.client_text.empty()) differing.insert(f.key);
  CHECK(differing == std::set<std::string>{"acks", "enable.idempotence", "linger.ms"});
  const Schema& consumer = *scenarios::consumer_group_table().schema().find("config")->sub;
  CHECK(consumer.find("session.timeout.ms")->client_text == "10000 before kafka-3.0");
  CHECK(consumer.find("partition.assignment.strategy")->client_text == "[range] before kafka-3.0");
}

TEST_CASE("each mapping accepts exactly its table's keys, and unknown keys list them") {
  YAML::Node root = YAML::Load(kEverything);
  add_unknown_keys(root, scenarios::scenario_table().schema());
  std::map<std::string, const Schema*> schemas;
  walk(scenarios::scenario_table().schema(), "", schemas, root);
  std::ostringstream text;
  text << root;
  std::string errors;
  try {
    scenarios::load_scenario_text(text.str(), "s.yaml");
  } catch (const scenarios::InputError& e) {
    errors = std::string(e.what()) + "\n";
  }
  std::size_t checked = 0;
  for (const auto& [path, schema] : schemas) {
    CAPTURE(path);
    std::set<std::string> keys;
    for (const auto& f : schema->fields) keys.insert(f.key);
    std::string allowed;
    for (const auto& k : keys) allowed += (allowed.empty() ? "" : ", ") + k;
    const std::string want = (path.empty() ? "" : path + ".") + "zzz: unknown key; allowed here: " + allowed + "\n";
    CHECK(errors.find(want) != std::string::npos);
    ++checked;
  }
  CHECK(checked > 20);
}

TEST_CASE("durations keep the loader's conversions: every whole nanosecond reads back exactly") {
  using scenarios::TimeUnit;
  for (const std::int64_t ns : {0LL, 1LL, 999LL, 1000LL, 100000LL, 123456789LL, 86400000000000LL})
    for (const auto unit : {TimeUnit::kSeconds, TimeUnit::kMillis, TimeUnit::kMicros}) {
      CAPTURE(ns);
      const double v = std::stod(scenarios::number_text(scenarios::time_value(model::SimTime::ns(ns), unit)));
      CHECK(scenarios::time_from(v, unit) == model::SimTime::ns(ns));
    }
  CHECK(scenarios::number_text(0.1) == "0.1");
  CHECK(scenarios::number_text(2000) == "2000");
}
