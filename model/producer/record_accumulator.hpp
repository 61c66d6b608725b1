#pragma once
// RecordAccumulator (spec §3): one producer's batches of one topic, a deque per partition,
// with the built-in partitioner (spec §2) that picks the sticky partition for records
// without one, and the BufferPool (spec §3.10). The sender asks it which nodes are ready
// (ready, §3.6), takes batches for a node (drain, §3.8), expires old batches (§3.9) and
// puts failed ones back (reenqueue). Every call takes the time: nothing here reads a clock
// or knows the event queue.
//
// Cost follows batches, not partitions: the partitions with batches are kept in a bitset
// (by partition id for ready(), by position on their leader for drain()), the deque heads
// in a min-heap by creation time for expiry, and the adaptive partitioner's queue-size
// table is built from the last ready() pass only when the partitioner draws.

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <memory_resource>
#include <optional>
#include <span>
#include <vector>

#include <boost/dynamic_bitset.hpp>

#include "model/partitioners/builtin_partitioner.hpp"
#include "model/producer/buffer_pool.hpp"
#include "model/producer/detail/count_map.hpp"
#include "model/producer/detail/min_tree.hpp"
#include "model/producer/detail/node_bits.hpp"
#include "model/producer/detail/ring_queue.hpp"
#include "model/producer/producer_batch.hpp"
#include "model/producer/producer_metadata.hpp"
#include "model/scenario.hpp"
#include "sim/prefetch.hpp"

namespace partsim::model {

inline constexpr SimTime kNever = SimTime::max();

/// The accumulator's settings: the producer's config as Kafka passes it in.
struct AccumulatorConfig {
  std::int32_t batch_size_bytes = 16384;           ///< batch.size (also the sticky batch size)
  SimTime linger = SimTime::ms(5);                 ///< linger.ms
  SimTime delivery_timeout = SimTime::ms(120000);  ///< delivery.timeout.ms
  std::int64_t buffer_memory_bytes = 33554432;     ///< buffer.memory
  bool compressed = false;                         ///< compression.type != none
  double compression_ratio = 0.5;                  ///< partsim: the ratio a codec achieves
  /// partitioner.adaptive.partitioning.enable, and no partitioner object (KP:427-429).
  bool adaptive = true;
  SimTime availability_timeout = SimTime::zero();  ///< partitioner.availability.timeout.ms
  bool align_batches = true;                       ///< partsim.sticky.align-batches (KAFKA-14156)
  bool guarantee_order = false;                    ///< max.in.flight.requests.per.connection == 1
  bool idempotent = false;                         ///< enable.idempotence in effect: sequences at drain
  /// A batch that expires in flight keeps its memory until its request completes
  /// (KAFKA-19012, java::expired_batch_keeps_memory); false: freed at expiry.
  bool expired_keeps_memory = true;
  /// Some records reach append() without a partition, so the built-in partitioner draws.
  /// When none do, the adaptive table is never read and ready() need not visit every
  /// partition with batches: it asks a per-node index instead.
  bool sticky_records = true;
  /// Another client's send path (ClientProfileConfig): a batch closes at this many records
  /// (0: no limit), and a request carries one partition's batch.
  std::int32_t batch_records = 0;
  bool one_batch_per_request = false;

