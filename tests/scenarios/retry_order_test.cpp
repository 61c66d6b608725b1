// Produce errors and the idempotent producer end to end (kafka-consumer-spec §8): with
// retries and several requests in flight, a retried batch lands behind the batches sent
// after it unless the broker's sequence check refuses those until the retry is in; errors
// after the append write records twice unless the broker recognises the retry. Every case
// also checks that each record sent is acknowledged or failed exactly once.

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "model/cluster/partition_log.hpp"
#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;
using partsim::testing::check_invariants;
using partsim::testing::log_records;
using partsim::testing::run_with_logs;

namespace {

model::Scenario example(const std::string& name) {
  return scenarios::load_scenario_file(std::string(PARTSIM_SOURCE_DIR) + "/scenarios/examples/" + name + ".yaml");
}

// The order check recomputed from the logs: records behind a later-sent record of the same
// key from the same producer, in offset order.
std::int64_t reordered_in_logs(const model::BrokerLogs& logs) {
  std::int64_t n = 0;
  for (const auto& log : logs.partitions) {
    std::map<std::pair<std::int32_t, std::int32_t>, std::int64_t> latest;
    for (const auto& rec : log.records) {
      auto [it, first] = latest.emplace(std::make_pair(rec.producer, rec.key), rec.send_index);
      if (first) continue;
      if (rec.send_index < it->second) ++n;
      else it->second = rec.send_index;
    }
  }
  return n;
}

}  // namespace

TEST_CASE("retries with 5 requests in flight reorder a key's records without idempotence and never with it") {
  const auto off = example("retry-reorder");
  const auto on = example("retry-reorder-idempotent");
  REQUIRE_FALSE(off.producers[0].config.idempotence);
  REQUIRE(on.producers[0].config.idempotence);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    CAPTURE(seed);
    const auto r_off = run_with_logs(off, seed);
    const auto r_on = run_with_logs(on, seed);
    for (const auto* r : {&r_off, &r_on}) {
      check_invariants(*r, off);
      CHECK(r->failed.total() == 0);
      CHECK(r->log_order.checked);
      CHECK(r->log_order.duplicated_records == 0);  // NOT_LEADER_OR_FOLLOWER refuses before the append
      CHECK(log_records(*r->logs) == r->records_acked);
      CHECK(reordered_in_logs(*r->logs) == r->log_order.reordered_records);
      CHECK(r->produce_errors.injected > 20);
    }
    CHECK(r_off.log_order.reordered_records > 0);
    CHECK(r_off.log_order.reordered_keys > 0);
    CHECK(r_off.produce_errors.out_of_order == 0);
    // The mechanism, not a flag: the broker refused the batches behind each failed one.
    CHECK(r_on.produce_errors.out_of_order > 0);
    CHECK(r_on.log_order.reordered_records == 0);
    CHECK(r_on.log_order.reordered_keys == 0);
  }
}

TEST_CASE("an error after the append writes records twice without idempotence; the broker drops the idempotent retry") {
  auto s = example("retry-reorder");
  s.brokers[0].error_code = model::ProduceError::kRequestTimedOut;
  const auto r_off = run_with_logs(s, 5);
  s.producers[0].config.idempotence = true;
  const auto r_on = run_with_logs(s, 5);
  check_invariants(r_off, s);
  check_invariants(r_on, s);
  CHECK(r_off.log_order.duplicated_records > 0);
  CHECK(log_records(*r_off.logs) == r_off.records_acked + r_off.log_order.duplicated_records);
  CHECK(r_on.produce_errors.duplicates > 0);
  CHECK(r_on.log_order.duplicated_records == 0);
  CHECK(log_records(*r_on.logs) == r_on.records_acked);
  CHECK(r_on.log_order.reordered_records == 0);
  // Each acknowledged record is in the log once.
  std::set<std::pair<std::int32_t, std::int64_t>> seen;
  for (const auto& log : r_on.logs->partitions)
    for (const auto& rec : log.records) CHECK(seen.emplace(rec.producer, rec.send_index).second);
}

TEST_CASE("set.error.rate turns errors on at its time; a run without errors does not check order") {
  auto s = example("retry-reorder");
  s.brokers[0].error_rate = 0;
  const auto quiet = model::run_scenario(s, 2);
  CHECK_FALSE(quiet.log_order.checked);
  CHECK(quiet.produce_errors.total() == 0);
  CHECK(quiet.retries == 0);

  model::BrokerChange step;
  step.at = model::SimTime::ms(2000);
  step.kind = model::BrokerChange::Kind::kSetErrorRate;
  step.error_rate = 0.2;
  s.brokers[0].schedule.push_back(step);
  model::RunOptions options;
  options.batches = true;
  const auto late = model::run_scenario(s, 2, 0, options);
  check_invariants(late, s);
  CHECK(late.log_order.checked);
  CHECK(late.produce_errors.injected > 0);
  CHECK(late.retries == late.produce_errors.injected);
  // Only batches drained after the step can have been refused.
  for (const auto& b : late.batches)
    if (b.done_ms < 2000) CHECK(b.done_ms - b.created_ms < 100);  // no retry (backoff >= 80 ms)
}

TEST_CASE("the same scenario and seed give the same errors, retries and order counts") {
  const auto s = example("retry-reorder");
  const auto a = model::run_scenario(s, 9);
  const auto b = model::run_scenario(s, 9);
  CHECK(a.produce_errors.injected == b.produce_errors.injected);
  CHECK(a.retries == b.retries);
  CHECK(a.log_order.reordered_records == b.log_order.reordered_records);
  CHECK(a.events == b.events);
  const auto c = model::run_scenario(s, 10);
  CHECK(a.produce_errors.injected != c.produce_errors.injected);  // the draws follow the seed
}

TEST_CASE(
    "a consumer group agrees with log_order: records written twice are duplicates, reordered records are violations") {
  // One member reading from earliest processes every partition in offset order, as the
  // leader appended it: its order check (per key and producer) and its duplicates must
  // match the engine's log_order, computed independently as the records land.
  for (const auto error : {model::ProduceError::kRequestTimedOut, model::ProduceError::kNotLeaderOrFollower}) {
    auto s = example("retry-reorder");
    s.brokers[0].error_code = error;
    model::ConsumerGroupSpec g;
    g.group = "g";
    g.topics = {"orders"};
    g.config.auto_offset_reset = model::ConsumerConfig::OffsetReset::kEarliest;
    s.consumers.push_back(g);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      CAPTURE(seed);
      const auto r = run_with_logs(s, seed);
      REQUIRE(r.consumer_groups.size() == 1);
      const auto& c = r.consumer_groups[0];
      CHECK(c.records_unconsumed == 0);
      CHECK(c.duplicates == r.log_order.duplicated_records);
      CHECK(c.records_consumed - c.duplicates == r.records_acked);
      CHECK(c.order_violations == r.log_order.reordered_records);
      CHECK(c.keys_out_of_order == r.log_order.reordered_keys);
    }
    if (error == model::ProduceError::kRequestTimedOut) CHECK(run_with_logs(s, 1).log_order.duplicated_records > 0);
  }
}
