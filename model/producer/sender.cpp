#include "model/producer/sender.hpp"

#include <algorithm>
#include <cmath>

#include <boost/random/uniform_real_distribution.hpp>

#include "sim/check.hpp"

namespace partsim::model {

SenderConfig SenderConfig::from(const ProducerConfig& c) {
  SenderConfig s;
  s.max_in_flight = c.max_in_flight;
  s.max_request_size_bytes = c.max_request_size_bytes;
  s.request_timeout = c.request_timeout;
  s.delivery_timeout = c.delivery_timeout;
  s.retries = c.retries;
  s.retry_backoff = c.retry_backoff;
  s.retry_backoff_max = c.retry_backoff_max;
  s.acks = c.acks;
  s.exponential_backoff = java::exponential_backoff(c.client) && !c.profile.flat_backoff;
  s.first_request_alone = c.profile.first_request_alone;
  return s;
}

Sender::Sender(const SenderConfig& config, RecordAccumulator& accumulator, const ProducerMetadata& metadata,
               SenderListener& listener, sim::RandomEngine backoff_rng)
    : config_(config),
      accumulator_(accumulator),
      metadata_(metadata),
      listener_(listener),
      backoff_rng_(backoff_rng),
      in_flight_(metadata.num_nodes(), 0),
      answered_(metadata.num_nodes(), 0) {
  metrics_.node_latency_ns.resize(metadata.num_nodes());
  metrics_.node_requests.resize(metadata.num_nodes(), 0);
  accumulator_.set_requests(this);
}

Sender::~Sender() { accumulator_.set_requests(nullptr); }

void Sender::visit_requested(const std::function<void(BatchId)>& visit) const {
  for (std::size_t i = 0; i < live_.size(); ++i)
    if (live_[i].live)
      for (const BatchId b : live_[i].batches) visit(b);
  for (const BatchId b : answering_) visit(b);
  for (const InFlight& r : abandoned_)
    for (const BatchId b : r.batches) visit(b);
}

SimTime Sender::run_once(SimTime now, std::span<const char> node_up, bool closing) {
  ReadyCheckResult& ready = ready_;
  accumulator_.ready(metadata_, now, closing, ready);
  bool sent_any = false, could_send = false;
  for (const std::size_t node : ready.ready_nodes) {
    // NetworkClient.ready (spec §4.2): connection up and room for another request.
    const std::int32_t limit = config_.first_request_alone && !answered_[node] ? 1 : config_.max_in_flight;
    const bool can_send = node_up[node] && in_flight_[node] < limit;
    accumulator_.update_node_latency(node, now, can_send);  // spec §3.7
    if (!can_send) continue;
    could_send = true;
    accumulator_.drain(metadata_, node, now, config_.max_request_size_bytes, drained_);
    if (drained_.empty()) {
      // RecordAccumulator.drain answers every ready node, with an empty list when nothing
      // could be drained, and updateProduceRequestMetrics records each node's record count:
      // a 0 sample of records-per-request (kafka-consumer-spec §10.1, SND:975-977) [derived].
      metrics_.records_per_request.record(0);
      continue;
    }
    send(node, drained_, now);
    sent_any = true;
  }
  if (!sent_any && ready.delay_excludes_ready_nodes && !ready.ready_nodes.empty())
    ready.next_ready_check_delay =
        std::min(ready.next_ready_check_delay, accumulator_.ready_nodes_check_delay(metadata_, now, ready.ready_nodes));
  // The next wake below needs the exact next expiry of the queued batches only where it
  // could win (the accumulator's cheap floor says when it cannot); it is taken before the
  // expired batches fail, as a failure may let a blocked send() create a batch.
  // pollTimeout (SND:414-441): the ready-check delay, capped by the next expiry of a queued
  // or in-flight batch; 0 once something was sent.
  const SimTime check = ready.next_ready_check_delay == kNever ? kNever : now + ready.next_ready_check_delay;
  const bool exact = !sent_any && accumulator_.expiry_floor() < check;
  const SimTime next_expiry = expire(now, exact);
  quiet_ = !could_send && expired_.empty();
  if (sent_any) return now;  // poll(0): another pass may drain more
  return std::min(next_expiry, check);
}

// sendProduceRequest (SND:861-922): one request per node with its drained batches.
void Sender::send(std::size_t node, std::vector<BatchId>& batches, SimTime now) {
  // updateProduceRequestMetrics (kafka-consumer-spec §10.1): per drained batch its size
  // (estimatedSizeInBytes: the built size once drained) and its queue time (drainedMs -
  // createdMs, earlier attempts included); per request its record count.
  std::int64_t bytes = 0;
  std::int64_t records = 0;
  for (const BatchId b : batches) {
    const ProducerBatch& batch = accumulator_.batch(b);
    bytes += batch.built_bytes;
    records += batch.records;
    metrics_.batch_bytes.record(batch.built_bytes);
    metrics_.queue_time_ns.record((now - batch.created).count_ns());
  }
  metrics_.records_per_request.record(records);
  ++metrics_.node_requests[node];
  const bool expects_response = config_.acks != Acks::kNone;
  const std::uint64_t id = listener_.request_sent(node, batches, bytes, expects_response);
  if (!expects_response) {
    // acks=0: complete as soon as the bytes are written; nothing stays in flight.
    for (const BatchId b : batches) listener_.batch_acknowledged(b, node);
    return;
  }
  for (const BatchId b : batches) accumulator_.batch(b).in_request = true;
  ++in_flight_[node];
  // Deadlines come in send order (one request.timeout.ms after each send), so one watch
  // follows the oldest request in flight.
  if (!deadline_watched_) {
    deadline_watched_ = true;
    listener_.watch_request_deadline(now + config_.request_timeout);
  }
  SimTime oldest = kNever;
  for (const BatchId b : batches) oldest = std::min(oldest, accumulator_.batch(b).created);
  next_inflight_expiry_ = std::min(next_inflight_expiry_, oldest + config_.delivery_timeout);
  live_.push_back(InFlight{id, node, std::vector<BatchId>(batches.begin(), batches.end()), now});
  live_ids_.push_back(id);
  ++live_count_;
}

// Batches past delivery.timeout.ms, queued (spec §3.9) and in flight (SND:186-218).
// Returns when the next one expires (`exact`), or a time none expires before.
SimTime Sender::expire(SimTime now, bool exact) {
  accumulator_.expired_batches(now, expired_);
  const SimTime next = exact ? accumulator_.next_expiry() : accumulator_.expiry_floor();
  if (live_count_ == 0) next_inflight_expiry_ = kNever;
  if (now >= next_inflight_expiry_) {
    next_inflight_expiry_ = kNever;
    for (std::size_t i = 0; i < live_.size(); ++i) {
      const InFlight& r = live_[i];
      for (const BatchId b : r.batches) {
        if (!r.live) break;
        const ProducerBatch& batch = accumulator_.batch(b);
        if (batch.done) continue;
        if (now - batch.created >= config_.delivery_timeout) expired_.push_back(b);
        else next_inflight_expiry_ = std::min(next_inflight_expiry_, batch.created + config_.delivery_timeout);
      }
    }
  }
  const SimTime result = std::min(next, next_inflight_expiry_);
  for (const BatchId b : expired_) fail(b, FailureReason::kDeliveryTimeout);
  return result;
}

void Sender::on_response(std::uint64_t request, SimTime now, std::span<const ProduceError> errors) {
  const std::size_t at = find_live(request);
  if (at == kNotFound) return;
  InFlight* found = &live_[at];
  quiet_ = false;
  found->live = false;
  live_ids_[at] = kGone;
  --live_count_;
  --in_flight_[found->node];
  const std::size_t node = found->node;
  answered_[node] = 1;
  // request-latency (kafka-consumer-spec §10.1): receivedTime - createdTime of a produce
  // response, in total and for its node; a request given up (disconnect, timeout) has none.
  const std::int64_t latency_ns = (now - found->sent).count_ns();
  metrics_.request_latency_ns.record(latency_ns);
  metrics_.node_latency_ns[node].record(latency_ns);
  // answering_ lists the batches for visit_requested until each has left its request:
  // nothing the listener does calls back into the sender meanwhile.
  PARTSIM_CHECK(answering_.empty(), "a response handled while another is");
  std::vector<BatchId>& batches = answering_;
  batches = std::move(found->batches);
  drop_dead_front();
  for (const BatchId b : batches) accumulator_.prefetch_batch(b);  // Speed: drained a round trip ago, seldom in cache
  bool invalid_metadata = false;
  for (std::size_t i = 0; i < batches.size(); ++i) {
    const BatchId b = batches[i];
    if (!accumulator_.leave_request(b)) continue;
    const ProduceError error = errors.empty() ? ProduceError::kNone : errors[i];
    if (error == ProduceError::kNone) {
      listener_.batch_acknowledged(b, node);
      continue;
    }
    // Every error partsim answers with is retriable (spec §4.3: canRetry); invalid-metadata
    // errors also ask for a metadata update.
    invalid_metadata = invalid_metadata || produce_error_info(error).invalid_metadata;
    retry_or_fail(b, now);
  }
  batches.clear();
  if (accumulator_.take_memory_returned()) listener_.memory_returned();
  if (invalid_metadata) listener_.metadata_invalid(node);
}

std::size_t Sender::find_live(std::uint64_t id) const {
  for (std::size_t i = 0; i < live_ids_.size(); ++i)
    if (live_ids_[i] == id) return i;
  return kNotFound;
}

void Sender::drop_dead_front() {
  while (!live_.empty() && !live_.front().live) {
    live_.pop_front();
    live_ids_.pop_front();
  }
}

void Sender::on_request_deadline(SimTime now) {
  quiet_ = false;
  deadline_watched_ = false;
  // The requests in flight past their deadline, oldest first (the front of live_ is in
  // flight: answered ones are dropped from it as they reach the front). request.timeout.ms
  // (spec §4.4): the connection is closed and every request in flight to that node fails
  // with a retriable error. The watch then follows the oldest request still in flight, so
  // requests answered meanwhile cost no event.
  while (!live_.empty() && live_.front().sent + config_.request_timeout <= now) disconnect(live_.front().node, now);
  if (!live_.empty()) {
    deadline_watched_ = true;
    listener_.watch_request_deadline(live_.front().sent + config_.request_timeout);
  }
}

void Sender::disconnect(std::size_t node, SimTime now) {
  quiet_ = false;
  PARTSIM_CHECK(abandoned_.empty(), "a connection closed while another closing is handled");
  std::vector<InFlight>& failed = abandoned_;
  for (std::size_t i = 0; i < live_.size(); ++i) {
    InFlight& r = live_[i];
    if (!r.live || r.node != node) continue;
    failed.push_back(std::move(r));
    r.live = false;
    live_ids_[i] = kGone;
    --live_count_;
  }
  drop_dead_front();
  for (InFlight& r : failed) {
    --in_flight_[node];
    listener_.request_abandoned(r.id);
    for (const BatchId b : r.batches)
      if (accumulator_.leave_request(b)) retry_or_fail(b, now);
  }
  failed.clear();
  if (accumulator_.take_memory_returned()) listener_.memory_returned();
  listener_.connection_closed(node);
}

void Sender::retry_or_fail(BatchId id, SimTime now) {
  ProducerBatch& b = accumulator_.batch(id);
  if (b.done) return;
  // Sender.canRetry (spec §4.3): within delivery.timeout.ms and attempts < retries.
  if (now - b.created >= config_.delivery_timeout) {
    fail(id, FailureReason::kDeliveryTimeout);
    return;
  }
  const std::int32_t attempts = accumulator_.batches().retry(id).attempts;
  if (attempts >= config_.retries) {
    fail(id, FailureReason::kRetriesExhausted);
    return;
  }
  // This attempt waits backoff(attempts) (the attempt index before re-enqueue counts it).
  metrics_.record_retry_total += b.records;  // recordRetries (kafka-consumer-spec §10.1)
  accumulator_.reenqueue(id, now, draw_backoff(attempts));
  listener_.batch_retried(id);
}

// failBatch records the batch's records as errors (kafka-consumer-spec §10.1, SND:828),
// once: a batch already done is not failed again.
void Sender::fail(BatchId id, FailureReason reason) {
  const ProducerBatch& b = accumulator_.batch(id);
  if (!b.done) metrics_.record_error_total += b.records;
  listener_.batch_failed(id, reason);
}

SimTime Sender::draw_backoff(std::int32_t k) {
  // Before 3.7 (kafka-versions.md "3.7"): a flat retry.backoff.ms, no jitter.
  if (!config_.exponential_backoff) return config_.retry_backoff;
  // ExponentialBackoff (spec §4.6). Kafka draws a fresh jitter each time ready() or drain()
  // asks; partsim draws one per attempt, when the batch is re-enqueued.
  const double initial = config_.retry_backoff.to_ms();
  const double max = config_.retry_backoff_max.to_ms();
  const double exp_max = max > initial && initial > 0 ? std::log(max / initial) / std::log(2.0) : 0.0;
  boost::random::uniform_real_distribution<double> jitter(0.8, 1.2);
  const double term = initial * std::pow(2.0, std::min(static_cast<double>(k), exp_max));
  const double ms = std::min(max, std::floor(jitter(backoff_rng_) * term));
  return SimTime::from_ms(ms);
}

}  // namespace partsim::model
