#include "model/partitioners/round_robin_partitioner.hpp"

namespace partsim::model {

std::int32_t RoundRobinPartitioner::partition(std::optional<std::string_view>, const PartitionerView& view) {
  if (remembered_) {
    const std::int32_t p = *remembered_;
    remembered_.reset();
    return p;
  }
  // toPositive(counter): the counter wraps after 2^31 calls (spec §7.3).
  const auto c = static_cast<std::int32_t>(counter_++ & 0x7fffffffU);
  if (!view.available.empty()) return view.available[static_cast<std::size_t>(c) % view.available.size()];
  return c % view.num_partitions;
}

void RoundRobinPartitioner::on_new_batch(std::int32_t previous, const PartitionerView&) {
  if (fixed_) remembered_ = previous;
}

}  // namespace partsim::model
