#include "model/producer/kafka_producer.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "model/client_profiles.hpp"
#include "model/partitioners/key_hash.hpp"
#include "sim/check.hpp"

namespace partsim::model {

namespace {

// toPositive(nextInt()): 31 uniform bits (spec §2.1), from the producer's partitioner stream,
// shared by the built-in partitioner and a partitioner object.
PartitionDraw partition_draw(const sim::RandomStreams& streams, const std::string& producer) {
  auto rng = std::make_shared<sim::RandomEngine>(streams.stream("producer/" + producer + "/partitioner"));
  return [rng] { return static_cast<std::int32_t>((*rng)() >> 33); };
}

// A partitioner object chooses: partitioner.class, or another client's partitioner.
bool object_partitioner(const ProducerSpec& spec, const PartitionerRun& run) {
  return run.kind != PartitionerKind::kBuiltin || !spec.config.client.java();
}

// Whether some record reaches the accumulator without a partition (spec §1.3): no explicit
// partition, no partitioner object, and null keys or keys ignored.
bool sticky_records(const ProducerSpec& spec, const PartitionerRun& run) {
  return !spec.workload.partition && !object_partitioner(spec, run) &&
         (spec.workload.keys.kind == KeySpec::Kind::kNone || spec.config.ignore_keys);
}

}  // namespace

KafkaProducer::KafkaProducer(std::uint32_t index, const ProducerSpec& spec, std::vector<std::int32_t> client_order,
                             std::span<const std::int32_t> leaders, std::span<const char> node_up,
                             const sim::RandomStreams& streams, SendBudget budget, ProducerHost& host,
                             ProducerObserver& observer, ProducerMemory memory)
    : index_(index),
      spec_(spec),
      config_(spec.config),
      host_(host),
      budget_(budget),
      node_up_(node_up),
      workload_(spec.workload, streams, spec.name),
      partitioner_(partitioner_run(spec.config.partitioner.kind, spec.config.client)),
      metadata_(client_order, node_up.size(), memory.resource),
      draw_(partition_draw(streams, spec.name)),
      accumulator_(AccumulatorConfig::from(spec.config, object_partitioner(spec, partitioner_),
                                           sticky_records(spec, partitioner_)),
                   static_cast<std::int32_t>(leaders.size()), node_up.size(), draw_, memory.batches, memory.resource),
      sender_(SenderConfig::from(spec.config), accumulator_, metadata_, *this,
              streams.stream("producer/" + spec.name + "/sender/backoff")),
      keep_records_(static_cast<bool>(memory.key_id)),
      tokens_(spec.workload.arrivals.concurrency),
      key_id_(std::move(memory.key_id)),
      observer_(observer) {
  // The built-in partitioner and a partitioner object draw from the same stream.
  custom_ = spec.config.client.java() ? make_partitioner(spec.config.partitioner, partitioner_, draw_)
                                      : make_profile_partitioner(spec.config, draw_);
  if (!spec.config.client.java() && uses_buffered_records(spec.config)) buffered_.counts.assign(leaders.size(), 0);
  hashes_keys_ = !spec.workload.partition && !custom_ && spec.workload.keys.kind != KeySpec::Kind::kNone &&
                 !config_.ignore_keys;
  metadata_.update(leaders);
  accumulator_.after_metadata_update(metadata_);
}

// ---- the application threads --------------------------------------------------------------------

void KafkaProducer::locate(std::span<const std::string> node_racks) {
  // Where it runs (its rack, else its client.rack) counts its records led there; what it
  // tells the partitioner is client.rack (KIP-1123).
  const std::string& here = spec_.rack.empty() ? config_.client_rack : spec_.rack;
  if (here.empty()) return;
  node_in_rack_.clear();
  for (const auto& rack : node_racks) node_in_rack_.push_back(rack == here ? 1 : 0);
  if (!config_.rack_aware || config_.client_rack.empty()) return;
  std::vector<char> told;
  for (const auto& rack : node_racks) told.push_back(rack == config_.client_rack ? 1 : 0);
  accumulator_.use_rack(std::move(told), metadata_);
}

void KafkaProducer::start(SimTime now) {
  if (workload_.open_loop()) {
    next_due_ = workload_.next_arrival(SimTime::zero());
    schedule_app(next_due_, now);
  } else {
    schedule_app(SimTime::zero(), now);
  }
}

void KafkaProducer::schedule_app(SimTime at, SimTime now) {
  if (app_event_pending_ || stopped_ || fed_) return;
  app_event_pending_ = true;
  look_ahead();
  // The one application thread is busy until app_free_at_ (its last send()'s CPU time).
  host_.schedule_app(index_, std::max({at, now, app_free_at_}));
}

bool KafkaProducer::may_send(SimTime now) const {
  if (budget_.run_records && *budget_.total_sent >= *budget_.run_records) return false;
  if (spec_.workload.records && sent_ >= *spec_.workload.records) return false;
  const SimTime when = workload_.open_loop() ? next_due_ : now;
  if (budget_.duration && when >= *budget_.duration) return false;
  return true;
}

void KafkaProducer::stop(SimTime now) {
  if (stopped_) return;
  stopped_ = true;  // close(): flush everything that is buffered
  wake_sender(now, now);
  if (links_ && links_->mirror) links_->mirror->source_stopped(now);
}

void KafkaProducer::hand_over(KafkaProducer& next, SimTime shift, SimTime now) {
  next.workload_.take(std::move(workload_));
  next.sent_ = sent_;
  next.links().handed_sent = sent_;
  next.next_due_ = next_due_ + shift;
  next.arrival_shift_ = arrival_shift_ + shift;
  next.tokens_ = tokens_;
  next.app_free_at_ = std::max(app_free_at_, now);
  next.stopped_ = false;
  links().successor = &next;
  stop(now);
  // As next_send_time: a closed loop without a token waits for an acknowledgement.
  const auto kind = spec_.workload.arrivals.kind;
  if (next.workload_.open_loop()) next.schedule_app(next.next_due_, now);
  else if (kind == Arrivals::Kind::kFlatOut || next.tokens_ > 0) next.schedule_app(now, now);
}

std::optional<SimTime> KafkaProducer::send_next(SimTime now) {
  now_ = now;
  if (blocked_ || stopped_) return std::nullopt;
  if (!may_send(now)) {
    stop(now);
    return std::nullopt;
  }
  const SimTime intended = workload_.open_loop() ? next_due_ : now;
  if (spec_.workload.arrivals.kind == Arrivals::Kind::kClosedLoop) --tokens_;
  // send.cost.us: the thread's CPU time for this send(), from when its last one ended (a
  // thread runs one piece of work at a time); on a host it also waits for a core.
  const SimTime start = std::max(now, app_free_at_);
  const SimTime cost = spec_.workload.arrivals.send_cost;
  app_free_at_ = host_cores_ ? host_cores_->run(start, cost) : start + cost;
  send_one(intended, now);
  if (blocked_) return std::nullopt;
  if (!second_calls_.empty() && threads_busy()) return std::nullopt;  // every thread is mid-send
  SimTime next;
  if (!next_send_time(now, next)) return std::nullopt;
  return next;
}

// Speed: the next send() waits for an event, and other events run first. The next record's
// key is known now, so its partition's state in the accumulator, seldom in cache for a fleet
// of producers over many partitions, is asked for meanwhile (speed::SendLookAhead).
void KafkaProducer::look_ahead() {
  if (!ahead_.enabled()) return;
  const GeneratedRecord& next = workload_.peek(sent_);
  if (!next.has_key) return;
  const std::int32_t hash = murmur2(next.key);
  const std::int32_t partition = to_positive(hash) % metadata_.num_partitions();
  ahead_.note(sent_, hash, partition);
  accumulator_.prefetch_partition(partition);
}

// When the application calls send() next; false if it waits for acknowledgements (closed
// loop without tokens) or has stopped.
bool KafkaProducer::next_send_time(SimTime now, SimTime& next) {
  const auto& a = spec_.workload.arrivals;
  // The application thread is busy with its last send() until app_free_at_ (send_next).
  const SimTime free_at = std::max(now, app_free_at_);
  if (workload_.open_loop()) {
    // The workload's arrival times, shifted by a hand-over's shift (hand_over).
    next_due_ = workload_.next_arrival(next_due_ - arrival_shift_) + arrival_shift_;
    next = std::max(next_due_, free_at);
    return true;
  }
  if (a.kind == Arrivals::Kind::kFlatOut || tokens_ > 0) {
    next = free_at;
    return true;
  }
  if (!may_send(now)) stop(now);
  return false;
}

void KafkaProducer::after_send(SimTime now) {
  SimTime next;
  if (next_send_time(now, next)) schedule_app(next, now);
}

void KafkaProducer::return_tokens(std::int64_t records, SimTime now) {
  if (spec_.workload.arrivals.kind != Arrivals::Kind::kClosedLoop) return;
  if (links_ && links_->successor) return links_->successor->return_tokens(records, now);
  tokens_ += records;
  if (!blocked_ && !stopped_) schedule_app(now, now);
}

bool KafkaProducer::threads_busy() const {
  return static_cast<std::int32_t>(second_calls_.size()) >= spec_.workload.arrivals.threads - 1;
}

void KafkaProducer::send_one(SimTime intended, SimTime now) {
  ++sent_;
  ++*budget_.total_sent;
  const GeneratedRecord rec = workload_.next_record(sent_ - 1);
  const std::int32_t key_hash = !rec.has_key ? 0 : ahead_.hash_of(sent_ - 1, rec.key);
  place(rec, key_hash, sent_ - 1, intended, now);
  if (links_ && links_->mirror) links_->mirror->mirror(rec, sent_ - 1, intended, now);  // a dual write's second send
}

void KafkaProducer::mirrored_send(const GeneratedRecord& rec, std::int64_t send_index, SimTime intended, SimTime now) {
  now_ = now;
  ++sent_;
  place(rec, rec.has_key ? murmur2(rec.key) : 0, send_index, intended, now);
}

// Speed: inlined into send_one, as it was before mirrored_send shared it (one call per record).
[[gnu::always_inline]] inline void KafkaProducer::place(const GeneratedRecord& rec, std::int32_t key_hash,
                                                        std::int64_t send_index, SimTime intended, SimTime now) {
  // Partition choice (spec §1.2 step 4, §1.3): explicit, then the partitioner object, then
  // the key's hash over all partitions, else the accumulator's sticky choice (-1). It comes
  // before the size check (KP:1057 then KP:1064): a record too large still advances a
  // partitioner object's state.
  std::int32_t partition = -1;
  bool abort = false;
  const std::int32_t payload = payload_part(rec.shape);
  if (spec_.workload.partition) {
    partition = *spec_.workload.partition;
    abort = custom_ && second_call();
  } else if (custom_) {
    partition =
        custom_->partition(rec.has_key ? std::optional<std::string_view>(rec.key) : std::nullopt, view(payload));
    abort = second_call();
    if (partition < 0) {  // IllegalArgumentException out of send() (spec §1.4)
      observer_.record_failed(index_, FailureReason::kInvalidPartition);
      return_tokens(1, now);
      return;
    }
  } else if (rec.has_key && !config_.ignore_keys) {
    partition = to_positive(key_hash) % metadata_.num_partitions();  // partitionForKey (spec §2.6)
  }
  // Size check of doSend (spec §1.2 step 5): RecordTooLargeException to the callback.
  const std::int32_t upper = batch_size_upper_bound(payload);
  if (upper > config_.max_request_size_bytes || upper > config_.buffer_memory_bytes) {
    observer_.record_failed(index_, FailureReason::kRecordTooLarge);
    ++send_errors_;  // an ApiException: record-error-total (kafka-consumer-spec §10.1)
    return_tokens(1, now);
    return;
  }
  PendingSend& s = pending_;
  s.has_key = rec.has_key;
  if (rec.has_key) {
    s.key.assign(rec.key);
    s.key_hash = key_hash;
  }
  s.send_index = send_index;
  s.request.partition = partition;
  s.request.shape = rec.shape;
  s.request.payload_part = payload;
  s.request.intended = intended;
  s.request.abort_on_new_batch = abort;
  s.request.reserved_bytes = 0;
  finish_append(s, now);
}

// RecordAccumulator.append and what doSend does with its result (spec §1.2 steps 8-11).
void KafkaProducer::finish_append(PendingSend& s, SimTime now) {
  for (;;) {
    const AppendResult r = accumulator_.append(s.request, now, metadata_);
    s.request.reserved_bytes = 0;
    switch (r.status) {
      case AppendResult::Status::kAppended:
        observer_.record_appended(index_, AppendedRecord{r.partition, metadata_.num_partitions(), r.record_bytes,
                                                         key_of(s), s.key_hash, s.request.intended});
        if (keep_records_)
          accumulator_.batches().add_tag(r.batch, RecordTag{s.has_key ? key_id_(s.key) : -1, s.send_index});
        if (!buffered_.counts.empty()) buffered_.add(r.partition, 1);
        if (!node_in_rack_.empty()) {
          ++records_located_;
          const std::int32_t leader = metadata_.leader(r.partition);
          records_in_rack_ += leader >= 0 && node_in_rack_[static_cast<std::size_t>(leader)] ? 1 : 0;
        }
        // Wake the sender when a batch became full or a new one was created (step 11).
        if (r.batch_is_full) wake_sender(now, now);
        else if (r.new_batch_created) wake_for_new_batch(r.partition, now);
        return;
      case AppendResult::Status::kOverMemoryLimit:
        // BufferPool.allocate: "Attempt to allocate N bytes, but there is a hard limit of M
        // on memory allocations" (IllegalArgumentException out of send()).
        observer_.record_failed(index_, FailureReason::kBufferLimit);
        return_tokens(1, now);
        return;
      case AppendResult::Status::kWaitForMemory:
        // BufferPool.allocate blocks (spec §3.10) for at most max.block.ms.
        blocked_ = true;
        waiting_need_ = r.need_bytes;
        block_start_ = now;
        ++block_id_;
        host_.schedule_buffer_timeout(index_, block_id_, now + config_.max_block);
        wake_sender(now, now);  // a waiter makes every partition sendable ("exhausted")
        return;
      case AppendResult::Status::kAbortForNewBatch: {
        // abortForNewBatch (spec §1.2 step 9): onNewBatch, a second partition() call, and an
        // append that may create the batch.
        const auto& arrivals = spec_.workload.arrivals;
        if (arrivals.threads > 1 && arrivals.partition_gap > SimTime::zero()) {
          // This thread makes its second call a little later; other threads go on.
          const std::uint64_t id = next_send_id_++;
          second_calls_.emplace(id, std::make_pair(s, r.partition));
          host_.schedule_second_call(index_, id, now + arrivals.partition_gap);
          return;
        }
        s.request.abort_on_new_batch = false;
        custom_->on_new_batch(r.partition, view());
        if (!spec_.workload.partition) {
          s.request.partition = custom_->partition(key_of(s), view());
          if (s.request.partition < 0) {
            observer_.record_failed(index_, FailureReason::kInvalidPartition);
            return_tokens(1, now);
            return;
          }
        }
        continue;
      }
    }
  }
}

void KafkaProducer::on_second_call(std::uint64_t send, SimTime now) {
  now_ = now;
  if (blocked_) {  // the producer's memory is exhausted: this thread waits its turn
    second_calls_waiting_.push_back(send);
    return;
  }
  auto node = second_calls_.extract(send);
  PendingSend s = std::move(node.mapped().first);
  const std::int32_t previous = node.mapped().second;
  const bool was_busy = static_cast<std::int32_t>(second_calls_.size()) + 1 >= spec_.workload.arrivals.threads - 1;
  s.request.abort_on_new_batch = false;
  custom_->on_new_batch(previous, view());
  bool failed = false;
  if (!spec_.workload.partition) {
    s.request.partition = custom_->partition(key_of(s), view());
    if (s.request.partition < 0) {
      observer_.record_failed(index_, FailureReason::kInvalidPartition);
      return_tokens(1, now);
      failed = true;
    }
  }
  if (!failed) {
    pending_ = std::move(s);
    finish_append(pending_, now);
  }
  // A thread came free: the application may call send() again.
  if (was_busy && !blocked_) after_send(now);
}

void KafkaProducer::on_buffer_timeout(std::uint64_t block, SimTime now) {
  now_ = now;
  if (!blocked_ || block_id_ != block) return;
  // BufferExhaustedException after max.block.ms: the send fails, the thread goes on.
  blocked_ = false;
  accumulator_.cancel_memory_wait();
  buffer_wait_ += now - block_start_;
  observer_.send_blocked(index_, now - block_start_);
  observer_.record_failed(index_, FailureReason::kBufferTimeout);
  ++send_errors_;  // BufferExhaustedException is an ApiException: record-error-total
  return_tokens(1, now);
  after_send(now);
}

// The waiting send() got its memory: it finishes its append, then the threads go on.
void KafkaProducer::resume_after_memory(SimTime now) {
  blocked_ = false;
  buffer_wait_ += now - block_start_;
  observer_.send_blocked(index_, now - block_start_);
  pending_.request.reserved_bytes = waiting_need_;  // the pool took it for this send
  finish_append(pending_, now);
  if (blocked_) return;
  while (!second_calls_waiting_.empty() && !blocked_) {
    const auto id = second_calls_waiting_.front();
    second_calls_waiting_.pop_front();
    on_second_call(id, now);
  }
  after_send(now);
}

// ---- the sender thread -------------------------------------------------------------------------

void KafkaProducer::wake_sender(SimTime t, SimTime now) {
  // One live wake per producer: an earlier request supersedes a later one, which then
  // fires stale and is ignored (cheaper than cancelling: most wakes are superseded).
  t = std::max({t, now, sender_free_at_});
  if (t >= wake_at_) return;
  wake_at_ = t;
  host_.schedule_sender(index_, ++wake_generation_, t);
}

// A new batch that is not full wakes the sender (KP doSend step 11), but the pass it
// starts is often idle: the batch lingers, and the last pass found nothing it could send.
// When the pass now would do nothing but set the next wake-up, it is left out and the
// wake-up set instead, once the event being handled is over: where the pass, the next
// event, would have set it, so events at equal times keep their order. The pass is idle
// when none is due by now (nothing happened since the last that asked for one), that one
// was quiet (Sender::quiet), the sender thread is free and not in a pass (a batch that
// expires in it frees memory, and a waiting send() creates a batch), the producer is not
// closing, and no other event is due now (it would run between the append and the pass). The
// accumulator then tells when the new batch would first matter (new_batch_wake).
// With the skip off, the pass runs and checks that it was idle and set what the skip
// would have set.
void KafkaProducer::wake_for_new_batch(std::int32_t partition, SimTime now) {
  if (wake_at_ <= now) return;  // a pass is due at once anyway
  std::optional<SimTime> wake;
  if (!in_pass_ && !stopped_ && sender_free_at_ <= now && sender_.quiet() && !host_.event_due(now))
    wake = accumulator_.new_batch_wake(partition, now);
  if (wake && skip_idle_passes_) {
    wake_at_ = std::min(wake_at_, *wake);
    if (!rearm_after_event_) host_.call_after_event(index_);
    rearm_after_event_ = true;
    return;
  }
  if (wake) predicted_wake_ = std::min(wake_at_, *wake);
  wake_sender(now, now);
}

void KafkaProducer::after_event(SimTime now) {
  if (!rearm_after_event_) return;
  rearm_after_event_ = false;
  // The skipped pass would have replaced the pending wake-up by its own; unless a pass is
  // due now (something since asked for one), set it as the pass would have.
  if (wake_at_ > now && wake_at_ != kNever) host_.schedule_sender(index_, ++wake_generation_, wake_at_);
}

void KafkaProducer::on_sender_wake(std::uint64_t generation, SimTime now) {
  if (generation != wake_generation_) return;
  wake_at_ = kNever;
  // Armed during the last pass (an acks=0 ack or a failure resumed a send() that woke the
  // sender) before that pass's CPU time was known: the thread is still busy, so it comes
  // back when it is free. One thread never runs two passes at once.
  if (now < sender_free_at_) {
    wake_sender(sender_free_at_, now);
    return;
  }
  run_sender(now);
}

void KafkaProducer::run_sender(SimTime now) {
  now_ = now;
  pass_requests_ = pass_batches_ = pass_bytes_ = 0;
  in_pass_ = true;  // what the pass causes (a failed batch frees memory, a send resumes) is not idle
  const SimTime next = sender_.run_once(now, node_up_, stopped_);
  in_pass_ = false;
  // The sender thread's CPU time for what this pass sent (cpu.sender.request.us per
  // request, cpu.sender.batch.us per batch, cpu.sender.byte.ns per byte, rounded to the
  // nanosecond; partsim's, not a Kafka config): its next pass comes no earlier. The requests
  // leave at once; the time counts after them.
  const auto byte_ns =
      static_cast<std::int64_t>(std::llround(spec_.cpu.per_byte_ns * static_cast<double>(pass_bytes_)));
  const SimTime cpu = SimTime::ns(spec_.cpu.per_request.count_ns() * pass_requests_ +
                                  spec_.cpu.per_batch.count_ns() * pass_batches_ + byte_ns);
  // From when the thread is free (on_sender_wake waits for it), on a host once a core is.
  const SimTime start = std::max(now, sender_free_at_);
  if (cpu > SimTime::zero()) sender_free_at_ = host_cores_ ? host_cores_->run(start, cpu) : start + cpu;
  if (next != kNever) wake_sender(next, now);
  if (predicted_wake_) {
    // The skip would have left this pass out and set *predicted_wake_ (wake_for_new_batch).
    PARTSIM_CHECK(sender_.quiet() && pass_requests_ == 0, "a pass the idle-pass skip would leave out did something");
    PARTSIM_CHECK(next == *predicted_wake_, "a pass the idle-pass skip would leave out set another wake-up");
    predicted_wake_.reset();
  }
}

void KafkaProducer::on_response(std::uint64_t request, SimTime now, std::span<const ProduceError> errors) {
  now_ = now;
  sender_.on_response(request, now, errors);
  wake_sender(now, now);
}

void KafkaProducer::on_request_deadline(SimTime now) {
  now_ = now;
  sender_.on_request_deadline(now);
}

void KafkaProducer::on_disconnect(std::size_t node, SimTime now) {
  now_ = now;
  sender_.disconnect(node, now);
}

void KafkaProducer::on_metadata(std::span<const std::int32_t> leaders, SimTime now,
                                std::span<const std::int32_t> client_order) {
  now_ = now;
  accumulator_.before_metadata_update(metadata_);
  if (static_cast<std::int32_t>(leaders.size()) > metadata_.num_partitions()) {
    // New partitions (kafka-consumer-spec §6.2: seen at this refresh, not before): from now
    // on keys hash over the new count and the sticky partitioner may pick them.
    PARTSIM_CHECK(client_order.size() == leaders.size(), "new partitions without their client order");
    metadata_.grow(client_order);
    accumulator_.grow(static_cast<std::int32_t>(leaders.size()));
  }
  metadata_.update(leaders);
  accumulator_.after_metadata_update(metadata_);
  wake_sender(now, now);
}

// ---- what the sender reports -------------------------------------------------------------------

std::uint64_t KafkaProducer::request_sent(std::size_t node, std::span<const BatchId> batches, std::int64_t bytes,
                                          bool expects_response) {
  ++pass_requests_;
  pass_bytes_ += bytes;
  pass_batches_ += static_cast<std::int64_t>(batches.size());
  return host_.send_request(index_, node, bytes, batches, expects_response);
}

void KafkaProducer::watch_request_deadline(SimTime at) { host_.schedule_request_deadline(index_, at); }

void KafkaProducer::request_abandoned(std::uint64_t request) { host_.abandon_request(index_, request); }

void KafkaProducer::connection_closed(std::size_t node) {
  // A disconnect requests a metadata update, answered after one round trip.
  host_.close_connection(index_, node);
  host_.request_metadata(index_, node);
  wake_sender(now_, now_);
}

void KafkaProducer::metadata_invalid(std::size_t node) {
  host_.request_metadata(index_, node);
  wake_sender(now_, now_);
}

void KafkaProducer::batch_acknowledged(BatchId id, std::size_t node) {
  ProducerBatch& b = accumulator_.batch(id);
  if (b.done) return;
  b.done = true;
  observer_.batch_done(index_, accumulator_.batches(), id, static_cast<std::int32_t>(node), std::nullopt);
  settle(id, now_);
}

void KafkaProducer::batch_failed(BatchId id, FailureReason reason) {
  ProducerBatch& b = accumulator_.batch(id);
  if (b.done) return;
  b.done = true;
  if (b.base_sequence >= 0) host_.sequence_gap(index_, b.partition);
  observer_.batch_done(index_, accumulator_.batches(), id, -1, reason);
  settle(id, now_);
}

void KafkaProducer::batch_retried(BatchId) { observer_.batch_retried(index_); }

void KafkaProducer::memory_returned() { resume_after_memory(now_); }

// A batch is done (acked or failed): its partition unmuted, its memory back (which may let
// the waiting send() finish), and a closed-loop application may send again.
void KafkaProducer::settle(BatchId id, SimTime now) {
  const std::int32_t records = accumulator_.batch(id).records;
  if (!buffered_.counts.empty()) buffered_.add(accumulator_.batch(id).partition, -records);
  if (accumulator_.release(id)) resume_after_memory(now);
  return_tokens(records, now);
}

}  // namespace partsim::model
