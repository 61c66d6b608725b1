// The metric registry: one machine name per metric, the values of a run, and what a run
// that measured nothing reports.

#include "analysis/run_metrics.hpp"

#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "analysis/repartition_report.hpp"
#include "analysis/replication_summary.hpp"
#include "analysis/run_report.hpp"
#include "model/run_estimate.hpp"

using namespace partsim::analysis;
using partsim::model::RunResult;

namespace {

// Two partitions on brokers 0 and 7: 30 and 10 records, acked after the warm-up.
RunResult small_run() {
  RunResult r;
  r.records_sent = r.records_acked = r.records_measured = 40;
  r.partitions = {{"t", 0, 0, 30, 3000, 3}, {"t", 1, 7, 10, 1000, 2}};
  r.brokers = {{0, 30, 3000, 3, 4, 8.0}, {7, 10, 1000, 2, 2, 1.0}};
  for (int i = 0; i < 40; ++i) r.latency.record(2'000'000);  // 2 ms
  r.batch_bytes.record(1000);
  return r;
}

}  // namespace

TEST_CASE("metric names are lowercase and dotted, unique, and carry their unit as a suffix") {
  const MetricRegistry reg(small_run());
  std::set<std::string> names;
  for (const auto& m : reg.metrics()) {
    CAPTURE(m.name);
    CHECK(names.insert(m.name).second);
    for (char c : m.name)
      CHECK((std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '.' ||
             c == '_'));
    if (m.unit == "ms") CHECK(m.name.ends_with("_ms"));
    CHECK(!m.label.empty());
  }
  for (const char* name :
       {"records_acked", "records_failed", "failures.buffer_limit", "partition.t.1.records", "broker.7.records_share",
        "broker.7.bytes_share", "broker.0.records_per_batch", "latency.p99_ms", "latency.p999_ms",
        "distribution.max_over_min", "distribution.p_value", "batch.p50_bytes", "buffer_full_ms"})
    CHECK(reg.find(name) < reg.size());
  // The estimate of a replicated run's memory counts the same metrics.
  CHECK(partsim::model::replication_metrics(2, 2) == static_cast<double>(reg.size()));
}

TEST_CASE("metric values of a run, found by name or by partition and broker") {
  const RunResult r = small_run();
  const MetricRegistry reg(r);
  const auto v = reg.values(r);
  REQUIRE(v.size() == reg.size());
  CHECK(v[reg.find("broker.7.records_share")] == doctest::Approx(0.25));
  CHECK(v[reg.find(MetricScope::kBroker, 1, "records_share")] == doctest::Approx(0.25));
  CHECK(reg.find(MetricScope::kBroker, 1, "records_share") == reg.find("broker.7.records_share"));
  CHECK(reg.find(MetricScope::kPartition, 1, "batches") == reg.find("partition.t.1.batches"));
  CHECK(reg.find(MetricScope::kPartition, 2, "batches") == reg.size());
  CHECK(v[reg.find("broker.0.mean_queue_wait_ms")] == doctest::Approx(2.0));
  CHECK(v[reg.find("records_per_batch")] == doctest::Approx(8.0));
  CHECK(v[reg.find("latency.p50_ms")] == doctest::Approx(2.0).epsilon(0.01));
  CHECK(v[reg.find("distribution.max_over_min")] == doctest::Approx(3.0));
  CHECK(label_with_unit(reg[reg.find("latency.p99_ms")]) == "latency p99, ms");
  CHECK(label_with_unit(reg[reg.find("broker.0.requests")]) == "broker 0 requests");
}

TEST_CASE("a run that measured nothing has undefined statistics but defined counts") {
  RunResult r = small_run();
  r.records_measured = 0;
  r.latency = {};
  r.batch_bytes = {};
  for (auto& p : r.partitions) p.records = p.bytes = p.batches = 0;
  for (auto& b : r.brokers) b.records = b.bytes = b.batches = 0;
  const MetricRegistry reg(r);
  const auto v = reg.values(r);
  for (const char* name :
       {"broker.0.records_share", "broker.7.bytes_share", "broker.0.records_per_batch", "records_per_batch",
        "bytes_per_batch", "batch.p50_bytes", "latency.p50_ms", "latency.max_ms", "distribution.cv",
        "distribution.jain", "distribution.p_value", "distribution.max_over_min"}) {
    CAPTURE(name);
    CHECK(std::isnan(v[reg.find(name)]));
  }
  CHECK(v[reg.find("records_acked")] == 40);
  CHECK(v[reg.find("partition.t.0.records")] == 0);
  CHECK(v[reg.find("broker.0.requests")] == 4);
  CHECK(metric_text(v[reg.find("latency.p99_ms")], 3, "-") == "-");
  CHECK(metric_text(std::numeric_limits<double>::infinity(), 3, "-") == "inf");
}

