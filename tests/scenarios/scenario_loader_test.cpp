#include "scenarios/loader/scenario_loader.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "scenarios/loader/input_error.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;

namespace {
const char* kGood = R"(name: x
run: {records: 10}
cluster:
  brokers: [{id: 0}]
topics: [{name: t, partitions: 3}]
producers:
  - config: {linger.ms: 0}
    workload: {keys: {kind: none}}
)";

std::string load_error(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  try {
    scenarios::load_scenario_text(yaml, "s.yaml", sets);
  } catch (const scenarios::InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("a valid scenario loads with Kafka 4.x defaults") {
  const auto s = scenarios::load_scenario_text(kGood, "s.yaml");
  CHECK(s.producers[0].config.batch_size_bytes == 16384);
  CHECK(s.producers[0].config.linger == model::SimTime::zero());
  CHECK(s.producers[0].workload.topic == "t");
  const auto d =
      scenarios::load_scenario_text(std::string(kGood).replace(std::string(kGood).find("{linger.ms: 0}"), 14, "{}"),
                                    "s.yaml");
  CHECK(d.producers[0].config.linger == model::SimTime::ms(5));  // KIP-1030
}

TEST_CASE("errors name file, line, column, key path and the rule") {
  CHECK(load_error(std::string(kGood).replace(std::string(kGood).find("linger.ms: 0"), 12, "linger.ms: -5")) ==
        "s.yaml:7:25: producers.0.config.linger.ms: must be a number in [0, 1e+12], got '-5'");
  CHECK(load_error(std::string(kGood).replace(std::string(kGood).find("linger.ms: 0"), 12, "lingr.ms: 0"))
            .find("s.yaml:7:14: producers.0.config.lingr.ms: unknown key (did you mean 'linger.ms'?)") == 0);
  CHECK(load_error("a: [1, 2").find("s.yaml:1:1: invalid YAML: end of sequence flow not found") == 0);
  CHECK(load_error("") == "s.yaml: is empty; a scenario needs cluster, topics and producers");
}

TEST_CASE("--set overrides a field by its path, Kafka keys with dots included") {
  const auto s = scenarios::load_scenario_text(kGood, "s.yaml", {"producers.0.config.linger.ms=7", "run.records=99"});
  CHECK(s.producers[0].config.linger == model::SimTime::ms(7));
  CHECK(*s.run.records == 99);
  const auto t = scenarios::load_scenario_text(kGood, "s.yaml", {"producers.0.config.batch.size=100"});
  CHECK(t.producers[0].config.batch_size_bytes == 100);
  CHECK(
      load_error(kGood, {"producers.0.config.linger.ms=-1"}) ==
      "--set producers.0.config.linger.ms=-1: producers.0.config.linger.ms: must be a number in [0, 1e+12], got '-1'");
  CHECK(load_error(kGood, {"producers.0.config.lingerms=1"}).find("unknown key 'lingerms' under producers.0.config") !=
        std::string::npos);
}

TEST_CASE("a later --set wins over an earlier one for the same field, and both count as used") {
  // partsim book applies an entry's own --set, then the user's, which may use '*'.
  const auto s = scenarios::load_scenario_text(kGood, "s.yaml",
                                               {"producers.0.config.linger.ms=7", "producers.*.config.linger.ms=9"});
  CHECK(s.producers[0].config.linger == model::SimTime::ms(9));
  const auto t = scenarios::load_scenario_text(kGood, "s.yaml",
                                               {"producers.*.config.linger.ms=9", "producers.0.config.linger.ms=7"});
  CHECK(t.producers[0].config.linger == model::SimTime::ms(7));
}

TEST_CASE("a --set that replaces an earlier one leaves the values of the others alone") {
  // Dropping the first assignment moved the later ones down the list; a YAML::Node assigned
  // over another rebinds the node they share, and request.ms read byte.rate's value.
  const auto s = scenarios::load_scenario_text(kGood, "s.yaml",
                                               {"cluster.brokers.0.rtt.ms=50", "cluster.brokers.*.request.ms=0.2",
                                                "cluster.brokers.*.byte.rate=3000000", "cluster.brokers.0.rtt.ms=0.5"});
  CHECK(s.brokers[0].rtt == model::SimTime::us(500));
  CHECK(s.brokers[0].request_time == model::SimTime::us(200));
  CHECK(s.brokers[0].bytes_per_second == 3e6);
}

namespace {
std::vector<std::string> warnings_of(const std::string& yaml) {
  std::vector<std::string> w;
  scenarios::load_scenario_text(yaml, "s.yaml", {}, &w);
  return w;
}
std::string with(const std::string& from, const std::string& to) {
  std::string s = kGood;
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}
}  // namespace

TEST_CASE("every string of a scenario must be valid UTF-8, named with its location") {
  CHECK(load_error(with("name: x", "name: \"bad\xff\"")) ==
        "s.yaml:1:7: name: must be valid UTF-8 text, got 'bad\\xFF'");
  CHECK(load_error(with("  - config:", "  - name: \"p\xc3\"\n    config:")) ==
        "s.yaml:7:11: producers.0.name: must be valid UTF-8 text, got 'p\\xC3'");
  CHECK(load_error(with("{kind: none}", "{kind: template, template: \"k\xed\xa0\x80-{i}\"}")) ==
        "s.yaml:8:49: producers.0.workload.keys.template: must be valid UTF-8 text, got 'k\\xED\\xA0\\x80-{i}'");
  CHECK(load_error(with("{kind: none}", "{kind: list, list: [a, \"\xc0\xaf\"]}")) ==
        "s.yaml:8:45: producers.0.workload.keys.list.1: must be valid UTF-8 text, got '\\xC0\\xAF'");
  // Text beyond ASCII is fine.
  CHECK(scenarios::load_scenario_text(with("name: x", "name: \"caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x93\xa6\""), "s.yaml")
            .name == "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x93\xa6");
}

TEST_CASE("topic names follow Kafka's rule, as the placement inputs do") {
  CHECK(
      load_error(with("name: t,", "name: \"a b\",")) ==
      "s.yaml:5:17: topics.0.name: 'a b' is not a legal Kafka topic name (1 to 249 of letters, digits, '.', '_' and '-')");
  CHECK(load_error(with("name: t,", "name: \"..\","))
            .find("topics.0.name: '..' is not a legal Kafka topic name ('.' and '..' are reserved)") !=
        std::string::npos);
  CHECK(scenarios::load_scenario_text(with("name: t,", "name: Orders.v2_eu-1,"), "s.yaml").topics[0].name ==
        "Orders.v2_eu-1");
}

TEST_CASE("a second YAML document is an error; an empty one after --- is not") {
  CHECK(
      load_error(std::string(kGood) + "---\nname: y\n") ==
      "s.yaml:10:1: a second YAML document starts here; a scenario file holds one (remove the '---' before it, or split the file)");
  CHECK(scenarios::load_scenario_text(std::string("---\n") + kGood + "...\n", "s.yaml").name == "x");
  CHECK(scenarios::load_scenario_text(std::string(kGood) + "---\n", "s.yaml").name == "x");
}

TEST_CASE("YAML merge keys are expanded: explicit keys win, later brokers share settings") {
  const auto s = scenarios::load_scenario_text(
      with("brokers: [{id: 0}]", "brokers:\n    - &b {id: 0, rtt.ms: 7, rack: a, jitter: {kind: uniform, max.ms: 2}}\n"
                                 "    - {<<: *b, id: 1}\n    - {<<: *b, id: 2, rtt.ms: 9}\n"),
      "s.yaml");
  REQUIRE(s.brokers.size() == 3);
  CHECK(s.brokers[1].id == 1);
  CHECK(s.brokers[1].rtt == model::SimTime::ms(7));
  CHECK(s.brokers[1].rack == "a");
  CHECK(s.brokers[1].jitter.kind == model::Jitter::Kind::kUniform);
  CHECK(s.brokers[2].rtt == model::SimTime::ms(9));
  const std::string two = R"(run: {records: 10}
defaults: &d {rtt.ms: 50}
cluster: {brokers: [{id: 0}]}
topics: [{name: t}]
producers: [{}]
)";
  CHECK(load_error(two).find("s.yaml:2:1: defaults: unknown key") == 0);  // an anchor's home must still be a known key
  const std::string merged = R"(run: {records: 10}
cluster:
  brokers:
    - &slow {id: 0, rtt.ms: 50}
    - &racked {id: 1, rack: b, rtt.ms: 1}
    - {<<: [*slow, *racked], id: 2}
topics: [{name: t}]
producers: [{}]
)";
  const auto m = scenarios::load_scenario_text(merged, "s.yaml");  // a list: the first mapping with a key gives it
  CHECK(m.brokers[2].rtt == model::SimTime::ms(50));
  CHECK(m.brokers[2].rack == "b");
  // A merge of something that is not a mapping is located; a quoted "<<" is an ordinary key.
  CHECK(
      load_error(with("brokers: [{id: 0}]", "brokers: [{id: 0, <<: 3}]")) ==
      "s.yaml:4:25: cluster.brokers.0.<<: a merge key takes a mapping (<<: *base) or a list of mappings (<<: [*a, *b]), got '3'");
  CHECK(load_error(with("brokers: [{id: 0}]", "brokers: [{id: 0, \"<<\": {rtt.ms: 1}}]"))
            .find("s.yaml:4:21: cluster.brokers.0.<<: unknown key") == 0);
}

