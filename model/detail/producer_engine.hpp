#pragma once
// The producer engine behind run_scenario (cluster_simulation.hpp): the events, the state
// of producers, brokers and topics, and the Engine that handles each event. Internal to
// partsim_model; its methods are spread by concern over cluster_simulation.cpp (setup,
// metadata, sampling), producer_append.cpp (KafkaProducer.send and the accumulator),
// producer_sender.cpp (the sender) and broker_service.cpp (brokers and their schedules).

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <variant>
#include <vector>

#include "model/partitioners/builtin_partitioner.hpp"
#include "model/cluster_simulation.hpp"
#include "model/partitioners/partitioner.hpp"
#include "model/producer/hot_keys.hpp"
#include "model/producer/record_size.hpp"
#include "model/producer/workload.hpp"
#include "sim/random_streams.hpp"
#include "sim/simulation.hpp"

namespace partsim::model::detail {

using sim::EventId;

// ---- events: a closed set of small structs ----------------------------------------------
struct AppSend { std::uint32_t producer; };
struct SenderWake { std::uint32_t producer; std::uint64_t generation; };
struct RequestArrive { std::uint64_t request; };
struct BrokerDone { std::uint32_t broker; std::uint64_t epoch; std::uint64_t request; };
struct ResponseArrive { std::uint64_t request; };
struct RequestTimeout { std::uint32_t producer; };  // check the oldest request deadlines
struct Disconnect { std::uint32_t producer; std::uint32_t broker; std::uint64_t epoch; };
struct BufferTimeout { std::uint32_t producer; std::uint64_t block; };
struct MetadataRefresh { std::uint32_t producer; };
struct SecondCall { std::uint32_t producer; std::uint64_t send; };  // a thread's second partition() call
struct Sample {};  // time series
struct LeaderCheck {};  // the controller's periodic preferred-leader check
struct BrokerScheduleStep { std::uint32_t broker; std::uint32_t index; };
using Event = std::variant<AppSend, SenderWake, RequestArrive, BrokerDone, ResponseArrive, RequestTimeout, Disconnect,
                           BufferTimeout, MetadataRefresh, BrokerScheduleStep, SecondCall, Sample, LeaderCheck>;

constexpr SimTime kNever = SimTime::max();

// ---- producer-side state -----------------------------------------------------------------
struct Batch {
  std::int32_t partition = 0;
  std::uint64_t sequence = 0;      // creation order within the producer
  SimTime created, last_attempt, backoff, sent;
  std::int32_t records = 0;
  std::int32_t attempts = 0;
  std::int64_t record_bytes = 0;   // U: exact uncompressed record sizes
  std::int32_t capacity = 0;       // write limit: max(batch.size, first record's upper bound)
  std::int32_t built_bytes = 0;    // set when drained (closed and built)
  bool closed = false;             // closed for appends
  bool built = false;
  bool done = false;
  bool in_request = false;         // a live request carries it: its slot must not be reused
  float ratio_estimate = 1.0f;
  bool compressed = false;
  std::int64_t base_timestamp_ms = 0;
  std::vector<SimTime> send_times; // per record, for latency
};

struct Request {
  std::uint32_t producer = 0;
  std::uint32_t broker = 0;
  std::vector<std::uint32_t> batches;
  std::int64_t bytes = 0;
  SimTime sent, arrived;
  bool live = true;
};

struct NodeLatency {  // spec §3.7
  bool exists = false;
  SimTime ready_time, drain_time;
};

struct PendingSend {  // a send() whose append waits for buffer memory
  std::string key;
  bool has_key = false;
  RecordShape shape;
  std::int32_t partition = -1;
  bool abort_on_new_batch = false;  // a partitioner object gets a second call (spec §1.2)
  SimTime intended;
  std::int32_t need = 0;
};

struct Producer {
  std::uint32_t index = 0;
  const ProducerSpec* spec = nullptr;
  const ProducerConfig* cfg = nullptr;
  std::uint32_t topic = 0;
  std::int32_t num_partitions = 0;
  std::unique_ptr<WorkloadGenerator> workload;
  std::unique_ptr<BuiltInPartitioner> partitioner;  // used when there is no partitioner object
  std::unique_ptr<Partitioner> custom;               // partitioner.class, if any
  sim::RandomEngine backoff_rng;
  bool compressed = false;
  float ratio_estimate = 1.0f;  // CompressionRatioEstimator (spec §5.3), this producer's topic

