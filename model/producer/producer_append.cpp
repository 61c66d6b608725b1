// The application thread (KafkaProducer.send, spec §1.2) and the record accumulator
// (spec §3): partition choice, append with the sticky switch, buffer memory, batch
// completion, retries.

#include "model/detail/producer_engine.hpp"

#include <boost/random/uniform_real_distribution.hpp>

#include "model/partitioners/key_hash.hpp"
#include "sim/check.hpp"

namespace partsim::model::detail {

// ---- application thread (KafkaProducer.send, spec §1.2) ------------------------------------

bool Engine::may_send(Producer& p) {
  if (s_.run.records && total_sent_ >= *s_.run.records) return false;
  if (p.spec->workload.records && p.sent >= *p.spec->workload.records) return false;
  const SimTime when = p.workload->open_loop() ? p.next_due : now();
  if (s_.run.duration && when >= *s_.run.duration) return false;
  return true;
}

void Engine::schedule_app(Producer& p, SimTime t) {
  if (p.app_event_pending || p.stopped) return;
  p.app_event_pending = true;
  sim_.schedule_at(std::max(t, now()), AppSend{p.index});
}

void Engine::stop_producer(Producer& p) {
  if (p.stopped) return;
  p.stopped = true;  // close(): flush everything that is buffered
  wake_sender(p, now());
}

void Engine::operator()(const AppSend& e) {
  Producer& p = producers_[e.producer];
  p.app_event_pending = false;
  // The application thread sends, then runs inline to its next send() while nothing else
  // happens before it (spec: DESIGN "a source whose next arrival time is known").
  for (std::uint32_t inline_sends = 0;; ++inline_sends) {
    if ((inline_sends & 4095) == 4095 && cancelled()) return;
    if (p.blocked || p.stopped) return;
    if (!may_send(p)) {
      stop_producer(p);
      return;
    }
    const SimTime intended = p.workload->open_loop() ? p.next_due : now();
    if (p.spec->workload.arrivals.kind == Arrivals::Kind::kClosedLoop) --p.tokens;
    send_one(p, intended);
    if (p.blocked) return;
    if (!p.second_calls.empty() && threads_busy(p)) return;  // every thread is mid-send
    SimTime next;
    if (!next_send_time(p, next)) return;
    if (!sim_.try_advance(next)) {
      schedule_app(p, next);
      return;
    }
  }
}

// When the application calls send() next; false if it waits for acknowledgements (closed
// loop without tokens) or has stopped.
bool Engine::next_send_time(Producer& p, SimTime& next) {
  const auto& a = p.spec->workload.arrivals;
  const SimTime free_at = now() + a.send_cost;
  if (p.workload->open_loop()) {
    p.next_due = p.workload->next_arrival(p.next_due);
    next = std::max(p.next_due, free_at);
    return true;
  }
  if (a.kind == Arrivals::Kind::kFlatOut || p.tokens > 0) {
    next = free_at;
    return true;
  }
  if (!may_send(p)) stop_producer(p);
  return false;
}

void Engine::after_send(Producer& p) {
  SimTime next;
  if (next_send_time(p, next)) schedule_app(p, next);
}

void Engine::return_token(Producer& p, std::int64_t records) {
  if (p.spec->workload.arrivals.kind != Arrivals::Kind::kClosedLoop) return;
  p.tokens += records;
  if (!p.blocked && !p.stopped) schedule_app(p, now());
}

void Engine::send_one(Producer& p, SimTime intended) {
  ++p.sent;
  ++total_sent_;
  ++result_.records_sent;
  const GeneratedRecord rec = p.workload->next_record(p.sent - 1);
  const std::int32_t upper = batch_size_upper_bound(rec.shape.payload_part());
  // Size check of doSend (spec §1.2 step 5): RecordTooLargeException to the callback.
  if (upper > p.cfg->max_request_size_bytes || upper > p.cfg->buffer_memory_bytes) {
    ++result_.failed.record_too_large;
    return_token(p, 1);
    return;
  }
  // Partition choice (spec §1.3): explicit, then the partitioner object, then the key's
  // hash over all partitions, else the built-in sticky choice (-1 here).
  std::int32_t partition = -1;
  bool abort = false;
  if (p.spec->workload.partition) {
    partition = *p.spec->workload.partition;
    abort = p.custom && p.custom->abort_on_new_batch();
  } else if (p.custom) {
    partition = p.custom->partition(rec.has_key ? std::optional<std::string_view>(rec.key) : std::nullopt, view(p));
    abort = p.custom->abort_on_new_batch();
    if (partition < 0) {  // IllegalArgumentException out of send() (spec §1.4)
      ++result_.failed.invalid_partition;
      return_token(p, 1);
      return;
    }
  } else if (rec.has_key && !p.cfg->ignore_keys) {
    partition = partition_for_key(rec.key, p.num_partitions);
  }
  PendingSend& r = p.pending;
  r.has_key = rec.has_key;
  if (rec.has_key) r.key.assign(rec.key);
  r.shape = rec.shape;
  r.partition = partition;
  r.abort_on_new_batch = abort;
  r.intended = intended;
  r.need = std::max(p.cfg->batch_size_bytes, upper);
  finish_append(p, r, 0);
}

// RecordAccumulator.append (spec §3.2) for the pending record. `reserved` is buffer memory
// already allocated for a new batch (0 = none yet).
void Engine::finish_append(Producer& p, PendingSend& r, std::int32_t reserved) {
  for (;;) {
    const bool sticky = r.partition < 0;
    const std::int32_t eff = sticky ? p.partitioner->current_partition(p.available, p.num_partitions) : r.partition;
    if (eff < p.num_partitions && !p.deque_exists[static_cast<std::size_t>(eff)]) {
      p.deque_exists[static_cast<std::size_t>(eff)] = 1;
      ++p.deques_created;
    }
    auto& dq = deque_of(p, eff);
    // partitionChanged: complete a deferred switch when the last batch is full/absent (§3.4).
    if (sticky && all_batches_full(p, eff) && p.partitioner->update_partition_info(0, true, p.available, p.num_partitions))
      continue;
    bool appended_existing = false;
    bool new_batch_created = false;
    std::int32_t appended = 0;
    if (!dq.empty()) appended_existing = try_append(p, batch(dq.back()), r.shape, r.intended, appended);
    if (!appended_existing) {
      if (r.abort_on_new_batch) {
        // abortForNewBatch (spec §1.2 step 9): onNewBatch, a second partition() call, and
        // an append that may create the batch.
        const auto& arrivals = p.spec->workload.arrivals;
        if (arrivals.threads > 1 && arrivals.partition_gap > SimTime::zero()) {
          // This thread makes its second call a little later; other threads go on.
          if (reserved > 0) deallocate(p, reserved);
          const std::uint64_t id = p.next_send_id++;
          p.second_calls.emplace(id, std::make_pair(r, eff));
          sim_.schedule_in(arrivals.partition_gap, SecondCall{p.index, id});
          return;
        }
        r.abort_on_new_batch = false;
        p.custom->on_new_batch(eff, view(p));
        if (!p.spec->workload.partition) {
          r.partition = p.custom->partition(r.has_key ? std::optional<std::string_view>(r.key) : std::nullopt, view(p));
          if (r.partition < 0) {
            ++result_.failed.invalid_partition;
            if (reserved > 0) deallocate(p, reserved);
            return_token(p, 1);
            return;
          }
        }
        continue;
      }
      if (reserved == 0) {
        // BufferPool.allocate (spec §3.10): wait while memory is exhausted.
        if (p.available_memory < r.need) {
          p.blocked = true;
          p.block_start = now();
          ++p.block_id;
          sim_.schedule_in(p.cfg->max_block, BufferTimeout{p.index, p.block_id});
          wake_sender(p, now());  // waiters make every partition sendable ("exhausted")
          return;
        }
        p.available_memory -= r.need;
        reserved = r.need;
        result_.peak_buffer_bytes = std::max(result_.peak_buffer_bytes, p.cfg->buffer_memory_bytes - p.available_memory);
        continue;  // re-checks partitionChanged, as after allocation in Kafka (RA:360)
      }
      const std::uint32_t id = new_batch();
      Batch& b = batch(id);
      b.partition = eff;
      b.sequence = p.next_batch_sequence++;
      b.created = b.last_attempt = now();
      b.capacity = reserved;
      b.ratio_estimate = p.ratio_estimate;
      b.compressed = p.compressed;
      b.base_timestamp_ms = now().whole_ms();
      reserved = 0;
      try_append(p, b, r.shape, r.intended, appended);
      appended = estimated_bytes(b);  // a new batch charges its whole estimate (spec §3.3)
      dq.push_back(id);
      new_batch_created = true;
    }
    if (reserved > 0) deallocate(p, reserved);
    if (sticky) {
      // Without the batch-boundary rule (partsim.sticky.align-batches: false, the first
      // KIP-794 code before KAFKA-14156) the switch happens at batch.size bytes, mid-batch.
      const bool enable_switch = !p.cfg->align_batches || all_batches_full(p, eff);
      p.partitioner->update_partition_info(appended, enable_switch, p.available, p.num_partitions);
    }
    if (static_cast<std::int32_t>(result_.trace.size()) < s_.run.trace) result_.trace.push_back(eff);
    if (r.has_key && eff < p.num_partitions && r.intended >= s_.run.warmup)
      hot_keys_.add(topics_[p.topic].stats_offset + static_cast<std::size_t>(eff), r.key);
    if (!ts_records_.empty() && eff < p.num_partitions) ++ts_records_[topics_[p.topic].stats_offset + static_cast<std::size_t>(eff)];
    // Wake the sender when a batch became full or a new one was created (spec §1.2 step 11).
    const bool batch_full = dq.size() > 1 || is_full(batch(dq.back()));
    if (batch_full || new_batch_created) wake_sender(p, now());
    return;
  }
}

std::deque<std::uint32_t>& Engine::deque_of(Producer& p, std::int32_t partition) {
  if (partition < p.num_partitions) return p.deques[static_cast<std::size_t>(partition)];
  return p.limbo[partition];
}

PartitionerView Engine::view(const Producer& p) const { return PartitionerView{p.available, p.num_partitions}; }

bool Engine::threads_busy(const Producer& p) const {
  return static_cast<std::int32_t>(p.second_calls.size()) >= p.spec->workload.arrivals.threads - 1;
}

void Engine::operator()(const SecondCall& e) {
  Producer& p = producers_[e.producer];
  if (p.blocked) {  // the producer's memory is exhausted: this thread waits its turn
    p.second_calls_waiting.push_back(e.send);
    return;
  }
  auto node = p.second_calls.extract(e.send);
  PendingSend r = std::move(node.mapped().first);
  const std::int32_t previous = node.mapped().second;
  const bool was_busy = static_cast<std::int32_t>(p.second_calls.size()) + 1 >= p.spec->workload.arrivals.threads - 1;
  r.abort_on_new_batch = false;
  p.custom->on_new_batch(previous, view(p));
  bool failed = false;
  if (!p.spec->workload.partition) {
    r.partition = p.custom->partition(r.has_key ? std::optional<std::string_view>(r.key) : std::nullopt, view(p));
    if (r.partition < 0) {
      ++result_.failed.invalid_partition;
      return_token(p, 1);
      failed = true;
    }
  }
  if (!failed) {
    p.pending = std::move(r);
    finish_append(p, p.pending, 0);
  }
  // A thread came free: the application may call send() again.
  if (was_busy && !p.blocked) after_send(p);
}

void Engine::operator()(const BufferTimeout& e) {
  Producer& p = producers_[e.producer];
  if (!p.blocked || p.block_id != e.block) return;
  // BufferExhaustedException after max.block.ms: the send fails, the thread goes on.
  p.blocked = false;
  result_.buffer_full_ms += (now() - p.block_start).to_ms();
  ++result_.failed.buffer_timeout;
  return_token(p, 1);
  after_send(p);
}

// ---- accumulator (spec §3) ----------------------------------------------------------------

std::int32_t Engine::estimated_bytes(const Batch& b) {
  if (b.built) return b.built_bytes;  // estimatedSizeInBytes: the built size once closed
  return estimated_bytes_written(b.record_bytes, b.compressed, b.ratio_estimate);
}

bool Engine::is_full(const Batch& b) {
  // MemoryRecordsBuilder.isFull (spec §3.5): closed, or the estimate reached the limit.
  return b.closed || b.built || (b.records > 0 && b.capacity <= estimated_bytes(b));
}

bool Engine::all_batches_full(Producer& p, std::int32_t partition) {
  const auto& dq = deque_of(p, partition);
  return dq.empty() || is_full(batches_[dq.back()]);  // allBatchesFull (RA:433)
}

bool Engine::try_append(Producer& p, Batch& b, const RecordShape& shape, SimTime intended, std::int32_t& appended) {
  const std::int64_t ts_delta = now().whole_ms() - b.base_timestamp_ms;
  const std::int32_t size = record_size(b.records, ts_delta, shape.payload_part());
  const std::int32_t before = estimated_bytes(b);
  // hasRoomFor (spec §3.5): a first record always fits; otherwise the estimate plus this
  // record's exact size must stay within the write limit. No room closes the batch.
  if (b.records > 0 && (is_full(b) || b.capacity < before + size)) {
    b.closed = true;
    return false;
  }
  b.record_bytes += size;
  ++b.records;
  b.send_times.push_back(intended);
  result_.bytes_appended += size;
  appended = estimated_bytes(b) - before;
  (void)p;
  return true;
}

void Engine::deallocate(Producer& p, std::int32_t bytes) {
  p.available_memory += bytes;
  if (p.blocked && p.available_memory >= p.pending.need) {
    // The waiting send() gets its memory and finishes its append.
    p.blocked = false;
    result_.buffer_full_ms += (now() - p.block_start).to_ms();
    p.available_memory -= p.pending.need;
    result_.peak_buffer_bytes = std::max(result_.peak_buffer_bytes, p.cfg->buffer_memory_bytes - p.available_memory);
    finish_append(p, p.pending, p.pending.need);
    if (!p.blocked) {
      while (!p.second_calls_waiting.empty() && !p.blocked) {
        const auto id = p.second_calls_waiting.front();
        p.second_calls_waiting.pop_front();
        (*this)(SecondCall{p.index, id});
      }
      after_send(p);
    }
  }
}

void Engine::seal(Producer& p, Batch& b) {
  // ProducerBatch.close at drain: the final bytes, and the compression estimate update
  // (spec §5.3): up by at least 0.05 when worse, down by at most 0.005 when better.
  b.closed = true;
  b.built = true;
  if (!p.compressed) {
    b.built_bytes = kBatchHeaderBytes + static_cast<std::int32_t>(b.record_bytes);
    return;
  }
  const double compressed = std::round(static_cast<double>(b.record_bytes) * p.cfg->compression_ratio);
  b.built_bytes = kBatchHeaderBytes + static_cast<std::int32_t>(compressed);
  const auto observed = static_cast<float>(static_cast<double>(b.built_bytes) / static_cast<double>(b.record_bytes));
  if (observed > p.ratio_estimate)
    p.ratio_estimate = std::max(p.ratio_estimate + 0.05f, observed);
  else if (observed < p.ratio_estimate)
    p.ratio_estimate = std::max(p.ratio_estimate - 0.005f, observed);
}

void Engine::complete_batch(Producer& p, std::uint32_t id, std::uint32_t broker) {
  Batch& b = batch(id);
  if (b.done) return;
  b.done = true;
  result_.records_acked += b.records;
  last_completion_ = now();
  result_.bytes_completed += b.record_bytes;
  const SimTime warmup = s_.run.warmup;
  std::int64_t measured = 0;
  const std::int64_t window = s_.run.window.count_ns();
  for (SimTime t : b.send_times) {
    if (window > 0) {
      const auto w = static_cast<std::size_t>(t.count_ns() / window);
      if (w >= result_.windows.size()) result_.windows.resize(w + 1, std::vector<std::int64_t>(brokers_.size(), 0));
      ++result_.windows[w][broker];
    }
    if (t < warmup) continue;
    ++measured;
    result_.latency.record((now() - t).count_ns());
  }
  result_.records_measured += measured;
  PartitionStats& ps = result_.partitions[topics_[p.topic].stats_offset + static_cast<std::size_t>(b.partition)];
  BrokerStats& bs = result_.brokers[broker];
  ps.records += measured;
  bs.records += measured;
  if (options_.batches) record_batch(p, b, static_cast<std::int32_t>(broker), true);
  if (b.created >= warmup) {
    result_.batch_bytes.record(b.built_bytes);
    constexpr std::size_t kMaxBin = 65536;
    const auto bin = std::min<std::size_t>(static_cast<std::size_t>(b.records), kMaxBin);
    if (result_.batch_records.size() <= bin) result_.batch_records.resize(bin + 1, 0);
    ++result_.batch_records[bin];
    ++ps.batches;
    ps.bytes += b.built_bytes;
    ++bs.batches;
    bs.bytes += b.built_bytes;
  }
  settle(p, id);
}

void Engine::record_batch(const Producer& p, const Batch& b, std::int32_t broker, bool acked) {
  BatchRecord row;
  row.topic = topics_[p.topic].cfg->name;
  row.partition = b.partition;
  row.broker = broker < 0 ? -1 : brokers_[static_cast<std::size_t>(broker)].cfg->id;
  row.records = b.records;
  row.bytes = b.built ? b.built_bytes : estimated_bytes(b);
  row.created_ms = b.created.to_ms();
  row.sent_ms = b.built ? b.sent.to_ms() : -1;
  row.done_ms = now().to_ms();
  row.acked = acked;
  result_.batches.push_back(std::move(row));
}

// A batch is done (acked or failed): unmute its partition, return its memory, let a
// closed-loop application send again. Its slot is reused only once no request refers to it.
void Engine::settle(Producer& p, std::uint32_t id) {
  Batch& b = batch(id);
  if (b.partition < p.num_partitions) p.muted[static_cast<std::size_t>(b.partition)] = 0;
  const std::int32_t records = b.records;
  const std::int32_t capacity = b.capacity;
  if (!b.in_request) free_batch(id);
  deallocate(p, capacity);
  return_token(p, records);
}

// The request that carried batch `id` is over (answered or disconnected).
bool Engine::leave_request(std::uint32_t id) {
  Batch& b = batch(id);
  b.in_request = false;
  if (!b.done) return true;
  free_batch(id);  // it expired while in flight
  return false;
}

void Engine::fail_batch(Producer& p, std::uint32_t id, std::int64_t FailureCounts::*reason) {
  Batch& b = batch(id);
  if (b.done) return;
  b.done = true;
  result_.failed.*reason += b.records;
  last_completion_ = now();
  if (options_.batches) record_batch(p, b, -1, false);
  result_.bytes_completed += b.record_bytes;
  settle(p, id);
}

SimTime Engine::draw_backoff(Producer& p, std::int32_t k) {
  // ExponentialBackoff (spec §4.6): min(max, U(0.8, 1.2) * initial * 2^min(k, expMax)).
  const double initial = p.cfg->retry_backoff.to_ms();
  const double max = p.cfg->retry_backoff_max.to_ms();
  const double exp_max = max > initial && initial > 0 ? std::log(max / initial) / std::log(2.0) : 0.0;
  boost::random::uniform_real_distribution<double> jitter(0.8, 1.2);
  const double term = initial * std::pow(2.0, std::min(static_cast<double>(k), exp_max));
  const double ms = std::min(max, std::floor(jitter(p.backoff_rng) * term));
  return SimTime::from_ms(ms);
}

void Engine::retry_or_fail(Producer& p, std::uint32_t id) {
  Batch& b = batch(id);
  if (b.done) return;
  // Sender.canRetry (spec §4.3): within delivery.timeout.ms and attempts < retries.
  if (now() - b.created >= p.cfg->delivery_timeout) {
    fail_batch(p, id, &FailureCounts::delivery_timeout);
    return;
  }
  if (b.attempts >= p.cfg->retries) {
    fail_batch(p, id, &FailureCounts::retries_exhausted);
    return;
  }
  // reenqueue (spec §3.9): attempts + 1, back at the head in creation order.
  ++b.attempts;
  b.last_attempt = now();
  b.backoff = draw_backoff(p, b.attempts - 1);
  ++result_.retries;
  auto& dq = p.deques[static_cast<std::size_t>(b.partition)];
  auto it = dq.begin();
  while (it != dq.end() && batches_[*it].attempts > 0 && batches_[*it].sequence < b.sequence) ++it;
  dq.insert(it, id);
}


}  // namespace partsim::model::detail
