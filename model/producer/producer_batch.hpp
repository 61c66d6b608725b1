#pragma once
// ProducerBatch with its MemoryRecordsBuilder (spec §3.5, §5.3): the records of one
// partition appended until the batch is closed, its size estimate, room and fullness, and
// the compression-ratio estimate it is built with. A batch lives in a BatchQueue (one per
// partition) until the sender drains it, then in a request until it is done.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <new>
#include <span>
#include <vector>

#include "model/producer/record_size.hpp"
#include "sim/huge_pages.hpp"
#include "sim/sim_time.hpp"

namespace partsim::model {

using sim::SimTime;

/// What the brokers' logs keep of one record beyond its send time (kept only when the run
/// asks for logs: ProducerHost::keeps_records).
struct RecordTag {
  std::int32_t key = -1;        ///< the run's key id (ProducerHost::key_id), -1 for a null key
  std::int64_t send_index = 0;  ///< the producer's send() count before this record: its send order
};

/// Index of a batch in its arena (BatchArena, shared by a run's producers).
using BatchId = std::uint32_t;
inline constexpr BatchId kNoBatch = UINT32_MAX;

/// Speed: a batch's slot is what appends, the sender and responses read, in one cache line. A fleet
/// of producers over many partitions keeps about a batch per record alive, drained a linger
/// and answered a round trip after it was made: each look at a batch is a cache miss, one
/// line instead of three. What is read seldom (a retry's times, the drain time, the send
/// times after the first, the records' tags) is kept beside it (BatchDetail).
struct alignas(64) ProducerBatch {
  std::int32_t partition = 0;
  BatchId next = kNoBatch;        ///< the next batch in its partition's queue
  std::uint64_t sequence = 0;     ///< creation order within the producer
  SimTime created;                ///< createdMs: delivery.timeout.ms counts from here
  SimTime first_send_time;        ///< the send() time the first record was meant for (latency)
  std::int64_t record_bytes = 0;  ///< U: exact uncompressed record sizes
  std::int32_t records = 0;
  /// The idempotent producer's baseSequence, assigned at the first drain (kNoSequence before
  /// and without idempotence; kafka-consumer-spec §8).
  std::int32_t base_sequence = -1;
  std::int32_t capacity = 0;     ///< write limit: the buffer, max(batch.size, first record's upper bound)
  std::int32_t built_bytes = 0;  ///< set when closed for sending (drained)
  float ratio_estimate = 1.0f;   ///< CompressionRatioEstimator value when the batch was created
  // The flags an append reads are whole bytes (a bit-field costs a mask at every look).
  bool closed = false;  ///< closed for appends (no room, or drained)
  bool built = false;   ///< close(): the final bytes are known
  bool compressed = false;
  bool done : 1 = false;        ///< acknowledged or failed
  bool in_request : 1 = false;  ///< a live request carries it: its slot must not be reused
  bool queued : 1 = false;      ///< in its partition's deque
  bool retried : 1 = false;     ///< re-enqueued at least once: its BatchDetail holds the attempts

  /// estimatedSizeInBytes (MRB:899): the built size once closed, else the estimate.
  std::int32_t estimated_bytes() const {
    if (built) return built_bytes;
    return estimated_bytes_written(record_bytes, compressed, ratio_estimate);
  }

  /// MemoryRecordsBuilder.isFull (spec §3.5): closed, or the estimate reached the limit.
  bool is_full() const { return closed || built || (records > 0 && capacity <= estimated_bytes()); }

  /// tryAppend with hasRoomFor (spec §3.5): a first record always fits; otherwise the
  /// estimate plus this record's exact size must stay within the write limit. No room
  /// closes the batch and returns false. On success `record_bytes_out` is the record's
  /// exact size and `appended` the increase of the estimate (spec §3.3). `full`: is_full()
  /// already known. The record's send() time is the caller's to keep: the first record's in
  /// first_send_time, the later ones with BatchArena::add_later_send_time.
  bool try_append(std::int32_t payload_part, bool full, SimTime now, std::int32_t& appended,
                  std::int32_t& record_bytes_out) {
    const std::int64_t ts_delta = now.whole_ms() - created.whole_ms();  // from the base timestamp, set at creation
    const std::int32_t size = record_size(records, ts_delta, payload_part);
    const std::int32_t before = estimated_bytes();
    if (records > 0 && (full || capacity < before + size)) {
      closed = true;
      return false;
    }
    record_bytes += size;
    ++records;
    appended = estimated_bytes() - before;
    record_bytes_out = size;
    return true;
  }
};
static_assert(sizeof(ProducerBatch) == 64, "a batch's slot is one cache line");

/// A batch's retry state: its attempts so far, when the last began (created before any
/// retry) and the backoff drawn for it.
struct RetryState {
  std::int32_t attempts = 0;
  SimTime last_attempt;  ///< lastAttemptMs: created until re-enqueued for a retry
  SimTime backoff;       ///< retry backoff of the current attempt (drawn at re-enqueue)
};

/// What a batch keeps beside its slot, read seldom. Never reset with the slot: each part is
/// valid only as its slot says, and otherwise holds what the slot's last batch left (retry
/// state once `retried`; `more_send_times` records - 1 entries once records >= 2, cleared
/// when the second record comes; `tags` one per record where the run keeps them, cleared
/// at the first; `sent` once `built`, where the arena keeps drain times).
struct BatchDetail {
  RetryState retry;
  SimTime sent;                          ///< when the sender last drained it
  std::vector<SimTime> more_send_times;  ///< the send() times of the records after the first
  std::vector<RecordTag> tags;           ///< per record, in append order
};

/// Where batches live: slots by BatchId, reused through a free list. The producers of a run
/// share one arena, so that a batch one producer frees is the next any producer creates,
/// still in cache: a fleet of producers over many partitions creates a batch per record or
/// two, and a slot reused only by its own producer was cold by then (a quarter of such a
/// run went to cache misses on batch slots). Ids are an arena's own; they order nothing.
class BatchArena {
public:
  /// `memory`: where the slots live.
  explicit BatchArena(std::pmr::memory_resource* memory = std::pmr::new_delete_resource())
      : memory_(memory), tags_(memory) {}

