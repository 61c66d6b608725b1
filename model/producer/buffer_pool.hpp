#pragma once
// BufferPool (spec §3.10): buffer.memory shared by a producer's batches. A new batch takes
// max(batch.size, the record's upper bound) bytes; a done batch gives them back. When the
// memory is exhausted the sending thread waits (queued() > 0 makes every partition
// sendable in ready()) until enough is freed or max.block.ms passes. A request larger
// than the whole pool fails at once with the hard-limit error.
//
// Kafka keeps a free list of batch.size buffers beside the non-pooled memory and lets
// waiters collect memory piecewise, FIFO. In partsim a producer's application threads call
// send() one at a time (a thread that finds memory exhausted holds the others back), so
// there is at most one waiter and the free list changes nothing measurable: the pool is
// the count of available bytes and that waiter's need.

#include <cstdint>

#include "sim/check.hpp"

namespace partsim::model {

class BufferPool {
public:
  explicit BufferPool(std::int64_t total_bytes) : total_(total_bytes), available_(total_bytes) {}

  enum class Allocation {
    kGranted,    ///< the bytes are taken
    kWait,       ///< not enough memory: the caller is now the waiter
    kOverLimit,  ///< more than buffer.memory: "Attempt to allocate N bytes, but there is a hard limit of M"
  };

  /// allocate(size, maxTimeToBlock) (BP:111-211).
  Allocation allocate(std::int32_t bytes) {
    if (bytes > total_) return Allocation::kOverLimit;
    PARTSIM_CHECK(waiting_ == 0, "a second thread allocates while one waits for memory");
    if (available_ >= bytes) {
      take(bytes);
      return Allocation::kGranted;
    }
    waiting_ = bytes;
    return Allocation::kWait;
  }

  /// deallocate (BP:264-279). True when this made the waiter's memory available: it is
  /// taken for the waiter, who must now finish its append.
  bool deallocate(std::int32_t bytes) {
    available_ += bytes;
    PARTSIM_CHECK(available_ <= total_, "more memory returned than was taken");
    if (waiting_ > 0 && available_ >= waiting_) {
      take(waiting_);
      waiting_ = 0;
      return true;
    }
    return false;
  }

  /// The waiter gave up (max.block.ms elapsed: BufferExhaustedException).
  void cancel_wait() { waiting_ = 0; }

  /// queued() > 0: some thread waits for memory.
  bool has_waiter() const { return waiting_ > 0; }
  std::int32_t waiter_bytes() const { return waiting_; }
  std::int64_t total_bytes() const { return total_; }
  std::int64_t available_bytes() const { return available_; }
  std::int64_t used_bytes() const { return total_ - available_; }
  std::int64_t peak_used_bytes() const { return peak_used_; }

private:
  void take(std::int32_t bytes) {
    available_ -= bytes;
    if (total_ - available_ > peak_used_) peak_used_ = total_ - available_;
  }

  std::int64_t total_;
  std::int64_t available_;
  std::int32_t waiting_ = 0;
  std::int64_t peak_used_ = 0;
};

}  // namespace partsim::model
