// topics[].placer: the loader makes the topic's assignment as Kafka's placer would
// (kafka-model-spec §11), the run follows it, and the resolved scenario writes the placer back.

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/loader/scenario_writer.hpp"

using namespace partsim;

namespace {

std::string placed(const std::string& placer, const std::string& brokers, int partitions, int rf) {
  return "run: {records: 600}\ncluster:\n  brokers: " + brokers +
         "\ntopics:\n  - name: t\n    partitions: " + std::to_string(partitions) +
         "\n    replication.factor: " + std::to_string(rf) + "\n    placer: " + placer +
         "\n    placer.seed: 7\nproducers: [{name: p, workload: {topic: t}}]\n";
}

}  // namespace

TEST_CASE("placer simple: partition p on the brokers p, p+1, ... in the order listed") {
  const auto s = scenarios::load_scenario_text(placed("simple", "[{id: 7}, {id: 3}, {id: 5}]", 4, 2), "inline");
  CHECK(s.topics[0].assignment == std::vector<std::vector<std::int32_t>>{{7, 3}, {3, 5}, {5, 7}, {7, 3}});
  const auto r = model::run_scenario(s, 1, 0, {});
  for (const auto& p : r.partitions)  // the leaders are the placement's first replicas
    CHECK(p.leader == s.topics[0].assignment[static_cast<std::size_t>(p.partition)][0]);
}

TEST_CASE("placer admin: leaders in turn over the brokers sorted by id; with racks, a replica per rack") {
  const auto s = scenarios::load_scenario_text(
      placed("admin", "[{id: 2, rack: b}, {id: 0, rack: a}, {id: 1, rack: c}, {id: 3, rack: a}]", 8, 3), "inline");
  const auto& a = s.topics[0].assignment;
  REQUIRE(a.size() == 8);
  // Rack-alternated list (§11.1): a, b, c, then a's second: 0, 2, 1, 3; leaders list[(p + start) % 4].
  const std::vector<std::int32_t> alternated{0, 2, 1, 3};
  const auto start = std::find(alternated.begin(), alternated.end(), a[0][0]) - alternated.begin();
  for (std::size_t p = 0; p < a.size(); ++p) {
    CAPTURE(p);
    CHECK(a[p][0] == alternated[(p + static_cast<std::size_t>(start)) % 4]);
    std::set<std::string> racks;
    for (const auto id : a[p]) racks.insert(id == 0 || id == 3 ? "a" : id == 2 ? "b" : "c");
    CHECK(racks.size() == 3);  // rf 3 over three racks: one in each
  }
}

TEST_CASE("placer striped: each partition's replicas on distinct racks, every broker leading twice") {
  const auto s =
      scenarios::load_scenario_text(placed("striped", "[{id: 0, rack: a}, {id: 1, rack: b}, {id: 2, rack: c}]", 6, 2),
                                    "inline");
  std::map<std::int32_t, int> leads;
  for (const auto& replicas : s.topics[0].assignment) {
    CHECK(replicas.size() == 2);
    CHECK(replicas[0] != replicas[1]);
    ++leads[replicas[0]];
  }
  CHECK(leads == std::map<std::int32_t, int>{{0, 2}, {1, 2}, {2, 2}});
}

TEST_CASE("a placed topic writes back as its placer, and reads back to the same assignment") {
  const auto s = scenarios::load_scenario_text(placed("admin", "[{id: 0}, {id: 1}, {id: 2}]", 5, 2), "inline");
  const std::string yaml = scenarios::write_scenario_yaml(s);
  CHECK(yaml.find("placer: admin") != std::string::npos);
  CHECK(yaml.find("placer.seed: 7") != std::string::npos);
  CHECK(yaml.find("assignment:") == std::string::npos);
  CHECK(scenarios::load_scenario_text(yaml, "resolved").topics[0].assignment == s.topics[0].assignment);
  // Another seed draws another start or shift (the seed reaches the placer).
  std::string other = placed("admin", "[{id: 0}, {id: 1}, {id: 2}]", 5, 2);
  other.replace(other.find("placer.seed: 7"), 14, "placer.seed: 8");
  std::set<std::vector<std::vector<std::int32_t>>> seen{s.topics[0].assignment};
  for (int seed = 8; seed < 20; ++seed) {
    other.replace(other.find("placer.seed: "),
                  other.find('\n', other.find("placer.seed: ")) - other.find("placer.seed: "),
                  "placer.seed: " + std::to_string(seed));
    seen.insert(scenarios::load_scenario_text(other, "inline").topics[0].assignment);
  }
  CHECK(seen.size() > 1);
}
