#pragma once
// The Sender (spec §4): one pass asks the accumulator which nodes are ready, drains each
// node that can take another request into one produce request, and expires batches past
// delivery.timeout.ms; responses complete batches, a closed connection fails every request
// in flight to its node, and a retriable failure puts a batch back with a jittered
// exponential backoff until retries or delivery.timeout.ms run out. It takes the time on
// every call and reports through a SenderListener: it knows no event queue.

#include <cstdint>
#include <span>
#include <vector>

#include "model/producer/record_accumulator.hpp"
#include "model/producer/sender_metrics.hpp"
#include "model/run_result.hpp"
#include "sim/random_streams.hpp"

namespace partsim::model {

struct SenderConfig {
  std::int32_t max_in_flight = 5;                  ///< max.in.flight.requests.per.connection
  std::int32_t max_request_size_bytes = 1048576;   ///< max.request.size
  SimTime request_timeout = SimTime::ms(30000);    ///< request.timeout.ms
  SimTime delivery_timeout = SimTime::ms(120000);  ///< delivery.timeout.ms
  std::int64_t retries = 2147483647;               ///< retries
  SimTime retry_backoff = SimTime::ms(100);        ///< retry.backoff.ms
  SimTime retry_backoff_max = SimTime::ms(1000);   ///< retry.backoff.max.ms
  Acks acks = Acks::kAll;                          ///< acks
  /// Exponential, jittered backoff up to retry.backoff.max.ms (3.7+, KIP-580); false: every
  /// retry waits a flat retry.backoff.ms (java::exponential_backoff).
  bool exponential_backoff = true;
  /// franz-go: one request in flight to a broker until it has answered one.
  bool first_request_alone = false;

  static SenderConfig from(const ProducerConfig& c);
};

/// What the sender reports, in the order it happens.
class SenderListener {
public:
  virtual ~SenderListener() = default;
  /// A produce request leaves for `node` with these batches (one per partition). Returns
  /// the id its response and every later call about it carry.
  virtual std::uint64_t request_sent(std::size_t node, std::span<const BatchId> batches, std::int64_t bytes,
                                     bool expects_response) = 0;
  /// Watch this request deadline (request.timeout.ms) and call on_request_deadline then.
  virtual void watch_request_deadline(SimTime at) = 0;
  /// A request in flight was given up (its connection closed): its response must not count.
  virtual void request_abandoned(std::uint64_t request) = 0;
  /// The connection to `node` was closed: the client asks for a metadata update.
  virtual void connection_closed(std::size_t node) = 0;
  /// `node` answered with an InvalidMetadataException (NOT_LEADER_OR_FOLLOWER, ...): the
  /// client asks for a metadata update (SND:705-723, kafka-consumer-spec §6.2).
  virtual void metadata_invalid(std::size_t node) = 0;
  virtual void batch_acknowledged(BatchId batch, std::size_t node) = 0;
  virtual void batch_failed(BatchId batch, FailureReason reason) = 0;
  virtual void batch_retried(BatchId batch) = 0;
  /// A request came back holding a batch that had expired in flight, and the memory it kept
  /// (KAFKA-19012) let a send() waiting for buffer.memory go on.
  virtual void memory_returned() = 0;
};

class Sender : public RequestedBatches {
public:
  Sender(const SenderConfig& config, RecordAccumulator& accumulator, const ProducerMetadata& metadata,
         SenderListener& listener, sim::RandomEngine backoff_rng);
  ~Sender() override;
  Sender(const Sender&) = delete;  // the accumulator keeps a pointer to it
  Sender& operator=(const Sender&) = delete;

  /// runOnce / sendProducerData (spec §4.1). `node_up[node]`: the connection can be used;
  /// `closing`: the producer is closing and flushes. Returns when the next pass is due:
  /// `now` after sending (poll(0)), the ready-check delay or the next expiry, or kNever when
  /// only a response or a new batch will wake it.
  SimTime run_once(SimTime now, std::span<const char> node_up, bool closing);

  /// A response to a request in flight (acks 1 or all): each batch completes, or with a
  /// retriable error in `errors` (one per batch, in the request's order; empty: none) is
  /// retried while it may (completeBatch, spec §4.3).
  void on_response(std::uint64_t request, SimTime now, std::span<const ProduceError> errors = {});
  /// The watched deadline came: a request past request.timeout.ms closes its connection
  /// (spec §4.4).
  void on_request_deadline(SimTime now);
  /// The connection to `node` closed: every request in flight to it fails with a
  /// retriable error (NETWORK_EXCEPTION).
  void disconnect(std::size_t node, SimTime now);

  /// The last pass sent nothing, failed nothing and found no ready node it could send to,
  /// and no response or closed connection came since: a pass now would do the same, but for
  /// what the batches created since change (KafkaProducer's skip of idle passes).
  bool quiet() const { return quiet_; }

  std::int32_t in_flight(std::size_t node) const { return in_flight_[node]; }
  bool has_in_flight() const { return live_count_ > 0; }
  /// What SenderMetrics has recorded so far (kafka-consumer-spec §10.1).
  const SenderMetrics& metrics() const { return metrics_; }
  /// ExponentialBackoff.backoff(attempt_index) (spec §4.6): min(max, U(0.8, 1.2) x initial x
  /// 2^min(k, log2(max / initial))), in whole milliseconds.
  SimTime draw_backoff(std::int32_t attempt_index);

  /// The batches of the requests in flight, and of those being answered or given up now.
  void visit_requested(const std::function<void(BatchId)>& visit) const override;

private:
  struct InFlight {
    std::uint64_t id;
    std::size_t node;
    std::vector<BatchId> batches;
    SimTime sent;      // the request's createdTime: request-latency counts from here
    bool live = true;  // false once answered or given up: dropped when it reaches the front
  };
  static constexpr std::size_t kNotFound = static_cast<std::size_t>(-1);
  std::size_t find_live(std::uint64_t id) const;  // its index in live_, or kNotFound
  void drop_dead_front();
  void send(std::size_t node, std::vector<BatchId>& batches, SimTime now);
  SimTime expire(SimTime now, bool exact);
  void retry_or_fail(BatchId id, SimTime now);
  void fail(BatchId id, FailureReason reason);

  SenderConfig config_;
  RecordAccumulator& accumulator_;
  const ProducerMetadata& metadata_;
  SenderListener& listener_;
  sim::RandomEngine backoff_rng_;
  std::vector<std::int32_t> in_flight_;
  std::vector<char> answered_;        // first_request_alone: the broker has answered a request
  detail::RingQueue<InFlight> live_;  // send order, with answered ones not yet dropped
  // Beside live_, entry for entry: the id while in flight, kGone after. A response finds its
  // request by scanning these (a few cache lines for a producer with 50 requests in flight)
  // rather than the entries themselves.
  static constexpr std::uint64_t kGone = UINT64_MAX;
  detail::RingQueue<std::uint64_t> live_ids_;
  std::size_t live_count_ = 0;
  bool deadline_watched_ = false;
  bool quiet_ = false;
  SimTime next_inflight_expiry_ = kNever;
  std::vector<BatchId> drained_, expired_;
  // A response's batches while they are worked through, and the requests a closed
  // connection gave up (visit_requested lists them: some have not left their request yet).
  std::vector<BatchId> answering_;
  std::vector<InFlight> abandoned_;
  ReadyCheckResult ready_;
  SenderMetrics metrics_;
};

}  // namespace partsim::model
