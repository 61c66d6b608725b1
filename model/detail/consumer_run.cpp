#include "model/detail/consumer_run.hpp"

#include <algorithm>
#include <memory>

#include "model/cluster/partition_log.hpp"
#include "model/consumer/consumer_simulation.hpp"
#include "model/migration/migration.hpp"
#include "sim/check.hpp"

namespace partsim::model::detail {

consumer::ConsumeInputs consume_inputs(const Scenario& s, const RunOptions& options) {
  consumer::ConsumeInputs in;
  std::vector<std::string> broker_racks;
  for (const auto& b : s.brokers) {
    broker_racks.push_back(b.rack);
    in.broker_rtt.push_back(b.rtt);
  }
  const bool any_rack =
      std::any_of(broker_racks.begin(), broker_racks.end(), [](const std::string& r) { return !r.empty(); });
  std::int32_t first = 0;
  bool grows = false;
  for (const auto& t : s.topics) {
    consumer::TopicMetadata meta;
    meta.name = t.name;
    meta.partitions = t.partitions_before(s.run.duration);  // the steps made before the run's end
    // Replicas as the cluster places them (p -> brokers p, p+1, ...): KIP-881 matches racks.
    if (any_rack)
      meta.replica_racks = consumer::striped_replica_racks(meta.partitions, broker_racks, t.replication_factor);
    in.topics.push_back(std::move(meta));
    in.topic_first_log.push_back(first);
    in.start_partitions.push_back(t.partitions);
    first += in.topics.back().partitions;
    grows = grows || !t.schedule.empty();
  }
  if (!grows) in.start_partitions.clear();
  in.sample_interval = options.timeseries;
  in.run_end = s.run.duration.value_or(SimTime::zero());
  in.trace = s.run.trace;
  in.cancel = options.cancel;
  return in;
}

void add_group_run(RunResult& result, consumer::GroupRun run) {
  result.partial = result.partial || run.cancelled;
  if (result.repartition) {
    auto& r = *result.repartition;
    r.records_skipped_latest += run.result.records_skipped_latest;
    r.keys_out_of_order = std::max(r.keys_out_of_order.value_or(0), run.result.keys_out_of_order);
  }
  result.consumer_groups.push_back(std::move(run.result));
  for (auto& row : run.trace) result.consume_trace.push_back(std::move(row));
}

void run_consumers(const Scenario& s, const RunOptions& options, RunResult& result) {
  PARTSIM_CHECK(result.logs != nullptr, "consumer groups without the brokers' logs");
  consumer::ConsumeInputs in = consume_inputs(s, options);
  in.logs = result.logs.get();
  // The topics' partition increases, in the order the run made them.
  if (result.repartition)
    for (const auto& c : result.repartition->changes)
      if (const auto t = s.topic_index(c.topic)) in.partitions_added.push_back({SimTime::from_ms(c.at_ms), *t, c.to});
  for (std::size_t i = 0; i < result.partitions.size(); ++i) {
    const PartitionStats& ps = result.partitions[i];
    // The leader at the end of the run (a partition without one: its preferred leader).
    std::int32_t leader = ps.partition % static_cast<std::int32_t>(s.brokers.size());
    for (std::size_t b = 0; b < s.brokers.size(); ++b)
      if (s.brokers[b].id == ps.leader) leader = static_cast<std::int32_t>(b);
    in.leader.push_back(leader);
    in.record_bytes.push_back(ps.records > 0
                                  ? std::max(1.0, static_cast<double>(ps.bytes) / static_cast<double>(ps.records))
                                  : 1.0);
  }
  for (const auto& g : s.consumers) {
    if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
      result.partial = true;  // the groups not begun are left out
      break;
    }
    add_group_run(result, consumer::simulate_group(g, s.group_coordinator, in));
  }
}

void run_migration(const Scenario& s, std::uint64_t seed, std::uint64_t replication, RunResult& result,
                   const std::atomic<bool>* cancel, std::optional<double> record_bytes, std::optional<SimTime> resume) {
  PARTSIM_CHECK(result.logs != nullptr, "a migration without the brokers' logs");
  // The bridge writes records of the old topic's average size.
  std::int64_t records = 0, bytes = 0;
  for (const PartitionStats& ps : result.partitions)
    if (ps.topic == s.migration->from) {
      records += ps.records;
      bytes += ps.bytes;
    }
  const double average = record_bytes  ? *record_bytes
                         : records > 0 ? static_cast<double>(bytes) / static_cast<double>(records)
                                       : 1.0;
  std::optional<migration::Migrated> done =
      migration::migrate(s, *result.logs, average, seed, replication, cancel, resume);
  if (!done) {  // interrupted: the producers' results stand, marked partial, without the migration
    result.partial = true;
    return;
  }
  migration::Migrated& migrated = *done;
  migrated.result.bridge_record_bytes = average;
  result.migration = std::move(migrated.result);
  // The logs the migration left replace the two topics' in the brokers' logs (a copy: the
  // producers' run shares its own), so consumer groups read them: the new topic's, and the
  // old topic's without what the bridge strategy sent to the new topic after the switch. The
  // partition statistics stay the producers' run (the migration's figures count both
  // topics' records); a fetch counts the new topic's records as 1 byte each, so its byte
  // limits do not bind there.
  auto logs = std::make_shared<BrokerLogs>(*result.logs);
  for (std::size_t i = 0, from = 0, to = 0; i < result.partitions.size(); ++i) {
    if (result.partitions[i].topic == s.migration->to) logs->partitions[i] = std::move(migrated.new_topic[to++]);
    if (result.partitions[i].topic == s.migration->from) logs->partitions[i] = std::move(migrated.old_topic[from++]);
  }
  result.logs = std::move(logs);
}

}  // namespace partsim::model::detail
