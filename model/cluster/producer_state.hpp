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
#include <memory_resource>
#include <vector>

#include "sim/prefetch.hpp"

namespace partsim::model {

class ProducerStateTable {
public:
  /// How many batches of a producer the broker remembers for duplicates (PSE:36).
  static constexpr std::size_t kRemembered = 5;

  enum class Verdict { kAppend, kDuplicate, kOutOfOrder };

  /// `memory`: where the states live.
  explicit ProducerStateTable(std::pmr::memory_resource* memory = std::pmr::new_delete_resource()) : memory_(memory) {}

  /// The broker's verdict for a batch of `records` records from `producer` starting at
  /// `first_sequence` on `partition` (any index the caller uses for partitions); kAppend
  /// records it as appended.
  Verdict append(std::size_t partition, std::uint32_t producer, std::int32_t first_sequence, std::int32_t records);

  /// Takes back the last append() that answered kAppend: the write it promised failed (a full
  /// disk, docs/disks.md), so the state is as before it (UnifiedLog.append updates the
  /// producer state only after the write).
  void undo_last_append();

  /// Forgets the producer's state on the partition: the next batch may start anywhere.
  /// partsim's stand-in for Kafka's epoch bump after a sequenced batch failed for good
  /// (TM:549-570), which restarts the partition's sequences.
  void reset(std::size_t partition, std::uint32_t producer);

  /// The partition's log lost the producer's batch that starts at `first_sequence` and all
  /// after it (a new leader lacked them, kafka-consumer-spec §9.4): its state is the log's
  /// again, so the producer's retry of that batch is appended, not taken for a duplicate.
  void truncate(std::size_t partition, std::uint32_t producer, std::int32_t first_sequence);

  /// A hint: append() will soon be asked about (partition, producer). A broker starts
  /// serving a request a service time before it appends: asked then, the state (seldom in
  /// cache for a fleet of producers writing every partition) is there when it is needed.
  void prefetch(std::size_t partition, std::uint32_t producer) const {
    if (producer >= states_.size() || partition >= states_[producer].size()) return;
    sim::prefetch(&states_[producer][partition]);
  }

private:
  // Speed: the batches a partition appended from a producer follow each other in sequence (each
  // starts right after the last), so the last five are their five first sequences and the
  // sequence after the last: half a cache line, and never across two.
  struct alignas(32) State {
    std::array<std::int32_t, kRemembered> starts{};  // the remembered batches' first sequences, oldest first
    std::int32_t end = 0;                            // the sequence after the last appended
    std::uint8_t count = 0;                          // batches remembered
    bool used = false;                               // the producer has state on the partition
  };
  static_assert(sizeof(State) == 32);
  // Per producer, per partition, in place: the sequence check reads one line per batch. (An
  // index into a shared state vector cost a second cache miss per batch for a fleet of
  // producers writing every partition; a hash map's node chase, a quarter of such a run.)
  std::pmr::memory_resource* memory_;
  std::vector<std::pmr::vector<State>> states_;
  // The last kAppend's state before it, for undo_last_append.
  State undo_state_{};
  std::size_t undo_partition_ = 0;
  std::uint32_t undo_producer_ = 0;
  bool undo_ = false;
};

}  // namespace partsim::model
