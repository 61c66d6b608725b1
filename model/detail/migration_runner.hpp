#pragma once
// A migration in the engine's event loop (book ch. 10.3, book-tables T10): the part that
// owns its moving parts. From at.ms:
//  - stop-replay: the producers of the old topic have stopped (their budget ends at at.ms);
//    the bridge copies the old topic; once it has copied everything and the producers hold
//    nothing more, and verify.ms later, the application resumes on the new topic;
//  - dual-write: every send() of the old topic's producers is made a second time on the new
//    topic, failing with dual.write.failure.rate (nothing repairs it);
//  - bridge: the bridge copies the old topic while the producers go on; once it has caught up
//    (copied everything readable) and verify.ms later, the application moves to the new
//    topic; the bridge still copies what was in flight. A bridge that catches up only once
//    the producers stopped makes no switch.
// The bridge is one consumer of the old topic, reading each partition's records as they
// become readable, and `threads` writer threads that share one KafkaProducer on the new
// topic (the engine's, whose observer this is): each thread sends one record and waits for
// its acknowledgement (send().get()), so records of several threads may share a batch and a
// request, and the producer's partitioner, retries and delivery.timeout.ms apply. Routed by
// key, a key's records go through one thread and keep their order; round robin, they may
// pass each other. The producers' side (their twins on the new topic) is the engine's
// (MigrationHost); the figures come from the logs the run leaves (migration::figures).
// Internal to partsim_model.

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/migration/migration.hpp"
#include "model/producer/kafka_producer.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"
#include "sim/random_streams.hpp"

namespace partsim::model::detail {

/// A step of the migration, at its time in the event loop.
struct MigrationStep {
  enum class Kind : std::uint8_t {
    kStart,   ///< at.ms
    kRead,    ///< records of old partition `index` become readable
    kThread,  ///< writer thread `index` may send (its pace, or the writer's memory)
    kSwitch,  ///< the application moves to the new topic
    kPoll,    ///< stop-replay: whether the producers hold nothing more
  };
  Kind kind;
  std::uint32_t index = 0;
};

/// What the migration needs of the engine.
class MigrationHost {
public:
  virtual ~MigrationHost() = default;
  virtual void schedule_migration(MigrationStep step, SimTime at) = 0;
  /// Every producer of the old topic has stopped sending; `and_idle`: and holds nothing
  /// (no batch buffered or in flight).
  virtual bool sources_stopped(bool and_idle) const = 0;
  /// Stop-replay at at.ms: the old topic's producers stop sending now (close()).
  virtual void stop_sources() = 0;
  /// The old topic's producers hand their application to their twins on the new topic,
  /// `shift` later (stop-replay's downtime).
  virtual void switch_producers(SimTime shift) = 0;
  /// Dual write: the old topic's producers make every send() again through their twins.
  virtual void start_dual_write() = 0;
  /// The bridge read a record of `bytes` from partition `partition` of the old topic.
  virtual void bridge_read(std::int32_t partition, std::int64_t bytes) = 0;
};

class MigrationRunner final : public ProducerObserver {
public:
  /// `logs`: the leaders' logs (kept: a migration reads them); `rows`: the run's partition
  /// rows (the old topic's average record sizes the bridge's writes). `from_row`, `to_row`:
  /// the two topics' first rows. `clock`: the simulation's time (read when the bridge's
  /// producer reports).
  MigrationRunner(const Scenario& s, const BrokerLogs& logs, const std::vector<PartitionStats>& rows,
                  std::size_t from_row, std::size_t to_row, const sim::RandomStreams& streams, const SimTime& clock,
                  MigrationHost& host);

  /// The bridge's producer (a KafkaProducer on the new topic that reports to this runner).
  void attach_writer(KafkaProducer& writer) { writer_ = &writer; }
  void start();  ///< schedules at.ms
  void step(const MigrationStep& step, SimTime now);
  /// Records of row `log` were appended or became readable.
  void readable_changed(std::size_t log, SimTime now);
  /// Whether the migration may still act (start, copy, switch): the run goes on for it.
  bool active() const;
  /// Dual write: whether the second send of the record fails (one draw per send()).
  bool second_send_fails();
  /// The record the bridge's send() `send_index` copies (its original's key, producer, send
  /// index and send time: a copy is its original's send() in the new topic).
  const LogRecord& copied(std::int64_t send_index) const {
    return copies_[static_cast<std::size_t>(send_index)].record;
  }
  /// The run is over: the figures (from the logs the run left).
  migration::MigrationResult finish() const;
  /// The bridge's last acknowledgement or given-up record (zero: none).
  SimTime last_completion() const { return last_completion_; }

  // ProducerObserver: what the bridge's producer reports of its records.
  void record_appended(std::uint32_t producer, const AppendedRecord& record) override;
  void record_failed(std::uint32_t producer, FailureReason reason) override;
  void batch_done(std::uint32_t producer, const BatchArena& batches, BatchId id, std::int32_t node,
                  std::optional<FailureReason> reason) override;
  void batch_retried(std::uint32_t) override {}
  void send_blocked(std::uint32_t, SimTime) override {}

private:
  struct Copy {  // one record the bridge read and writes
    LogRecord record;
    SimTime earliest;  // its pace
    std::uint32_t thread = 0;
  };
  struct Thread {
    std::deque<std::size_t> queue;  // copies, oldest first
    bool sending = false;           // its oldest is with the producer (send().get())
    bool waiting = false;           // a kThread step is pending
  };
  void read(std::uint32_t partition, SimTime now);
  void read_backlog(SimTime now);
  void take(std::uint32_t partition, SimTime now);
  void send(std::uint32_t thread, SimTime now);
  void done(std::size_t copy, bool acked, SimTime now);
  void wake(std::uint32_t thread, SimTime at);
  bool all_read(bool readable_only, SimTime now) const;
  void check_caught_up(SimTime now);
  RecordShape write_shape(std::int32_t key_bytes);

  const Scenario& s_;
  const MigrationSpec& spec_;
  const BrokerLogs& logs_;
  const std::vector<PartitionStats>& rows_;
  std::size_t from_row_, to_row_;
  std::int32_t from_partitions_;
  const SimTime& clock_;
  MigrationHost& host_;
  KafkaProducer* writer_ = nullptr;
  sim::RandomEngine dual_write_rng_;
  bool started_ = false, switch_pending_ = false, polling_ = false;
  std::vector<std::size_t> cursor_;  // per old partition: the records read
  std::vector<SimTime> read_due_;    // per old partition: a kRead pending then, or max
  std::vector<Copy> copies_;         // in read order
  std::vector<Thread> threads_;
  std::int64_t outstanding_ = 0;             // read, not acknowledged nor given up
  std::optional<std::size_t> feeding_;       // the copy being handed to the producer
  std::optional<std::size_t> blocked_copy_;  // the copy whose send() waits for buffer.memory
  double value_bytes_ = -1;                  // the writes' value size (the old topic's average record)
  SimTime last_completion_ = SimTime::zero();
  migration::Timeline timeline_;
};

}  // namespace partsim::model::detail