  /// From the producer's config; `partitioner_object` = a partitioner.class is set;
  /// `sticky_records` as above.
  static AccumulatorConfig from(const ProducerConfig& c, bool partitioner_object, bool sticky_records);
};

/// What append() was asked to add.
struct AppendRequest {
  std::int32_t partition = -1;  ///< -1: the built-in partitioner chooses (UNKNOWN_PARTITION)
  RecordShape shape;
  std::int32_t payload_part = -1;   ///< shape.payload_part() when the caller knows it (-1: append computes it)
  SimTime intended;                 ///< when the application meant to send it (latency)
  bool abort_on_new_batch = false;  ///< a partitioner object is set (KP:1068)
  std::int32_t reserved_bytes = 0;  ///< memory already granted for a new batch (after waiting)
};

/// RecordAppendResult (RA:1177-1194) and what else append() decided.
struct AppendResult {
  enum class Status {
    kAppended,
    kAbortForNewBatch,  ///< needs a new batch and a partitioner object asked to be called again
    kWaitForMemory,     ///< needs a new batch and buffer.memory is exhausted: the pool now has a waiter
    kOverMemoryLimit,   ///< a new batch would be larger than buffer.memory (IllegalArgumentException)
  } status = Status::kAppended;
  std::int32_t partition = -1;      ///< the effective partition (AppendCallbacks.setPartition)
  bool batch_is_full = false;       ///< dq.size() > 1 || last batch full: wake the sender
  bool new_batch_created = false;   ///< wake the sender
  std::int32_t appended_bytes = 0;  ///< what the sticky partitioner was charged (spec §3.3)
  std::int32_t record_bytes = 0;    ///< the record's exact size in the batch
  std::int32_t need_bytes = 0;      ///< the new batch's buffer: max(batch.size, upper bound)
  BatchId batch = kNoBatch;         ///< kAppended: the batch that took the record
};

/// The batches that requests in flight carry: the sender's. The idempotent producer's count
/// of a partition's batches in flight (RA:858-864) is read from them when a retry needs it,
/// not kept per partition at every drain and response: in a fleet of producers over many
/// partitions that count was a cache miss at both.
class RequestedBatches {
public:
  virtual ~RequestedBatches() = default;
  /// Calls `visit` with every batch a request in flight may still carry. A batch whose
  /// `in_request` is false has left its request already (a response being worked through).
  virtual void visit_requested(const std::function<void(BatchId)>& visit) const = 0;
};

/// ReadyCheckResult (RA:1196-1206).
struct ReadyCheckResult {
  /// Ascending; a view into the accumulator, valid until its next ready().
  std::span<const std::size_t> ready_nodes;
  SimTime next_ready_check_delay = kNever;
  /// The delay leaves out the partitions of the ready nodes (the indexed pass): when the
  /// sender sends nothing it asks ready_nodes_check_delay() for them.
  bool delay_excludes_ready_nodes = false;
};

class RecordAccumulator {
public:
  /// `draw` gives the built-in partitioner its random ints (spec §2.1); `arena` holds the
  /// batches (shared by a run's producers; a new one when null); `memory` the per-partition
  /// state and the ready index.
  RecordAccumulator(const AccumulatorConfig& config, std::int32_t num_partitions, std::size_t num_nodes,
                    PartitionDraw draw, std::shared_ptr<BatchArena> arena = nullptr,
                    std::pmr::memory_resource* memory = std::pmr::new_delete_resource());

  /// append (spec §3.2): the record goes into the last batch of its partition or a new one.
  AppendResult append(const AppendRequest& request, SimTime now, const ProducerMetadata& metadata);

  /// ready (spec §3.6): the nodes with a sendable partition, and when to look again. Also
  /// the pass whose queue sizes the adaptive partitioner uses (spec §2.5). `closing`: the
  /// producer is closing (flush: everything is sendable).
  void ready(const ProducerMetadata& metadata, SimTime now, bool closing, ReadyCheckResult& out);
  ReadyCheckResult ready(const ProducerMetadata& metadata, SimTime now, bool closing) {
    ReadyCheckResult r;
    ready(metadata, now, closing, r);
    return r;
  }

  /// Kafka's ready() lets a ready node's partitions shorten the delay only up to its first
  /// ready partition (batchReady is skipped once the node is ready). The indexed pass
  /// leaves them out; this adds them, for the state of the pass (call it before anything
  /// changes the deques).
  SimTime ready_nodes_check_delay(const ProducerMetadata& metadata, SimTime now,
                                  std::span<const std::size_t> ready_nodes);

  /// A batch was just created for `partition`, not full, and the last pass was quiet
  /// (Sender::quiet): the earliest time a pass would first find something new because of
  /// it, or nothing when the index cannot tell (a pass must run to know). That is when it
  /// expires, or earlier the time it turns ready (last attempt + linger.ms) when its node
  /// is not ready or is ready from a later position on (ready() would count it in the
  /// delay); a node ready from an earlier position never looks at it (batchReady is
  /// skipped, RA:720).
  std::optional<SimTime> new_batch_wake(std::int32_t partition, SimTime now) const;

  /// updateNodeLatencyStats (spec §3.7): called by the sender for every ready node.
  void update_node_latency(std::size_t node, SimTime now, bool can_send);

  /// drain for one node (spec §3.8): the first batch of each of its partitions from the
  /// rotating start, up to max_request_size (the first always), closed and built.
  void drain(const ProducerMetadata& metadata, std::size_t node, SimTime now, std::int32_t max_request_size,
             std::vector<BatchId>& out);

