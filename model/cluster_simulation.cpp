#include "model/cluster_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <variant>
#include <vector>

#include <boost/random/exponential_distribution.hpp>
#include <boost/random/lognormal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>

#include "model/builtin_partitioner.hpp"
#include "model/key_hash.hpp"
#include "model/partition_order.hpp"
#include "model/record_size.hpp"
#include "model/workload.hpp"
#include "sim/check.hpp"
#include "sim/random_streams.hpp"
#include "sim/simulation.hpp"

namespace partsim::model {
namespace {

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
struct BrokerScheduleStep { std::uint32_t broker; std::uint32_t index; };
using Event = std::variant<AppSend, SenderWake, RequestArrive, BrokerDone, ResponseArrive, RequestTimeout, Disconnect,
                           BufferTimeout, MetadataRefresh, BrokerScheduleStep, SecondCall, Sample>;

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
  double rtt_ms = 0, request_time_ms = 0, byte_rate = 0;
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
  SimTime one_way(const Broker& b) const { return SimTime::from_ms(b.rtt_ms / 2); }
  void fail_broker(std::uint32_t b);
  void recover_broker(std::uint32_t b);

  const Scenario& s_;
  RunOptions options_;
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
  RunResult result_;
};

// ---- construction --------------------------------------------------------------------------

Engine::Engine(const Scenario& s, std::uint64_t seed, std::uint64_t replication, const RunOptions& options)
    : s_(s), options_(options), streams_(seed, replication) {
  result_.scenario = s.name;
  result_.seed = seed;
  result_.window_ms = s.run.window.to_ms();
  for (const auto& bc : s.brokers) {
    Broker b;
    b.cfg = &bc;
    b.rtt_ms = bc.rtt_ms;
    b.request_time_ms = bc.request_time_ms;
    b.byte_rate = bc.byte_rate;
    b.jitter_rng = streams_.stream("broker/" + std::to_string(bc.id) + "/jitter");
    brokers_.push_back(std::move(b));
    BrokerStats bs;
    bs.broker = bc.id;
    result_.brokers.push_back(bs);
  }
  const auto num_brokers = static_cast<std::int32_t>(brokers_.size());
  for (const auto& tc : s.topics) {
    TopicState t;
    t.cfg = &tc;
    t.stats_offset = result_.partitions.size();
    // Replicas round-robin over the brokers, leader first (placement is refined later).
    for (std::int32_t p = 0; p < tc.partitions; ++p) {
      std::vector<std::int32_t> r;
      for (std::int32_t j = 0; j < tc.replication_factor; ++j) r.push_back((p + j) % num_brokers);
      t.leader.push_back(r.front());
      t.replicas.push_back(std::move(r));
      PartitionStats ps;
      ps.topic = tc.name;
      ps.partition = p;
      result_.partitions.push_back(ps);
    }
    if (s.run.sorted_partition_order) {
      t.client_order.resize(static_cast<std::size_t>(tc.partitions));
      for (std::int32_t p = 0; p < tc.partitions; ++p) t.client_order[static_cast<std::size_t>(p)] = p;
    } else {
      t.client_order = java_hashmap_partition_order(tc.name, tc.partitions);
    }
    topics_.push_back(std::move(t));
  }
  for (std::uint32_t i = 0; i < s.producers.size(); ++i) {
    const auto& spec = s.producers[i];
    Producer p;
    p.index = i;
    p.spec = &spec;
    p.cfg = &spec.config;
    for (std::uint32_t t = 0; t < s.topics.size(); ++t)
      if (s.topics[t].name == spec.workload.topic) p.topic = t;
    p.num_partitions = s.topics[p.topic].partitions;
    p.workload = std::make_unique<WorkloadGenerator>(spec.workload, streams_, spec.name);
    auto draw_rng = std::make_shared<sim::RandomEngine>(streams_.stream("producer/" + spec.name + "/partitioner"));
    // toPositive(nextInt()): 31 uniform bits (spec §2.1).
    const PartitionDraw draw = [draw_rng] { return static_cast<std::int32_t>((*draw_rng)() >> 33); };
    p.partitioner = std::make_unique<BuiltInPartitioner>(spec.config.batch_size, draw);
    p.custom = make_partitioner(spec.config.partitioner, draw);
    p.backoff_rng = streams_.stream("producer/" + spec.name + "/sender/backoff");
    p.compressed = spec.config.compression != Compression::kNone;
    const auto n = static_cast<std::size_t>(p.num_partitions);
    p.deques.resize(n);
    p.deque_exists.assign(n, 0);
    p.muted.assign(n, 0);
    p.available_memory = spec.config.buffer_memory;
    p.drain_index.assign(brokers_.size(), 0);
    p.in_flight.assign(brokers_.size(), 0);
    p.node_latency.resize(brokers_.size());
    p.ready_nodes.assign(brokers_.size(), 0);
    p.tokens = spec.workload.arrivals.concurrency;
    producers_.push_back(std::move(p));
  }
  for (auto& p : producers_) refresh_metadata(p);
}

RunResult Engine::run() {
  for (auto& p : producers_) {
    if (p.workload->open_loop()) {
      p.next_due = p.workload->next_arrival(SimTime::zero());
      schedule_app(p, p.next_due);
    } else {
      schedule_app(p, SimTime::zero());
    }
  }
  for (std::uint32_t b = 0; b < brokers_.size(); ++b)
    for (std::uint32_t i = 0; i < brokers_[b].cfg->schedule.size(); ++i)
      sim_.schedule_at(brokers_[b].cfg->schedule[i].at, BrokerScheduleStep{b, i});

  if (options_.timeseries > SimTime::zero()) {
    result_.timeseries.interval_ms = options_.timeseries.to_ms();
    ts_records_.assign(result_.partitions.size(), 0);
    ts_wait_sum_.assign(brokers_.size(), 0.0);
    ts_wait_count_.assign(brokers_.size(), 0);
    sim_.schedule_at(SimTime::zero(), Sample{});
  }
  // Run in slices so that a cancel request is seen within a few thousand events.
  sim::StopRule slice;
  slice.max_events = 4096;
  for (;;) {
    if (cancelled()) {
      result_.partial = true;
      break;
    }
    if (sim_.run(slice, [this](const Event& e) { std::visit(*this, e); }) != sim::StopReason::kEventLimit) break;
  }

  result_.simulated_ms = last_completion_.to_ms();
  // Work done, not a result: sampling adds events (and breaks inline sends into events).
  result_.events = sim_.events_processed();
  for (const auto& t : topics_)
    for (std::size_t p = 0; p < t.leader.size(); ++p) {
      const std::int32_t l = t.leader[p];
      result_.partitions[t.stats_offset + p].leader = l < 0 ? -1 : brokers_[static_cast<std::size_t>(l)].cfg->id;
    }
  for (const auto& p : producers_) {
    result_.partitioner_switches += p.partitioner->switches();
    const auto& chosen = p.partitioner->adaptive_choices();
    const auto& expected = p.partitioner->adaptive_expected();
    const std::size_t base = topics_[p.topic].stats_offset;
    if (chosen.empty()) continue;
    result_.adaptive_choices.resize(result_.partitions.size(), 0);
    result_.adaptive_expected.resize(result_.partitions.size(), 0.0);
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      result_.adaptive_choices[base + i] += chosen[i];
      result_.adaptive_expected[base + i] += expected[i];
    }
  }
  return std::move(result_);
}

