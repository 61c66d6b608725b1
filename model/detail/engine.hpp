#pragma once
// The engine behind run_scenario (cluster_simulation.hpp): the events, and the Engine that
// dispatches each one to the unit it concerns (a KafkaProducer, a BrokerService, the
// Leadership, a consumer group's fetch) and steps the consumer groups between its events.
// Internal to partsim_model.

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "model/cluster/broker_service.hpp"
#include "model/cluster/leadership.hpp"
#include "model/cluster/partition_log.hpp"
#include "model/cluster/producer_state.hpp"
#include "model/cluster/replication.hpp"
#include "model/consumer/consumer_simulation.hpp"
#include "model/detail/controller.hpp"
#include "model/detail/fetch_server.hpp"
#include "model/detail/leader_logs.hpp"
#include "model/detail/migration_runner.hpp"
#include "model/detail/network.hpp"
#include "model/detail/run_recorder.hpp"
#include "model/host_cores.hpp"
#include "model/producer/kafka_producer.hpp"
#include "model/run_options.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"
#include "sim/huge_pages.hpp"
#include "sim/random_streams.hpp"
#include "sim/simulation.hpp"

namespace partsim::model::detail {

// ---- events: a closed set of small structs ----------------------------------------------
struct AppSend {
  std::uint32_t producer;
};
struct SenderWake {
  std::uint32_t producer;
  std::uint64_t generation;
};
struct RequestArrive {
  std::uint64_t request;
};
struct BrokerDone {
  std::uint32_t broker;
  std::uint64_t epoch;
  std::uint64_t request;
  std::uint32_t connection;
};
struct ResponseSent {
  std::uint32_t broker;
  std::uint64_t epoch;
  std::uint32_t connection;
};  // threaded brokers: unmute
struct ResponseArrive {
  std::uint64_t request;
};
struct RequestTimeout {
  std::uint32_t producer;
};  // the oldest request deadline of a producer
struct Disconnect {
  std::uint32_t producer;
  std::uint32_t broker;
  std::uint64_t epoch;
};
struct BufferTimeout {
  std::uint32_t producer;
  std::uint64_t block;
};
struct MetadataRefresh {
  std::uint32_t producer;
};
struct SecondCall {
  std::uint32_t producer;
  std::uint64_t send;
};                      // a thread's second partition() call
struct Sample {};       // time series
struct LeaderCheck {};  // the controller's periodic preferred-leader check
struct BrokerScheduleStep {
  std::uint32_t broker;
  std::uint32_t index;
};
struct TopicStep {
  std::uint32_t topic;
  std::uint32_t index;
};  // index into Controller::topic_steps(topic)
struct PeriodicRefresh {
  std::uint32_t producer;
};  // metadata.max.age.ms elapsed since the last refresh
// cluster.replication: followers (model/cluster/replication.hpp)
struct FetchStep {
  ReplicationHost::Step step;
  std::uint32_t session;
  std::uint64_t fetch;
};
struct IsrCheck {};  // the leaders' periodic ISR check
struct Fence {
  std::uint32_t broker;
  std::uint64_t epoch;
};  // the controller fences a dead broker
// Consumer groups' fetches (engine_consumers.cpp): one reaches its leader; a fetch parked
// until fetch.min.bytes are readable (or fetch.max.wait.ms passed) is due.
struct ConsumerFetchArrive {
  std::uint64_t fetch;
};
struct ConsumerFetchDue {
  std::uint64_t fetch;
  std::uint32_t generation;
};
struct MigrationEvent {
  MigrationStep step;
};  // a migration's step (migration_runner.hpp)
using Event = std::variant<AppSend, SenderWake, RequestArrive, BrokerDone, ResponseArrive, RequestTimeout, Disconnect,
                           BufferTimeout, MetadataRefresh, BrokerScheduleStep, SecondCall, Sample, LeaderCheck,
                           ResponseSent, TopicStep, PeriodicRefresh, FetchStep, IsrCheck, Fence, ConsumerFetchArrive,
                           ConsumerFetchDue, MigrationEvent>;

class Engine final : public ProducerHost,
                     public ReplicationHost,
                     public consumer::FetchPath,
                     public FetchServerHost,
                     public ReadableListener,
                     public MigrationHost {
public:
  Engine(const Scenario& s, std::uint64_t seed, std::uint64_t replication, const RunOptions& options);
  RunResult run();

  void operator()(const AppSend& e);
  void operator()(const SenderWake& e);
  void operator()(const RequestArrive& e);
  void operator()(const BrokerDone& e);
  void operator()(const ResponseSent& e);
  void operator()(const ResponseArrive& e);
  void operator()(const RequestTimeout& e);
  void operator()(const Disconnect& e);
  void operator()(const BufferTimeout& e);
  void operator()(const MetadataRefresh& e);
  void operator()(const BrokerScheduleStep& e);
  void operator()(const SecondCall& e);
  void operator()(const Sample& e);
  void operator()(const LeaderCheck& e);
  void operator()(const TopicStep& e);
  void operator()(const PeriodicRefresh& e);
  void operator()(const FetchStep& e);
  void operator()(const IsrCheck& e);
  void operator()(const Fence& e);
  void operator()(const ConsumerFetchArrive& e);
  void operator()(const ConsumerFetchDue& e);
  void operator()(const MigrationEvent& e) { migration_->step(e.step, now()); }

  // ReplicationHost
  void schedule_fetch(ReplicationHost::Step step, std::uint32_t session, std::uint64_t fetch, SimTime at) override;
  void acks_settled(std::uint64_t request) override;
  void ack_error(std::uint64_t request, std::size_t partition, ProduceError error) override;
  std::int64_t records_acked() const override { return recorder_->result().records_acked; }
  void high_watermark_moved(std::size_t partition, std::int64_t hw) override;
  void log_truncated(std::size_t partition, std::int64_t end) override;

  // ProducerHost
  void schedule_app(std::uint32_t producer, SimTime at) override;
  void schedule_sender(std::uint32_t producer, std::uint64_t generation, SimTime at) override;
  void schedule_buffer_timeout(std::uint32_t producer, std::uint64_t block, SimTime at) override;
  void schedule_second_call(std::uint32_t producer, std::uint64_t send, SimTime at) override;
  void schedule_request_deadline(std::uint32_t producer, SimTime at) override;
  std::uint64_t send_request(std::uint32_t producer, std::size_t node, std::int64_t bytes,
                             std::span<const BatchId> batches, bool expects_response) override;
  void abandon_request(std::uint32_t producer, std::uint64_t request) override;
  void close_connection(std::uint32_t producer, std::size_t node) override;
  void request_metadata(std::uint32_t producer, std::size_t node) override;
  bool event_due(SimTime t) override { return sim_.has_pending() && sim_.next_event_time() <= t; }
  void call_after_event(std::uint32_t producer) override { after_event_.push_back(producer); }
  void sequence_gap(std::uint32_t producer, std::int32_t partition) override;

  // consumer::FetchPath (engine_consumers.cpp)
  void send_fetch(std::uint32_t group, std::int32_t member, std::int32_t broker,
                  std::vector<consumer::FetchRequestPartition> request, SimTime at) override;
  std::int32_t leader(std::int32_t log) const override;
  bool logs_growing() const override;

  // ReadableListener (engine_consumers.cpp): a parked fetch of `log` may be answered sooner
  void readable_changed(std::size_t log) override;

  // FetchServerHost (engine_consumers.cpp)
  bool broker_up(std::uint32_t broker) const override { return brokers_[broker].up(); }
  std::uint64_t broker_epoch(std::uint32_t broker) const override { return brokers_[broker].epoch(); }
  SimTime one_way(std::uint32_t broker) const override { return brokers_[broker].one_way(); }
  void queue_at_broker(std::uint64_t fetch, std::uint32_t broker, std::uint32_t connection,
                       std::int32_t partitions) override;
  void answer_sent(std::uint32_t broker, std::uint32_t connection) override;
  void schedule_arrival(std::uint64_t fetch, SimTime at) override { sim_.schedule_at(at, ConsumerFetchArrive{fetch}); }
  void schedule_due(std::uint64_t fetch, std::uint32_t generation, SimTime at) override {
    sim_.schedule_at(at, ConsumerFetchDue{fetch, generation});
  }
  void answered(std::uint32_t group, std::int32_t member, std::int32_t broker,
                std::optional<std::vector<std::int64_t>> counts, SimTime at) override;

  // MigrationHost (engine_migration.cpp)
  void schedule_migration(MigrationStep step, SimTime at) override { sim_.schedule_at(at, MigrationEvent{step}); }
  bool sources_stopped(bool and_idle) const override;
  void stop_sources() override;
  void switch_producers(SimTime shift) override;
  void start_dual_write() override;

private:
  SimTime now() const { return sim_.now(); }
  bool cancelled() const { return options_.cancel && options_.cancel->load(std::memory_order_relaxed); }
  KafkaProducer& producer(std::uint32_t i) { return *producers_[i]; }
  /// The config a client's requests carry: a producer's, a migration's twin's or its bridge's.
  /// (Speed: a scenario's producer's from its spec, where a request's other reads are.)
  const ProducerConfig& config_of(std::uint32_t client) const {
    return client < s_.producers.size() ? s_.producers[client].config : *client_configs_[client];
  }
  enum Timer : std::size_t { kSenderTimer, kDeadlineTimer, kMetadataTimer, kTimersPerProducer };
  static std::size_t timer_slot(std::uint32_t producer, Timer t) {
    return std::size_t{producer} * kTimersPerProducer + t;
  }
  void start_service(std::uint32_t broker, const BrokerService::Started& s);
  void schedule_response(std::uint64_t id, const Request& r, SimTime at);
  void fail_broker(std::uint32_t b);
  void recover_broker(std::uint32_t b);
  void start_repartition();
  void gather_results();  // once the run has stopped
  void refresh_metadata();
  bool quiet() const;  // no producer will send or wait again
  // Partition increases (a topic's schedule).
  void setup_repartition();
  void arm_metadata_refresh(std::uint32_t producer);
  void finish_repartition();
  void note_existence();
  /// Whether a request the brokers hold (produce or fetch) still counts.
  bool request_live(std::uint64_t id) {
    return FetchServer::is_fetch(id) ? fetch_server_->holds(id) : requests_.find(id) != nullptr;
  }

  // ---- a migration in the event loop (engine_migration.cpp) ----
  // Each producer of the old topic has a twin on the new topic (indexes after the
  // scenario's producers), which the application moves to at the switch (hand_over) or
  // which makes its second sends (dual write); the bridge writes through one more producer
  // on the new topic (the last, bridge_client_), which reports to the MigrationRunner.
  void setup_migration();
  struct TwinMirror final : SendMirror {  // a dual write's second sends (engine_migration.cpp)
    Engine& engine;
    std::uint32_t twin;
    TwinMirror(Engine& e, std::uint32_t t) : engine(e), twin(t) {}
    void mirror(const GeneratedRecord& record, std::int64_t send_index, SimTime intended, SimTime now) override;
    void source_stopped(SimTime now) override;
  };
  std::optional<MigrationRunner> migration_;
  std::deque<ProducerSpec> twin_specs_;                // the twins' specs (their topic the new one), then the bridge's
  std::vector<std::uint32_t> twin_of_;                 // per scenario producer: its twin, or 0 for none
  std::vector<std::uint32_t> owner_;                   // per producer (twins too): whose send() its records are
  std::vector<const ProducerConfig*> client_configs_;  // per producer: the scenario's, twins, the bridge
  std::uint32_t bridge_client_ = 0;                    // the bridge's producer (0: none)
  std::vector<std::unique_ptr<TwinMirror>> mirrors_;

  // ---- consumer groups in the event loop (engine_consumers.cpp) ----
  // Every group of the scenario runs as a part of this loop; their fetches are the
  // FetchServer's, served in the brokers' queues beside produce requests.
  void start_groups();
  void finish_groups();
  void leaders_changed();  // parked fetches of partitions moved are answered
  consumer::ConsumeInputs consume_in_;
  std::vector<std::unique_ptr<consumer::GroupRunner>> groups_;
  std::optional<FetchServer> fetch_server_;  // with groups
  bool group_woken_ = false;                 // an event gave a group an event of its own
  std::vector<std::int32_t> log_topic_;      // per log: its topic
  // Whether the logs may still grow (logs_growing): followers' fetch steps and broker
  // schedule steps pending.
  std::size_t replication_steps_ = 0, broker_steps_left_ = 0;
  const Scenario& s_;
  RunOptions options_;
  // Speed: where the state a large run reads at random lives (producers, their partitions and
  // batches, the leaders' idempotence state): huge pages where the kernel grants them.
  // Declared before everything that uses it, so it goes last.
  std::unique_ptr<sim::HugePageResource> huge_pages_;
  std::pmr::memory_resource* memory_ = std::pmr::new_delete_resource();
  static constexpr std::size_t kHugePageStates = 65536;  // producer x partition states
  sim::RandomStreams streams_;
  sim::Simulation<Event, sim::CalendarStore<Event>> sim_;
  std::vector<HostCores> hosts_;  // cluster.hosts, in order (brokers and producers point into it)
  std::vector<BrokerService> brokers_;
  std::vector<char> up_;  // per broker: the connection can be used
  Leadership leadership_;
  std::optional<Replication> replication_;   // cluster.replication: followers
  std::vector<std::size_t> topic_of_;        // per producer
  std::vector<std::size_t> stats_offset_;    // per topic: its first row in RunResult::partitions
  std::shared_ptr<BatchArena> batch_arena_;  // the producers' batches
  std::vector<std::unique_ptr<KafkaProducer, sim::MemoryDelete<KafkaProducer>>> producers_;  // in memory_
  RequestTable requests_;
  Connections connections_;
  std::vector<std::uint32_t> after_event_;  // producers to call once the event is over
  bool prefetch_sends_ = false;             // many partition states: the next send's is prefetched
  static constexpr std::size_t kPrefetchStates = 4096;
  std::int64_t total_sent_ = 0;
  // Partition increases (the topics' counts and steps are the controller's): per producer,
  // when it last refreshed its metadata and when it first saw its topic's latest count.
  std::vector<SimTime> last_refresh_;                 // per producer: its last metadata refresh
  std::vector<std::optional<double>> saw_new_count_;  // per producer: when its count last grew
  // The results (after the layout it reads and the clock: constructed in the body).
  std::optional<RunRecorder> recorder_;
  std::optional<Controller> controller_;  // who leads (after the replication and the results)
  std::optional<LeaderLogs> leaders_;     // the leaders' logs and idempotence state (after the results)
  RunResult& result() { return recorder_->result(); }
};

}  // namespace partsim::model::detail
