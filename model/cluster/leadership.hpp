#pragma once
// Partition leadership as the controller keeps it: each partition's replicas (preferred
// leader first) and current leader. A failed broker's partitions move to their next live
// replica (none: offline); a recovered broker takes back the offline partitions it holds;
// the auto.leader.rebalance check gives a live broker back its preferred partitions once
// more than leader.imbalance.per.broker.percentage of them are led elsewhere.
//
// Replicas are where the topic's assignment puts them, or by the striped rule: partition p on
// brokers p, p+1, ... mod n.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "model/scenario.hpp"

namespace partsim::model {

class Leadership {
public:
  /// `brokers`: the cluster's brokers, whose ids a topic's assignment names.
  Leadership(const std::vector<TopicConfig>& topics, const std::vector<BrokerConfig>& brokers);
  /// Brokers 0..n-1 whose ids are their positions.
  Leadership(const std::vector<TopicConfig>& topics, std::size_t brokers);

  /// Topic `t` grows to `partitions` (CreatePartitions, kafka-consumer-spec §7): the new
  /// partitions are where its assignment puts them, or continue the striped rule; each is
  /// led by its first live replica (-1: none).
  void add_partitions(std::size_t t, std::int32_t partitions, std::span<const char> up);
  /// Broker `b` failed; `up` says which brokers are alive now (b is not). Returns true if
  /// a leader moved or a partition went offline.
  bool broker_failed(std::int32_t b, std::span<const char> up);
  /// Broker `b` is back: offline partitions with a replica on it are led by it again.
  bool broker_recovered(std::int32_t b);
  /// The periodic preferred-leader check (auto.leader.rebalance.enable): every live broker
  /// whose preferred partitions are led elsewhere beyond `imbalance_percent` leads them
  /// again. `eligible(topic, partition, broker)`, when given, must allow the move (the
  /// followers' model: only an in-sync replica may lead). Returns true if any leader moved.
  using Eligible = std::function<bool(std::size_t, std::size_t, std::int32_t)>;
  bool rebalance_preferred(std::span<const char> up, double imbalance_percent, const Eligible& eligible = {});
  /// The controller's election under the followers' model (model/cluster/replication.*).
  void set_leader(std::size_t t, std::size_t partition, std::int32_t broker) { leaders_[t][partition] = broker; }
  /// A reassignment changed the partition's replicas (the followers' model).
  void set_replicas(std::size_t t, std::size_t partition, std::span<const std::int32_t> replicas) {
    replicas_[t][partition].assign(replicas.begin(), replicas.end());
  }

  std::size_t topics() const { return replicas_.size(); }
  /// Leaders of topic `t` (broker index or -1), by partition.
  std::span<const std::int32_t> leaders(std::size_t t) const { return leaders_[t]; }
  /// Replicas of a partition, preferred leader first.
  std::span<const std::int32_t> replicas(std::size_t t, std::int32_t partition) const {
    return replicas_[t][static_cast<std::size_t>(partition)];
  }
  /// Partitions each broker leads, over all topics.
  std::vector<std::int32_t> leaders_per_broker() const;

private:
  /// Partition `p` of topic `t`'s replicas (broker positions), preferred leader first.
  std::vector<std::int32_t> placed(std::size_t t, std::int32_t p, std::size_t rf) const;

  std::size_t brokers_;
  std::vector<std::vector<std::vector<std::int32_t>>> assigned_;  // [topic][partition], positions; empty: striped
  std::vector<std::vector<std::vector<std::int32_t>>> replicas_;  // [topic][partition]
  std::vector<std::vector<std::int32_t>> leaders_;                // [topic][partition]
};

}  // namespace partsim::model
