// RecordAccumulator's ready side (spec §3.6): the ready index that files each partition with
// batches under its leader by when it may next turn ready, and ready(), which asks it (or
// walks the partitions where a pass must see them all), and the built-in partitioner's load
// table, made of the last pass's queue sizes (spec §2.5). Appends, drains and expiry are in
// record_accumulator.cpp.

#include "model/producer/record_accumulator.hpp"

#include <algorithm>

#include "sim/check.hpp"

namespace partsim::model {

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
    const RetryState r = batches_.retry(q.head, h);
    const SimTime backoff_end = r.last_attempt + r.backoff;
    const bool full = q.size > 1 || h.is_full();
    SimTime ready_at = full ? SimTime::zero() : r.last_attempt + config_.linger;
    if (h.retried) ready_at = std::max(ready_at, backoff_end);
    backoff_key = h.retried && backoff_end < ready_at;
    key = backoff_key ? backoff_end : ready_at;
  }
  set_backoff_key(parts_[up], backoff_key);
  detail::MinTree& tree = ready_index_[static_cast<std::size_t>(leader)];
  const std::uint32_t pos = parts_[up].tree_position;
  // The partition's own copy of its tree entry: the tree's leaf is seldom in cache, and a
  // lower time (a new batch) changes only ancestors above it.
  const SimTime old = parts_[up].ready_key;
  if (old == key) return;
  parts_[up].ready_key = key;
  if (key < old) tree.lower(pos, key);
  else tree.set(pos, key);
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

// ---- ready (spec §3.6) ---------------------------------------------------------------------------

bool RecordAccumulator::partition_ready(const BatchQueue& q, SimTime now, bool exhausted, bool closing,
                                        SimTime& delay) const {
  const ProducerBatch& first = batches_[q.head];
  const RetryState r = batches_.retry(q.head, first);
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
  pass_flushes_ = closing || exhausted;
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
  if (use_index_ && !exhausted && !closing) indexed_ready(now, out);
  else scan_ready(metadata, now, closing, exhausted, out);
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
    if (partition_ready(q, now, exhausted, closing, delay)) ready_scratch_[ul] = 1;
    else r.next_ready_check_delay = std::min(r.next_ready_check_delay, delay);
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
    if (backoff_keys_ == 0 || !parts_[part].backoff_key ||
        partition_ready(parts_[part].queue, now, false, false, delay)) {
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
  if (!use_index_ || full_since_pass_ || pool_.has_waiter() || config_.availability_timeout > SimTime::zero())
    return std::nullopt;
  if (partition < 0 || partition >= num_partitions_) return std::nullopt;
  const PartitionState& ps = parts_[static_cast<std::size_t>(partition)];
  const SimTime expiry = now + config_.delivery_timeout;  // a pass also wakes for the batch's expiry
  if (ps.leader < 0) return expiry;  // not in the index: a pass ignores it (ready() skips unknown leaders)
  if (ps.ready_key == detail::MinTree::kNone) return expiry;       // muted
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
  if (!partitioner_.update_partition_info(appended, enable_switch, metadata.available(), metadata.num_partitions()))
    return false;
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
  const std::int32_t max_size =
      *std::max_element(table_sizes_.begin(), table_sizes_.begin() + static_cast<std::ptrdiff_t>(len));
  double total = 0;
  for (std::size_t i = 0; i < len; ++i) total += max_size + 1 - table_sizes_[i];
  for (std::size_t i = 0; i < len; ++i)
    adaptive_expected_[static_cast<std::size_t>(table_ids_[i])] += (max_size + 1 - table_sizes_[i]) / total;
}

void RecordAccumulator::before_metadata_update(const ProducerMetadata&) { materialize_load_stats(); }

}  // namespace partsim::model