TEST_CASE("--set on a broker that merges another changes only that broker") {
  const std::string merged = R"(run: {records: 10}
cluster:
  brokers:
    - &b {id: 0, rtt.ms: 5, jitter: {kind: uniform, max.ms: 2}}
    - {<<: *b, id: 1}
topics: [{name: t}]
producers: [{}]
)";
  const auto s = scenarios::load_scenario_text(merged, "s.yaml",
                                               {"cluster.brokers.1.rtt.ms=80", "cluster.brokers.1.jitter.max.ms=9"});
  CHECK(s.brokers[0].rtt == model::SimTime::ms(5));
  CHECK(s.brokers[1].rtt == model::SimTime::ms(80));
  CHECK(s.brokers[0].jitter.max_ms == 2);
  CHECK(s.brokers[1].jitter.max_ms == 9);
  CHECK(s.brokers[1].jitter.kind == model::Jitter::Kind::kUniform);  // the rest of the merged jitter stays
}

TEST_CASE("--set with an empty value is an error that says how to remove a field") {
  CHECK(
      load_error(kGood, {"producers.0.config.linger.ms="}) ==
      "--set producers.0.config.linger.ms=: the value is empty; give one, or remove the field (back to its default) with "
      "producers.0.config.linger.ms=~");
  const auto s = scenarios::load_scenario_text(kGood, "s.yaml", {"producers.0.config.linger.ms=~"});
  CHECK(s.producers[0].config.linger == model::SimTime::ms(5));
}

