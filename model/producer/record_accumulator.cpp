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
  a.sticky_records = sticky_records;
  return a;
}

RecordAccumulator::RecordAccumulator(const AccumulatorConfig& config, std::int32_t num_partitions, std::size_t num_nodes,
                                     PartitionDraw draw, std::shared_ptr<BatchArena> arena, std::pmr::memory_resource* memory)
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
      created_pass_(config.adaptive && config.sticky_records ? static_cast<std::size_t>(num_partitions) : 0, kNotCreated),
      pass_excluded_(num_nodes, 0),
      ready_scratch_(num_nodes, 0) {
  ready_index_.reserve(num_nodes);
  for (std::size_t node = 0; node < num_nodes; ++node) ready_index_.emplace_back(memory);  // each with its own groups there
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
  if (ps.leader >= 0) drainable_.reset(static_cast<std::size_t>(ps.leader), static_cast<std::size_t>(ps.drain_position));
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
}

// ---- the ready index -----------------------------------------------------------------------------
//
// A partition with batches turns ready (batchReady, spec §3.6) at
//   R = max(B, F ? -inf : lastAttempt + linger.ms),  B = lastAttempt + backoff if retried, else -inf,
// where F = the deque holds more than one batch or its first is full. Until B it is backing
// off, and delays the next check to B; from B to R it delays it to R. Each partition is
// filed under its leader at its next threshold (B, else R); a pass looks at each node's
// earliest entry only. Passes where the pool has a waiter or the producer is closing make
// every partition sendable: they walk the partitions instead (scan_ready), as do producers
// whose passes must also record queue sizes for the adaptive table.

void RecordAccumulator::reindex(std::int32_t partition) {
  if (!use_index_ || partition >= num_partitions_) return;
  const std::int32_t leader = parts_[static_cast<std::size_t>(partition)].leader;
  if (leader < 0) return;
  const auto up = static_cast<std::size_t>(partition);
  const BatchQueue& q = parts_[up].queue;
  SimTime key = detail::MinTree::kNone;
  bool backoff_key = false;
  if (!q.empty() && !parts_[up].muted) {
    const ProducerBatch& h = batches_[q.head];
    const bool full = q.size > 1 || h.is_full();
    SimTime ready_at = full ? SimTime::zero() : h.created + config_.linger;
    if (h.retried) {  // its retry state is read only then (seldom in cache)
      const RetryState r = batches_.retry(q.head);
      const SimTime backoff_end = r.last_attempt + r.backoff;
      if (!full) ready_at = r.last_attempt + config_.linger;
      ready_at = std::max(ready_at, backoff_end);
      backoff_key = backoff_end < ready_at;
      if (backoff_key) ready_at = backoff_end;
    }
    key = ready_at;
  }
  set_backoff_key(parts_[up], backoff_key);
  detail::MinTree& tree = ready_index_[static_cast<std::size_t>(leader)];
  const std::uint32_t pos = parts_[up].tree_position;
  // The partition's own copy of its tree entry: the tree's leaf is seldom in cache, and a
  // lower time (a new batch) changes only ancestors above it.
  const SimTime old = parts_[up].ready_key;
  if (old == key) return;
  parts_[up].ready_key = key;
  if (key < old)
    tree.lower(pos, key);
  else
    tree.set(pos, key);
  // How the change bears on the node's last verdict: a partition after the first ready one
  // changes nothing; one before it can only move the time the verdict holds until; the
  // first ready one itself needs a new judgement. A node that was not ready holds until
  // its earliest time, which the tree's root tells.
  const auto node = static_cast<std::size_t>(leader);
  NodeReadiness& c = readiness_[node];
  if (!c.valid) return;
  if (c.ready) {
    if (pos > c.first) return;
    if (pos == c.first) {
      invalidate(node);
      return;
    }
    c.until = tree.prefix_min(c.first);
  } else {
    c.until = tree.min();
  }
  aggregate_stale_ = true;
}

