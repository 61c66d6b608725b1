#pragma once
// RoundRobinPartitioner (spec §7): a per-topic counter from 0, getAndIncrement on every
// partition() call, available[toPositive(c) % |available|]. Through 3.9.1, with
// abortOnNewBatch a record whose first choice has no open batch costs a second call
// (KAFKA-9965): record k lands on position (2k+1) mod N when every record opens a batch.
// 3.9.2's fix (KAFKA-17632, `remembers`) answers the second call with the first call's
// partition: one step per record. 4.0 has no second call, so the same class is a plain
// counter there (kafka-versions.md; partitioner_run decides which applies).

#include "model/partitioners/partitioner.hpp"

namespace partsim::model {

class RoundRobinPartitioner final : public Partitioner {
public:
  explicit RoundRobinPartitioner(bool remembers) : fixed_(remembers) {}
  std::int32_t partition(std::optional<std::string_view> key, const PartitionerView& view) override;
  void on_new_batch(std::int32_t previous, const PartitionerView& view) override;

private:
  bool fixed_;
  std::uint32_t counter_ = 0;
  std::optional<std::int32_t> remembered_;  // fixed: the partition to repeat after onNewBatch
};

}  // namespace partsim::model
