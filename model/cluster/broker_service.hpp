#pragma once
// A broker's service of produce requests: one FIFO queue and one server. A request costs
// request.ms, plus batch.ms per batch (partition) it carries, plus its bytes at byte.rate,
// plus a random jitter; responses travel half the round trip back. A schedule may change
// the round trip, the costs, or fail and recover the broker: a failure drops the queue and
// the request in service (the epoch tells a stale completion). It takes the time on every
// call and knows no event queue.

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>

#include "model/scenario.hpp"
#include "sim/random_streams.hpp"

namespace partsim::model {

class BrokerService {
public:
  /// `error_rng` draws which requests error.rate fails (a stream of its own, so that
  /// injecting errors leaves the jitter's draws as they were).
  BrokerService(const BrokerConfig& config, sim::RandomEngine jitter_rng, sim::RandomEngine error_rng = sim::RandomEngine{});

  /// A request the server starts: it finishes at `done_at`; it waited `waited` in the queue.
  struct Started {
    std::uint64_t request;
    SimTime done_at;
    SimTime waited;
  };

  /// A request arrives (the broker must be up). When the server was idle it starts at once.
  std::optional<Started> arrive(std::uint64_t request, std::int64_t bytes, std::int32_t batches, SimTime now);
  /// The request in service is done; the next live one (if any) starts. `live(request)`
  /// says whether a queued request still counts (a producer may have given it up).
  std::optional<Started> finish(SimTime now, const std::function<bool(std::uint64_t)>& live);

  /// Service time of a request before jitter (ms arithmetic as configured).
  SimTime service_time(std::int64_t bytes, std::int32_t batches) const;
  /// One draw of the configured jitter.
  SimTime draw_jitter();
  /// Whether the request just served is answered with error.code: one draw per request
  /// while error.rate > 0, none otherwise.
  ProduceError draw_error();

  void fail();     ///< down: the queue and the request in service are lost
  void recover();  ///< up again, with an empty queue
  void set_rtt(SimTime rtt) { rtt_ = rtt; }
  void set_request_time(SimTime t) { request_time_ = t; }
  void set_bytes_per_second(double rate) { bytes_per_second_ = rate; }
  void set_error_rate(double rate) { error_rate_ = rate; }
  double error_rate() const { return error_rate_; }

  bool up() const { return up_; }
  /// Bumped by every failure and recovery: a completion of an older epoch is stale.
  std::uint64_t epoch() const { return epoch_; }
  SimTime rtt() const { return rtt_; }
  /// Half the round trip, rounded half up (rtt is whole nanoseconds).
  SimTime one_way() const { return SimTime::ns((rtt_.count_ns() + 1) / 2); }
  /// acks=all waits for the slowest in-sync follower (replication.ms).
  SimTime replication() const { return config_.replication; }
  const BrokerConfig& config() const { return config_; }
  std::size_t queued() const { return queue_.size(); }
  bool busy() const { return busy_; }

private:
  struct Queued {
    std::uint64_t request;
    std::int64_t bytes;
    std::int32_t batches;
    SimTime arrived;
  };
  Started start(const Queued& q, SimTime now);

  const BrokerConfig& config_;
  SimTime rtt_, request_time_;
  double bytes_per_second_;
  bool up_ = true;
  std::uint64_t epoch_ = 0;
  std::deque<Queued> queue_;
  bool busy_ = false;
  sim::RandomEngine jitter_rng_;
  double error_rate_;
  sim::RandomEngine error_rng_;
};

}  // namespace partsim::model
