#include "model/producer/producer_metadata.hpp"

#include <algorithm>

#include "sim/check.hpp"

namespace partsim::model {

ProducerMetadata::ProducerMetadata(const std::vector<std::int32_t>& client_order, std::size_t nodes,
                                   std::pmr::memory_resource* memory)
    : client_order_(client_order.begin(), client_order.end(), memory),
      leaders_(client_order_.size(), -1, memory),
      available_(memory),
      for_node_(nodes, memory),
      position_(client_order_.size(), -1, memory) {}

void ProducerMetadata::update(std::span<const std::int32_t> leaders) {
  PARTSIM_CHECK(leaders.size() == leaders_.size(), "a metadata update must cover every partition");
  leaders_.assign(leaders.begin(), leaders.end());
  available_.clear();
  for (auto& parts : for_node_) parts.clear();
  std::fill(position_.begin(), position_.end(), -1);
  for (const std::int32_t part : client_order_) {
    const std::int32_t l = leaders_[static_cast<std::size_t>(part)];
    if (l < 0) continue;
    available_.push_back(part);
    auto& on_node = for_node_[static_cast<std::size_t>(l)];
    position_[static_cast<std::size_t>(part)] = static_cast<std::int32_t>(on_node.size());
    on_node.push_back(part);
  }
  ++version_;
}

void ProducerMetadata::grow(std::span<const std::int32_t> client_order) {
  PARTSIM_CHECK(client_order.size() >= client_order_.size(), "a topic's partitions only grow");
  client_order_.assign(client_order.begin(), client_order.end());
  leaders_.resize(client_order_.size(), -1);
  position_.resize(client_order_.size(), -1);
}

std::optional<sim::SimTime> next_useful_refresh(sim::SimTime last, sim::SimTime max_age, bool behind,
                                                std::optional<sim::SimTime> next_step) {
  if (behind) return last + max_age;
  if (!next_step) return std::nullopt;
  if (max_age <= sim::SimTime::zero()) return std::max(*next_step, last);
  const std::int64_t age = max_age.count_ns();
  const std::int64_t k = std::max<std::int64_t>(1, ((*next_step - last).count_ns() + age - 1) / age);
  return last + sim::SimTime::ns(k * age);
}

}  // namespace partsim::model
