#pragma once
// The producer's view of its topic's metadata (spec §2.2): each partition's leader as last
// refreshed, the partitions with a leader in the client's list order
// (Cluster.availablePartitionsForTopic, which the built-in partitioner indexes) and the
// partitions each node leads (Cluster.partitionsForNode, which drain() walks). The view
// changes only when it is refreshed: after a disconnect, a failover or a preferred leader
// election the producer learns of, one round trip later.

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <optional>
#include <span>
#include <vector>

#include "sim/sim_time.hpp"

namespace partsim::model {

/// The next metadata refresh that can show a producer something new about its topic
/// (kafka-consumer-spec §6.2: a refresh every metadata.max.age.ms after the last one):
/// `last` + `max_age` when the topic has grown since it looked (`behind`), else the first
/// `last` + k * `max_age` (k >= 1) at or after the topic's next partition step `next_step`.
/// None when it is not behind and no step is to come. The refreshes in between would show
/// nothing new (a max age of 0 refreshes at the step itself).
std::optional<sim::SimTime> next_useful_refresh(sim::SimTime last, sim::SimTime max_age, bool behind,
                                                std::optional<sim::SimTime> next_step);

class ProducerMetadata {
public:
  /// `client_order`: the topic's partitions in the order the client lists them (Java
  /// HashMap order, producer/partition_order.hpp, or sorted); `nodes`: the brokers.
  ProducerMetadata(const std::vector<std::int32_t>& client_order, std::size_t nodes,
                   std::pmr::memory_resource* memory = std::pmr::new_delete_resource());

  /// A metadata response: `leaders[p]` is partition p's leader (broker index) or -1.
  void update(std::span<const std::int32_t> leaders);
  /// The topic gained partitions (kafka-consumer-spec §7): `client_order` lists all of them
  /// in the client's order; the new ones have no leader until the next update().
  void grow(std::span<const std::int32_t> client_order);

  std::int32_t num_partitions() const { return static_cast<std::int32_t>(leaders_.size()); }
  std::size_t num_nodes() const { return for_node_.size(); }
  /// The leader of `partition`, or -1 when it has none or the topic has no such partition.
  std::int32_t leader(std::int32_t partition) const {
    return partition >= 0 && partition < num_partitions() ? leaders_[static_cast<std::size_t>(partition)] : -1;
  }
  std::span<const std::int32_t> leaders() const { return leaders_; }
  /// Partitions with a leader, in the client's list order.
  std::span<const std::int32_t> available() const { return available_; }
  /// Partitions `node` leads, in the client's list order.
  std::span<const std::int32_t> partitions_for_node(std::size_t node) const { return for_node_[node]; }
  /// Where `partition` stands in partitions_for_node(its leader), or -1 without a leader.
  std::int32_t position_on_node(std::int32_t partition) const { return position_[static_cast<std::size_t>(partition)]; }
  /// Bumped by every update.
  std::uint64_t version() const { return version_; }

private:
  // In the run's memory: drain() walks a node's list and the accumulator reads positions.
  std::pmr::vector<std::int32_t> client_order_;
  std::pmr::vector<std::int32_t> leaders_;
  std::pmr::vector<std::int32_t> available_;
  std::pmr::vector<std::pmr::vector<std::int32_t>> for_node_;
  std::pmr::vector<std::int32_t> position_;
  std::uint64_t version_ = 0;
};

}  // namespace partsim::model