  // metadata view (spec §2.2): leaders as last refreshed
  std::vector<std::int32_t> leader_view;       // broker index or -1
  std::vector<std::int32_t> available;         // client order, leader known
  std::vector<std::vector<std::int32_t>> parts_for_node;

  // accumulator (spec §3)
  std::vector<std::deque<std::uint32_t>> deques;
  // Deques of partitions the metadata does not know (a partitioner answered too large):
  // never drained, their batches expire (spec §1.4).
  std::map<std::int32_t, std::deque<std::uint32_t>> limbo;
  std::vector<char> deque_exists;
  std::int32_t deques_created = 0;
  std::vector<char> muted;
  std::int64_t available_memory = 0;
  std::vector<std::uint32_t> drain_index;
  std::uint64_t next_batch_sequence = 0;

  // sender (spec §4)
  std::vector<std::int32_t> in_flight;
  std::vector<NodeLatency> node_latency;
  SimTime wake_at = kNever;
  std::uint64_t wake_generation = 0;  // a wake event of an older generation is stale
  SimTime next_inflight_expiry = kNever;
  std::vector<std::uint64_t> live_requests;
  std::deque<std::pair<SimTime, std::uint64_t>> deadlines;  // request.timeout.ms, in send order
  bool timeout_timer_pending = false;
  std::vector<char> ready_nodes;
  std::vector<std::int32_t> queue_sizes, queue_ids;

  // application thread
  std::int64_t sent = 0;
  SimTime next_due;
  bool app_event_pending = false;
  bool stopped = false;   // no more sends; flushing
  bool blocked = false;
  std::uint64_t block_id = 0;
  SimTime block_start;
  PendingSend pending;
  std::int64_t tokens = 0;  // closed loop: sends that may be outstanding
  // Sends between their first and second partition() call (application threads > 1).
  std::map<std::uint64_t, std::pair<PendingSend, std::int32_t>> second_calls;  // send -> (record, previous)
  std::deque<std::uint64_t> second_calls_waiting;  // due while the producer was blocked on memory
  std::uint64_t next_send_id = 0;
};

struct Broker {
  const BrokerConfig* cfg = nullptr;
  SimTime rtt, request_time;
  double bytes_per_second = 0;
  bool up = true;
  std::uint64_t epoch = 0;
  std::deque<std::uint64_t> queue;
  bool busy = false;
  sim::RandomEngine jitter_rng;
};

struct TopicState {
  const TopicConfig* cfg = nullptr;
  std::vector<std::vector<std::int32_t>> replicas;  // broker indexes, preferred leader first
  std::vector<std::int32_t> leader;                 // current leader (broker index) or -1
  std::vector<std::int32_t> client_order;
  std::size_t stats_offset = 0;                     // into RunResult::partitions
};

class Engine {
public:
  Engine(const Scenario& s, std::uint64_t seed, std::uint64_t replication, const RunOptions& options);
  RunResult run();

