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
#include <vector>

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

  /// A hint: append() will soon be asked about (partition, producer). A broker starts
  /// serving a request a service time before it appends: asked then, the state (seldom in
  /// cache for a fleet of producers writing every partition) is there when it is needed.
  void prefetch(std::size_t partition, std::uint32_t producer) const {
    if (producer >= states_.size() || partition >= states_[producer].size()) return;
    const State* s = &states_[producer][partition];
    __builtin_prefetch(s);
    __builtin_prefetch(reinterpret_cast<const char*>(s + 1) - 1);  // it may end on the next line
  }

private:
  struct Batch {
    std::int32_t first = -1, last = -1;
  };
  struct State {
    std::int32_t last_sequence = -1;
    std::uint8_t next = 0;
    bool used = false;  // the producer has state on the partition
    std::array<Batch, kRemembered> recent{};  // a ring, the oldest at `next`
  };
  // Per producer, per partition, in place: the sequence check reads one line per batch. (An
  // index into a shared state vector cost a second cache miss per batch for a fleet of
  // producers writing every partition; a hash map's node chase, a quarter of such a run.)
  std::vector<std::vector<State>> states_;
};

}  // namespace partsim::model
