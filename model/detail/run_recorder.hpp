#pragma once
// The run's recorder: the part of the engine that keeps the results. The producers report
// to it through ProducerObserver (records appended and failed, batches done and retried,
// blocked sends); the engine tells it what only the cluster knows (a request's wait in a
// broker's queue, the records a leader appended, for the per-key order check) and hands it
// each time-series sample. It owns the RunResult until the run is over, and reads the time
// from the engine's clock. Internal to partsim_model.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/producer/hot_keys.hpp"
#include "model/producer/kafka_producer.hpp"
#include "model/run_options.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::model::detail {

/// Where the run's rows are (RunResult::partitions: topic by topic, each with a row for
/// every partition it will have) and how many partitions each topic has now. The engine
/// owns these and keeps them current.
/// The engine's vectors must keep their size (and so their storage) for the recorder's life.
struct RunLayout {
  const std::vector<std::size_t>& topic_of;   ///< per producer: its topic
  const std::vector<std::size_t>& first_row;  ///< per topic: the row of its partition 0
  const std::vector<std::int32_t>& count;     ///< per topic: its partitions now
};

class RunRecorder final : public ProducerObserver {
public:
  /// `clock`: the simulation's time, read at every report. `grows`: per topic, whether the
  /// run adds partitions to it (result().repartition is kept then).
  RunRecorder(const Scenario& s, const RunOptions& options, const SimTime& clock, RunLayout layout,
              std::vector<bool> grows);

  RunResult& result() { return result_; }
  const RunResult& result() const { return result_; }

  // ProducerObserver
  void record_appended(std::uint32_t producer, const AppendedRecord& record) override;
  void record_failed(std::uint32_t producer, FailureReason reason) override;
  void batch_done(std::uint32_t producer, const BatchArena& batches, BatchId id, std::int32_t broker,
                  std::optional<FailureReason> reason) override;
  void batch_retried(std::uint32_t producer) override;
  void send_blocked(std::uint32_t producer, SimTime waited) override;

  /// A produce request waited `waited` in `broker`'s queue before its service began.
  void request_waited(std::size_t broker, SimTime waited);
  /// The leader appended `records` to the log of row `log` (LogOrder: a record behind one
  /// of the same key and producer sent later, or appended a second time).
  void check_order(std::size_t log, std::span<const LogRecord> records);
  /// Rows `first` to `first + count` are not checked for order (a migration's new topic,
  /// whose copies repeat their originals' send() calls: the migration's figures check it).
  void skip_order_check(std::size_t first, std::size_t count) {
    unchecked_rows_.resize(result_.partitions.size(), 0);
    for (std::size_t r = first; r < first + count; ++r) unchecked_rows_[r] = 1;
  }
  /// A failover cut `record` from its log: its retry is appended again, not a duplicate.
  void forget_appended(std::size_t log, const LogRecord& record);

  /// Time series: from now on, records per partition and queue waits per broker are summed
  /// between samples.
  void start_time_series();
  /// A sample: what the engine read of the producers now, with the sums since the last.
  void sample(std::vector<std::int32_t> partition_queue, std::vector<std::int32_t> broker_in_flight,
              std::int64_t buffer_bytes);

  /// The reassignments' time series: the latency of the records acknowledged since the
  /// last reset is kept too.
  void keep_interval_latency() { interval_latency_ = std::make_unique<LatencyHistogram>(); }
  const LatencyHistogram& interval_latency() const { return *interval_latency_; }
  void reset_interval_latency() { *interval_latency_ = LatencyHistogram{}; }

  SimTime last_append() const { return last_append_; }          ///< the run's last record appended
  SimTime last_completion() const { return last_completion_; }  ///< its last batch acknowledged or failed
  /// The run is over: the hot keys and the keys a partition increase split.
  void finish();
  /// The run is over: what producer `p` sent and measured joins the results (its metrics up
  /// to `last_completion`). `owner`: the scenario producer whose send() calls its records are
  /// (a migration's twin counts for its producer); `copies`: a migration's bridge, whose
  /// records are copies, not sends of the application.
  void add_producer(const KafkaProducer& p, std::uint32_t owner, bool copies, SimTime last_completion);
  /// How long each partition existed while the records counted were sent (`created`: per
  /// row, its creation time, or SimTime::max() if never made), from the warm-up on.
  void note_existence(std::span<const SimTime> created);

private:
  SimTime now() const { return clock_; }
  void record_batch(std::uint32_t producer, const BatchArena& batches, BatchId id, std::int32_t broker, bool acked);
  std::size_t row(std::uint32_t producer, std::int32_t partition) const {
    return first_row_[topic_of_[producer]] + static_cast<std::size_t>(partition);
  }

  const Scenario& s_;
  const RunOptions& options_;
  const SimTime& clock_;
  // Speed: the layout's arrays themselves (the engine never resizes them after building the
  // recorder): one load less per record than through the vectors, and the same cache lines
  // as the engine's reads of them.
  const std::size_t* topic_of_;
  const std::size_t* first_row_;
  const std::int32_t* count_;  // RunLayout::count, which the engine updates
  std::vector<bool> grows_;
  RunResult result_;
  SimTime last_append_ = SimTime::zero();
  SimTime last_completion_ = SimTime::zero();
  HotKeys hot_keys_;  // keyed records after the warm-up, per (partition, key)
  // Time-series sums since the last sample.
  std::vector<std::int64_t> ts_records_;
  std::vector<double> ts_wait_sum_;
  std::vector<std::int64_t> ts_wait_count_;
  // The per-key order check (LogOrder): per row, (producer, key) -> the highest send index
  // appended; per producer, the send indexes appended; per key, reordered.
  std::vector<std::unordered_map<std::uint64_t, std::int64_t>> order_max_;
  std::vector<std::vector<bool>> appended_;
  std::vector<char> key_reordered_;
  std::vector<char> unchecked_rows_;                    // per row: 1 when skipped (skip_order_check), or empty
  std::unique_ptr<LatencyHistogram> interval_latency_;  // kept for the reassignments' time series
  // Per topic that grows: key -> the partition of its records so far, -1 once split.
  // Looked up by string_view (transparent hash), so a key seen before costs no allocation.
  struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view key) const noexcept { return std::hash<std::string_view>{}(key); }
  };
  std::vector<std::unordered_map<std::string, std::int32_t, KeyHash, std::equal_to<>>> key_partition_;
};

}  // namespace partsim::model::detail