TEST_CASE("--set checks its path against the field table and names list items that do not exist") {
  CHECK(load_error(kGood, {"producers.3.config.linger.ms=1"}) ==
        "--set producers.3.config.linger.ms=1: producers: has 1 items, no index 3");
  CHECK(load_error(kGood, {"producers.x.name=a"}) ==
        "--set producers.x.name=a: producers: is a list; 'x' is not an index (or *)");
  CHECK(load_error(kGood, {"run.records.x=1"}) ==
        "--set run.records.x=1: run.records: is not a mapping ('x' cannot be set inside it; set the whole value)");
  CHECK(
      load_error(kGood, {"producers.*.config.batch.siz=1"}) ==
      "--set producers.*.config.batch.siz=1: unknown key 'batch.siz' under producers.*.config (did you mean 'batch.size'?)");
  // A later --set of a whole section replaces what an earlier one set inside it.
  const auto s =
      scenarios::load_scenario_text(kGood, "s.yaml", {"producers.0.config.batch.size=100", "producers.0.config={}"});
  CHECK(s.producers[0].config.batch_size_bytes == 16384);
  CHECK(s.producers[0].config.linger == model::SimTime::ms(5));
  // "*" sets every item; a whole item can be replaced.
  const auto t =
      scenarios::load_scenario_text(kGood, "s.yaml", {"producers.*.config.batch.size=100", "producers.0.name=z"});
  CHECK(t.producers[0].config.batch_size_bytes == 100);
  CHECK(t.producers[0].name == "z");
  CHECK(scenarios::load_scenario_text(kGood, "s.yaml", {"topics.0={name: u, partitions: 2}"}).topics[0].partitions ==
        2);
}

