#include "analysis/run_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>

#include "analysis/disk_report.hpp"
#include "analysis/distribution.hpp"
#include "analysis/format.hpp"
#include "analysis/isr_report.hpp"
#include "analysis/reassignment_report.hpp"
#include "analysis/repartition_report.hpp"
#include "analysis/run_producer_metrics.hpp"
#include "analysis/traffic_report.hpp"

namespace partsim::analysis {
namespace {

constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

// What several metrics share, computed once per run.
struct Totals {
  std::int64_t records = 0, bytes = 0, batches = 0;  // measured, over brokers
  bool measured = false;                             // any record measured after the warm-up
  std::vector<TopicDistribution> topics;             // the distribution, per topic
};

Totals totals_of(const model::RunResult& r) {
  Totals t;
  for (const auto& b : r.brokers) {
    t.records += b.records;
    t.bytes += b.bytes;
    t.batches += b.batches;
  }
  t.measured = r.records_measured > 0 && t.records > 0;
  t.topics = topic_distributions(r);
  return t;
}

double d(std::int64_t v) { return static_cast<double>(v); }
// a / b for a statistic of measured records: undefined when nothing was measured.
double ratio(std::int64_t a, std::int64_t b, const Totals& t) {
  if (!t.measured) return kUndefined;
  return b == 0 ? 0.0 : d(a) / d(b);
}
double latency(const model::RunResult& r, double q) {
  return r.latency.count() ? ns_to_ms(r.latency.quantile(q)) : kUndefined;
}
double batch_bytes(const model::RunResult& r, double q) {
  return r.batch_bytes.count() ? d(r.batch_bytes.quantile(q)) : kUndefined;
}
std::int64_t replication_errors(const model::ReplicationResult& r, const char* code) {
  const auto it = r.errors.find(code);
  return it == r.errors.end() ? 0 : it->second;
}
// A time summed over partitions.
double replication_time(const model::ReplicationResult& r, double model::PartitionReplication::*field) {
  double sum = 0;
  for (const auto& p : r.partitions) sum += p.*field;
  return sum;
}

using RunValue = double (*)(const model::RunResult&, const Totals&);
using PartitionValue = double (*)(const model::PartitionStats&);
using BrokerValue = double (*)(const model::BrokerStats&, const Totals&);

template <class Value>
struct Spec {
  const char* name;
  const char* label;
  const char* unit;
  int decimals;
  bool headline;
  Value value;
};

// Run-wide counts, before the per-partition and per-broker metrics.
const Spec<RunValue> kHead[] = {
    {"records_sent", "records sent (warm-up included)", "records", 0, false,
     [](const auto& r, const auto&) { return d(r.records_sent); }},
    {"records_acked", "records acked", "records", 0, true,
     [](const auto& r, const auto&) { return d(r.records_acked); }},
    {"records_failed", "records failed", "records", 0, true,
     [](const auto& r, const auto&) { return d(r.failed.total()); }},
    {"records_measured", "records measured (sent after the warm-up, acked)", "records", 0, false,
     [](const auto& r, const auto&) { return d(r.records_measured); }},
    {"failures.buffer_timeout", "failed: blocked longer than max.block.ms", "records", 0, false,
     [](const auto& r, const auto&) { return d(r.failed.buffer_timeout); }},
    {"failures.buffer_limit", "failed: batch larger than buffer.memory", "records", 0, false,
     [](const auto& r, const auto&) { return d(r.failed.buffer_limit); }},
    {"failures.delivery_timeout", "failed: delivery.timeout.ms", "records", 0, false,
     [](const auto& r, const auto&) { return d(r.failed.delivery_timeout); }},
    {"failures.record_too_large", "failed: record too large", "records", 0, false,
     [](const auto& r, const auto&) { return d(r.failed.record_too_large); }},
    {"failures.retries_exhausted", "failed: retries exhausted", "records", 0, false,
     [](const auto& r, const auto&) { return d(r.failed.retries_exhausted); }},
    {"failures.invalid_partition", "failed: invalid partition", "records", 0, false,
     [](const auto& r, const auto&) { return d(r.failed.invalid_partition); }},
};

const Spec<PartitionValue> kPartition[] = {
    {"records", "records", "records", 0, false, [](const auto& p) { return d(p.records); }},
    {"bytes", "bytes", "bytes", 0, false, [](const auto& p) { return d(p.bytes); }},
    {"batches", "batches", "batches", 0, false, [](const auto& p) { return d(p.batches); }},
};

const Spec<BrokerValue> kBroker[] = {
    {"records", "records", "records", 0, false, [](const auto& b, const auto&) { return d(b.records); }},
    {"records_share", "share of records", "share", 4, true,
     [](const auto& b, const auto& t) { return ratio(b.records, t.records, t); }},
    {"bytes_share", "share of bytes", "share", 4, true,
     [](const auto& b, const auto& t) { return ratio(b.bytes, t.bytes, t); }},
    {"batches", "batches", "batches", 0, false, [](const auto& b, const auto&) { return d(b.batches); }},
    {"requests", "requests", "requests", 0, true, [](const auto& b, const auto&) { return d(b.requests); }},
    {"records_per_batch", "records per batch", "records", 2, true,
     [](const auto& b, const auto& t) { return ratio(b.records, b.batches, t); }},
    {"mean_queue_wait_ms", "mean queue wait", "ms", 3, false,
     [](const auto& b, const auto&) { return b.requests ? b.queue_wait_ms_sum / d(b.requests) : 0.0; }},
};

// Run-wide statistics, after the per-broker metrics: these, then the distribution (kDistribution),
// then kTailAfter.
const Spec<RunValue> kTail[] = {
    {"batches", "batches", "batches", 0, true, [](const auto&, const auto& t) { return d(t.batches); }},
    {"records_per_batch", "records per batch", "records", 2, true,
     [](const auto&, const auto& t) { return ratio(t.records, t.batches, t); }},
    {"bytes_per_batch", "bytes per batch", "bytes", 0, true,
     [](const auto&, const auto& t) { return ratio(t.bytes, t.batches, t); }},
    {"batch.p50_bytes", "batch bytes p50", "bytes", 0, false,
     [](const auto& r, const auto&) { return batch_bytes(r, 0.5); }},
    {"batch.mean_bytes", "batch bytes mean", "bytes", 1, false,
     [](const auto& r, const auto&) { return r.batch_bytes.count() ? r.batch_bytes.mean() : kUndefined; }},
    {"latency.p50_ms", "latency p50", "ms", 3, true, [](const auto& r, const auto&) { return latency(r, 0.5); }},
    {"latency.p99_ms", "latency p99", "ms", 3, true, [](const auto& r, const auto&) { return latency(r, 0.99); }},
    {"latency.p999_ms", "latency p99.9", "ms", 3, true, [](const auto& r, const auto&) { return latency(r, 0.999); }},
    {"latency.max_ms", "latency max", "ms", 3, false,
     [](const auto& r, const auto&) { return r.latency.count() ? ns_to_ms(r.latency.max()) : kUndefined; }},
    {"latency.mean_ms", "latency mean", "ms", 3, false,
     [](const auto& r, const auto&) { return r.latency.count() ? r.latency.mean() / 1e6 : kUndefined; }},
    {"buffer_full_ms", "time buffer.memory was full", "ms", 1, true,
     [](const auto& r, const auto&) { return r.buffer_full_ms; }},
    {"peak_buffer_bytes", "peak buffer memory in use", "bytes", 0, false,
     [](const auto& r, const auto&) { return d(r.peak_buffer_bytes); }},
};

// Records per partition against uniform, per topic ("distribution.cv" in a run of one topic,
// "distribution.<topic>.cv" in a run of several); undefined for a topic without records.
const Spec<double (*)(const DistributionStats&)> kDistribution[] = {
    {"max_over_min", "partition records max/min", "", 3, true, [](const auto& s) { return s.max_over_min; }},
    {"cv", "partition records coefficient of variation", "", 4, true, [](const auto& s) { return s.cv; }},
    {"jain", "partition records Jain's fairness index", "", 4, false, [](const auto& s) { return s.jain; }},
    {"chi_square", "partition records chi-square vs uniform", "", 2, false, [](const auto& s) { return s.chi_square; }},
    {"p_value", "partition records chi-square p-value", "", 4, true, [](const auto& s) { return s.p_value; }},
    {"kl_divergence", "partition records KL divergence from uniform", "nats", 6, false,
     [](const auto& s) { return s.kl_divergence; }},
};

// Keyed records placed as Java's rule places them, when the run counts them (another
// client's producer, or compare --clients): "keys.as_java".
const Spec<double (*)(const model::KeyAgreement&)> kKeys[] = {
    {"as_java", "keyed records placed as the Java client places them", "share", 4, true,
     [](const auto& k) { return k.records > 0 ? d(k.as_java) / d(k.records) : kUndefined; }},
};

const Spec<RunValue> kTailAfter[] = {
    {"retries", "batches retried", "batches", 0, false, [](const auto& r, const auto&) { return d(r.retries); }},
    {"produce_errors.injected", "batches answered with error.code", "batches", 0, false,
     [](const auto& r, const auto&) { return d(r.produce_errors.injected); }},
    {"produce_errors.out_of_order_sequence", "batches refused out of sequence", "batches", 0, false,
     [](const auto& r, const auto&) { return d(r.produce_errors.out_of_order); }},
    {"log_order.reordered_records", "records behind a later-sent record of their key", "records", 0, false,
     [](const auto& r, const auto&) { return r.log_order.checked ? d(r.log_order.reordered_records) : kUndefined; }},
    {"log_order.reordered_keys", "keys with a reordered record", "keys", 0, false,
     [](const auto& r, const auto&) { return r.log_order.checked ? d(r.log_order.reordered_keys) : kUndefined; }},
    {"log_order.duplicated_records", "records written twice", "records", 0, false,
     [](const auto& r, const auto&) { return r.log_order.checked ? d(r.log_order.duplicated_records) : kUndefined; }},
    {"partitioner_switches", "sticky partition switches", "", 0, false,
     [](const auto& r, const auto&) { return d(r.partitioner_switches); }},
    {"simulated_ms", "simulated time", "ms", 1, false, [](const auto& r, const auto&) { return r.simulated_ms; }},
};

double group_latency(const model::GroupResult& g, double q) {
  return g.e2e_latency.count() ? ns_to_ms(g.e2e_latency.quantile(q)) : kUndefined;
}
// The pauses of the rebalances after the group's start (the start pauses nothing).
double pause(const model::GroupResult& g, bool sum) {
  double v = 0;
  for (const auto& rb : g.rebalances) v = sum ? v + rb.pause_sum_ms : std::max(v, rb.pause_max_ms);
  return v;
}

// Per consumer group, after the run-wide statistics: "group.readers.pause_max_ms".
const Spec<double (*)(const model::GroupResult&)> kGroup[] = {
    {"records_consumed", "records consumed (duplicates included)", "records", 0, true,
     [](const auto& g) { return d(g.records_consumed); }},
    {"duplicates", "records processed again (an offset again or a second copy)", "records", 0, true,
     [](const auto& g) { return d(g.duplicates); }},
    {"order_violations", "records processed after a later one of their key and producer", "records", 0, true,
     [](const auto& g) { return d(g.order_violations); }},
    {"keys_out_of_order", "keys with an order violation", "keys", 0, true,
     [](const auto& g) { return d(g.keys_out_of_order); }},
    {"records_unconsumed", "records never consumed", "records", 0, false,
     [](const auto& g) { return d(g.records_unconsumed); }},
    {"lag_max", "largest partition lag", "records", 0, true, [](const auto& g) { return d(g.lag_max); }},
    {"e2e.p50_ms", "latency send->processed p50", "ms", 3, true, [](const auto& g) { return group_latency(g, 0.5); }},
    {"e2e.p99_ms", "latency send->processed p99", "ms", 3, true, [](const auto& g) { return group_latency(g, 0.99); }},
    {"e2e.max_ms", "latency send->processed max", "ms", 3, false,
     [](const auto& g) { return g.e2e_latency.count() ? ns_to_ms(g.e2e_latency.max()) : kUndefined; }},
    {"rebalances", "rebalances after the start", "", 0, true,
     [](const auto& g) { return g.rebalances.empty() ? 0.0 : d(static_cast<std::int64_t>(g.rebalances.size()) - 1); }},
    {"pause_max_ms", "rebalance pause, longest of a partition", "ms", 1, true,
     [](const auto& g) { return pause(g, false); }},
    {"pause_sum_ms", "rebalance pause, summed over partitions", "ms", 1, true,
     [](const auto& g) { return pause(g, true); }},
    {"idle_members", "idle members at the end", "members", 0, true,
     [](const auto& g) { return d(static_cast<std::int64_t>(g.idle_members.size())); }},
};

// Per broker, the consumer groups' fetches it served, when the groups ran in the event loop:
// "fetch.broker.0.parked_ms".
double fetch_mean(double sum, std::int64_t n) { return n > 0 ? sum / static_cast<double>(n) : kUndefined; }
const Spec<double (*)(const model::BrokerFetches&)> kFetch[] = {
    {"fetches", "consumer fetches answered", "", 0, false, [](const auto& b) { return d(b.fetches); }},
    {"records", "records consumer fetches returned", "records", 0, false, [](const auto& b) { return d(b.records); }},
    {"empty", "consumer fetches answered without a record", "", 0, false, [](const auto& b) { return d(b.empty); }},
    {"failed", "consumer fetches lost with the broker", "", 0, false, [](const auto& b) { return d(b.failed); }},
    {"queue_wait_ms", "consumer fetch wait for a server, mean", "ms", 3, false,
     [](const auto& b) { return fetch_mean(b.queue_wait_ms_sum, b.fetches); }},
    {"parked_ms", "consumer fetch parked at the leader, mean", "ms", 3, true,
     [](const auto& b) { return fetch_mean(b.parked_ms_sum, b.fetches); }},
    {"as_follower", "consumer fetches answered as a follower (KIP-392)", "", 0, false,
     [](const auto& b) { return d(b.as_follower); }},
    {"redirected", "partitions named a read replica (KIP-392)", "", 0, false,
     [](const auto& b) { return d(b.redirected); }},
};

// Traffic between racks, when the scenario places something in a rack or prices it
// ("traffic.cross_rack.bytes"; per kind "traffic.cross_rack.replication_fetch.bytes").
const Spec<double (*)(const model::TrafficResult&)> kTraffic[] = {
    {"cross_rack.bytes", "bytes crossing racks", "bytes", 0, true,
     [](const auto& t) { return d(t.cross_rack_bytes()); }},
    {"cross_rack.bytes_per_s", "bytes crossing racks per second", "bytes/s", 1, false,
     [](const auto& t) { return t.cross_rack_bytes_per_s(); }},
    {"cross_rack.gb_per_hour", "GB crossing racks per hour", "GB/h", 4, true,
     [](const auto& t) { return t.cross_rack_bytes_per_s() * 3600 / 1e9; }},
    {"cross_rack.cost_per_month", "cross-rack cost per 30-day month (cluster.cost.cross.rack.per.gb)", "", 2, true,
     [](const auto& t) { return t.cost_per_gb > 0 ? t.cost_per_month() : kUndefined; }},
    {"bytes", "bytes on the wire", "bytes", 0, false, [](const auto& t) { return d(t.bytes()); }},
};

// The followers' replication, when the scenario models it (cluster.replication: followers):
// "replication.not_enough_replicas".
const Spec<double (*)(const model::ReplicationResult&)> kReplication[] = {
    {"not_enough_replicas", "batches refused with NOT_ENOUGH_REPLICAS", "batches", 0, true,
     [](const auto& r) { return d(replication_errors(r, "NOT_ENOUGH_REPLICAS")); }},
    {"isr_shrinks", "ISR shrinks (leader-driven)", "", 0, true, [](const auto& r) { return d(r.shrinks()); }},
    {"isr_expands", "ISR expands", "", 0, true, [](const auto& r) { return d(r.expands()); }},
    {"under_replicated_max", "most under-replicated partitions at once", "partitions", 0, true,
     [](const auto& r) { return d(under_replicated_max(r)); }},
    {"under_replicated_ms", "partition time under-replicated", "ms", 1, true,
     [](const auto& r) { return replication_time(r, &model::PartitionReplication::under_replicated_ms); }},
    {"under_min_isr_ms", "partition time under min ISR (writes refused)", "ms", 1, true,
     [](const auto& r) { return replication_time(r, &model::PartitionReplication::under_min_isr_ms); }},
    {"offline_ms", "partition time offline", "ms", 1, true,
     [](const auto& r) { return replication_time(r, &model::PartitionReplication::offline_ms); }},
};

// The topics' reassignments, when the scenario has one: "reassignment.completed_s".
const Spec<double (*)(const model::ReassignmentResult&)> kReassignment[] = {
    {"completed_s", "reassignment: every move completed at (none: not by the end)", "s", 1, true,
     [](const auto& r) { return r.completed_ms ? *r.completed_ms / 1000 : kUndefined; }},
    {"bytes_left", "reassignment: bytes left to copy at the end", "bytes", 0, true,
     [](const auto& r) { return d(r.bytes_left); }},
    {"never", "reassignment: never at its throttle (1) or not (0)", "", 0, true,
     [](const auto& r) { return r.never ? 1.0 : 0.0; }},
    {"p99_max_ms", "reassignment: producers' largest p99 per interval from the first step", "ms", 2, true,
     [](const auto& r) { return reassignment_p99_max(r); }},
};

// The brokers' disks, when the run models them: "disk.log_dir_failures".
const Spec<double (*)(const model::DiskResult&)> kDisk[] = {
    {"peak_share", "disks: the fullest disk's peak share of disk.bytes", "share", 4, true,
     [](const auto& r) { return disk_peak_share(r).value_or(kUndefined); }},
    {"peak_bytes", "disks: the most bytes in use on one broker", "bytes", 0, true,
     [](const auto& r) {
       std::int64_t m = 0;
       for (const auto& b : r.brokers) m = std::max(m, b.peak);
       return d(m);
     }},
    {"deleted_bytes", "disks: bytes retention deleted", "bytes", 0, true,
     [](const auto& r) {
       std::int64_t n = 0;
       for (const auto& b : r.brokers) n += b.deleted_bytes;
       return d(n);
     }},
    {"log_dir_failures", "disks: log directory failures (full disks)", "failures", 0, true,
     [](const auto& r) { return d(r.failures()); }},
    {"first_failure_s", "disks: the first log directory failed at (none: no disk filled)", "s", 1, true,
     [](const auto& r) {
       std::optional<double> first;
       for (const auto& b : r.brokers)
         for (const auto ms : b.failures_ms) first = std::min(first.value_or(ms), ms);
       return first ? *first / 1000 : kUndefined;
     }},
};

// The run's migration, when the scenario has one: "migration.order_violations".
const Spec<double (*)(const model::migration::MigrationResult&)> kMigration[] = {
    {"records_migrated", "migration: records migrated", "records", 0, true,
     [](const auto& m) { return d(m.records_migrated); }},
    {"new_records", "migration: records in the new topic", "records", 0, false,
     [](const auto& m) { return d(m.new_records); }},
    {"keys", "migration: keys", "keys", 0, true, [](const auto& m) { return d(m.keys); }},
    {"keys_changed_partition", "migration: keys whose partition changed", "keys", 0, true,
     [](const auto& m) { return d(m.keys_changed_partition); }},
    {"ratio", "migration: share of keys whose partition changed", "share", 4, true,
     [](const auto& m) { return m.ratio.value_or(kUndefined); }},
    {"order_violations", "migration: order violations in the new topic", "records", 0, true,
     [](const auto& m) { return d(m.order_violations); }},
    {"order_violations_old", "migration: order violations in the old topic", "records", 0, false,
     [](const auto& m) { return d(m.order_violations_old); }},
    {"keys_with_all_events", "migration: keys with all their events", "keys", 0, true,
     [](const auto& m) { return d(m.keys_with_all_events); }},
    {"stable", "migration: each key in one new partition (1 = yes)", "", 0, true,
     [](const auto& m) { return m.stable ? 1.0 : 0.0; }},
    {"downtime_ms", "migration: downtime", "ms", 3, true, [](const auto& m) { return m.downtime_ms; }},
    {"duplicates", "migration: duplicates in the new topic", "records", 0, true,
     [](const auto& m) { return d(m.duplicates); }},
    {"inconsistent_keys", "migration: inconsistent keys", "keys", 0, true,
     [](const auto& m) { return d(m.inconsistent_keys); }},
    {"bridge.max_lag", "migration: bridge's largest lag", "records", 0, true,
     [](const auto& m) { return m.has_bridge ? d(m.bridge.max_lag) : kUndefined; }},
    {"bridge.catch_up_ms", "migration: bridge's catch-up time", "ms", 3, true,
     [](const auto& m) { return m.has_bridge && m.bridge.caught_up ? m.bridge.catch_up_ms : kUndefined; }},
    {"bridge.switch_ms", "migration: switch-over", "ms", 3, true,
     [](const auto& m) { return m.has_bridge && m.bridge.caught_up ? m.bridge.switch_ms : kUndefined; }},
    {"bridge.after_switch", "migration: records bridged after the switch", "records", 0, true,
     [](const auto& m) { return m.has_bridge ? d(m.bridge.after_switch) : kUndefined; }},
};

// The two-rule window: from the first partition increase until the last producer saw the
// topic's final count (undefined while some producer never did).
double two_rule_window(const model::RepartitionResult& r) {
  if (r.changes.empty()) return kUndefined;
  double last = r.changes.front().at_ms;
  for (const auto& p : r.producers) {
    if (!p.saw_new_count_at_ms) return kUndefined;
    last = std::max(last, *p.saw_new_count_at_ms);
  }
  return last - r.changes.front().at_ms;
}

// The run's partition increases, when a topic has a schedule: "repartition.keys_split".
const Spec<double (*)(const model::RepartitionResult&)> kRepartition[] = {
    {"window_ms", "repartition: two-rule window (first change to the last producer's refresh)", "ms", 3, true,
     [](const auto& r) { return two_rule_window(r); }},
    {"records_old_rule_after_change", "repartition: records partitioned by the old count after the change", "records",
     0, true, [](const auto& r) { return d(r.records_old_rule_after_change); }},
    {"keys_split", "repartition: keys split over partitions", "keys", 0, true,
     [](const auto& r) { return d(r.keys_split); }},
    {"keys_out_of_order", "repartition: keys out of order (most of any group)", "keys", 0, true,
     [](const auto& r) { return r.keys_out_of_order ? d(*r.keys_out_of_order) : kUndefined; }},
    {"records_skipped_latest", "repartition: records skipped by auto.offset.reset=latest", "records", 0, true,
     [](const auto& r) { return d(r.records_skipped_latest); }},
};

/// The distribution metrics' name and label prefixes for the topic at `t` (none in a run of one topic).
std::string distribution_name(const std::vector<TopicDistribution>& topics, std::size_t t) {
  return topics.size() == 1 ? "distribution." : "distribution." + topics[t].topic + ".";
}
std::string distribution_label(const std::vector<TopicDistribution>& topics, std::size_t t) {
  return topics.size() == 1 ? "" : "topic " + topics[t].topic + " ";
}

template <class S>
MetricInfo info(const S& s, std::string name, std::string label, MetricScope scope, std::size_t index) {
  return {std::move(name), std::move(label), s.unit, s.decimals, s.headline, scope, index};
}

}  // namespace

std::vector<TopicDistribution> topic_distributions(const model::RunResult& r) {
  // A topic's partitions are consecutive rows (the engine lists them topic by topic).
  // A topic that grew (a schedule) has partitions that existed for different times: each
  // partition's expected share is weighted by the time it existed, and a partition a step never
  // made (existed 0 ms) is left out rather than counted as an empty bin. Without existence
  // times every partition counts alike, against uniform.
  std::vector<TopicDistribution> out;
  std::vector<std::int64_t> counts, existed_counts;
  std::vector<double> exposure;
  auto close = [&] {
    if (!out.empty()) {
      auto& t = out.back();
      if (existed_counts.empty()) {
        t.stats = distribution_stats(counts);
      } else {
        t.stats = distribution_stats_exposed(existed_counts, exposure);
        t.time_weighted =
            std::any_of(exposure.begin(), exposure.end(), [&](double e) { return e != exposure.front(); });
      }
    }
    counts.clear();
    existed_counts.clear();
    exposure.clear();
  };
  for (const auto& p : r.partitions) {
    if (out.empty() || out.back().topic != p.topic) {
      close();
      out.push_back({p.topic, 0, {}, false});
    }
    out.back().records += p.records;
    counts.push_back(p.records);
    if (p.existed_ms > 0) {
      existed_counts.push_back(p.records);
      exposure.push_back(p.existed_ms);
    }
  }
  close();
  if (out.empty()) out.push_back({"", 0, {}, false});  // no partitions: the run-wide names, undefined
  return out;
}

MetricRegistry::MetricRegistry(const model::RunResult& shape)
    : partitions_(shape.partitions.size()),
      brokers_(shape.brokers.size()),
      groups_(shape.consumer_groups.size()),
      producers_(shape.producer_metrics.size()) {
  metrics_.reserve(std::size(kHead) + std::size(kTail) + shape.partitions.size() * std::size(kPartition) +
                   shape.brokers.size() * std::size(kBroker));
  for (const auto& s : kHead) metrics_.push_back(info(s, s.name, s.label, MetricScope::kRun, 0));
  for (std::size_t i = 0; i < shape.partitions.size(); ++i) {
    const auto& p = shape.partitions[i];
    const std::string n = std::to_string(p.partition);
    for (const auto& s : kPartition)
      metrics_.push_back(info(s, "partition." + p.topic + "." + n + "." + s.name,
                              "partition " + p.topic + "-" + n + " " + s.label, MetricScope::kPartition, i));
  }
  for (std::size_t i = 0; i < shape.brokers.size(); ++i) {
    const std::string id = std::to_string(shape.brokers[i].broker);
    for (const auto& s : kBroker)
      metrics_.push_back(info(s, "broker." + id + "." + s.name, "broker " + id + " " + s.label, MetricScope::kBroker,
                              i));
  }
  for (const auto& s : kTail) metrics_.push_back(info(s, s.name, s.label, MetricScope::kRun, 0));
  const auto topics = topic_distributions(shape);
  topics_ = topics.size();
  for (std::size_t k = 0; k < topics.size(); ++k)
    for (const auto& s : kDistribution)
      metrics_.push_back(info(s, distribution_name(topics, k) + s.name, distribution_label(topics, k) + s.label,
                              MetricScope::kRun, 0));
  keys_ = shape.key_agreement.has_value();
  if (keys_)
    for (const auto& s : kKeys)
      metrics_.push_back(info(s, std::string("keys.") + s.name, s.label, MetricScope::kRun, 0));
  for (const auto& s : kTailAfter) metrics_.push_back(info(s, s.name, s.label, MetricScope::kRun, 0));
  for (std::size_t i = 0; i < shape.consumer_groups.size(); ++i) {
    const std::string& g = shape.consumer_groups[i].group;
    for (const auto& s : kGroup)
      metrics_.push_back(info(s, "group." + g + "." + s.name, "group " + g + " " + s.label, MetricScope::kGroup, i));
  }
  for (std::size_t i = 0; i < shape.consumer_fetches.size(); ++i) {
    const std::string id = std::to_string(shape.consumer_fetches[i].broker);
    for (const auto& s : kFetch)
      metrics_.push_back(info(s, "fetch.broker." + id + "." + s.name, "broker " + id + " " + s.label,
                              MetricScope::kBroker, i));
  }
  if (shape.migration)
    for (const auto& s : kMigration)
      metrics_.push_back(info(s, std::string("migration.") + s.name, s.label, MetricScope::kRun, 0));
  if (shape.repartition)
    for (const auto& s : kRepartition)
      metrics_.push_back(info(s, std::string("repartition.") + s.name, s.label, MetricScope::kRun, 0));
  if (shape.replication.enabled)
    for (const auto& s : kReplication)
      metrics_.push_back(info(s, std::string("replication.") + s.name, s.label, MetricScope::kRun, 0));
  reassignment_ = shape.replication.reassignment.enabled();
  if (reassignment_)
    for (const auto& s : kReassignment)
      metrics_.push_back(info(s, std::string("reassignment.") + s.name, s.label, MetricScope::kRun, 0));
  disks_ = shape.replication.disks.enabled();
  if (disks_)
    for (const auto& s : kDisk)
      metrics_.push_back(info(s, std::string("disk.") + s.name, s.label, MetricScope::kRun, 0));
  traffic_ = shows_traffic(shape.traffic);
  traffic_kinds_ = traffic_ ? shape.traffic.kinds.size() : 0;
  if (traffic_) {
    for (const auto& s : kTraffic)
      metrics_.push_back(info(s, std::string("traffic.") + s.name, s.label, MetricScope::kRun, 0));
    for (const auto& k : shape.traffic.kinds) {
      metrics_.push_back({"traffic.cross_rack." + k.name + ".bytes", k.name + " bytes crossing racks", "bytes", 0,
                          false, MetricScope::kRun, 0});
      metrics_.push_back({"traffic.cross_rack." + k.name + ".gb_per_hour", k.name + " GB crossing racks per hour",
                          "GB/h", 4, k.name != "migration_copy" || shape.migration.has_value(), MetricScope::kRun, 0});
    }
  }
  // Per producer, last: its JMX attributes under machine names ("producer.p0.batch_size_avg_bytes",
  // "producer.p0.node.1.request_latency_avg_ms"), a node for every broker.
  for (std::size_t i = 0; i < shape.producer_metrics.size(); ++i) {
    const auto& pm = shape.producer_metrics[i];
    const std::string p = "producer." + pm.producer + ".";
    for (const auto& s : producer_metric_specs())
      metrics_.push_back({p + s.machine, "producer " + pm.producer + " " + s.jmx, s.unit, s.decimals, false,
                          MetricScope::kProducer, i});
    for (const auto& n : pm.nodes)
      for (const auto& s : producer_node_metric_specs())
        metrics_.push_back({p + "node." + std::to_string(n.node) + "." + s.machine,
                            "producer " + pm.producer + " node-" + std::to_string(n.node) + " " + s.jmx, s.unit,
                            s.decimals, false, MetricScope::kProducer, i});
  }
}

std::size_t MetricRegistry::find(std::string_view name) const {
  for (std::size_t i = 0; i < metrics_.size(); ++i)
    if (metrics_[i].name == name) return i;
  return metrics_.size();
}

std::size_t MetricRegistry::find(MetricScope scope, std::size_t index, std::string_view field) const {
  auto position = [&](const auto& specs) {
    for (std::size_t i = 0; i < std::size(specs); ++i)
      if (field == specs[i].name) return i;
    return std::size(specs);
  };
  const std::size_t head = std::size(kHead);
  if (scope == MetricScope::kPartition) {
    const std::size_t f = position(kPartition);
    if (index >= partitions_ || f == std::size(kPartition)) return metrics_.size();
    return head + index * std::size(kPartition) + f;
  }
  if (scope == MetricScope::kBroker) {
    const std::size_t f = position(kBroker);
    if (index >= brokers_ || f == std::size(kBroker)) return metrics_.size();
    return head + partitions_ * std::size(kPartition) + index * std::size(kBroker) + f;
  }
  return find(field);
}

std::vector<double> MetricRegistry::values(const model::RunResult& r) const {
  const Totals t = totals_of(r);
  std::vector<double> v;
  v.reserve(metrics_.size());
  for (const auto& s : kHead) v.push_back(s.value(r, t));
  for (std::size_t i = 0; i < r.partitions.size(); ++i)
    for (const auto& s : kPartition) v.push_back(s.value(r.partitions[i]));
  for (std::size_t i = 0; i < r.brokers.size(); ++i)
    for (const auto& s : kBroker) v.push_back(s.value(r.brokers[i], t));
  for (const auto& s : kTail) v.push_back(s.value(r, t));
  if (t.topics.size() != topics_)
    throw std::logic_error("metrics: a run with " + std::to_string(t.topics.size()) +
                           " topics does not fit the registry's " + std::to_string(topics_));
  for (const auto& topic : t.topics)
    for (const auto& s : kDistribution)
      v.push_back(t.measured && topic.records > 0 ? s.value(topic.stats) : kUndefined);
  // Whether a run counts keys depends on its clients, which a sweep may vary: the
  // registry's shape decides, a run without the count is undefined there.
  if (keys_)
    for (const auto& s : kKeys) v.push_back(r.key_agreement ? s.value(*r.key_agreement) : kUndefined);
  for (const auto& s : kTailAfter) v.push_back(s.value(r, t));
  for (const auto& g : r.consumer_groups)
    for (const auto& s : kGroup) v.push_back(s.value(g));
  for (const auto& b : r.consumer_fetches)
    for (const auto& s : kFetch) v.push_back(s.value(b));
  if (r.migration)
    for (const auto& s : kMigration) v.push_back(s.value(*r.migration));
  if (r.repartition)
    for (const auto& s : kRepartition) v.push_back(s.value(*r.repartition));
  if (r.replication.enabled)
    for (const auto& s : kReplication) v.push_back(s.value(r.replication));
  if (reassignment_)
    for (const auto& s : kReassignment)
      v.push_back(r.replication.reassignment.enabled() ? s.value(r.replication.reassignment) : kUndefined);
  if (disks_)
    for (const auto& s : kDisk) v.push_back(r.replication.disks.enabled() ? s.value(r.replication.disks) : kUndefined);
  // Whether a run has racks depends on its scenario, which a compare arm may vary: the
  // registry's shape decides, a run without racks is undefined there.
  if (traffic_) {
    const bool racked = shows_traffic(r.traffic);
    for (const auto& s : kTraffic) v.push_back(racked ? s.value(r.traffic) : kUndefined);
    for (std::size_t k = 0; k < traffic_kinds_; ++k) {
      const bool has = racked && k < r.traffic.kinds.size();
      const double bytes = has ? d(r.traffic.kinds[k].cross_rack_bytes) : kUndefined;
      v.push_back(bytes);
      v.push_back(has && r.traffic.seconds > 0 ? bytes / r.traffic.seconds * 3600 / 1e9 : has ? 0 : kUndefined);
    }
  }
  for (const auto& pm : r.producer_metrics) {
    for (const auto& s : producer_metric_specs()) v.push_back(s.value(pm));
    for (const auto& n : pm.nodes)
      for (std::size_t i = 0; i < producer_node_metric_specs().size(); ++i) v.push_back(producer_node_value(i, n));
  }
  // A run shaped differently from the registry's would shift every later metric.
  if (v.size() != metrics_.size())
    throw std::logic_error("metrics: a run with " + std::to_string(r.partitions.size()) + " partitions, " +
                           std::to_string(r.brokers.size()) + " brokers, " + std::to_string(r.consumer_groups.size()) +
                           " consumer groups and " + std::to_string(r.producer_metrics.size()) +
                           " producers does not fit the registry");
  return v;
}

std::string label_with_unit(const MetricInfo& m) {
  if (m.unit.empty() || m.unit == "share" || m.label.find(m.unit) != std::string::npos) return m.label;
  return m.label + ", " + m.unit;
}

bool is_defined(double v) { return !std::isnan(v); }

std::string metric_text(double v, int decimals, std::string_view undefined) {
  if (std::isnan(v)) return std::string(undefined);
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fixed(v, decimals);
}

}  // namespace partsim::analysis
