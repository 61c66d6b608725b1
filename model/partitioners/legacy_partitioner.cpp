#include "model/partitioners/legacy_partitioner.hpp"

#include "model/partitioners/key_hash.hpp"

namespace partsim::model {

std::int32_t LegacyPartitioner::partition(std::optional<std::string_view> key, const PartitionerView& view) {
  if (key) return partition_for_key(*key, view.num_partitions);
  // toPositive of an incrementing int is an incrementing 31-bit value that wraps to 0, so
  // a random 31-bit start gives the same sequence as a random 32-bit one.
  if (!counter_) counter_ = static_cast<std::uint32_t>(draw_());
  const auto c = static_cast<std::int32_t>((*counter_)++ & 0x7fffffffU);
  if (!view.available.empty()) return view.available[static_cast<std::size_t>(c) % view.available.size()];
  return c % view.num_partitions;
}

}  // namespace partsim::model