void RecordAccumulator::rebuild_ready_index() {
  if (!use_index_) return;
  for (std::size_t node = 0; node < ready_index_.size(); ++node) {
    auto& parts = node_partitions_[node];
    const auto on_node = indexed_->partitions_for_node(node);
    parts.assign(on_node.begin(), on_node.end());
    std::sort(parts.begin(), parts.end());
    for (std::size_t i = 0; i < parts.size(); ++i) {
      parts_[static_cast<std::size_t>(parts[i])].tree_position = static_cast<std::uint32_t>(i);
      parts_[static_cast<std::size_t>(parts[i])].ready_key = detail::MinTree::kNone;
    }
    ready_index_[node].reset(parts.size());
    readiness_[node].valid = true;  // so that invalidate() files it
    invalidate(node);
  }
  for (auto p = nonempty_.find_first(); p != boost::dynamic_bitset<>::npos; p = nonempty_.find_next(p))
    reindex(static_cast<std::int32_t>(p));
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
      if (appended) batches_.add_later_send_time(q.tail, *tail, request.intended);  // the tail had a record
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
          case BufferPool::Allocation::kOverLimit: result.status = AppendResult::Status::kOverMemoryLimit; return result;
          case BufferPool::Allocation::kWait: result.status = AppendResult::Status::kWaitForMemory; return result;
          case BufferPool::Allocation::kGranted: reserved = result.need_bytes; continue;  // re-checks partitionChanged (RA:360)
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

// ---- the built-in partitioner and its load table -------------------------------------------------

std::int32_t RecordAccumulator::sticky_partition(const ProducerMetadata& metadata) {
  PARTSIM_CHECK(config_.sticky_records, "a record without a partition from a producer configured to have none");
  if (!partitioner_.has_current()) {
    materialize_load_stats();
    const std::int32_t p = partitioner_.current_partition(metadata.available(), metadata.num_partitions());
    note_draw();
    return p;
  }
  return partitioner_.current_partition(metadata.available(), metadata.num_partitions());
}

bool RecordAccumulator::update_sticky(std::int32_t appended, bool enable_switch, const ProducerMetadata& metadata) {
  if (partitioner_.would_switch(appended, enable_switch)) materialize_load_stats();
  if (!partitioner_.update_partition_info(appended, enable_switch, metadata.available(), metadata.num_partitions())) return false;
  note_draw();
  return true;
}

// The queue-size arrays of partitionReady (RA:665-762) for the last pass, and the table
// updatePartitionLoadStats makes of them (spec §2.5). Built here rather than in ready() so
// that a pass costs what it sends: only a draw needs the table. Kafka's quirks are kept:
// arrays exist only once every partition has had a deque; a partition without a leader is
// left out; a partition excluded by the availability timeout gives back its slot, which the
// next partition takes over, and an empty deque there does not overwrite its size.
void RecordAccumulator::materialize_load_stats() {
  if (!stats_pending_) return;
  stats_pending_ = false;
  if (!config_.adaptive) return;
  if (pass_deques_created_ != num_partitions_) {
    partitioner_.clear_load_stats();
    table_length_ = 0;
    return;
  }
  const auto n = static_cast<std::size_t>(num_partitions_);
  table_sizes_.assign(n, 0);
  table_ids_.assign(n, 0);
  const bool timeout = config_.availability_timeout > SimTime::zero();
  std::int32_t idx = -1;
  std::size_t k = 0;  // next entry of pass_sizes_
  for (std::int32_t part = 0; part < num_partitions_; ++part) {
    if (created_pass_[static_cast<std::size_t>(part)] >= pass_) continue;  // no deque at the pass
    const std::int32_t leader = stats_metadata_->leader(part);
    if (leader >= 0) table_ids_[static_cast<std::size_t>(++idx)] = part;
    std::int32_t size = 0;
    if (k < pass_sizes_.size() && pass_sizes_[k].first == part) size = pass_sizes_[k++].second;
    if (size == 0 || leader < 0) continue;
    table_sizes_[static_cast<std::size_t>(idx)] = size;
    if (timeout && pass_excluded_[static_cast<std::size_t>(leader)]) --idx;
  }
  table_length_ = idx + 1;
  partitioner_.update_load_stats(table_sizes_, table_ids_, table_length_);
}

// After a draw in adaptive mode: the choice, and what the pass's queue sizes promised each
// partition, recomputed here from the sizes (weight = max + 1 - size, spec §2.5) rather
// than read back from the partitioner's cumulative table, so that a wrong table shows.
void RecordAccumulator::note_draw() {
  if (!partitioner_.adaptive_active()) return;
  const auto n = static_cast<std::size_t>(num_partitions_);
  if (adaptive_choices_.size() < n) {
    adaptive_choices_.resize(n, 0);
    adaptive_expected_.resize(n, 0.0);
  }
  ++adaptive_choices_[static_cast<std::size_t>(partitioner_.current())];
  const auto len = static_cast<std::size_t>(table_length_);
  const std::int32_t max_size = *std::max_element(table_sizes_.begin(), table_sizes_.begin() + static_cast<std::ptrdiff_t>(len));
  double total = 0;
  for (std::size_t i = 0; i < len; ++i) total += max_size + 1 - table_sizes_[i];
  for (std::size_t i = 0; i < len; ++i)
    adaptive_expected_[static_cast<std::size_t>(table_ids_[i])] += (max_size + 1 - table_sizes_[i]) / total;
}

void RecordAccumulator::before_metadata_update(const ProducerMetadata&) { materialize_load_stats(); }

// ---- ready (spec §3.6) ---------------------------------------------------------------------------

bool RecordAccumulator::partition_ready(const BatchQueue& q, SimTime now, bool exhausted, bool closing, SimTime& delay) const {
  const ProducerBatch& first = batches_[q.head];
  const RetryState r = first.retried ? batches_.retry(q.head) : RetryState{0, first.created, SimTime::zero()};
  const SimTime waited = now - r.last_attempt;
  const bool backing_off = r.attempts > 0 && waited < r.backoff;
  const bool full = q.size > 1 || first.is_full();
  const SimTime time_to_wait = backing_off ? r.backoff : config_.linger;
  const bool expired = waited >= time_to_wait;
  const bool sendable = full || expired || exhausted || closing;
  if (sendable && !backing_off) return true;
  delay = std::max(time_to_wait - waited, SimTime::zero());
  return false;
}

void RecordAccumulator::ready(const ProducerMetadata& metadata, SimTime now, bool closing, ReadyCheckResult& out) {
  out.ready_nodes = {};
  out.next_ready_check_delay = kNever;
  out.delay_excludes_ready_nodes = false;
  ++pass_;
  full_since_pass_ = false;
  const bool exhausted = pool_.has_waiter();  // free.queued() > 0
  if (config_.adaptive && config_.sticky_records) {
    stats_pending_ = true;
    stats_metadata_ = &metadata;
    pass_deques_created_ = deques_created_;
    pass_sizes_.clear();
    if (config_.availability_timeout > SimTime::zero())
      for (std::size_t node = 0; node < node_latency_.size(); ++node) {
        const NodeLatency& nl = node_latency_[node];
        pass_excluded_[node] = nl.exists && nl.ready_time - nl.drain_time > config_.availability_timeout;
      }
  }
  if (use_index_ && !exhausted && !closing)
    indexed_ready(now, out);
  else
    scan_ready(metadata, now, closing, exhausted, out);
}

// partitionReady over every partition with batches (RA:665-762), in the deque map's order:
// partitions without batches are skipped before anything is looked at (RA:715-717).
void RecordAccumulator::scan_ready(const ProducerMetadata& metadata, SimTime now, bool closing, bool exhausted,
                                   ReadyCheckResult& r) {
  const bool stats = config_.adaptive && config_.sticky_records;
  std::fill(ready_scratch_.begin(), ready_scratch_.end(), 0);
  for (auto bit = nonempty_.find_first(); bit != boost::dynamic_bitset<>::npos; bit = nonempty_.find_next(bit)) {
    const auto part = static_cast<std::int32_t>(bit);
    const BatchQueue& q = parts_[bit].queue;
    if (stats) pass_sizes_.emplace_back(part, q.size);
    const std::int32_t leader = metadata.leader(part);
    if (leader < 0) continue;  // unknown leader: waits for metadata
    const auto ul = static_cast<std::size_t>(leader);
    if (ready_scratch_[ul] || parts_[bit].muted) continue;
    SimTime delay;
    if (partition_ready(q, now, exhausted, closing, delay))
      ready_scratch_[ul] = 1;
    else
      r.next_ready_check_delay = std::min(r.next_ready_check_delay, delay);
  }
  ready_list_.clear();
  for (std::size_t node = 0; node < ready_scratch_.size(); ++node)
    if (ready_scratch_[node]) ready_list_.push_back(node);
  r.ready_nodes = ready_list_;
  aggregate_stale_ = true;  // ready_list_ now holds the scan's answer
}

// A node's verdict from its tree: ready from its first partition that may be ready now, or
// not ready until its earliest time.
void RecordAccumulator::judge(std::size_t node, SimTime now) {
  detail::MinTree& tree = ready_index_[node];
  NodeReadiness& c = readiness_[node];
  c = NodeReadiness{};
  c.valid = true;
  for (;;) {
    const std::size_t pos = tree.leftmost_at_most(now);
    if (pos == detail::MinTree::npos) {
      c.until = tree.min();
      return;
    }
    SimTime delay;
    // Which partition it is, and its state (seldom in cache), are looked at only when some
    // partition's key is a backoff's end.
    const auto part = backoff_keys_ == 0 ? std::size_t{0} : static_cast<std::size_t>(node_partitions_[node][pos]);
    if (backoff_keys_ == 0 || !parts_[part].backoff_key || partition_ready(parts_[part].queue, now, false, false, delay)) {
      c.ready = true;
      c.first = pos;
      c.until = tree.prefix_min(pos);
      return;
    }
    // Its backoff ended, its linger has not: file it at its ready time.
    set_backoff_key(parts_[part], false);
    parts_[part].ready_key = now + delay;
    tree.set(pos, now + delay);
  }
}

void RecordAccumulator::indexed_ready(SimTime now, ReadyCheckResult& r) {
  r.delay_excludes_ready_nodes = true;
  if (aggregate_stale_ || now >= recheck_at_)  // some verdict may have run out
    for (std::size_t node = 0; node < readiness_.size(); ++node)
      if (now >= readiness_[node].until) invalidate(node);
  bool changed = aggregate_stale_;
  for (const std::size_t node : stale_nodes_) {
    const NodeReadiness before = readiness_[node];
    judge(node, now);
    const NodeReadiness& after = readiness_[node];
    changed = changed || before.ready != after.ready || before.until != after.until;
  }
  stale_nodes_.clear();
  aggregate_stale_ = false;
  if (changed) {
    ready_list_.clear();
    not_ready_until_ = ready_until_ = kNever;
    for (std::size_t node = 0; node < readiness_.size(); ++node) {
      const NodeReadiness& c = readiness_[node];
      if (c.ready) {
        ready_list_.push_back(node);
        ready_until_ = std::min(ready_until_, c.until);
      } else {
        not_ready_until_ = std::min(not_ready_until_, c.until);
      }
    }
    recheck_at_ = std::min(not_ready_until_, ready_until_);
  }
  r.ready_nodes = ready_list_;
  if (not_ready_until_ != kNever) r.next_ready_check_delay = not_ready_until_ - now;
}

// Only the indexed pass can tell without a pass: its verdicts per node are what the next
// ready() would start from. Passes that make every partition sendable (a waiter for
// memory) or record per-node latency (the availability timeout) are not skipped, nor one
// after an append filled a batch that nothing woke the sender for.
std::optional<SimTime> RecordAccumulator::new_batch_wake(std::int32_t partition, SimTime now) const {
  if (!use_index_ || full_since_pass_ || pool_.has_waiter() || config_.availability_timeout > SimTime::zero()) return std::nullopt;
  if (partition < 0 || partition >= num_partitions_) return std::nullopt;
  const PartitionState& ps = parts_[static_cast<std::size_t>(partition)];
  const SimTime expiry = now + config_.delivery_timeout;  // a pass also wakes for the batch's expiry
  if (ps.leader < 0) return expiry;  // not in the index: a pass ignores it (ready() skips unknown leaders)
  if (ps.ready_key == detail::MinTree::kNone) return expiry;  // muted
  if (ps.ready_key <= now || ps.backoff_key) return std::nullopt;  // ready now, or a retry
  const NodeReadiness& c = readiness_[static_cast<std::size_t>(ps.leader)];
  if (!c.valid) return std::nullopt;
  if (c.ready && ps.tree_position > c.first) return expiry;
  return std::min(ps.ready_key, expiry);
}

SimTime RecordAccumulator::ready_nodes_check_delay(const ProducerMetadata&, SimTime now, std::span<const std::size_t>) {
  // Every position before a ready node's first ready one holds a time after `now`: when
  // that partition turns ready or its backoff ends, which is what batchReady adds.
  return ready_until_ == kNever ? kNever : ready_until_ - now;
}

void RecordAccumulator::update_node_latency(std::size_t node, SimTime now, bool can_send) {
  if (config_.availability_timeout <= SimTime::zero()) return;  // spec §3.7: off by default
  NodeLatency& nl = node_latency_[node];
  if (!nl.exists) {
    nl.exists = true;
    nl.drain_time = now;
  }
  nl.ready_time = now;
  if (can_send) nl.drain_time = now;
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
  if (observed > ratio_estimate_)
    ratio_estimate_ = std::max(ratio_estimate_ + 0.05f, observed);
  else if (observed < ratio_estimate_)
    ratio_estimate_ = std::max(ratio_estimate_ - 0.005f, observed);
}

void RecordAccumulator::drain(const ProducerMetadata& metadata, std::size_t node, SimTime now, std::int32_t max_request_size,
                              std::vector<BatchId>& out) {
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
    if (first.retried) {  // backing off?
      const RetryState r = batches_.retry(q.head);
      if (now - r.last_attempt < r.backoff) return true;
    }
    PartitionState& ps = parts_[static_cast<std::size_t>(part)];
    if (config_.idempotent && first.base_sequence >= 0 && sequence_blocked(part, ps)) return true;  // RA:858-864
    if (size + first.estimated_bytes() > max_request_size && !out.empty()) {
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
        ps.next_sequence = static_cast<std::int32_t>((std::int64_t{ps.next_sequence} + b.records) % (std::int64_t{INT32_MAX} + 1));
      }
      if (ps.sequence_wait) wait_in_flight_.add(part, 1);  // a waiting partition unmuted by guarantee_order
      // The next retry waits for this batch (about to join a request) and any before it.
      if (!ps.sequence_wait && !q.empty() && batches_[q.head].base_sequence >= 0)
        hold_for_sequence(part, sequenced_in_flight(part) + 1);
    }
    return true;
  };
  // The positions with batches, in visiting order; their partition states and first
  // batches are asked for ahead of the visit (they are seldom in cache: a drain comes a
  // linger or a request's round trip after the appends).
  drain_positions_.clear();
  for (auto i = drainable_.find_from(node, start); i != detail::NodeBits::npos; i = drainable_.find_from(node, i + 1))
    drain_positions_.push_back(i);
  for (auto i = drainable_.find_from(node, 0); i != detail::NodeBits::npos && i < start; i = drainable_.find_from(node, i + 1))
    drain_positions_.push_back(i);
  for (const std::size_t i : drain_positions_) __builtin_prefetch(&parts_[static_cast<std::size_t>(parts[i])]);
  for (const std::size_t i : drain_positions_) {
    const PartitionState& ps = parts_[static_cast<std::size_t>(parts[i])];
    __builtin_prefetch(&batches_[ps.queue.head]);
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
  batches_.free(id);  // it expired while in flight
  return false;
}

bool RecordAccumulator::release(BatchId id) {
  ProducerBatch& b = batches_[id];
  // Only max.in.flight.requests.per.connection = 1 mutes partitions (guaranteeMessageOrder).
  if (config_.guarantee_order && b.partition < num_partitions_ && muted(b.partition)) unmute(b.partition);
  const std::int32_t capacity = b.capacity;
  if (!b.in_request) batches_.free(id);
  return pool_.deallocate(capacity);
}

}  // namespace partsim::model