TEST_CASE("lognormal values need a median above 0") {
  CHECK(load_error(with("{kind: none}", "{kind: none}, values: {kind: lognormal, median: 0}")) ==
        "s.yaml:8:70: producers.0.workload.values.median: must be > 0 for lognormal values (the median size in bytes)");
  CHECK(load_error(with("{kind: none}", "{kind: none}, values: {kind: fixed, median: 0}")).empty());
}

TEST_CASE("a schedule step's fail or recover must be true") {
  CHECK(
      load_error(with("brokers: [{id: 0}]", "brokers: [{id: 0, schedule: [{at.ms: 5, fail: false}]}]")) ==
      "s.yaml:4:49: cluster.brokers.0.schedule.0.fail: must be true (a step with fail: false does nothing; remove it)");
}

TEST_CASE("batch.size above buffer.memory loads with a located warning") {
  CHECK(warnings_of(with("{linger.ms: 0}", "{batch.size: 65536, buffer.memory: 32768}")) ==
        std::vector<std::string>{
            "s.yaml:7:26: producers.0.config.batch.size: 65536 is larger than buffer.memory 32768: every send "
            "that needs a new batch will fail (BufferPool's hard limit)"});
  CHECK(warnings_of(with("{linger.ms: 0}", "{buffer.memory: 1000}")) ==
        std::vector<std::string>{
            "s.yaml:7:29: producers.0.config.buffer.memory: 1000 is smaller than batch.size 16384: every send "
            "that needs a new batch will fail (BufferPool's hard limit)"});
  CHECK(warnings_of(kGood).empty());
  std::vector<std::string> w;
  scenarios::load_scenario_text(kGood, "s.yaml", {"producers.0.config.buffer.memory=100"}, &w);
  CHECK(w == std::vector<std::string>{
                 "--set producers.0.config.buffer.memory=100: producers.0.config.buffer.memory: 100 is smaller than "
                 "batch.size 16384: every send that needs a new batch will fail (BufferPool's hard limit)"});
}

TEST_CASE("client: kafka-3.x applies kafka-3.9's defaults") {
  const auto s = scenarios::load_scenario_text(
      with("name: x", "name: x\nclient: kafka-3.x").replace(std::string(kGood).find("{linger.ms: 0}") + 18, 14, "{}"),
      "s.yaml");
  CHECK(s.producers[0].config.linger == model::SimTime::zero());
  const auto t = scenarios::load_scenario_text(with("name: x", "name: x\nclient: kafka-3.x"), "s.yaml",
                                               {"producers.0.config.linger.ms=3"});
  CHECK(t.producers[0].config.linger == model::SimTime::ms(3));  // an explicit value still wins
}

TEST_CASE("the default name is the file name, bytes that are not UTF-8 shown as \\xNN") {
  const auto dir = std::filesystem::temp_directory_path() / "partsim-loader-test";
  std::filesystem::create_directories(dir);
  const auto path = dir / "caf\xff.yaml";
  std::string body = kGood;
  body.erase(0, body.find('\n') + 1);  // no name
  std::ofstream(path, std::ios::binary) << body;
  CHECK(scenarios::load_scenario_file(path.string()).name == "caf\\xFF.yaml");
  std::filesystem::remove_all(dir);
}

TEST_CASE("every shipped scenario loads without warnings (partsim book does not print them)") {
  const auto files = partsim::testing::shipped_scenarios();
  REQUIRE(files.size() >= 16);
  for (const auto& f : files) {
    CAPTURE(f.string());
    std::vector<std::string> w;
    scenarios::load_scenario_file(f.string(), {}, &w);
    CHECK(w.empty());
  }
}