  /// A fresh batch (a reused slot keeps its detail's buffers' memory).
  BatchId allocate() {
    if (free_.empty()) {
      if (size_ % kChunk == 0) chunks_.push_back(sim::make_in<Chunk>(memory_));
      return size_++;
    }
    const BatchId id = free_.back();
    free_.pop_back();
    (*this)[id] = ProducerBatch{};
    return id;
  }
  void free(BatchId id) { free_.push_back(id); }
  ProducerBatch& operator[](BatchId id) { return chunks_[id / kChunk]->batches[id % kChunk]; }
  const ProducerBatch& operator[](BatchId id) const { return chunks_[id / kChunk]->batches[id % kChunk]; }

  /// The send() time of a record appended to batch `id` (`b`) after its first (whose time
  /// is its first_send_time); records already counts it.
  void add_later_send_time(BatchId id, const ProducerBatch& b, SimTime t) {
    std::vector<SimTime>& more = detail(id).more_send_times;
    if (b.records == 2) more.clear();  // left from the slot's last batch
    more.push_back(t);
  }
  /// Calls `f` with each record's send() time, in append order.
  template <class F>
  void for_each_send_time(BatchId id, F&& f) const {
    const ProducerBatch& b = (*this)[id];
    if (b.records == 0) return;
    f(b.first_send_time);
    if (b.records > 1)
      for (const SimTime t : detail(id).more_send_times) f(t);
  }
  std::vector<SimTime> send_times(BatchId id) const {
    std::vector<SimTime> out;
    for_each_send_time(id, [&](SimTime t) { out.push_back(t); });
    return out;
  }
  /// The tag of the record just appended, in a run that keeps them.
  void add_tag(BatchId id, const RecordTag& tag) {
    std::vector<RecordTag>& tags = detail(id).tags;
    if ((*this)[id].records == 1) tags.clear();
    tags.push_back(tag);
  }
  std::span<const RecordTag> tags(BatchId id) const { return detail(id).tags; }

  /// Batch `id`'s retry state; its detail is read only once it has been retried (`b` is the
  /// batch, for a caller that holds it).
  RetryState retry(BatchId id, const ProducerBatch& b) const {
    return b.retried ? detail(id).retry : RetryState{0, b.created, {}};
  }
  RetryState retry(BatchId id) const { return retry(id, (*this)[id]); }
  /// Another attempt begins at `now`, after `backoff`.
  void begin_retry(BatchId id, SimTime now, SimTime backoff) {
    ProducerBatch& b = (*this)[id];
    RetryState& r = detail(id).retry;
    r.attempts = b.retried ? r.attempts + 1 : 1;
    r.last_attempt = now;
    r.backoff = backoff;
    b.retried = true;
  }
  /// lastAttemptMs.
  SimTime last_attempt(BatchId id) const {
    return (*this)[id].retried ? detail(id).retry.last_attempt : (*this)[id].created;
  }

  /// The drain time is kept only where something reads it (batches.csv): a write to the
  /// detail at every drain would be a cache miss per batch.
  void keep_sent(bool keep) { keep_sent_ = keep; }
  void set_sent(BatchId id, SimTime t) {
    if (keep_sent_) detail(id).sent = t;
  }
  /// When the sender last drained the batch (built batches, in an arena that keeps it).
  SimTime sent(BatchId id) const { return detail(id).sent; }

  /// The batch goes into a deque: a tag of this stay that queued_as() recognises until
  /// unqueued() (a dense array beside the slots: the accumulator asks it about batches it
  /// filed long ago, whose slots are seldom in cache).
  std::uint64_t queued(BatchId id) {
    if (tags_.size() <= id) tags_.resize(std::max<std::size_t>(id + 1, 2 * tags_.size()), 0);
    return tags_[id] = ++last_tag_;
  }
  void unqueued(BatchId id) { tags_[id] = 0; }
  bool queued_as(BatchId id, std::uint64_t tag) const { return id < tags_.size() && tags_[id] == tag; }

private:
  BatchDetail& detail(BatchId id) { return chunks_[id / kChunk]->details[id % kChunk]; }
  const BatchDetail& detail(BatchId id) const { return chunks_[id / kChunk]->details[id % kChunk]; }

  // Chunks of slots that never move (a std::deque of batches this size keeps two per block,
  // and its block map is one more load per access), their details in the same block.
  static constexpr BatchId kChunk = 256;
  struct Chunk {
    ProducerBatch batches[kChunk];
    BatchDetail details[kChunk];
  };
  std::pmr::memory_resource* memory_;
  std::vector<std::unique_ptr<Chunk, sim::MemoryDelete<Chunk>>> chunks_;
  BatchId size_ = 0;
  std::vector<BatchId> free_;
  std::pmr::vector<std::uint64_t> tags_;  // per slot: the tag of its stay in a deque, 0 when not queued
  std::uint64_t last_tag_ = 0;
  bool keep_sent_ = true;
};

/// One partition's deque of batches, linked through ProducerBatch::next (no allocation per
/// partition: a producer may have a million of them, most empty).
struct BatchQueue {
  BatchId head = kNoBatch;
  BatchId tail = kNoBatch;
  std::int32_t size = 0;
  bool empty() const { return size == 0; }
};

}  // namespace partsim::model