  /// expiredBatches (spec §3.9): batches past delivery.timeout.ms, taken from the deque heads,
  /// in partition order.
  void expired_batches(SimTime now, std::vector<BatchId>& out);
  /// When the oldest batch still in a deque expires (kNever: none).
  SimTime next_expiry();
  /// A time no queued batch expires before (cheap; next_expiry() is exact).
  SimTime expiry_floor() const { return oldest_floor_ == kNever ? kNever : oldest_floor_ + config_.delivery_timeout; }

  /// reenqueue (spec §3.9): attempts + 1, back at the head in creation order; `backoff` is
  /// this attempt's retry backoff.
  void reenqueue(BatchId id, SimTime now, SimTime backoff);

  /// A request that carried the batch is over (answered or dropped). False when the batch
  /// is already done (it expired in flight): its slot is free now. An idempotent
  /// partition's retried batch waiting for its in-flight batches may go once none is left.
  bool leave_request(BatchId id);
  /// True once after a leave_request returned an expired batch's memory and that let the
  /// send() waiting for memory go on (KAFKA-19012).
  bool take_memory_returned() {
    const bool r = memory_returned_;
    memory_returned_ = false;
    return r;
  }
  /// The idempotent producer's batches of `partition` in requests (sent, not yet back),
  /// counted over what `requests` lists (none before set_requests). A batch drain() just
  /// took is not in a request until the sender sends it.
  std::int32_t sequenced_in_flight(std::int32_t partition) const;
  /// Where the batches in requests are listed (the sender, which outlives no accumulator).
  void set_requests(const RequestedBatches* requests) { requests_ = requests; }
  /// The batch is done (acknowledged or failed): unmute its partition, free its slot unless
  /// a request still refers to it, and return its memory. True when that memory went to
  /// the waiting send, which must now call append again with reserved_bytes = its need.
  bool release(BatchId id);

  /// The waiting send gave up (max.block.ms).
  void cancel_memory_wait() { pool_.cancel_wait(); }

  /// Before the metadata changes: fixes the adaptive table of the last pass, which was
  /// taken against the old leaders. After: re-indexes the partitions by their leaders.
  void before_metadata_update(const ProducerMetadata& metadata);
  void after_metadata_update(const ProducerMetadata& metadata);
  /// The topic has `num_partitions` now (more than before): the new partitions get their
  /// state, as yet without a deque (call before after_metadata_update).
  void grow(std::int32_t num_partitions);

  void mute(std::int32_t partition) {
    parts_[static_cast<std::size_t>(partition)].muted = true;
    reindex(partition);
  }
  void unmute(std::int32_t partition) {
    parts_[static_cast<std::size_t>(partition)].muted = false;
    reindex(partition);
  }
  bool muted(std::int32_t partition) const { return parts_[static_cast<std::size_t>(partition)].muted; }

  /// A hint: a record for `partition` will be appended soon.
  void prefetch_partition(std::int32_t partition) const {
    if (partition < 0 || partition >= num_partitions_) return;
    sim::prefetch_object(&parts_[static_cast<std::size_t>(partition)]);  // it may end on the next line
  }
  /// A hint: batch `id` will be read soon.
  void prefetch_batch(BatchId id) const { sim::prefetch(&batches_[id]); }
  ProducerBatch& batch(BatchId id) { return batches_[id]; }
  const ProducerBatch& batch(BatchId id) const { return batches_[id]; }
  /// Where the batches are, with what they keep beside their slots (send times, tags, retries).
  BatchArena& batches() { return batches_; }
  const BatchArena& batches() const { return batches_; }
  /// The batches in `partition`'s deque, head first.
  std::vector<BatchId> deque(std::int32_t partition) const;
  std::int32_t deque_size(std::int32_t partition) const { return queue_of(partition).size; }
  /// Some partition the metadata knows has batches waiting.
  bool has_batches() const { return nonempty_.any(); }
  std::int32_t num_partitions() const { return num_partitions_; }
  std::int32_t deques_created() const { return deques_created_; }

  /// KIP-1123: `node_in_rack[n]` says whether node n is in the producer's client.rack; the
  /// built-in partitioner then prefers partitions led there (kept up with every metadata
  /// update). Empty: not rack-aware.
  void use_rack(std::vector<char> node_in_rack, const ProducerMetadata& metadata) {
    node_in_rack_ = std::move(node_in_rack);
    after_metadata_update(metadata);
  }
  BuiltInPartitioner& partitioner() { return partitioner_; }
  const BuiltInPartitioner& partitioner() const { return partitioner_; }
  const BufferPool& pool() const { return pool_; }

