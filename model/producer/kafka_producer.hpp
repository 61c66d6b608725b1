#pragma once
// One KafkaProducer and the application threads that call send() (spec §1): the record's
// partition (explicit, the partitioner object, the key's hash, or the accumulator's sticky
// choice), the size check, the append with its abort-for-new-batch second call, blocking
// on buffer.memory, and the sender thread's wake-ups. It owns the producer's metadata,
// RecordAccumulator and Sender; a ProducerHost gives it timers and the network, and it
// reports what happened to a ProducerObserver.

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "model/host_cores.hpp"
#include "model/partitioners/partitioner.hpp"
#include "model/producer/detail/prefetch.hpp"
#include "model/producer/producer_metadata.hpp"
#include "model/producer/record_accumulator.hpp"
#include "model/producer/sender.hpp"
#include "model/producer/workload.hpp"
#include "model/scenario.hpp"

namespace partsim::model {

/// What a producer needs from the simulation around it: timers and the network. The
/// engine implements it with its event queue; a test can implement it with a list.
class ProducerHost {
public:
  virtual ~ProducerHost() = default;
  // Timers: call the producer back at `at`.
  virtual void schedule_app(std::uint32_t producer, SimTime at) = 0;
  virtual void schedule_sender(std::uint32_t producer, std::uint64_t generation, SimTime at) = 0;
  virtual void schedule_buffer_timeout(std::uint32_t producer, std::uint64_t block, SimTime at) = 0;
  virtual void schedule_second_call(std::uint32_t producer, std::uint64_t send, SimTime at) = 0;
  virtual void schedule_request_deadline(std::uint32_t producer, SimTime at) = 0;
  /// Whether an event is due at `now` still to run (the one being handled is not).
  virtual bool event_due(SimTime) { return true; }
  /// Calls KafkaProducer::after_event once the event being handled is over (see
  /// KafkaProducer::skip_idle_passes); a host that never does must not skip passes.
  virtual void call_after_event(std::uint32_t) {}
  // The network.
  /// A request leaves for `node` carrying `batches` (ids in the producer's accumulator,
  /// readable during the call); returns its id on the network.
  virtual std::uint64_t send_request(std::uint32_t producer, std::size_t node, std::int64_t bytes,
                                     std::span<const BatchId> batches, bool expects_response) = 0;
  virtual void abandon_request(std::uint32_t producer, std::uint64_t request) = 0;
  /// A closed connection makes the client ask for metadata (answered a round trip later).
  virtual void request_metadata(std::uint32_t producer, std::size_t node) = 0;
  /// The client closed its connection to `node` (a request timed out, or the broker went
  /// away): its next request opens a new one.
  virtual void close_connection(std::uint32_t, std::size_t) {}
  /// An idempotent batch with a sequence failed for good: the partition's sequences have a
  /// gap the broker would refuse everything after (Kafka bumps the epoch, TM:549-570).
  virtual void sequence_gap(std::uint32_t, std::int32_t) {}
};

/// A record that went into a batch.
struct AppendedRecord {
  std::int32_t partition = 0;
  std::int32_t partitions_known = 0;    ///< the topic's partitions in the producer's metadata then
  std::int32_t bytes = 0;               ///< its size in the batch
  std::optional<std::string_view> key;  ///< none for a null key
  std::int32_t key_hash = 0;            ///< murmur2 of the key, when it has one
  SimTime intended;                     ///< when the application meant to send it
};

/// What a producer reports of what happened: the run's results. The engine's RunRecorder
/// implements it; a test can log the calls.
class ProducerObserver {
public:
  virtual ~ProducerObserver() = default;
  virtual void record_appended(std::uint32_t producer, const AppendedRecord& record) = 0;
  virtual void record_failed(std::uint32_t producer, FailureReason reason) = 0;
  /// Batch `id` of `batches` is done: acknowledged by `node` (no reason), or failed (node -1)
  /// for `reason`.
  virtual void batch_done(std::uint32_t producer, const BatchArena& batches, BatchId id, std::int32_t node,
                          std::optional<FailureReason> reason) = 0;
  virtual void batch_retried(std::uint32_t producer) = 0;
  /// A send() waited `waited` for buffer.memory.
  virtual void send_blocked(std::uint32_t producer, SimTime waited) = 0;
};

/// Where a producer keeps its state, and what its batches carry: fixed when it is built.
struct ProducerMemory {
  /// Its batches: a run shares one arena among its producers (see BatchArena); null gives
  /// the producer its own.
  std::shared_ptr<BatchArena> batches;
  /// Its per-partition state (sim::HugePageResource in a large run).
  std::pmr::memory_resource* resource = std::pmr::new_delete_resource();
  /// With it, batches carry a RecordTag per record (the run keeps the brokers' logs), a
  /// keyed record's key as this id; without, no tags.
  std::function<std::int32_t(std::string_view)> key_id;
};

/// How many records the run lets the producers send (shared by all producers).
struct SendBudget {
  std::optional<std::int64_t> run_records;  ///< run.records over all producers
  std::optional<SimTime> duration;          ///< run.duration.ms: no send() from then on
  std::int64_t* total_sent = nullptr;       ///< sends so far, all producers
};

/// Where a producer's send() calls are made a second time (a migration's dual write sends
/// each record to a second topic too, through another producer).
class SendMirror {
public:
  virtual ~SendMirror() = default;
  /// send() number `send_index` of `record`, meant for `intended`, went to the first producer.
  virtual void mirror(const GeneratedRecord& record, std::int64_t send_index, SimTime intended, SimTime now) = 0;
  /// The first producer stopped sending (close()).
  virtual void source_stopped(SimTime now) = 0;
};

class KafkaProducer : private SenderListener {
public:
  /// `index` names the producer to the host; `client_order` is the topic's partition list
  /// order and `leaders` its first metadata; `node_up` the engine's connection state per
  /// broker (read at every pass).
  KafkaProducer(std::uint32_t index, const ProducerSpec& spec, std::vector<std::int32_t> client_order,
                std::span<const std::int32_t> leaders, std::span<const char> node_up, const sim::RandomStreams& streams,
                SendBudget budget, ProducerHost& host, ProducerObserver& observer, ProducerMemory memory = {});

