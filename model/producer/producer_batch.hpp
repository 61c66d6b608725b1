#pragma once
// ProducerBatch with its MemoryRecordsBuilder (spec §3.5, §5.3): the records of one
// partition appended until the batch is closed, its size estimate, room and fullness, and
// the compression-ratio estimate it is built with. A batch lives in a BatchQueue (one per
// partition) until the sender drains it, then in a request until it is done.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "model/producer/record_size.hpp"
#include "sim/sim_time.hpp"

namespace partsim::model {

using sim::SimTime;

/// What the brokers' logs keep of one record beyond its send time (kept only when the run
/// asks for logs: ProducerHost::keeps_records).
struct RecordTag {
  std::int32_t key = -1;        ///< the run's key id (ProducerHost::key_id), -1 for a null key
  std::int64_t send_index = 0;  ///< the producer's send() count before this record: its send order
};

/// Index of a batch in its producer's batch store.
using BatchId = std::uint32_t;
inline constexpr BatchId kNoBatch = UINT32_MAX;

struct ProducerBatch {
  std::int32_t partition = 0;
  std::uint64_t sequence = 0;       ///< creation order within the producer
  SimTime created;                  ///< createdMs: delivery.timeout.ms counts from here
  SimTime last_attempt;             ///< lastAttemptMs: created until re-enqueued for a retry
  SimTime backoff;                  ///< retry backoff of the current attempt (drawn at re-enqueue)
  SimTime sent;                     ///< when the sender last drained it
  std::int32_t records = 0;
  std::int32_t attempts = 0;
  /// The idempotent producer's baseSequence, assigned at the first drain (kNoSequence before
  /// and without idempotence; kafka-consumer-spec §8).
  std::int32_t base_sequence = -1;
  std::int64_t record_bytes = 0;    ///< U: exact uncompressed record sizes
  std::int32_t capacity = 0;        ///< write limit: the buffer, max(batch.size, first record's upper bound)
  std::int32_t built_bytes = 0;     ///< set when closed for sending (drained)
  bool closed = false;              ///< closed for appends (no room, or drained)
  bool built = false;               ///< close(): the final bytes are known
  bool done = false;                ///< acknowledged or failed
  bool in_request = false;          ///< a live request carries it: its slot must not be reused
  bool queued = false;              ///< in its partition's deque
  bool compressed = false;
  float ratio_estimate = 1.0f;      ///< CompressionRatioEstimator value when the batch was created
  std::int64_t base_timestamp_ms = 0;
  /// Per record, the send() time it was meant for (latency). Inline for small batches: a
  /// keyed workload over many partitions makes batches of one or two records.
  boost::container::small_vector<SimTime, 2> send_times;
  /// Per record, in append order, beside send_times; empty unless the run keeps logs.
  std::vector<RecordTag> tags;
  BatchId next = kNoBatch;          ///< the next batch in its partition's queue

  /// A fresh batch in a reused slot (keeps the send-time and tag buffers' memory).
  void reset() {
    auto times = std::move(send_times);
    auto kept_tags = std::move(tags);
    times.clear();
    kept_tags.clear();
    *this = ProducerBatch{};
    send_times = std::move(times);
    tags = std::move(kept_tags);
  }

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
  /// exact size and `appended` the increase of the estimate (spec §3.3).
  bool try_append(const RecordShape& shape, SimTime now, SimTime intended, std::int32_t& appended,
                  std::int32_t& record_bytes_out) {
    return try_append(shape, shape.payload_part(), is_full(), now, intended, appended, record_bytes_out);
  }
  /// The same with the record's payload part and the batch's is_full() already known.
  bool try_append(const RecordShape&, std::int32_t payload_part, bool full, SimTime now, SimTime intended,
                  std::int32_t& appended, std::int32_t& record_bytes_out) {
    const std::int64_t ts_delta = now.whole_ms() - base_timestamp_ms;
    const std::int32_t size = record_size(records, ts_delta, payload_part);
    const std::int32_t before = estimated_bytes();
    if (records > 0 && (full || capacity < before + size)) {
      closed = true;
      return false;
    }
    record_bytes += size;
    ++records;
    send_times.push_back(intended);
    appended = estimated_bytes() - before;
    record_bytes_out = size;
    return true;
  }
};

/// Where batches live: slots by BatchId, reused through a free list. The producers of a run
/// share one arena, so that a batch one producer frees is the next any producer creates,
/// still in cache: a fleet of producers over many partitions creates a batch per record or
/// two, and a slot reused only by its own producer was cold by then (a quarter of such a
/// run went to cache misses on batch slots). Ids are an arena's own; they order nothing.
class BatchArena {
public:
  /// A fresh batch (a reused slot keeps its buffers' memory).
  BatchId allocate() {
    if (free_.empty()) {
      if (size_ % kChunk == 0) chunks_.push_back(std::make_unique<ProducerBatch[]>(kChunk));
      return size_++;
    }
    const BatchId id = free_.back();
    free_.pop_back();
    (*this)[id].reset();
    return id;
  }
  void free(BatchId id) { free_.push_back(id); }
  ProducerBatch& operator[](BatchId id) { return chunks_[id / kChunk][id % kChunk]; }
  const ProducerBatch& operator[](BatchId id) const { return chunks_[id / kChunk][id % kChunk]; }

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
  // Chunks of slots that never move (a std::deque of batches this size keeps two per block,
  // and its block map is one more load per access).
  static constexpr BatchId kChunk = 256;
  std::vector<std::unique_ptr<ProducerBatch[]>> chunks_;
  BatchId size_ = 0;
  std::vector<BatchId> free_;
  std::vector<std::uint64_t> tags_;  // per slot: the tag of its stay in a deque, 0 when not queued
  std::uint64_t last_tag_ = 0;
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