TEST_CASE("replication summaries leave out the replications that measured nothing") {
  const RunResult good = small_run();
  RunResult empty = small_run();
  empty.records_measured = 0;
  empty.latency = {};
  ReplicationSummary s(good, 3);
  s.add(good);
  s.add(empty);
  s.add(good);
  CHECK(s.replications() == 3);
  CHECK(s.unmeasured() == 1);
  const auto& reg = s.registry();
  const auto latency = s.summary(reg.find("latency.p50_ms"));
  CHECK(latency.n == 2);
  CHECK(latency.mean == doctest::Approx(2.0).epsilon(0.01));
  CHECK(s.summary(reg.find("records_acked")).n == 3);
  ReplicationSummary none(empty);
  none.add(empty);
  CHECK(std::isnan(none.summary(reg.find("latency.p50_ms")).mean));
  CHECK(std::isnan(none.summary(reg.find("latency.p50_ms")).max));
}

TEST_CASE("repartition metrics: the two-rule window runs from the first change to the last producer's refresh") {
  RunResult r = small_run();
  CHECK(MetricRegistry(r).find("repartition.window_ms") == MetricRegistry(r).size());  // no schedule, no metric
  r.repartition.emplace();
  r.repartition->changes = {{"t", 5000, 4, 8}};
  r.repartition->producers = {{"a", 6000.0}, {"b", 5000.0}};
  r.repartition->records_old_rule_after_change = 1000;
  r.repartition->keys_split = 17;
  r.repartition->records_skipped_latest = 3;
  const MetricRegistry reg(r);
  auto v = reg.values(r);
  CHECK(v[reg.find("repartition.window_ms")] == doctest::Approx(1000.0));
  CHECK(v[reg.find("repartition.records_old_rule_after_change")] == 1000);
  CHECK(v[reg.find("repartition.keys_split")] == 17);
  CHECK(v[reg.find("repartition.records_skipped_latest")] == 3);
  CHECK(std::isnan(v[reg.find("repartition.keys_out_of_order")]));  // no consumer group
  // A producer that never saw the new count: the window has no end.
  r.repartition->producers[1].saw_new_count_at_ms.reset();
  v = reg.values(r);
  CHECK(std::isnan(v[reg.find("repartition.window_ms")]));
}

TEST_CASE("partition statistics cover the partitions that existed, each weighted by the time it existed") {
  // 4 -> 8 partitions half-way: partitions 4-7 existed half as long and got half the records.
  RunResult r;
  r.records_sent = r.records_acked = r.records_measured = 600;
  for (std::int32_t p = 0; p < 8; ++p)
    r.partitions.push_back({"t", p, 0, p < 4 ? 100 : 50, 0, 1, p < 4 ? 10000.0 : 5000.0});
  r.brokers = {{0, 600, 0, 8, 8, 0.0}};
  auto d = topic_distributions(r).front().stats;
  CHECK(d.max_over_min == doctest::Approx(1.0));
  CHECK(d.cv == doctest::Approx(0.0));
  CHECK(d.chi_square == doctest::Approx(0.0));
  CHECK(d.p_value == doctest::Approx(1.0));
  const MetricRegistry reg(r);
  const auto v = reg.values(r);
  CHECK(v[reg.find("distribution.max_over_min")] == doctest::Approx(1.0));
  CHECK(v[reg.find("distribution.p_value")] == doctest::Approx(1.0));
  // Against uniform the same counts would be refuted: max/min 2, p ~ 0.
  CHECK(distribution_stats(std::vector<std::int64_t>{100, 100, 100, 100, 50, 50, 50, 50}).p_value < 1e-6);
  // Partitions a step never made (existed 0 ms) are left out, not empty bins (max/min inf).
  r.partitions.push_back({"t", 8, -1, 0, 0, 0, 0.0});
  d = topic_distributions(r).front().stats;
  CHECK_FALSE(d.has_empty_bin);
  CHECK(d.max_over_min == doctest::Approx(1.0));
  CHECK(d.p_value == doctest::Approx(1.0));
  // Equal times: exactly the uniform statistics.
  for (auto& p : r.partitions) p.existed_ms = 7000;
  const auto u = topic_distributions(r).front().stats;
  const auto plain = distribution_stats(std::vector<std::int64_t>{100, 100, 100, 100, 50, 50, 50, 50, 0});
  CHECK(u.chi_square == plain.chi_square);
  CHECK(u.p_value == plain.p_value);
  CHECK(u.has_empty_bin);
}

