// Every feature composes: one scenario for every pair of the features below, and one with
// all of them, each run to the end with the brokers' logs kept, and the invariants that
// must hold whatever is combined:
// - every record sent is acknowledged once or reported failed, and the record bytes in
//   batches all come back (check_invariants);
// - the logs hold each record of an idempotent producer at most once, and, with follower
//   replication, every record an acks=all producer (min.insync.replicas 2) had acknowledged
//   is still there after the broker failure (such a producer fails nothing here:
//   delivery.timeout.ms outlasts the failure);
// - records acknowledged = records in the leaders' logs; with a migration, every record an
//   acks=all producer had acknowledged is in the old topic or the new one, and the bridge
//   copied every record of the old topic; per partition, offsets 0..n-1 with readable times
//   that never go back;
// - no consumer processes a record before the high watermark passed it;
// - each group, caught up, processed every offset of its partitions: distinct records
//   processed = records in its partitions' logs = records consumed less duplicates.

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/run_helpers.hpp"

using namespace partsim;
using partsim::testing::check_invariants;

namespace {

enum Feature : unsigned {
  kFollowers = 1u << 0,     // replication with followers and the ISR, RF 3, min.insync.replicas 2
  kConsumers = 1u << 1,     // three groups: classic eager, classic cooperative, KIP-848
  kMigration = 1u << 2,     // a bridge migration to a second topic
  kTopicGrowth = 1u << 3,   // the topic grows from 4 to 6 partitions
  kBrokerSteps = 1u << 4,   // a broker fails and recovers, another turns slow
  kHostsThreads = 1u << 5,  // brokers on a shared host, with network and I/O threads
  kErrors = 1u << 6,        // a broker injects errors (after the append: retries write again)
  kProducers = 1u << 7,     // a second producer (acks=1, not idempotent)
  kAll = (1u << 8) - 1,
};

const std::vector<std::pair<Feature, const char*>> kFeatures = {{kFollowers, "followers"},
                                                                {kConsumers, "consumers"},
                                                                {kMigration, "migration"},
                                                                {kTopicGrowth, "topic growth"},
                                                                {kBrokerSteps, "broker steps"},
                                                                {kHostsThreads, "hosts and threads"},
                                                                {kErrors, "errors"},
                                                                {kProducers, "producers"}};

std::string describe(unsigned features) {
  std::string out;
  for (const auto& [f, name] : kFeatures)
    if (features & f) out += (out.empty() ? "" : " + ") + std::string(name);
  return out;
}

std::string scenario_yaml(unsigned f) {
  const bool followers = f & kFollowers, steps = f & kBrokerSteps, hosts = f & kHostsThreads;
  std::string y = "name: composition\nrun: {seed: 5, duration.ms: 6000, trace: 1000000}\ncluster:\n";
  if (followers)
    y += "  replication: followers\n  min.insync.replicas: 2\n"
         "  broker.heartbeat.interval.ms: 500\n  broker.session.timeout.ms: 1500\n";
  if (hosts) y += "  hosts: [{name: rack-a, cores: 2}]\n";
  y += "  leader.imbalance.check.interval.seconds: 2\n  brokers:\n";
  // Followers 10 ms away: a leader that fails has appended batches they have not fetched.
  const std::string threads = std::string(hosts ? ", host: rack-a, num.network.threads: 1, num.io.threads: 2" : "") +
                              (followers ? ", replica.rtt.ms: 10" : "");
  y += "    - {id: 0" + threads +
       (f & kErrors ? ", error.rate: 0.02, error.code: NOT_ENOUGH_REPLICAS_AFTER_APPEND" : "") + "}\n";
  y += "    - {id: 1" + threads +
       (steps ? ", schedule: [{at.ms: 2000, fail: true}, {at.ms: 4000, recover: true}]" : "") + "}\n";
  y += "    - {id: 2" + threads +
       (steps ? ", schedule: [{at.ms: 1000, set.rtt.ms: 20}, {at.ms: 3000, set.rtt.ms: 1}]" : "") + "}\n";
  y += "topics:\n  - {name: events, partitions: 4, replication.factor: 3";
  if (f & kTopicGrowth) y += ", schedule: [{at.ms: 2500, set.partitions: 6}]";
  y += "}\n";
  if (f & kMigration) y += "  - {name: events-v2, partitions: 6, replication.factor: 3}\n";
  y += "producers:\n"
       "  - name: orders\n"
       "    config: {acks: all, enable.idempotence: true, linger.ms: 2, request.timeout.ms: 1000,"
       " delivery.timeout.ms: 30000}\n"
       "    workload:\n"
       "      topic: events\n"
       "      arrivals: {kind: poisson, rate: 300}\n"
       "      keys: {kind: template, template: \"k{i}\", cardinality: 200}\n";
  if (f & kProducers)
    y += "  - name: clicks\n"
         "    config: {acks: 1, enable.idempotence: false, linger.ms: 5, request.timeout.ms: 1000,"
         " delivery.timeout.ms: 30000}\n"
         "    workload:\n"
         "      topic: events\n"
         "      arrivals: {kind: poisson, rate: 200}\n"
         "      keys: {kind: template, template: \"c{i}\", cardinality: 100}\n";
  if (f & kConsumers)
    y +=
        "consumers:\n"
        "  - group: eager\n    topics: [events]\n    members: 2\n    processing.us: 200\n"
        "    config: {partition.assignment.strategy: [range], auto.offset.reset: earliest, metadata.max.age.ms: 1000}\n"
        "  - group: cooperative\n    topics: [events]\n    members: 2\n    processing.us: 200\n"
        "    schedule: [{at.ms: 3000, join: 1}]\n"
        "    config: {partition.assignment.strategy: [cooperative-sticky], auto.offset.reset: earliest,"
        " metadata.max.age.ms: 1000}\n"
        "  - group: kip848\n    topics: [events]\n    members: 2\n    processing.us: 200\n"
        "    config: {group.protocol: consumer, auto.offset.reset: earliest}\n";
  if (f & kMigration)
    y +=
        "migration: {strategy: bridge, from: events, to: events-v2, at.ms: 500, bridge: {threads: 64, route: by-key}}\n";
  return y;
}

// The (producer, send index) pairs of every record in the logs of `topic`, with how often.
std::map<std::pair<std::int32_t, std::int64_t>, int> records_of(const model::RunResult& r, const std::string& topic) {
  std::map<std::pair<std::int32_t, std::int64_t>, int> seen;
  for (std::size_t i = 0; i < r.partitions.size(); ++i)
    if (r.partitions[i].topic == topic)
      for (const auto& rec : r.logs->partitions[i].records) ++seen[{rec.producer, rec.send_index}];
  return seen;
}

void check_composition(unsigned features) {
  CAPTURE(describe(features));
  const std::string yaml = scenario_yaml(features);
  CAPTURE(yaml);
  const model::Scenario s = scenarios::load_scenario_text(yaml, "composition");
  model::RunOptions options;
  options.keep_logs = true;
  const model::RunResult r = model::run_scenario(s, s.run.seed, 0, options);
  REQUIRE_FALSE(r.partial);
  REQUIRE(r.logs != nullptr);
  check_invariants(r, s);
  CHECK(r.records_acked > 1000);
  // The logs: offsets 0..n-1 (a record's offset is its index) readable in order. With
  // followers 10 ms away and min.insync.replicas 2, the high watermark passes a record no
  // sooner than a follower round trip after its append: the follower has it back, then
  // says so in its next fetch.
  for (std::size_t i = 0; i < r.partitions.size(); ++i) {
    const auto& log = r.logs->partitions[i].records;
    for (std::size_t o = 1; o < log.size(); ++o) CHECK(log[o - 1].readable <= log[o].readable);
    if ((features & kFollowers) && r.partitions[i].topic == "events")
      for (const auto& rec : log) CHECK(rec.readable - rec.sent >= model::SimTime::ms(10));
  }
  // What the producers were told against what the leaders hold, producer by producer. With
  // a migration a producer's records are in both topics: those it sent before the switch in
  // the old one (and copied to the new one), those its twin on the new topic sent after it
  // (reported as NAME@events-v2, its send indexes continuing the producer's).
  const auto in_logs = records_of(r, "events");
  auto everywhere = in_logs;
  if (features & kMigration)
    for (const auto& [who, n] : records_of(r, "events-v2")) everywhere[who] += n;
  std::map<std::int32_t, std::int64_t> distinct, copies;
  for (const auto& [who, n] : in_logs) {
    ++distinct[who.first];
    copies[who.first] += n;
  }
  const auto metrics_of = [&r](const std::string& name) {
    model::ProducerMetrics sum;
    for (const auto& m : r.producer_metrics)
      if (m.producer == name || m.producer == name + "@events-v2") {
        sum.record_send_total += m.record_send_total;
        sum.record_retry_total += m.record_retry_total;
        sum.record_error_total += m.record_error_total;
      }
    return sum;
  };
  for (std::int32_t p = 0; p < static_cast<std::int32_t>(s.producers.size()); ++p) {
    const auto& spec = s.producers[static_cast<std::size_t>(p)];
    CAPTURE(spec.name);
    const model::ProducerMetrics m = metrics_of(spec.name);
    // Drained once each (a retried batch counts again), less those failed.
    const std::int64_t sent = m.record_send_total - m.record_retry_total;
    const std::int64_t acked = sent - m.record_error_total;
    if (spec.config.idempotence) CHECK(copies[p] == distinct[p]);
    if (spec.config.acks == model::Acks::kAll) {
      // acks=all with min.insync.replicas 2 loses nothing acknowledged; nothing fails here.
      CHECK(m.record_error_total == 0);
      if (!(features & kMigration)) CHECK(distinct[p] == acked);
      for (std::int64_t i = 0; i < sent; ++i) CHECK(everywhere.contains({p, i}));
    } else {
      CHECK(distinct[p] <= sent);  // acks=1 may lose what a failover truncated
    }
  }
  if (features & kMigration) {
    // The bridge copied every record of the old topic (it runs on after the producers
    // stop), so no key misses a record in the new one; by key through one writer, in order.
    REQUIRE(r.migration.has_value());
    CAPTURE(r.migration->bridge.max_lag);
    CAPTURE(r.migration->bridge.finished_ms);
    CAPTURE(r.migration->old_records);
    // Caught up (no record readable and not yet copied), so the producers switched to the
    // new topic mid-run; not in the all-in-one run, whose 500 records/s and acks=all copies
    // through a failover keep a copy in flight at every moment after the stall.
    if (features != kAll) {
      CHECK(r.migration->bridge.caught_up);
      CHECK(r.migration->bridge.switch_ms < 6000);
    }
    CHECK(r.migration->bridge.given_up == 0);
    CHECK(r.migration->inconsistent_keys == 0);
    CHECK(r.migration->keys_with_all_events == r.migration->keys);
    CHECK(r.migration->records_migrated == r.migration->old_records);
  } else {
    std::int64_t logged = 0;
    for (const auto& log : r.logs->partitions) logged += static_cast<std::int64_t>(log.records.size());
    // acks=all with idempotence: one copy of each acknowledged record (acks=1 without it:
    // a copy more for a retry of an appended batch, one less for a record a failover cut).
    if (!(features & kProducers)) CHECK(logged == r.records_acked);
  }
  // The consumer groups.
  CHECK(r.consumer_groups.size() == (features & kConsumers ? 3u : 0u));
  std::map<std::string, std::map<std::int32_t, std::set<std::int64_t>>> processed;  // group -> log -> offsets
  for (const auto& row : r.consume_trace) {
    const auto& log = r.logs->partitions[static_cast<std::size_t>(row.log)].records;
    REQUIRE(row.offset < static_cast<std::int64_t>(log.size()));
    // Never past the high watermark: processed no earlier than the record became readable.
    CHECK(row.processed_ms >= log[static_cast<std::size_t>(row.offset)].readable.to_ms());
    processed[row.group][row.log].insert(row.offset);
  }
  for (const auto& g : r.consumer_groups) {
    CAPTURE(g.group);
    CHECK_FALSE(g.stalled);
    CHECK(g.records_unconsumed == 0);
    CHECK(g.records_skipped_latest == 0);
    std::int64_t distinct_processed = 0, in_partitions = 0;
    for (std::size_t i = 0; i < r.partitions.size(); ++i) {
      if (r.partitions[i].topic != "events") continue;
      const auto n = static_cast<std::int64_t>(r.logs->partitions[i].records.size());
      in_partitions += n;
      const auto& offsets = processed[g.group][static_cast<std::int32_t>(i)];
      distinct_processed += static_cast<std::int64_t>(offsets.size());
      // Contiguous: every offset below the log's end, none above.
      if (!offsets.empty()) CHECK(*offsets.rbegin() == n - 1);
      CHECK(static_cast<std::int64_t>(offsets.size()) == n);
    }
    CHECK(distinct_processed == in_partitions);
    // Duplicates: offsets processed again, and second copies of a record.
    CHECK(g.records_consumed - g.duplicates == static_cast<std::int64_t>(in_logs.size()));
  }
}

}  // namespace

