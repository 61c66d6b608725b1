// Producers over many partitions make and hash each keyed record a send ahead and prefetch
// its partition's state (KafkaProducer::look_ahead, the engine's prefetch of the next
// send). A run above the threshold where that starts must still put every record where
// Kafka's partitionForKey does: checked record by record in the logs against murmur2,
// independently of the producer's code, and with every record acknowledged once.

#include <doctest/doctest.h>

#include <string>

#include "model/cluster_simulation.hpp"
#include "model/partitioners/key_hash.hpp"
#include "run_helpers.hpp"
#include "scenarios/loader/scenario_loader.hpp"

using namespace partsim;

TEST_CASE("with the look-ahead of sends on, every keyed record lands on toPositive(murmur2(key)) % partitions") {
  const std::string text = R"(name: look-ahead
run: {seed: 3, duration.ms: 300}
cluster:
  brokers: [{id: 0}, {id: 1}, {id: 2}]
topics: [{name: t, partitions: 2500}]
producers:
  - {name: a, workload: {arrivals: {kind: poisson, rate: 20000}, keys: {kind: template, template: "k{i}", cardinality: 50000}}}
  - {name: b, workload: {arrivals: {kind: poisson, rate: 20000}, keys: {kind: zipf, template: "z{i}", cardinality: 50000}}}
)";  // 2 x 2,500 partition states: above the engine's threshold (4,096)
  const auto s = scenarios::load_scenario_text(text, "look-ahead");
  model::RunOptions options;
  options.keep_logs = true;
  const auto r = model::run_scenario(s, s.run.seed, 0, options);
  testing::check_invariants(r, s);
  REQUIRE(r.logs);
  std::int64_t records = 0;
  for (std::size_t p = 0; p < r.logs->partitions.size(); ++p)
    for (const auto& rec : r.logs->partitions[p].records) {
      REQUIRE(rec.key >= 0);
      const std::string& key = r.logs->keys[static_cast<std::size_t>(rec.key)];
      REQUIRE(static_cast<std::size_t>(model::to_positive(model::murmur2(key)) % 2500) == p);
      ++records;
    }
  CHECK(records == r.records_acked);
  CHECK(records > 10000);
}