namespace {

// A migration's shape: the producers' topic "events" (4 partitions, 1,500 records each: even)
// and the new topic "events-v2" (8 partitions), which no producer writes.
RunResult migration_run() {
  RunResult r;
  r.records_sent = r.records_acked = r.records_measured = 6000;
  for (std::int32_t p = 0; p < 4; ++p) r.partitions.push_back({"events", p, p % 3, 1500, 150000, 15});
  for (std::int32_t p = 0; p < 8; ++p) r.partitions.push_back({"events-v2", p, p % 3, 0, 0, 0});
  r.brokers = {{0, 3000, 300000, 30, 30, 0.0}, {1, 1500, 150000, 15, 15, 0.0}, {2, 1500, 150000, 15, 15, 0.0}};
  for (int i = 0; i < 6000; ++i) r.latency.record(2'000'000);
  r.batch_bytes.record(10000);
  return r;
}

}  // namespace

TEST_CASE("the distribution is per topic: an even topic beside an empty one is even, the empty one undefined") {
  // Over all 12 partitions (the old way) 4 x 1,500 and 8 x 0 read cv 1.41 and p = 0.
  const RunResult r = migration_run();
  const MetricRegistry reg(r);
  const auto v = reg.values(r);
  CHECK(reg.find("distribution.cv") == reg.size());  // no run-wide distribution across topics
  REQUIRE(reg.find("distribution.events.cv") < reg.size());
  CHECK(v[reg.find("distribution.events.cv")] == doctest::Approx(0.0));
  CHECK(v[reg.find("distribution.events.max_over_min")] == doctest::Approx(1.0));
  CHECK(v[reg.find("distribution.events.p_value")] == doctest::Approx(1.0));
  CHECK(v[reg.find("distribution.events.jain")] == doctest::Approx(1.0));
  for (const char* f : {"max_over_min", "cv", "jain", "chi_square", "p_value", "kl_divergence"}) {
    CAPTURE(f);
    CHECK(std::isnan(v[reg.find(std::string("distribution.events-v2.") + f)]));
  }
  CHECK(reg[reg.find("distribution.events.cv")].label == "topic events partition records coefficient of variation");
  CHECK(reg[reg.find("distribution.events.cv")].headline);
  CHECK(partsim::model::replication_metrics(12, 3, 0, 2) == static_cast<double>(reg.size()));

  const auto j = run_to_json(r);
  CHECK_FALSE(j["distribution"].contains("cv"));
  CHECK(j["distribution"]["events"]["cv"] == 0.0);
  CHECK(j["distribution"]["events"]["p_value"] == 1.0);
  CHECK(j["distribution"]["events-v2"]["cv"].is_null());
  CHECK(j["distribution"]["events-v2"]["max_over_min"].is_null());

  const std::string text = run_to_text(r);
  CHECK(
      text.find(
          "records per partition, topic events: max/min 1.000, cv 0.0000, Jain 1.0000, chi-square 0.00 (p = 1.0000 vs uniform)\n") !=
      std::string::npos);
  CHECK(text.find("records per partition, topic events-v2: no records measured\n") != std::string::npos);
  CHECK(text.find("cv 1.41") == std::string::npos);
}

TEST_CASE("a run of one topic keeps the run-wide distribution names, JSON and line") {
  const RunResult r = small_run();
  const MetricRegistry reg(r);
  CHECK(reg.find("distribution.t.cv") == reg.size());
  CHECK(reg[reg.find("distribution.cv")].label == "partition records coefficient of variation");
  const auto j = run_to_json(r);
  CHECK(j["distribution"]["cv"] == 0.5);  // 30 and 10: sd 10, mean 20
  CHECK(j["distribution"]["max_over_min"] == 3.0);
  CHECK(run_to_text(r).find("records per partition: max/min 3.000, cv 0.5000") != std::string::npos);
}
