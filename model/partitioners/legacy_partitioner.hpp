#pragma once
// The pre-2.4 DefaultPartitioner (spec §8.1): keys hashed with murmur2; null keys
// round-robin per record from a random start (a counter initialised to a random int).
// The producer of that era called partition() once per record: no abortOnNewBatch.

#include "model/partitioners/partitioner.hpp"

namespace partsim::model {

class LegacyPartitioner final : public Partitioner {
public:
  explicit LegacyPartitioner(PartitionDraw draw) : draw_(std::move(draw)) {}
  std::int32_t partition(std::optional<std::string_view> key, const PartitionerView& view) override;
  bool abort_on_new_batch() const override { return false; }

private:
  PartitionDraw draw_;
  std::optional<std::uint32_t> counter_;  // toPositive(counter) as it increments
};

}  // namespace partsim::model