  /// The adaptive cross-check (spec §2.5), kept apart from the partitioner's own table: per
  /// partition, the choices drawn in adaptive mode, and the sum of the probabilities that
  /// the queue sizes of the pass behind each draw give it (weight max + 1 - queue size).
  const std::vector<std::int64_t>& adaptive_choices() const { return adaptive_choices_; }
  const std::vector<double>& adaptive_expected() const { return adaptive_expected_; }

private:
  struct NodeLatency {  // spec §3.7
    bool exists = false;
    SimTime ready_time, drain_time;
  };
  struct ExpiryEntry {  // a batch in a deque, for expiry; counts while the batch is still queued
    SimTime created;
    std::int32_t partition;
    BatchId id;
    std::uint64_t sequence;
    std::uint64_t tag;  // of its stay in the deque (BatchArena::queued)
    bool operator>(const ExpiryEntry& o) const {
      return created != o.created ? created > o.created : sequence > o.sequence;
    }
  };
  bool still_queued(const ExpiryEntry& e) const { return batches_.queued_as(e.id, e.tag); }

  BatchQueue& queue_of(std::int32_t partition);
  const BatchQueue& queue_of(std::int32_t partition) const;
  bool all_batches_full(const BatchQueue& q) const { return q.empty() || batches_[q.tail].is_full(); }
  BatchId new_batch();
  void push_back(std::int32_t partition, BatchId id);
  BatchId pop_front(std::int32_t partition);
  void became_nonempty(std::int32_t partition);
  void became_empty(std::int32_t partition);
  // The ready index: re-files `partition` after anything that changes when it turns ready.
  void reindex(std::int32_t partition);
  void rebuild_ready_index();
  void scan_ready(const ProducerMetadata& metadata, SimTime now, bool closing, bool exhausted, ReadyCheckResult& r);
  void indexed_ready(SimTime now, ReadyCheckResult& r);
  // batchReady's verdict for a partition with batches (RA:625-649): ready, or the delay.
  bool partition_ready(const BatchQueue& q, SimTime now, bool exhausted, bool closing, SimTime& delay) const;
  void close(ProducerBatch& b);
  // The built-in partitioner, with the load table of the last pass in place before a draw.
  std::int32_t sticky_partition(const ProducerMetadata& metadata);
  bool update_sticky(std::int32_t appended, bool enable_switch, const ProducerMetadata& metadata);
  void materialize_load_stats();
  void note_draw();

  AccumulatorConfig config_;
  std::int32_t num_partitions_;
  BuiltInPartitioner partitioner_;
  BufferPool pool_;
  bool memory_returned_ = false;    // see take_memory_returned
  std::vector<char> node_in_rack_;  // KIP-1123 (use_rack)
  float ratio_estimate_ = 1.0f;     // CompressionRatioEstimator (spec §5.3), this topic and codec

  std::shared_ptr<BatchArena> arena_;
  BatchArena& batches_;  // *arena_
  std::uint64_t next_sequence_ = 0;
  static constexpr std::uint64_t kNotCreated = UINT64_MAX;
  // What the accumulator keeps per partition, together: a pass or an append touches one
  // cache line of it.
  struct PartitionState {
    BatchQueue queue;
    std::int32_t leader = -1;                    // as the indexed metadata says
    std::int32_t drain_position = -1;            // in partitions_for_node(leader)
    std::uint32_t tree_position = 0;             // in its leader's ready tree
    SimTime ready_key = detail::MinTree::kNone;  // its entry in its leader's ready tree
    bool muted = false;
    bool created = false;            // its deque exists (RA:733: created on first use, never removed)
    bool backoff_key = false;        // its tree time is the end of a backoff, not its ready time
    bool sequence_wait = false;      // waits until its batches in requests are back (wait_in_flight_), muted
                                     // meanwhile (guarantee_order's release may unmute it earlier)
    std::int32_t next_sequence = 0;  // the idempotent producer's next sequence (RA:920-941)
  };
  // Idempotence (RA:858-864): a batch that already has a sequence (a retry) is drained only
  // when it is the first in flight of its partition; partsim waits until none is in flight,
  // muting the partition meanwhile so that ready() does not report it. `in_flight` > 0: the
  // partition's batches in requests now, and the one drain() is handing the sender.
  void hold_for_sequence(std::int32_t partition, std::int32_t in_flight);
  // Whether a retried batch at the head of `partition` must wait for batches in flight.
  bool sequence_blocked(std::int32_t partition, const PartitionState& ps) const;
  const RequestedBatches* requests_ = nullptr;
  // Per partition that waits (sequence_wait), its batches still in requests; and how many
  // partitions wait. Kept only while they wait: a count per partition at every drain and
  // response is what this saves.
  detail::CountMap wait_in_flight_;
  std::int32_t sequence_waits_ = 0;
  std::pmr::vector<PartitionState> parts_;
  // Deques of partitions the metadata does not know (a partitioner answered too large):
  // never drained, their batches expire (spec §1.4).
  std::map<std::int32_t, BatchQueue> limbo_;
  std::vector<std::uint32_t> drain_index_;
  std::vector<NodeLatency> node_latency_;

