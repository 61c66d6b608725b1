#pragma once
// The consumer groups of a run, the part of the engine that owns them: each group
// (consumer::GroupRunner, with a queue of its own that the engine's loop steps between its
// own events), and their fetches at the brokers (the FetchServer, served in the Network's
// queues beside produce requests). It tells the groups what the cluster does: records
// appended or made readable, partitions added, leaders moved, a broker failed. Internal to
// partsim_model.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "model/cluster/leadership.hpp"
#include "model/cluster/replication.hpp"
#include "model/cluster/traffic.hpp"
#include "model/consumer/consumer_simulation.hpp"
#include "model/detail/events.hpp"
#include "model/detail/fetch_server.hpp"
#include "model/detail/network.hpp"
#include "model/run_options.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::model::detail {

/// What the groups ask of the engine: whether records may still come (a member that has read
/// everything then fetches on, waiting for more).
class ConsumersHost {
public:
  virtual ~ConsumersHost() = default;
  virtual bool logs_growing() const = 0;
};

class Consumers final : public consumer::FetchPath, public FetchServerHost {
public:
  /// The scenario's groups over `logs`; `result` takes their figures (its partitions size a
  /// record; its consumer_fetches get a row per broker); `first_log`: per topic, its first
  /// log; `traffic`: counts the fetch answers' bytes (null: nothing counts them);
  /// `replication`: the followers (null: replication fixed), whom KIP-392 reads from. Nothing
  /// runs before start().
  Consumers(const Scenario& s, const RunOptions& options, const BrokerLogs& logs, RunResult& result,
            std::span<const std::size_t> first_log, const Leadership& leadership, Network& network, EventLoop& loop,
            ConsumersHost& host, TrafficMeter* traffic = nullptr, const Replication* replication = nullptr);
  Consumers(const Consumers&) = delete;  // its groups and fetches keep references to it
  Consumers& operator=(const Consumers&) = delete;

  void start();
  /// The earliest next event of a group (SimTime::max(): none); step() runs it (of the
  /// groups whose next event is then, the first).
  SimTime next_time() const;
  void step();
  /// Whether an event since clear_woken() gave a group an event of its own (the engine's
  /// loop then looks at the groups' queues again).
  bool woken() const { return woken_; }
  void clear_woken() { woken_ = false; }

  // The engine's events for the fetches.
  void operator()(const ConsumerFetchArrive& e) { fetches_.arrived(e.fetch, loop_.now()); }
  void operator()(const ConsumerFetchDue& e) { fetches_.due(e.fetch, e.generation, loop_.now()); }
  // The network's, for a fetch in a broker's queue.
  bool holds(std::uint64_t fetch) const { return fetches_.holds(fetch); }
  void started(std::uint64_t fetch, SimTime waited) { fetches_.started(fetch, waited); }
  void served(std::uint64_t fetch, SimTime now) { fetches_.served(fetch, now); }

  // What the cluster does.
  /// Records of `log` were appended or became readable: an idle member that owns it fetches,
  /// and a fetch parked on it may be answered sooner.
  void readable_changed(std::size_t log, SimTime now);
  /// KIP-392: a follower of `log` learnt a higher high watermark: it may serve more.
  void follower_high_watermark(std::size_t log, SimTime now) { readable_changed(log, now); }
  void partitions_added(std::size_t topic, std::int32_t partitions, SimTime now);
  void leaders_changed(SimTime now) { fetches_.leaders_changed(now); }
  void broker_failed(std::uint32_t broker, SimTime now) { fetches_.broker_failed(broker, now); }

  /// The groups' results join the run's.
  void finish();

  // consumer::FetchPath
  void send_fetch(std::uint32_t group, std::int32_t member, std::int32_t broker,
                  std::vector<consumer::FetchRequestPartition> request, SimTime at) override;
  std::int32_t leader(std::int32_t log) const override;
  bool logs_growing() const override { return host_.logs_growing(); }
  std::optional<std::int64_t> replica_readable(std::int32_t log, std::int32_t broker) const override {
    return follower_readable(log, static_cast<std::uint32_t>(broker));
  }

  // FetchServerHost
  bool broker_up(std::uint32_t broker) const override { return network_.broker(broker).up(); }
  std::uint64_t broker_epoch(std::uint32_t broker) const override { return network_.broker(broker).epoch(); }
  SimTime one_way(std::uint32_t broker) const override { return network_.broker(broker).one_way(); }
  SimTime answer_leaves(std::uint32_t broker, std::int64_t bytes, SimTime now) override {
    return network_.links().send(broker, bytes, now);
  }
  void queue_at_broker(std::uint64_t fetch, std::uint32_t broker, std::uint32_t connection,
                       std::int32_t partitions) override {
    network_.queue_fetch(fetch, broker, connection, partitions);
  }
  void answer_sent(std::uint32_t broker, std::uint32_t connection) override {
    network_.fetch_answer_sent(broker, connection);
  }
  void schedule_arrival(std::uint64_t fetch, SimTime at) override { loop_.schedule_at(at, ConsumerFetchArrive{fetch}); }
  void schedule_due(std::uint64_t fetch, std::uint32_t generation, SimTime at) override {
    loop_.schedule_at(at, ConsumerFetchDue{fetch, generation});
  }
  std::int32_t read_replica(std::int32_t log, const std::string& rack) const override {
    return replication_ ? replication_->preferred_read_replica(static_cast<std::size_t>(log), rack) : -1;
  }
  std::optional<std::int64_t> follower_readable(std::int32_t log, std::uint32_t broker) const override {
    if (!replication_) return std::nullopt;
    return replication_->follower_readable_records(static_cast<std::size_t>(log), static_cast<std::int32_t>(broker));
  }
  void answered(std::uint32_t group, std::int32_t member, std::int32_t broker,
                std::optional<std::vector<std::int64_t>> counts, std::vector<std::int32_t> read_replicas,
                SimTime at) override;
  void answer_traffic(std::uint32_t group, std::int32_t member, std::uint32_t broker, std::int64_t bytes,
                      std::span<const std::int32_t> logs) override;

private:
  const Scenario& s_;
  RunResult& result_;
  std::span<const std::size_t> first_log_;
  const Leadership& leadership_;
  Network& network_;
  EventLoop& loop_;
  ConsumersHost& host_;
  TrafficMeter* traffic_;           // counts the answers' bytes (null: not counted)
  const Replication* replication_;  // the followers (null: replication fixed)
  consumer::ConsumeInputs in_;
  std::vector<std::int32_t> log_topic_;  // per log: its topic
  FetchServer fetches_;
  std::vector<std::unique_ptr<consumer::GroupRunner>> groups_;
  bool woken_ = false;
};

}  // namespace partsim::model::detail