  /// The brokers' racks (node order): with client.rack set, the producer counts the records
  /// it appends to partitions led in its rack, and with partitioner.rack.aware the built-in
  /// partitioner prefers them (KIP-1123).
  void locate(std::span<const std::string> node_racks);
  /// Records appended (with a client.rack; 0 without), and those to a partition whose leader
  /// was in client.rack.
  std::int64_t records_located() const { return records_located_; }
  std::int64_t records_in_rack() const { return records_in_rack_; }

  /// The first send() is due (open loop) or the application starts (closed loop, flat out).
  void start(SimTime now);
  /// One send() of the application thread (KafkaProducer.doSend, spec §1.2). Returns when
  /// the next is due, or nothing when the thread waits (memory, acknowledgements, every
  /// thread busy) or has stopped. The host may run the next one inline when nothing else
  /// happens before it, or schedule it (schedule_app).
  std::optional<SimTime> send_next(SimTime now);
  /// The host could not run the next send inline: schedule it.
  void schedule_app(SimTime at, SimTime now);
  /// Whether the next record is made and hashed a send ahead and its partition's state
  /// prefetched (off by default: it pays only where the states do not stay in cache).
  void look_ahead_sends(bool on) { ahead_.enable(on && hashes_keys_); }
  /// A hint: the next send() comes soon (its record's partition state is prefetched).
  void prefetch_next_send() const {
    if (const std::int32_t p = ahead_.partition_of(sent_); p >= 0) accumulator_.prefetch_partition(p);
  }
  /// A migration's producer on the new topic (model/detail/migration_runner.hpp) waits,
  /// sending nothing, until the application moves to it (hand_over) or it starts taking the
  /// second send of each record (fed_by_mirror).
  void wait_for_application() { stopped_ = true; }
  /// The application moves to `next`: its send() calls go through `next` from now on, the
  /// workload where this producer left it and `shift` later (open loop: every arrival;
  /// otherwise the thread waits until now). This producer sends no more (close(): it flushes
  /// what it holds), and the closed-loop tokens its acknowledgements return go to `next`.
  void hand_over(KafkaProducer& next, SimTime shift, SimTime now);
  /// send() calls made here while the application ran elsewhere (hand_over).
  std::int64_t sent_before_hand_over() const { return links_ ? links_->handed_sent : 0; }
  /// Every send() of this producer is made again through `mirror` (null: none).
  void mirror_to(SendMirror* mirror) { links().mirror = mirror; }
  /// From now on this producer takes another's sends (mirrored_send) and makes no send() of
  /// its own (stopped() is true; closed() once close() is called).
  void fed_by_mirror() {
    stopped_ = false;
    fed_ = true;
  }
  /// No more send() calls (as when the workload ends): close() flushes what is buffered.
  void close(SimTime now) { stop(now); }
  /// Another producer's send() `send_index`, made again here (a dual write's second send).
  void mirrored_send(const GeneratedRecord& record, std::int64_t send_index, SimTime intended, SimTime now);
  /// The host's app event fired.
  void app_event_fired() { app_event_pending_ = false; }
  void on_second_call(std::uint64_t send, SimTime now);
  void on_buffer_timeout(std::uint64_t block, SimTime now);
  void on_sender_wake(std::uint64_t generation, SimTime now);
  /// A produce response; `errors` per batch of the request (empty: none).
  void on_response(std::uint64_t request, SimTime now, std::span<const ProduceError> errors = {});
  void on_request_deadline(SimTime now);
  /// The connection to `node` closed (the broker failed).
  void on_disconnect(std::size_t node, SimTime now);
  /// A metadata response: the topic's leaders (broker index or -1 per partition). When
  /// the topic has more partitions than the producer knew (`leaders` is longer),
  /// `client_order` lists them all in the client's order.
  void on_metadata(std::span<const std::int32_t> leaders, SimTime now, std::span<const std::int32_t> client_order = {});
  /// Wakes the sender thread at `t` (one live wake: an earlier one supersedes a later one),
  /// or once it is done with the CPU time of its last pass, if later.
  void wake_sender(SimTime t, SimTime now);
  /// Idle passes of the sender thread are left out (on by default; off, each runs and is
  /// checked against what the skip would have done: see wake_for_new_batch).
  void skip_idle_passes(bool on) { skip_idle_passes_ = on; }
  /// The event being handled is over: a wake-up an idle pass would have set is set now.
  void after_event(SimTime now);
  /// Runs the application and sender threads' CPU time on a host's shared cores.
  void place_on(HostCores* host) { host_cores_ = host; }