  // The ready index: partitions with batches, by id; and by position on their leader.
  boost::dynamic_bitset<> nonempty_;
  detail::NodeBits drainable_;
  const ProducerMetadata* indexed_ = nullptr;  // the metadata drainable_ follows
  // Queued batches by creation time, for expiry: the oldest batch of a deque is its head
  // (retried batches go back to the head), so the oldest queued batch expires first.
  // Batches are created in time order (a FIFO), re-enqueued ones are older (a heap).
  // Entries of batches drained since are dropped when they come up.
  detail::RingQueue<ExpiryEntry> by_creation_;
  std::vector<ExpiryEntry> retried_;
  SimTime oldest_floor_ = kNever;  // no queued batch was created before this
  // Per node, over its partitions in partition order, when each may next turn ready (the
  // end of its backoff, else its ready time; none without batches or when muted). Kept
  // when !sticky_records.
  bool use_index_ = false;
  std::pmr::vector<detail::MinTree> ready_index_;
  std::pmr::vector<std::pmr::vector<std::int32_t>> node_partitions_;  // per node, ascending
  // Per node, what its tree said at the last look, valid until the tree changes or the
  // time reaches `until`: ready from position `first` on (until = the earliest time before
  // it, which could move `first`), or not ready (until = its earliest time).
  struct NodeReadiness {
    bool valid = false;
    bool ready = false;
    std::size_t first = 0;
    SimTime until = kNever;
  };
  std::pmr::vector<NodeReadiness> readiness_;
  // Over all nodes, kept as verdicts change: the ready ones (ascending), the earliest time
  // a non-ready one may turn ready, the earliest `until` of the ready ones, and when some
  // verdict runs out.
  std::vector<std::size_t> stale_nodes_;
  bool aggregate_stale_ = true;          // a verdict's `until` changed without a new judgement
  std::vector<std::size_t> ready_list_;  // also what scan_ready found
  SimTime not_ready_until_ = kNever, ready_until_ = kNever, recheck_at_ = kNever;
  void invalidate(std::size_t node) {
    if (!readiness_[node].valid) return;
    readiness_[node].valid = false;
    stale_nodes_.push_back(node);
  }
  void judge(std::size_t node, SimTime now);
  // Partitions whose tree key is the end of a backoff (PartitionState::backoff_key).
  std::int32_t backoff_keys_ = 0;
  void set_backoff_key(PartitionState& ps, bool on) {
    backoff_keys_ += static_cast<std::int32_t>(on) - static_cast<std::int32_t>(ps.backoff_key);
    ps.backoff_key = on;
  }

  // An append filled the only batch of a deque since the last ready() (new_batch_wake).
  bool full_since_pass_ = false;

  // Per partition, the pass number when its deque was created, kNotCreated before; kept
  // only where the adaptive table is (it leaves out deques created after the pass).
  std::vector<std::uint64_t> created_pass_;
  // Deques are created on first use and never removed (RA:733).
  std::int32_t deques_created_ = 0;

  // The last ready() pass as the adaptive table needs it (spec §2.5, RA:665-762).
  std::uint64_t pass_ = 0;
  bool stats_pending_ = false;
  const ProducerMetadata* stats_metadata_ = nullptr;
  std::int32_t pass_deques_created_ = 0;
  std::vector<std::pair<std::int32_t, std::int32_t>> pass_sizes_;  // (partition, deque size), ascending
  std::vector<char> pass_excluded_;                                // per node: availability timeout
  std::vector<std::int32_t> table_sizes_, table_ids_;
  std::int32_t table_length_ = 0;
  std::vector<char> ready_scratch_;
  std::vector<std::int32_t> expired_partitions_;
  std::vector<std::size_t> drain_positions_;
  std::vector<std::int64_t> adaptive_choices_;
  std::vector<double> adaptive_expected_;
  bool pass_flushes_ = false;  // the last ready() pass was closing or had memory exhausted
};

}  // namespace partsim::model
