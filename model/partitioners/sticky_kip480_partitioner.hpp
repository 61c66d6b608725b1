#pragma once
// The KIP-480 sticky partitioner of clients 2.4-3.2 (spec §8.2): DefaultPartitioner hashes
// keys and sends null keys to a cached sticky partition; UniformStickyPartitioner ignores
// keys. The cache switches only in onNewBatch, to a random partition different from the
// previous one, so a partition is kept exactly until a record needs a new batch there.

#include "model/partitioners/partitioner.hpp"

namespace partsim::model {

class StickyKip480Partitioner final : public Partitioner {
public:
  StickyKip480Partitioner(bool uniform, PartitionDraw draw) : uniform_(uniform), draw_(std::move(draw)) {}
  std::int32_t partition(std::optional<std::string_view> key, const PartitionerView& view) override;
  void on_new_batch(std::int32_t previous, const PartitionerView& view) override;

private:
  /// StickyPartitionCache.nextPartition(topic, cluster, prev).
  std::int32_t next_partition(std::optional<std::int32_t> previous, const PartitionerView& view);

  bool uniform_;
  PartitionDraw draw_;
  std::optional<std::int32_t> cached_;
};

}  // namespace partsim::model