  std::uint32_t index() const { return index_; }
  const ProducerSpec& spec() const { return spec_; }
  /// Makes no send() of its own: stopped, or fed by another (fed_by_mirror).
  bool stopped() const { return stopped_ || fed_; }
  /// Closed: sends nothing more, neither its own nor what it is fed (a fed producer still
  /// refreshes its metadata while it is not).
  bool closed() const { return stopped_; }
  /// send() calls so far (failed ones included).
  std::int64_t sent() const { return sent_; }
  bool blocked() const { return blocked_; }
  bool open_loop() const { return workload_.open_loop(); }
  bool has_in_flight() const { return sender_.has_in_flight(); }
  const RecordAccumulator& accumulator() const { return accumulator_; }
  const Sender& sender() const { return sender_; }
  const ProducerMetadata& metadata() const { return metadata_; }
  /// Time send() calls waited for buffer.memory (bufferpool-wait-time, kafka-consumer-spec §10.1).
  SimTime buffer_wait() const { return buffer_wait_; }
  /// Records send() failed with an ApiException (max.block.ms, record too large): doSend
  /// records each into the "errors" sensor behind record-error-total (KP doSend's catch).
  std::int64_t send_errors() const { return send_errors_; }

private:
  struct PendingSend {  // a send() between partition choice and a finished append
    std::string key;
    bool has_key = false;
    std::int32_t key_hash = 0;    // murmur2(key), when it has one
    std::int64_t send_index = 0;  // sent_ before this send()
    AppendRequest request;
  };

