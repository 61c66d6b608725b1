#include "model/producer/record_accumulator.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "sim/check.hpp"

namespace partsim::model {

AccumulatorConfig AccumulatorConfig::from(const ProducerConfig& c, bool partitioner_object, bool sticky_records) {
  AccumulatorConfig a;
  a.batch_size_bytes = c.batch_size_bytes;
  a.linger = c.linger;
  a.delivery_timeout = c.delivery_timeout;
  a.buffer_memory_bytes = c.buffer_memory_bytes;
  a.compressed = c.compression != Compression::kNone;
  a.compression_ratio = c.compression_ratio;
  a.adaptive = c.adaptive && !partitioner_object;
  a.availability_timeout = c.availability_timeout;
  a.align_batches = c.align_batches;
  a.guarantee_order = c.max_in_flight == 1;
  a.idempotent = c.idempotence;
  a.expired_keeps_memory = java::expired_batch_keeps_memory(c.client);
  a.sticky_records = sticky_records;
  a.batch_records = c.profile.batch_records;
  a.one_batch_per_request = c.profile.one_partition_per_request;
  return a;
}

RecordAccumulator::RecordAccumulator(const AccumulatorConfig& config, std::int32_t num_partitions,
                                     std::size_t num_nodes, PartitionDraw draw, std::shared_ptr<BatchArena> arena,
                                     std::pmr::memory_resource* memory)
    : config_(config),
      num_partitions_(num_partitions),
      partitioner_(config.batch_size_bytes, std::move(draw)),
      pool_(config.buffer_memory_bytes),
      arena_(arena ? std::move(arena) : std::make_shared<BatchArena>()),
      batches_(*arena_),
      parts_(static_cast<std::size_t>(num_partitions), memory),
      drain_index_(num_nodes, 0),
      node_latency_(num_nodes),
      nonempty_(static_cast<std::size_t>(num_partitions)),
      use_index_(!(config.adaptive && config.sticky_records)),
      ready_index_(memory),
      node_partitions_(num_nodes, memory),
      readiness_(num_nodes, memory),
      created_pass_(config.adaptive && config.sticky_records ? static_cast<std::size_t>(num_partitions) : 0,
                    kNotCreated),
      pass_excluded_(num_nodes, 0),
      ready_scratch_(num_nodes, 0) {
  ready_index_.reserve(num_nodes);
  for (std::size_t node = 0; node < num_nodes; ++node)
    ready_index_.emplace_back(memory);  // each with its own groups there
}

// ---- deques ------------------------------------------------------------------------------------

BatchQueue& RecordAccumulator::queue_of(std::int32_t partition) {
  if (partition < num_partitions_) return parts_[static_cast<std::size_t>(partition)].queue;
  return limbo_[partition];
}

const BatchQueue& RecordAccumulator::queue_of(std::int32_t partition) const {
  if (partition < num_partitions_) return parts_[static_cast<std::size_t>(partition)].queue;
  static const BatchQueue kEmpty;
  const auto it = limbo_.find(partition);
  return it == limbo_.end() ? kEmpty : it->second;
}

std::vector<BatchId> RecordAccumulator::deque(std::int32_t partition) const {
  std::vector<BatchId> ids;
  for (BatchId id = queue_of(partition).head; id != kNoBatch; id = batches_[id].next) ids.push_back(id);
  return ids;
}

BatchId RecordAccumulator::new_batch() { return batches_.allocate(); }

void RecordAccumulator::push_back(std::int32_t partition, BatchId id) {
  BatchQueue& q = queue_of(partition);
  ProducerBatch& b = batches_[id];
  b.next = kNoBatch;
  b.queued = true;
  // Entries of batches drained since go stale; pruned when the ring fills, so it holds the
  // batches alive rather than every batch the run created.
  by_creation_.push_back_pruning(ExpiryEntry{b.created, partition, id, b.sequence, batches_.queued(id)},
                                 [this](const ExpiryEntry& e) { return still_queued(e); });
  oldest_floor_ = std::min(oldest_floor_, b.created);
  if (q.empty()) {
    q.head = q.tail = id;
  } else {
    batches_[q.tail].next = id;
    q.tail = id;
  }
  if (++q.size == 1) became_nonempty(partition);
  reindex(partition);
}

BatchId RecordAccumulator::pop_front(std::int32_t partition) {
  BatchQueue& q = queue_of(partition);
  const BatchId id = q.head;
  q.head = batches_[id].next;
  batches_[id].next = kNoBatch;
  batches_[id].queued = false;
  batches_.unqueued(id);
  if (--q.size == 0) {
    q.tail = kNoBatch;
    became_empty(partition);
  }
  reindex(partition);
  return id;
}

void RecordAccumulator::became_nonempty(std::int32_t partition) {
  if (partition >= num_partitions_) return;
  nonempty_.set(static_cast<std::size_t>(partition));
  const PartitionState& ps = parts_[static_cast<std::size_t>(partition)];
  if (ps.leader >= 0) drainable_.set(static_cast<std::size_t>(ps.leader), static_cast<std::size_t>(ps.drain_position));
}

void RecordAccumulator::became_empty(std::int32_t partition) {
  if (partition >= num_partitions_) {
    limbo_.erase(partition);
    return;
  }
  nonempty_.reset(static_cast<std::size_t>(partition));
  const PartitionState& ps = parts_[static_cast<std::size_t>(partition)];
  if (ps.leader >= 0)
    drainable_.reset(static_cast<std::size_t>(ps.leader), static_cast<std::size_t>(ps.drain_position));
}

void RecordAccumulator::grow(std::int32_t num_partitions) {
  if (num_partitions <= num_partitions_) return;
  const std::int32_t old = num_partitions_;
  num_partitions_ = num_partitions;
  parts_.resize(static_cast<std::size_t>(num_partitions));
  if (!created_pass_.empty()) created_pass_.resize(static_cast<std::size_t>(num_partitions), kNotCreated);
  nonempty_.resize(static_cast<std::size_t>(num_partitions));
  // Batches filed under a partition the metadata did not list (limbo) join its state.
  for (auto it = limbo_.lower_bound(old); it != limbo_.end() && it->first < num_partitions; it = limbo_.erase(it)) {
    parts_[static_cast<std::size_t>(it->first)].queue = it->second;
    if (!it->second.empty()) nonempty_.set(static_cast<std::size_t>(it->first));
  }
}

void RecordAccumulator::after_metadata_update(const ProducerMetadata& metadata) {
  indexed_ = &metadata;
  for (std::int32_t p = 0; p < num_partitions_; ++p) {
    PartitionState& ps = parts_[static_cast<std::size_t>(p)];
    ps.leader = metadata.leader(p);
    ps.drain_position = metadata.position_on_node(p);
  }
  std::vector<std::size_t> sizes(node_latency_.size());
  for (std::size_t node = 0; node < sizes.size(); ++node) sizes[node] = metadata.partitions_for_node(node).size();
  drainable_.reset(sizes);
  for (auto p = nonempty_.find_first(); p != boost::dynamic_bitset<>::npos; p = nonempty_.find_next(p))
    became_nonempty(static_cast<std::int32_t>(p));
  rebuild_ready_index();
  if (!node_in_rack_.empty()) {
    std::vector<char> in_rack(static_cast<std::size_t>(num_partitions_), 0);
    for (std::int32_t p = 0; p < num_partitions_; ++p) {
      const std::int32_t leader = metadata.leader(p);
      in_rack[static_cast<std::size_t>(p)] = leader >= 0 && node_in_rack_[static_cast<std::size_t>(leader)];
    }
    partitioner_.set_rack(std::move(in_rack));
  }
}

// ---- append (spec §3.2) --------------------------------------------------------------------------

AppendResult RecordAccumulator::append(const AppendRequest& request, SimTime now, const ProducerMetadata& metadata) {
  AppendResult result;
  std::int32_t reserved = request.reserved_bytes;
  const std::int32_t payload = request.payload_part >= 0 ? request.payload_part : request.shape.payload_part();
  result.need_bytes = std::max(config_.batch_size_bytes, batch_size_upper_bound(payload));
  const bool sticky = request.partition < 0;
  for (;;) {
    const std::int32_t eff = sticky ? sticky_partition(metadata) : request.partition;
    result.partition = eff;
    if (eff < num_partitions_ && !parts_[static_cast<std::size_t>(eff)].created) {
      parts_[static_cast<std::size_t>(eff)].created = true;
      if (!created_pass_.empty()) created_pass_[static_cast<std::size_t>(eff)] = pass_;
      ++deques_created_;
    }
    BatchQueue& q = queue_of(eff);
    ProducerBatch* tail = q.empty() ? nullptr : &batches_[q.tail];
    bool tail_full = tail && tail->is_full();  // allBatchesFull (RA:433) = !tail || tail_full
    // partitionChanged (RA:241-264): a deferred switch completes once the last batch is
    // full or gone (spec §3.4), and the append starts over on the new partition.
    if (sticky && (!tail || tail_full) && update_sticky(0, true, metadata)) continue;
    bool appended = false;
    if (tail) {
      appended = tail->try_append(payload, tail_full, now, result.appended_bytes, result.record_bytes);
      if (appended) {
        batches_.add_later_send_time(q.tail, *tail, request.intended);  // the tail had a record
        if (config_.batch_records > 0 && tail->records >= config_.batch_records) tail->closed = true;
      }
      const bool now_full = tail->is_full();
      if (now_full != tail_full && q.size == 1) {
        reindex(eff);  // the deque's readiness changed
        // Sendable now; the sender is woken only if the result says so (not after an
        // abort for a new batch, nor when the record goes to another partition).
        full_since_pass_ = true;
      }
      tail_full = now_full;
    }
    if (!appended) {
      if (request.abort_on_new_batch) {
        // abortForNewBatch (RA:341-344): before allocating; KafkaProducer calls onNewBatch
        // and partition() again (spec §1.2 step 9).
        if (reserved > 0) pool_.deallocate(reserved);
        result.status = AppendResult::Status::kAbortForNewBatch;
        return result;
      }
      if (reserved == 0) {
        switch (pool_.allocate(result.need_bytes)) {
          case BufferPool::Allocation::kOverLimit:
            result.status = AppendResult::Status::kOverMemoryLimit;
            return result;
          case BufferPool::Allocation::kWait: result.status = AppendResult::Status::kWaitForMemory; return result;
          case BufferPool::Allocation::kGranted:
            reserved = result.need_bytes;
            continue;  // re-checks partitionChanged (RA:360)
        }
      }
      // appendNewBatch (RA:393-420).
      const BatchId id = new_batch();
      ProducerBatch& b = batches_[id];
      b.partition = eff;
      b.sequence = next_sequence_++;
      b.created = now;
      b.capacity = reserved;
      b.ratio_estimate = ratio_estimate_;
      b.compressed = config_.compressed;
      reserved = 0;
      b.try_append(payload, false, now, result.appended_bytes, result.record_bytes);
      b.first_send_time = request.intended;
      if (config_.batch_records > 0 && b.records >= config_.batch_records) b.closed = true;  // a cap of one record
      result.appended_bytes = b.estimated_bytes();  // a new batch charges its whole estimate (spec §3.3)
      push_back(eff, id);
      result.new_batch_created = true;
      tail_full = b.is_full();
    }
    if (reserved > 0) pool_.deallocate(reserved);  // the buffer a racing append made unnecessary
    if (sticky) {
      // Without the batch-boundary rule (partsim.sticky.align-batches: false, the first
      // KIP-794 code before KAFKA-14156) the switch happens at batch.size bytes, mid-batch.
      const bool enable_switch = !config_.align_batches || tail_full;
      update_sticky(result.appended_bytes, enable_switch, metadata);
    }
    result.batch_is_full = q.size > 1 || tail_full;
    result.batch = q.tail;
    return result;
  }
}

// ---- drain (spec §3.8) ---------------------------------------------------------------------------

void RecordAccumulator::close(ProducerBatch& b) {
  // ProducerBatch.close at drain: the final bytes, and the compression estimate update
  // (spec §5.3): up by at least 0.05 when worse, down by at most 0.005 when better.
  b.closed = true;
  b.built = true;
  if (!config_.compressed) {
    b.built_bytes = kBatchHeaderBytes + static_cast<std::int32_t>(b.record_bytes);
    return;
  }
  const double compressed = std::round(static_cast<double>(b.record_bytes) * config_.compression_ratio);
  b.built_bytes = kBatchHeaderBytes + static_cast<std::int32_t>(compressed);
  const auto observed = static_cast<float>(static_cast<double>(b.built_bytes) / static_cast<double>(b.record_bytes));
  if (observed > ratio_estimate_) ratio_estimate_ = std::max(ratio_estimate_ + 0.05f, observed);
  else if (observed < ratio_estimate_) ratio_estimate_ = std::max(ratio_estimate_ - 0.005f, observed);
}

void RecordAccumulator::drain(const ProducerMetadata& metadata, std::size_t node, SimTime now,
                              std::int32_t max_request_size, std::vector<BatchId>& out) {
  out.clear();
  const auto parts = metadata.partitions_for_node(node);
  if (parts.empty()) return;
  PARTSIM_CHECK(indexed_ == &metadata, "drain() with metadata the accumulator was not told about");
  const auto n = parts.size();
  const std::size_t start = drain_index_[node] % n;
  // The loop visits every position once from `start`, wrapping, and remembers the last one
  // it examined: one before `start` when it went all the way round, or the partition whose
  // batch did not fit. Positions without batches are skipped by the bitset, which changes
  // nothing but the cost.
  std::size_t last = (start + n - 1) % n;

  std::int64_t size = 0;
  auto visit = [&](std::size_t i) {  // false: stop draining this node
    const std::int32_t part = parts[i];
    if (parts_[static_cast<std::size_t>(part)].muted) return true;
    BatchQueue& q = parts_[static_cast<std::size_t>(part)].queue;
    ProducerBatch& first = batches_[q.head];
    const RetryState r = batches_.retry(q.head, first);
    if (r.attempts > 0 && now - r.last_attempt < r.backoff) return true;  // backing off
    PartitionState& ps = parts_[static_cast<std::size_t>(part)];
    if (config_.idempotent && first.base_sequence >= 0 && sequence_blocked(part, ps)) return true;  // RA:858-864
    // A client that sends each partition's batch on its own (one partition per request) sends
    // it when that partition is ready, not whenever its node is.
    SimTime unused = kNever;
    if (config_.one_batch_per_request && !partition_ready(q, now, pass_flushes_, pass_flushes_, unused)) return true;
    if (!out.empty() && (config_.one_batch_per_request || size + first.estimated_bytes() > max_request_size)) {
      last = i;
      return false;
    }
    const BatchId id = pop_front(part);
    ProducerBatch& b = batches_[id];
    close(b);
    batches_.set_sent(id, now);
    size += b.built_bytes;
    out.push_back(id);
    if (config_.guarantee_order) mute(part);
    if (config_.idempotent) {
      // The sequence is assigned at the first drain: batch.baseSequence = next; next +=
      // recordCount (RA:920-941). A retry keeps its own.
      if (b.base_sequence < 0) {
        b.base_sequence = ps.next_sequence;
        ps.next_sequence =
            static_cast<std::int32_t>((std::int64_t{ps.next_sequence} + b.records) % (std::int64_t{INT32_MAX} + 1));
      }
      if (ps.sequence_wait) wait_in_flight_.add(part, 1);  // a waiting partition unmuted by guarantee_order
      // The next retry waits for this batch (about to join a request) and any before it.
      if (!ps.sequence_wait && !q.empty() && batches_[q.head].base_sequence >= 0)
        hold_for_sequence(part, sequenced_in_flight(part) + 1);
    }
    return true;
  };
  // The positions with batches, in visiting order. Speed: their partition states and first
  // batches are asked for ahead of the visit (they are seldom in cache: a drain comes a
  // linger or a request's round trip after the appends).
  drain_positions_.clear();
  for (auto i = drainable_.find_from(node, start); i != detail::NodeBits::npos; i = drainable_.find_from(node, i + 1))
    drain_positions_.push_back(i);
  for (auto i = drainable_.find_from(node, 0); i != detail::NodeBits::npos && i < start;
       i = drainable_.find_from(node, i + 1))
    drain_positions_.push_back(i);
  for (const std::size_t i : drain_positions_) sim::prefetch(&parts_[static_cast<std::size_t>(parts[i])]);
  for (const std::size_t i : drain_positions_) {
    const PartitionState& ps = parts_[static_cast<std::size_t>(parts[i])];
    sim::prefetch(&batches_[ps.queue.head]);
    if (use_index_) ready_index_[node].prefetch(ps.tree_position);  // the drain re-files it
  }
  for (const std::size_t i : drain_positions_)
    if (!visit(i)) break;
  drain_index_[node] = static_cast<std::uint32_t>(last);
}

// ---- expiry and retries (spec §3.9) --------------------------------------------------------------

void RecordAccumulator::expired_batches(SimTime now, std::vector<BatchId>& out) {
  out.clear();
  if (oldest_floor_ == kNever || now - oldest_floor_ < config_.delivery_timeout) return;  // nothing is that old
  std::vector<std::int32_t>& partitions = expired_partitions_;
  partitions.clear();
  auto expired = [&](const ExpiryEntry& e) { return now - e.created >= config_.delivery_timeout; };
  while (!by_creation_.empty() && (!still_queued(by_creation_.front()) || expired(by_creation_.front()))) {
    if (still_queued(by_creation_.front())) partitions.push_back(by_creation_.front().partition);
    by_creation_.pop_front();
  }
  while (!retried_.empty() && (!still_queued(retried_.front()) || expired(retried_.front()))) {
    if (still_queued(retried_.front())) partitions.push_back(retried_.front().partition);
    std::pop_heap(retried_.begin(), retried_.end(), std::greater<>());
    retried_.pop_back();
  }
  std::sort(partitions.begin(), partitions.end());
  partitions.erase(std::unique(partitions.begin(), partitions.end()), partitions.end());
  for (const std::int32_t part : partitions) {
    // From the head, every batch past the timeout (muted or not), up to the first that is not.
    while (!queue_of(part).empty() && now - batches_[queue_of(part).head].created >= config_.delivery_timeout)
      out.push_back(pop_front(part));
  }
}

SimTime RecordAccumulator::next_expiry() {
  while (!by_creation_.empty() && !still_queued(by_creation_.front())) by_creation_.pop_front();
  while (!retried_.empty() && !still_queued(retried_.front())) {
    std::pop_heap(retried_.begin(), retried_.end(), std::greater<>());
    retried_.pop_back();
  }
  SimTime oldest = kNever;
  if (!by_creation_.empty()) oldest = by_creation_.front().created;
  if (!retried_.empty()) oldest = std::min(oldest, retried_.front().created);
  oldest_floor_ = oldest;
  return oldest == kNever ? kNever : oldest + config_.delivery_timeout;
}

void RecordAccumulator::reenqueue(BatchId id, SimTime now, SimTime backoff) {
  batches_.begin_retry(id, now, backoff);
  ProducerBatch& b = batches_[id];
  // Back at the head, after the retried batches created before it (RA:518-527).
  BatchQueue& q = queue_of(b.partition);
  BatchId prev = kNoBatch;
  BatchId at = q.head;
  while (at != kNoBatch && batches_[at].retried && batches_[at].sequence < b.sequence) {
    prev = at;
    at = batches_[at].next;
  }
  if (prev == kNoBatch) {
    b.next = q.head;
    q.head = id;
    if (q.tail == kNoBatch) q.tail = id;
    if (++q.size == 1) became_nonempty(b.partition);
  } else {
    b.next = at;
    batches_[prev].next = id;
    if (at == kNoBatch) q.tail = id;
    ++q.size;
  }
  b.queued = true;
  const std::uint64_t tag = batches_.queued(id);
  if (config_.idempotent && b.base_sequence >= 0 && b.partition < num_partitions_ &&
      !parts_[static_cast<std::size_t>(b.partition)].sequence_wait) {
    const std::int32_t in_flight = sequenced_in_flight(b.partition);
    if (in_flight > 0) hold_for_sequence(b.partition, in_flight);
  }
  retried_.push_back(ExpiryEntry{b.created, b.partition, id, b.sequence, tag});
  oldest_floor_ = std::min(oldest_floor_, b.created);
  std::push_heap(retried_.begin(), retried_.end(), std::greater<>());
  reindex(b.partition);
}

std::int32_t RecordAccumulator::sequenced_in_flight(std::int32_t partition) const {
  if (!config_.idempotent || requests_ == nullptr) return 0;
  std::int32_t n = 0;
  requests_->visit_requested([&](BatchId id) {
    const ProducerBatch& b = batches_[id];
    n += b.in_request && b.partition == partition && b.base_sequence >= 0;
  });
  return n;
}

bool RecordAccumulator::sequence_blocked(std::int32_t partition, const PartitionState& ps) const {
  // A waiting partition is muted, unless guarantee_order's release unmuted it: its count is
  // kept. Otherwise the requests are looked through (a retried batch, seldom).
  return ps.sequence_wait ? wait_in_flight_.get(partition) > 0 : sequenced_in_flight(partition) > 0;
}

void RecordAccumulator::hold_for_sequence(std::int32_t partition, std::int32_t in_flight) {
  PartitionState& ps = parts_[static_cast<std::size_t>(partition)];
  if (ps.sequence_wait) return;
  ps.sequence_wait = true;
  ++sequence_waits_;
  wait_in_flight_.add(partition, in_flight);
  if (!ps.muted) mute(partition);
}

bool RecordAccumulator::leave_request(BatchId id) {
  ProducerBatch& b = batches_[id];
  b.in_request = false;
  // Only a waiting partition counts its batches in flight: the table is looked at only when
  // some partition waits, and the partition's state (seldom in cache a round trip after the
  // drain) only when the last of its batches comes back.
  if (sequence_waits_ > 0 && config_.idempotent && b.base_sequence >= 0 && b.partition < num_partitions_ &&
      wait_in_flight_.get(b.partition) > 0 && wait_in_flight_.add(b.partition, -1) == 0) {
    PartitionState& ps = parts_[static_cast<std::size_t>(b.partition)];
    ps.sequence_wait = false;
    --sequence_waits_;
    unmute(b.partition);
  }
  if (!b.done) return true;
  // It expired while in flight. From KAFKA-19012 its memory was kept until now.
  const std::int32_t capacity = b.capacity;
  batches_.free(id);
  if (config_.expired_keeps_memory && pool_.deallocate(capacity)) memory_returned_ = true;
  return false;
}

bool RecordAccumulator::release(BatchId id) {
  ProducerBatch& b = batches_[id];
  // Only max.in.flight.requests.per.connection = 1 mutes partitions (guaranteeMessageOrder).
  if (config_.guarantee_order && b.partition < num_partitions_ && muted(b.partition)) unmute(b.partition);
  const std::int32_t capacity = b.capacity;
  if (!b.in_request) batches_.free(id);
  // In flight (expired there): from KAFKA-19012 the memory waits for the request's end
  // (leave_request); before, it was freed at expiry while the request still used it.
  else if (config_.expired_keeps_memory) return false;
  return pool_.deallocate(capacity);
}

}  // namespace partsim::model