TEST_CASE("every pair of features runs together and keeps the invariants") {
  for (std::size_t a = 0; a < kFeatures.size(); ++a)
    for (std::size_t b = a + 1; b < kFeatures.size(); ++b) check_composition(kFeatures[a].first | kFeatures[b].first);
}

TEST_CASE("all the features in one run keep the invariants") { check_composition(kAll); }

TEST_CASE("the broker-failure study: a stalled ISR stalls the group, whose latency over time shows it") {
  // RF 3 on three brokers: broker 1 is in every ISR, so from its failure at 20 s to its
  // fence at 29 s no high watermark moves and the group processes nothing (no latency in
  // those intervals); what it processes after the fence waited up to the stall's length.
  const model::Scenario s = scenarios::load_scenario_file(std::string(PARTSIM_SOURCE_DIR) +
                                                          "/scenarios/studies/broker-failure-under-load.yaml");
  model::RunOptions options;
  options.timeseries = model::SimTime::ms(500);
  const model::RunResult r = model::run_scenario(s, s.run.seed, 0, options);
  check_invariants(r, s);
  REQUIRE(r.consumer_groups.size() == 1);
  const auto& g = r.consumer_groups[0];
  REQUIRE(g.latency_max_ms.size() == g.lag_time_ms.size());
  REQUIRE(g.latency_mean_ms.size() == g.lag_time_ms.size());
  double largest = 0;
  for (std::size_t i = 0; i < g.lag_time_ms.size(); ++i) {
    CAPTURE(g.lag_time_ms[i]);
    const bool stalled = g.lag_time_ms[i] >= 20500 && g.lag_time_ms[i] < 29000;
    CHECK(std::isnan(g.latency_max_ms[i]) == stalled);
    if (stalled) continue;
    CHECK(g.latency_mean_ms[i] <= g.latency_max_ms[i]);
    largest = std::max(largest, g.latency_max_ms[i]);
  }
  // The intervals' largest is the group's largest latency (its histogram's max, exact).
  CHECK(largest == doctest::Approx(static_cast<double>(g.e2e_latency.max()) / 1e6).epsilon(1e-9));
  CHECK(largest > 9000);  // sent just after the failure, processed after the fence
  CHECK(g.records_consumed - g.duplicates == r.records_acked);
}
