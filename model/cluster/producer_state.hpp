#pragma once
// The broker's sequence check for idempotent producers (ProducerStateManager and
// ProducerAppendInfo, kafka-consumer-spec §8): per partition and producer, the last sequence
// appended and the last five batches. A batch equal to one of those five is a duplicate
// (answered as success, not appended again); otherwise it must start right after the last
// sequence, or the broker refuses it with OUT_OF_ORDER_SEQUENCE_NUMBER. A producer the
// partition has no state for may start anywhere. It takes plain numbers and knows nothing
// of requests or time.

#include <array>
#include <cstdint>
#include <unordered_map>

namespace partsim::model {

class ProducerStateTable {
public:
  /// How many batches of a producer the broker remembers for duplicates (PSE:36).
  static constexpr std::size_t kRemembered = 5;

  enum class Verdict { kAppend, kDuplicate, kOutOfOrder };

  /// The broker's verdict for a batch of `records` records from `producer` starting at
  /// `first_sequence` on `partition` (any index the caller uses for partitions); kAppend
  /// records it as appended.
  Verdict append(std::size_t partition, std::uint32_t producer, std::int32_t first_sequence, std::int32_t records);

  /// Forgets the producer's state on the partition: the next batch may start anywhere.
  /// partsim's stand-in for Kafka's epoch bump after a sequenced batch failed for good
  /// (TM:549-570), which restarts the partition's sequences.
  void reset(std::size_t partition, std::uint32_t producer);

private:
  struct Batch {
    std::int32_t first = -1, last = -1;
  };
  struct State {
    std::int32_t last_sequence = -1;
    std::array<Batch, kRemembered> recent{};  // a ring, the oldest at `next`
    std::size_t next = 0;
  };
  static std::uint64_t key(std::size_t partition, std::uint32_t producer) {
    return (static_cast<std::uint64_t>(partition) << 32) | producer;
  }
  std::unordered_map<std::uint64_t, State> states_;
};

}  // namespace partsim::model
