#include "model/consumer/detail/partition_movements.hpp"

namespace partsim::model::consumer::detail {

std::size_t PartitionMovements::actual_partition_to_move(std::size_t partition, std::size_t from,
                                                         std::size_t to) const {
  const auto topic = by_topic_.find(topic_of_[partition]);
  if (topic == by_topic_.end()) return partition;
  if (const auto moved = moves_.find(partition); moved != moves_.end()) from = moved->second.first;
  const auto reverse = topic->second.find({to, from});
  if (reverse == topic->second.end()) return partition;
  return reverse->second.first();
}

void PartitionMovements::move(std::size_t partition, std::size_t from, std::size_t to) {
  if (const auto moved = moves_.find(partition); moved != moves_.end()) {
    const std::size_t origin = moved->second.first;
    remove_record(partition);
    if (origin != to) add_record(partition, {origin, to});
  } else {
    add_record(partition, {from, to});
  }
}

void PartitionMovements::remove_record(std::size_t partition) {
  const auto moved = moves_.find(partition);
  const Pair pair = moved->second;
  moves_.erase(moved);
  auto& topic = by_topic_[topic_of_[partition]];
  auto& set = topic[pair];
  set.erase(partition, hash_of_[partition]);
  if (set.empty()) topic.erase(pair);
  if (topic.empty()) by_topic_.erase(topic_of_[partition]);
}

void PartitionMovements::add_record(std::size_t partition, Pair pair) {
  moves_[partition] = pair;
  by_topic_[topic_of_[partition]][pair].insert(partition, hash_of_[partition]);
}

}  // namespace partsim::model::consumer::detail
