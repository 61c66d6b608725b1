#include "model/detail/consumer_run.hpp"

#include <algorithm>

#include "model/consumer/consumer_simulation.hpp"
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
    // Replicas as the cluster places them (the topic's assignment, else p -> brokers p, p+1,
    // ...): KIP-881 matches racks.
    if (any_rack && t.assignment.empty()) {
      meta.replica_racks = consumer::striped_replica_racks(meta.partitions, broker_racks, t.replication_factor);
    } else if (any_rack) {
      PARTSIM_CHECK(t.assignment.size() >= static_cast<std::size_t>(meta.partitions),
                    "a topic's assignment lists fewer partitions than it has");
      for (std::int32_t p = 0; p < meta.partitions; ++p) {
        auto& racks = meta.replica_racks.emplace_back();
        for (const std::int32_t id : t.assignment[static_cast<std::size_t>(p)])
          for (const auto& b : s.brokers)
            if (b.id == id) racks.push_back(b.rack);
      }
    }
    in.topics.push_back(std::move(meta));
    in.topic_first_log.push_back(first);
    in.start_partitions.push_back(t.partitions);
    first += in.topics.back().partitions;
    grows = grows || t.grows_before(std::nullopt);
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

}  // namespace partsim::model::detail