std::uint32_t Engine::new_batch() {
  std::uint32_t id;
  if (!free_batches_.empty()) {
    id = free_batches_.back();
    free_batches_.pop_back();
    auto times = std::move(batches_[id].send_times);
    times.clear();
    batches_[id] = Batch{};
    batches_[id].send_times = std::move(times);
  } else {
    id = static_cast<std::uint32_t>(batches_.size());
    batches_.emplace_back();
  }
  return id;
}

void Engine::free_batch(std::uint32_t id) { free_batches_.push_back(id); }

// ---- metadata -------------------------------------------------------------------------------

void Engine::refresh_metadata(Producer& p) {
  const TopicState& t = topics_[p.topic];
  p.leader_view = t.leader;
  p.available.clear();
  for (auto& v : p.parts_for_node) v.clear();
  p.parts_for_node.resize(brokers_.size());
  for (std::int32_t part : t.client_order) {
    const std::int32_t l = t.leader[static_cast<std::size_t>(part)];
    if (l < 0) continue;
    p.available.push_back(part);
    p.parts_for_node[static_cast<std::size_t>(l)].push_back(part);
  }
}

void Engine::operator()(const MetadataRefresh& e) {
  Producer& p = producers_[e.producer];
  refresh_metadata(p);
  wake_sender(p, now());
}

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
  const SimTime free_at = now() + SimTime::from_ms(a.send_cost_us / 1000.0);
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
  if (upper > p.cfg->max_request_size || upper > p.cfg->buffer_memory) {
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
  r.need = std::max(p.cfg->batch_size, upper);
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
        if (arrivals.threads > 1 && arrivals.partition_gap_us > 0) {
          // This thread makes its second call a little later; other threads go on.
          if (reserved > 0) deallocate(p, reserved);
          const std::uint64_t id = p.next_send_id++;
          p.second_calls.emplace(id, std::make_pair(r, eff));
          sim_.schedule_in(SimTime::from_ms(arrivals.partition_gap_us / 1000.0), SecondCall{p.index, id});
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
          sim_.schedule_in(SimTime::from_ms(p.cfg->max_block_ms), BufferTimeout{p.index, p.block_id});
          wake_sender(p, now());  // waiters make every partition sendable ("exhausted")
          return;
        }
        p.available_memory -= r.need;
        reserved = r.need;
        result_.peak_buffer_bytes = std::max(result_.peak_buffer_bytes, p.cfg->buffer_memory - p.available_memory);
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

void Engine::operator()(const Sample&) {
  TimeSeries& ts = result_.timeseries;
  ts.time_ms.push_back(now().to_ms());
  std::vector<std::int32_t> queues(result_.partitions.size(), 0);
  std::vector<std::int32_t> in_flight(brokers_.size(), 0);
  std::int64_t buffer = 0;
  for (const auto& p : producers_) {
    const std::size_t base = topics_[p.topic].stats_offset;
    for (std::size_t part = 0; part < p.deques.size(); ++part) queues[base + part] += static_cast<std::int32_t>(p.deques[part].size());
    for (std::size_t b = 0; b < brokers_.size(); ++b) in_flight[b] += p.in_flight[b];
    buffer += p.cfg->buffer_memory - p.available_memory;
  }
  std::vector<double> waits(brokers_.size(), 0.0);
  for (std::size_t b = 0; b < brokers_.size(); ++b)
    waits[b] = ts_wait_count_[b] ? ts_wait_sum_[b] / static_cast<double>(ts_wait_count_[b]) : 0.0;
  ts.partition_queue.push_back(std::move(queues));
  ts.partition_records.push_back(ts_records_);
  ts.broker_in_flight.push_back(std::move(in_flight));
  ts.broker_queue_wait_ms.push_back(std::move(waits));
  ts.buffer_bytes.push_back(buffer);
  std::fill(ts_records_.begin(), ts_records_.end(), 0);
  std::fill(ts_wait_sum_.begin(), ts_wait_sum_.end(), 0.0);
  std::fill(ts_wait_count_.begin(), ts_wait_count_.end(), 0);
  // Keep sampling while producers send or anything is buffered or in flight.
  bool active = false;
  for (const auto& p : producers_) {
    active = active || !p.stopped || !p.live_requests.empty() || p.blocked;
    for (const auto& dq : p.deques) active = active || !dq.empty();
  }
  if (active && sim_.has_pending()) sim_.schedule_in(options_.timeseries, Sample{});
}

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
    result_.peak_buffer_bytes = std::max(result_.peak_buffer_bytes, p.cfg->buffer_memory - p.available_memory);
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
  const double initial = p.cfg->retry_backoff_ms;
  const double max = p.cfg->retry_backoff_max_ms;
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
  if (now() - b.created >= SimTime::from_ms(p.cfg->delivery_timeout_ms)) {
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

// ---- sender (spec §4) -----------------------------------------------------------------------

void Engine::wake_sender(Producer& p, SimTime t) {
  // One live wake per producer: an earlier request supersedes a later one, which then
  // fires stale and is ignored (cheaper than cancelling: most wakes are superseded).
  t = std::max(t, now());
  if (t >= p.wake_at) return;
  p.wake_at = t;
  sim_.schedule_at(t, SenderWake{p.index, ++p.wake_generation});
}

void Engine::operator()(const SenderWake& e) {
  Producer& p = producers_[e.producer];
  if (e.generation != p.wake_generation) return;
  p.wake_at = kNever;
  run_sender(p);
}

// Sender.runOnce / sendProducerData (spec §4.1) with RecordAccumulator.ready (spec §3.6).
void Engine::run_sender(Producer& p) {
  const ProducerConfig& cfg = *p.cfg;
  const SimTime t = now();
  const SimTime linger = SimTime::from_ms(cfg.linger_ms);
  const SimTime avail_timeout = SimTime::from_ms(cfg.availability_timeout_ms);
  const bool exhausted = p.blocked;  // free.queued() > 0
  // Adaptive arrays only once every partition has had a deque (RA:672-680).
  // Adaptive only without a partitioner object (KP:427-429), and only once every
  // partition has had a deque (RA:672-680).
  const bool adaptive = cfg.adaptive && !p.custom;
  const bool arrays = adaptive && p.deques_created == p.num_partitions;
  std::fill(p.ready_nodes.begin(), p.ready_nodes.end(), 0);
  if (arrays) {
    p.queue_sizes.assign(static_cast<std::size_t>(p.deques_created), 0);
    p.queue_ids.assign(static_cast<std::size_t>(p.deques_created), 0);
  }
  SimTime next_check = kNever;
  std::int32_t idx = -1;
  for (std::int32_t part = 0; part < p.num_partitions; ++part) {
    const auto up = static_cast<std::size_t>(part);
    if (!p.deque_exists[up]) continue;
    const std::int32_t leader = p.leader_view[up];
    if (leader >= 0 && arrays) p.queue_ids[static_cast<std::size_t>(++idx)] = part;
    const auto& dq = p.deques[up];
    if (dq.empty()) continue;
    const Batch& first = batches_[dq.front()];
    const SimTime waited = t - first.last_attempt;
    const bool backing_off = first.attempts > 0 && waited < first.backoff;
    const bool full = dq.size() > 1 || is_full(first);
    if (leader < 0) continue;  // unknown leader: waits for metadata
    const auto ul = static_cast<std::size_t>(leader);
    if (arrays) {
      p.queue_sizes[static_cast<std::size_t>(idx)] = static_cast<std::int32_t>(dq.size());
      const NodeLatency& nl = p.node_latency[ul];
      if (cfg.availability_timeout_ms > 0 && nl.exists && nl.ready_time - nl.drain_time > avail_timeout) --idx;
    }
    if (!p.ready_nodes[ul] && !p.muted[up]) {
      const SimTime time_to_wait = backing_off ? first.backoff : linger;
      const bool expired = waited >= time_to_wait;
      const bool sendable = full || expired || exhausted || p.stopped;
      if (sendable && !backing_off)
        p.ready_nodes[ul] = 1;
      else
        next_check = std::min(next_check, std::max(time_to_wait - waited, SimTime::zero()));
    }
  }
  if (adaptive) {
    if (arrays)
      p.partitioner->update_load_stats(p.queue_sizes, p.queue_ids, idx + 1);
    else
      p.partitioner->clear_load_stats();
  }

  bool sent_any = false;
  for (std::uint32_t node = 0; node < brokers_.size(); ++node) {
    if (!p.ready_nodes[node]) continue;
    // NetworkClient.ready (spec §4.2): connection up and room for another request.
    const bool can_send = brokers_[node].up && p.in_flight[node] < cfg.max_in_flight;
    if (cfg.availability_timeout_ms > 0) {  // spec §3.7
      NodeLatency& nl = p.node_latency[node];
      if (!nl.exists) {
        nl.exists = true;
        nl.drain_time = t;
      }
      nl.ready_time = t;
      if (can_send) nl.drain_time = t;
    }
    if (!can_send) continue;
    auto drained = drain(p, node);
    if (drained.empty()) continue;
    send_request(p, node, std::move(drained));
    sent_any = true;
  }
  const SimTime next_expiry = expire(p);
  if (sent_any) {
    wake_sender(p, t);  // poll(0): another pass may drain more
  } else if (next_check != kNever) {
    wake_sender(p, std::min(next_expiry, t + next_check));
  } else if (p.live_requests.empty() && next_expiry != kNever) {
    // Nothing else will wake the sender (leaderless or unreachable partitions): wake it to
    // expire batches. With requests in flight, their responses or timeouts wake it first;
    // scheduling far-off expiry wakes there would fill the event queue with dead timers.
    wake_sender(p, next_expiry);
  }
}

// RecordAccumulator.drain for one node (spec §3.8).
std::vector<std::uint32_t> Engine::drain(Producer& p, std::uint32_t node) {
  std::vector<std::uint32_t> out;
  const auto& parts = p.parts_for_node[node];
  if (parts.empty()) return out;
  const std::uint32_t n = static_cast<std::uint32_t>(parts.size());
  const std::uint32_t start = p.drain_index[node] % n;
  std::uint32_t i = start;
  std::int64_t size = 0;
  do {
    p.drain_index[node] = i;  // the last partition examined
    const auto part = static_cast<std::size_t>(parts[i]);
    i = (i + 1) % n;
    if (p.muted[part] || !p.deque_exists[part]) continue;
    auto& dq = p.deques[part];
    if (dq.empty()) continue;
    Batch& first = batch(dq.front());
    if (first.attempts > 0 && now() - first.last_attempt < first.backoff) continue;
    if (size + estimated_bytes(first) > p.cfg->max_request_size && !out.empty()) break;
    dq.pop_front();
    seal(p, first);
    first.sent = now();
    size += first.built_bytes;
    out.push_back(static_cast<std::uint32_t>(&first - batches_.data()));
    if (p.cfg->max_in_flight == 1) p.muted[part] = 1;  // guaranteeMessageOrder
  } while (i != start);
  return out;
}

void Engine::send_request(Producer& p, std::uint32_t node, std::vector<std::uint32_t> drained) {
  const std::uint64_t id = next_request_++;
  Request r;
  r.producer = p.index;
  r.broker = node;
  r.sent = now();
  for (auto b : drained) r.bytes += batch(b).built_bytes;
  r.batches = std::move(drained);
  Broker& br = brokers_[node];
  sim_.schedule_at(now() + one_way(br), RequestArrive{id});
  if (p.cfg->acks == Acks::kNone) {
    // acks=0: complete as soon as the bytes are written; nothing stays in flight.
    r.live = false;
    for (auto b : r.batches) complete_batch(p, b, node);
  } else {
    for (auto b : r.batches) batch(b).in_request = true;
    ++p.in_flight[node];
    // Deadlines come in send order, so one timer per producer watches the oldest; a
    // deadline whose request was answered is simply dropped when it comes up.
    const SimTime deadline = now() + SimTime::from_ms(p.cfg->request_timeout_ms);
    p.deadlines.emplace_back(deadline, id);
    if (!p.timeout_timer_pending) {
      p.timeout_timer_pending = true;
      sim_.schedule_at(deadline, RequestTimeout{p.index});
    }
    p.live_requests.push_back(id);
    SimTime oldest = kNever;
    for (auto b : r.batches) oldest = std::min(oldest, batch(b).created);
    p.next_inflight_expiry = std::min(p.next_inflight_expiry, oldest + SimTime::from_ms(p.cfg->delivery_timeout_ms));
  }
  requests_.emplace(id, std::move(r));
}

// Expire batches past delivery.timeout.ms (spec §3.9, §4.5); returns the next expiry time.
SimTime Engine::expire(Producer& p) {
  const SimTime timeout = SimTime::from_ms(p.cfg->delivery_timeout_ms);
  const SimTime t = now();
  std::vector<std::uint32_t> expired;
  SimTime next = kNever;
  for (std::int32_t part = 0; part < p.num_partitions; ++part) {
    auto& dq = p.deques[static_cast<std::size_t>(part)];
    while (!dq.empty() && t - batches_[dq.front()].created >= timeout) {
      expired.push_back(dq.front());
      dq.pop_front();
    }
    if (!dq.empty()) next = std::min(next, batches_[dq.front()].created + timeout);
  }
  for (auto& [part, dq] : p.limbo) {
    while (!dq.empty() && t - batches_[dq.front()].created >= timeout) {
      expired.push_back(dq.front());
      dq.pop_front();
    }
    if (!dq.empty()) next = std::min(next, batches_[dq.front()].created + timeout);
  }
  if (p.live_requests.empty()) p.next_inflight_expiry = kNever;
  if (t >= p.next_inflight_expiry) {
    p.next_inflight_expiry = kNever;
    for (auto rid : p.live_requests) {
      const Request& r = requests_.at(rid);
      for (auto b : r.batches) {
        const Batch& bb = batches_[b];
        if (bb.done) continue;
        if (t - bb.created >= timeout)
          expired.push_back(b);
        else
          p.next_inflight_expiry = std::min(p.next_inflight_expiry, bb.created + timeout);
      }
    }
  }
  for (auto b : expired) fail_batch(p, b, &FailureCounts::delivery_timeout);
  return std::min(next, p.next_inflight_expiry);
}

void Engine::operator()(const ResponseArrive& e) {
  auto it = requests_.find(e.request);
  if (it == requests_.end()) return;
  Request r = std::move(it->second);
  requests_.erase(it);
  if (!r.live) return;
  Producer& p = producers_[r.producer];
  --p.in_flight[r.broker];
  std::erase(p.live_requests, e.request);
  for (auto b : r.batches)
    if (leave_request(b)) complete_batch(p, b, r.broker);
  wake_sender(p, now());
}

void Engine::operator()(const RequestTimeout& e) {
  Producer& p = producers_[e.producer];
  p.timeout_timer_pending = false;
  while (!p.deadlines.empty() && p.deadlines.front().first <= now()) {
    const std::uint64_t id = p.deadlines.front().second;
    p.deadlines.pop_front();
    auto it = requests_.find(id);
    // request.timeout.ms (spec §4.4): the connection is closed and every request in
    // flight to that node fails with a retriable error.
    if (it != requests_.end() && it->second.live) disconnect(p, it->second.broker);
  }
  if (!p.deadlines.empty()) {
    p.timeout_timer_pending = true;
    sim_.schedule_at(p.deadlines.front().first, RequestTimeout{p.index});
  }
}

void Engine::operator()(const Disconnect& e) {
  if (brokers_[e.broker].epoch != e.epoch) return;  // the broker came back meanwhile
  disconnect(producers_[e.producer], e.broker);
}

void Engine::disconnect(Producer& p, std::uint32_t broker) {
  std::vector<std::uint64_t> failed;
  for (auto rid : p.live_requests)
    if (requests_.at(rid).broker == broker) failed.push_back(rid);
  for (auto rid : failed) {
    Request& r = requests_.at(rid);
    r.live = false;
    --p.in_flight[broker];
    std::erase(p.live_requests, rid);
    const auto batches = std::move(r.batches);
    requests_.erase(rid);  // later events for it find nothing and do nothing
    for (auto b : batches)
      if (leave_request(b)) retry_or_fail(p, b);
  }
  // A disconnect requests a metadata update, answered after one round trip.
  sim_.schedule_in(SimTime::from_ms(brokers_[broker].rtt_ms), MetadataRefresh{p.index});
  wake_sender(p, now());
}

// ---- brokers ----------------------------------------------------------------------------------

SimTime Engine::jitter(Broker& b) {
  const Jitter& j = b.cfg->jitter;
  double ms = 0;
  switch (j.kind) {
    case Jitter::Kind::kNone: break;
    case Jitter::Kind::kExponential: ms = boost::random::exponential_distribution<double>(1.0 / j.mean_ms)(b.jitter_rng); break;
    case Jitter::Kind::kUniform: ms = boost::random::uniform_real_distribution<double>(0.0, j.max_ms)(b.jitter_rng); break;
    case Jitter::Kind::kLognormal: {
      const double mean = j.mean_ms * std::exp(j.sigma * j.sigma / 2);
      const double sd = mean * std::sqrt(std::exp(j.sigma * j.sigma) - 1);
      ms = boost::random::lognormal_distribution<double>(mean, sd)(b.jitter_rng);
      break;
    }
  }
  return SimTime::from_ms(ms);
}

void Engine::operator()(const RequestArrive& e) {
  auto it = requests_.find(e.request);
  if (it == requests_.end()) return;
  Request& r = it->second;
  Broker& b = brokers_[r.broker];
  if (!b.up) {
    if (!r.live) requests_.erase(it);  // acks=0 request lost with the broker
    return;
  }
  r.arrived = now();
  ++result_.brokers[r.broker].requests;
  b.queue.push_back(e.request);
  if (!b.busy) start_service(r.broker);
}

void Engine::start_service(std::uint32_t bi) {
  Broker& b = brokers_[bi];
  while (!b.queue.empty()) {
    const std::uint64_t id = b.queue.front();
    b.queue.pop_front();
    auto it = requests_.find(id);
    if (it == requests_.end()) continue;
    Request& r = it->second;
    result_.brokers[bi].queue_wait_ms_sum += (now() - r.arrived).to_ms();
    if (!ts_wait_sum_.empty()) {
      ts_wait_sum_[bi] += (now() - r.arrived).to_ms();
      ++ts_wait_count_[bi];
    }
    double ms = b.request_time_ms + b.cfg->batch_time_ms * static_cast<double>(r.batches.size());
    if (b.byte_rate > 0) ms += static_cast<double>(r.bytes) * 1000.0 / b.byte_rate;
    b.busy = true;
    sim_.schedule_at(now() + SimTime::from_ms(ms) + jitter(b), BrokerDone{bi, b.epoch, id});
    return;
  }
  b.busy = false;
}

void Engine::operator()(const BrokerDone& e) {
  Broker& b = brokers_[e.broker];
  if (b.epoch != e.epoch) return;  // the broker failed while serving this request
  auto it = requests_.find(e.request);
  if (it != requests_.end()) {
    Request& r = it->second;
    if (!r.live && producers_[r.producer].cfg->acks == Acks::kNone) {
      requests_.erase(it);
    } else {
      // acks=all waits for the slowest in-sync follower (a broker property).
      SimTime delay = one_way(b);
      if (producers_[r.producer].cfg->acks == Acks::kAll) delay += SimTime::from_ms(b.cfg->replication_ms);
      sim_.schedule_at(now() + delay, ResponseArrive{e.request});
    }
  }
  start_service(e.broker);
}

void Engine::fail_broker(std::uint32_t bi) {
  Broker& b = brokers_[bi];
  if (!b.up) return;
  b.up = false;
  ++b.epoch;
  b.queue.clear();
  b.busy = false;
  // Leadership moves to the next live replica; with none, the partition goes offline.
  for (auto& t : topics_)
    for (std::size_t part = 0; part < t.leader.size(); ++part) {
      if (t.leader[part] != static_cast<std::int32_t>(bi)) continue;
      t.leader[part] = -1;
      for (std::int32_t r : t.replicas[part])
        if (brokers_[static_cast<std::size_t>(r)].up) {
          t.leader[part] = r;
          break;
        }
    }
  for (auto& p : producers_) {
    sim_.schedule_at(now() + one_way(b), Disconnect{p.index, bi, b.epoch});
    sim_.schedule_at(now() + SimTime::from_ms(b.rtt_ms), MetadataRefresh{p.index});
  }
}

void Engine::recover_broker(std::uint32_t bi) {
  Broker& b = brokers_[bi];
  if (b.up) return;
  b.up = true;
  ++b.epoch;
  // Offline partitions with a replica here come back led by it; others keep their leader.
  for (auto& t : topics_)
    for (std::size_t part = 0; part < t.leader.size(); ++part)
      if (t.leader[part] < 0 && std::find(t.replicas[part].begin(), t.replicas[part].end(), static_cast<std::int32_t>(bi)) != t.replicas[part].end())
        t.leader[part] = static_cast<std::int32_t>(bi);
  for (auto& p : producers_) sim_.schedule_at(now() + SimTime::from_ms(b.rtt_ms), MetadataRefresh{p.index});
}

void Engine::operator()(const BrokerScheduleStep& e) {
  Broker& b = brokers_[e.broker];
  const BrokerChange& c = b.cfg->schedule[e.index];
  switch (c.kind) {
    case BrokerChange::Kind::kSetRtt: b.rtt_ms = c.value; break;
    case BrokerChange::Kind::kSetRequestTime: b.request_time_ms = c.value; break;
    case BrokerChange::Kind::kSetByteRate: b.byte_rate = c.value; break;
    case BrokerChange::Kind::kFail: fail_broker(e.broker); break;
    case BrokerChange::Kind::kRecover: recover_broker(e.broker); break;
  }
  for (auto& p : producers_) wake_sender(p, now());
}

}  // namespace

RunResult run_scenario(const Scenario& scenario, std::uint64_t seed, std::uint64_t replication, const RunOptions& options) {
  Engine engine(scenario, seed, replication, options);
  return engine.run();
}

}  // namespace partsim::model