  bool may_send(SimTime now) const;
  bool next_send_time(SimTime now, SimTime& next);
  void after_send(SimTime now);
  void stop(SimTime now);
  void return_tokens(std::int64_t records, SimTime now);
  void send_one(SimTime intended, SimTime now);
  // The partition choice, size check and append of record `send_index` (send_one, mirrored_send).
  void place(const GeneratedRecord& rec, std::int32_t key_hash, std::int64_t send_index, SimTime intended, SimTime now);
  // The payload part of the last record's shape (spec §5.2): a workload's records mostly
  // share one shape, and its varints are a good part of what a send costs.
  std::int32_t payload_part(const RecordShape& shape) {
    if (!(shape == payload_shape_)) {
      payload_shape_ = shape;
      payload_part_ = shape.payload_part();
    }
    return payload_part_;
  }
  void look_ahead();
  void finish_append(PendingSend& send, SimTime now);
  void resume_after_memory(SimTime now);
  bool threads_busy() const;
  std::optional<std::string_view> key_of(const PendingSend& s) const {
    return s.has_key ? std::optional<std::string_view>(s.key) : std::nullopt;
  }
  /// What a partitioner sees; `record_bytes`: the record's payload part (another client's
  /// partitioner estimates its size from it).
  PartitionerView view(std::int32_t record_bytes = 0) const {
    return PartitionerView{metadata_.available(),
                           metadata_.num_partitions(),
                           metadata_.leaders(),
                           metadata_.version(),
                           now_,
                           record_bytes,
                           buffered_.counts.empty() ? nullptr : &buffered_};
  }
  void settle(BatchId id, SimTime now);
  void run_sender(SimTime now);
  void wake_for_new_batch(std::int32_t partition, SimTime now);

  // SenderListener
  std::uint64_t request_sent(std::size_t node, std::span<const BatchId> batches, std::int64_t bytes,
                             bool expects_response) override;
  void watch_request_deadline(SimTime at) override;
  void request_abandoned(std::uint64_t request) override;
  void connection_closed(std::size_t node) override;
  void metadata_invalid(std::size_t node) override;
  void batch_acknowledged(BatchId batch, std::size_t node) override;
  void batch_failed(BatchId batch, FailureReason reason) override;
  void batch_retried(BatchId batch) override;
  void memory_returned() override;

  // Speed: payload_part(), the last shape asked about and its payload part. Every send reads
  // it, so it leads the object, beside the identity and config a send reads too (the layout
  // the benchmark figures of docs/performance.md were measured with).
  RecordShape payload_shape_;
  std::int32_t payload_part_ = RecordShape{}.payload_part();
  std::uint32_t index_;
  const ProducerSpec& spec_;
  const ProducerConfig& config_;
  ProducerHost& host_;
  SendBudget budget_;
  std::span<const char> node_up_;
  WorkloadGenerator workload_;
  // The partitioner as the producer's client runs it (kafka-versions.md), and the object, if any.
  PartitionerRun partitioner_;
  std::unique_ptr<Partitioner> custom_;  // partitioner.class, if any, or another client's partitioner
  // Records appended and not yet done, per partition: kept for franz-go's adaptive
  // partitioner only (empty otherwise).
  struct Buffered final : BufferedRecords {
    std::vector<std::int64_t> counts;
    std::int64_t buffered_records(std::int32_t p) const override {
      return static_cast<std::size_t>(p) < counts.size() ? counts[static_cast<std::size_t>(p)] : 0;
    }
    void add(std::int32_t p, std::int64_t n) {
      if (static_cast<std::size_t>(p) >= counts.size()) counts.resize(static_cast<std::size_t>(p) + 1, 0);
      counts[static_cast<std::size_t>(p)] += n;
    }
  } buffered_;
  /// onNewBatch and a second partition() call when a record would open a batch (2.4-3.9).
  bool second_call() const { return partitioner_.second_call && custom_->abort_on_new_batch(); }
  ProducerMetadata metadata_;
  PartitionDraw draw_;
  RecordAccumulator accumulator_;
  Sender sender_;
  bool keep_records_;               // batches carry a RecordTag per record (ProducerMemory::key_id)
  std::vector<char> node_in_rack_;  // client.rack: per node, in it (empty: no rack)
  std::int64_t records_located_ = 0, records_in_rack_ = 0;
  SimTime now_;  // the time of the call being handled (for sender callbacks)

