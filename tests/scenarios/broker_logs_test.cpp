// The brokers' logs (model/cluster/partition_log.hpp) as the engine fills them with
// RunOptions::keep_logs: every acknowledged record once, in its key's partition, in the
// order the leader appended it, readable no earlier than it was sent and never before the
// record ahead of it; and a run that keeps logs gives the same results as one that does not.

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include "model/cluster/partition_log.hpp"
#include "model/cluster_simulation.hpp"
#include "model/partitioners/key_hash.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;
using partsim::testing::check_invariants;
using partsim::testing::log_records;
using partsim::testing::run_with_logs;

namespace {

// Two producers, acks=all and acks=1, keyed records over 6 partitions; broker 1 fails for a
// while, so requests in flight to it are lost and their batches retried on the new leader.
constexpr const char* kTwoProducers = R"(
run: {duration.ms: 2000}
cluster:
  brokers:
    - {id: 0, rtt.ms: 20}
    - {id: 1, rtt.ms: 20, schedule: [{at.ms: 700, fail: true}, {at.ms: 1300, recover: true}]}
topics: [{name: t, partitions: 6, replication.factor: 2}]
producers:
  - name: a
    config: {linger.ms: 5, acks: all}
    workload:
      arrivals: {kind: poisson, rate: 3000}
      keys: {kind: template, template: "k{i}", cardinality: 40}
  - name: b
    config: {linger.ms: 2, acks: 1}
    workload:
      arrivals: {kind: poisson, rate: 2000}
      keys: {kind: template, template: "k{i}", cardinality: 40}
)";

}  // namespace

TEST_CASE("every acknowledged record appears exactly once in its key's partition log, readable in offset order") {
  const auto s = scenarios::load_scenario_text(kTwoProducers, "inline");
  const auto r = run_with_logs(s, 7);
  check_invariants(r, s);
  REQUIRE(r.logs);
  CHECK(r.retries > 0);  // the failure made some batches go twice
  REQUIRE(r.logs->partitions.size() == r.partitions.size());
  CHECK(log_records(*r.logs) == r.records_acked);
  CHECK(r.records_acked == r.records_sent);

  std::set<std::pair<std::int32_t, std::int64_t>> seen;  // (producer, send index)
  std::map<std::int32_t, std::int64_t> per_producer;
  for (std::size_t p = 0; p < r.logs->partitions.size(); ++p) {
    const auto& records = r.logs->partitions[p].records;
    for (std::size_t offset = 0; offset < records.size(); ++offset) {
      const auto& rec = records[offset];
      CAPTURE(p);
      CAPTURE(offset);
      CHECK(seen.emplace(rec.producer, rec.send_index).second);
      ++per_producer[rec.producer];
      REQUIRE(rec.key >= 0);
      const std::string& key = r.logs->keys[static_cast<std::size_t>(rec.key)];
      CHECK(model::to_positive(model::murmur2(key)) % 6 == static_cast<std::int32_t>(p));
      CHECK(rec.readable >= rec.sent);
      if (offset > 0) CHECK(rec.readable >= records[offset - 1].readable);
    }
  }
  CHECK(per_producer.size() == 2);
  CHECK(r.logs->keys.size() == 40);
}

TEST_CASE("without failures a producer's records of a partition are in the log in send order") {
  auto s = scenarios::load_scenario_text(kTwoProducers, "inline");
  s.brokers[1].schedule.clear();
  const auto r = run_with_logs(s, 3);
  REQUIRE(r.logs);
  CHECK(r.retries == 0);
  CHECK(log_records(*r.logs) == r.records_acked);
  for (const auto& log : r.logs->partitions) {
    std::map<std::int32_t, std::int64_t> last;  // producer -> send index of its last record
    for (const auto& rec : log.records) {
      const auto [it, first] = last.emplace(rec.producer, rec.send_index);
      if (!first) {
        CHECK(rec.send_index > it->second);
        it->second = rec.send_index;
      }
    }
  }
}

TEST_CASE("acks=0 records reach the log when the leader appends them; null keys are kNullKey") {
  const char* yaml = R"(
run: {records: 500}
cluster: {brokers: [{id: 0}]}
topics: [{name: t, partitions: 3}]
producers:
  - config: {acks: 0, enable.idempotence: false}
    workload: {arrivals: {kind: constant, rate: 5000}}
)";
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  const auto r = run_with_logs(s, 1);
  REQUIRE(r.logs);
  CHECK(log_records(*r.logs) == 500);
  CHECK(r.logs->keys.empty());
  for (const auto& log : r.logs->partitions)
    for (const auto& rec : log.records) {
      CHECK(rec.key == model::LogRecord::kNullKey);
      CHECK(rec.readable >= rec.sent);
    }
}

TEST_CASE("keeping the logs changes nothing else in the run, and without keep_logs there are none") {
  const auto s = scenarios::load_scenario_text(kTwoProducers, "inline");
  const auto with = run_with_logs(s, 11);
  const auto without = model::run_scenario(s, 11);
  CHECK(without.logs == nullptr);
  CHECK(with.records_acked == without.records_acked);
  CHECK(with.retries == without.retries);
  CHECK(with.events == without.events);
  CHECK(with.latency.quantile(0.99) == without.latency.quantile(0.99));
  for (std::size_t p = 0; p < with.partitions.size(); ++p)
    CHECK(with.partitions[p].bytes == without.partitions[p].bytes);
}