  void operator()(const AppSend& e);
  void operator()(const SenderWake& e);
  void operator()(const RequestArrive& e);
  void operator()(const BrokerDone& e);
  void operator()(const ResponseArrive& e);
  void operator()(const RequestTimeout& e);
  void operator()(const Disconnect& e);
  void operator()(const BufferTimeout& e);
  void operator()(const MetadataRefresh& e);
  void operator()(const BrokerScheduleStep& e);
  void operator()(const SecondCall& e);
  void operator()(const Sample& e);
  void operator()(const LeaderCheck& e);
  void snapshot_leaders(const std::string& cause);
  void refresh_all_metadata(SimTime delay);
  bool threads_busy(const Producer& p) const;

private:
  SimTime now() const { return sim_.now(); }
  bool cancelled() const { return options_.cancel && options_.cancel->load(std::memory_order_relaxed); }
  Batch& batch(std::uint32_t id) { return batches_[id]; }
  std::uint32_t new_batch();
  void free_batch(std::uint32_t id);

  // application thread
  bool may_send(Producer& p);
  void schedule_app(Producer& p, SimTime t);
  void after_send(Producer& p);
  bool next_send_time(Producer& p, SimTime& next);
  void send_one(Producer& p, SimTime intended);
  void finish_append(Producer& p, PendingSend& r, std::int32_t reserved);
  void stop_producer(Producer& p);
  void return_token(Producer& p, std::int64_t records);

  // accumulator
  static bool is_full(const Batch& b);
  static std::int32_t estimated_bytes(const Batch& b);
  bool all_batches_full(Producer& p, std::int32_t partition);
  std::deque<std::uint32_t>& deque_of(Producer& p, std::int32_t partition);
  PartitionerView view(const Producer& p) const;
  bool try_append(Producer& p, Batch& b, const RecordShape& shape, SimTime intended, std::int32_t& appended);
  void deallocate(Producer& p, std::int32_t bytes);
  void seal(Producer& p, Batch& b);
  void complete_batch(Producer& p, std::uint32_t id, std::uint32_t broker);
  void fail_batch(Producer& p, std::uint32_t id, std::int64_t FailureCounts::*reason);
  void settle(Producer& p, std::uint32_t id);
  void record_batch(const Producer& p, const Batch& b, std::int32_t broker, bool acked);
  bool leave_request(std::uint32_t id);
  void retry_or_fail(Producer& p, std::uint32_t id);
  SimTime draw_backoff(Producer& p, std::int32_t attempt_index);

  // sender
  void wake_sender(Producer& p, SimTime t);
  void run_sender(Producer& p);
  std::vector<std::uint32_t> drain(Producer& p, std::uint32_t node);
  void send_request(Producer& p, std::uint32_t node, std::vector<std::uint32_t> batches);
  void disconnect(Producer& p, std::uint32_t broker);
  SimTime expire(Producer& p);
  void refresh_metadata(Producer& p);

  // brokers
  void start_service(std::uint32_t b);
  SimTime jitter(Broker& b);
  // Half the round trip, rounded half up (rtt is whole nanoseconds).
  SimTime one_way(const Broker& b) const { return SimTime::ns((b.rtt.count_ns() + 1) / 2); }
  void fail_broker(std::uint32_t b);
  void recover_broker(std::uint32_t b);

  const Scenario& s_;
  RunOptions options_;
  bool track_leaders_ = false;  // the scenario fails brokers: keep leader counts over time
  // Time-series accumulators since the last sample.
  std::vector<std::int64_t> ts_records_;
  std::vector<double> ts_wait_sum_;
  std::vector<std::int64_t> ts_wait_count_;
  sim::RandomStreams streams_;
  sim::Simulation<Event, sim::CalendarStore<Event>> sim_;
  std::vector<Producer> producers_;
  std::vector<Broker> brokers_;
  std::vector<TopicState> topics_;
  std::vector<Batch> batches_;
  std::vector<std::uint32_t> free_batches_;
  std::unordered_map<std::uint64_t, Request> requests_;
  std::uint64_t next_request_ = 1;
  std::int64_t total_sent_ = 0;
  SimTime last_completion_ = SimTime::zero();
  HotKeys hot_keys_;  // keyed records sent after the warm-up, per (partition, key)
  RunResult result_;
};

}  // namespace partsim::model::detail