  HostCores* host_cores_ = nullptr;  // the producer's host, or null: cores of its own

  // The sender thread's wake-up, and its CPU time (cpu.sender.*): a pass that sent requests
  // keeps the thread busy until sender_free_at_.
  SimTime sender_free_at_ = SimTime::zero();
  std::int64_t pass_requests_ = 0, pass_batches_ = 0, pass_bytes_ = 0;  // sent by the pass under way
  SimTime app_free_at_ = SimTime::zero();  // when the last send()'s CPU time (send.cost.us) ends
  SimTime wake_at_ = kNever;
  std::uint64_t wake_generation_ = 0;  // a wake of an older generation is stale
  // Idle passes (wake_for_new_batch): skipped, the wake-up set after the event; or, when
  // not skipped, the wake-up the skip would have set, checked by the pass.
  bool skip_idle_passes_ = true;
  bool rearm_after_event_ = false;
  bool in_pass_ = false;  // run_sender is under way
  std::optional<SimTime> predicted_wake_;

  // The application threads.
  std::int64_t sent_ = 0;
  SimTime next_due_;
  SimTime arrival_shift_;  // added to the workload's arrival times (hand_over's shift)
  bool app_event_pending_ = false;
  bool stopped_ = false;  // no more sends; close() flushes
  bool fed_ = false;      // sends only what a mirror hands it (fed_by_mirror)
  bool blocked_ = false;  // a send() waits for buffer.memory
  std::uint64_t block_id_ = 0;
  std::int32_t waiting_need_ = 0;  // the memory the waiting send() asked for
  SimTime block_start_;
  SimTime buffer_wait_;  // summed over every wait
  std::int64_t send_errors_ = 0;
  PendingSend pending_;
  std::int64_t tokens_ = 0;  // closed loop: sends that may be outstanding
  // Sends between their first and second partition() call (application threads > 1):
  // send -> (record, the partition of the first call).
  std::map<std::uint64_t, std::pair<PendingSend, std::int32_t>> second_calls_;
  std::deque<std::uint64_t> second_calls_waiting_;  // due while memory was exhausted
  std::uint64_t next_send_id_ = 0;
  bool hashes_keys_ = false;                              // records are partitioned by their key's hash
  speed::SendLookAhead ahead_;                            // Speed: the next send's key hashed ahead (look_ahead)
  std::function<std::int32_t(std::string_view)> key_id_;  // ProducerMemory::key_id (with keep_records_)
  // A migration's links (hand_over, mirror_to), apart: a producer without one keeps its size
  // (Speed: the members a send reads keep the layout the benchmarks were measured with).
  struct MigrationLinks {
    SendMirror* mirror = nullptr;
    KafkaProducer* successor = nullptr;  // where the application went (hand_over)
    std::int64_t handed_sent = 0;        // sent_ when the application came here (hand_over)
  };
  std::unique_ptr<MigrationLinks> links_;
  MigrationLinks& links() {
    if (!links_) links_ = std::make_unique<MigrationLinks>();
    return *links_;
  }
  // Speed: last, so that the members above keep the offsets the benchmarks were tuned with.
  ProducerObserver& observer_;
};

}  // namespace partsim::model
