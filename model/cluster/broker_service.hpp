#pragma once
// A broker's service of produce requests: by default one FIFO queue and one server; with
// num.network.threads / num.io.threads / queued.max.requests set, Kafka's request path (a
// connection's requests one at a time, a shared bounded request queue, io threads; see
// below). Either way it may run on a host's shared cores (HostCores). A request costs
// request.ms, plus batch.ms per batch (partition) it carries, plus its bytes at byte.rate,
// plus a random jitter; responses travel half the round trip back. A schedule may change
// the round trip, the costs, or fail and recover the broker: a failure drops the queue and
// the request in service (the epoch tells a stale completion). It takes the time on every
// call and knows no event queue.

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "model/host_cores.hpp"
#include "model/scenario.hpp"
#include "sim/random_streams.hpp"

namespace partsim::model {

/// A request's service time before jitter, in ms: request.ms, plus batch.ms per batch, plus
/// its bytes at byte.rate (0 = unlimited). BrokerService serves by it; the broker-queue
/// check (analysis/theory_report.cpp) takes its moments from it.
double service_ms(SimTime request_time, SimTime batch_time, double bytes_per_second, std::int64_t bytes,
                  std::int32_t batches);

/// The first two moments of the jitter BrokerService::draw_jitter draws (ms, ms^2):
/// exponential by its mean, uniform on [0, max.ms], lognormal by its median and sigma.
struct JitterMoments {
  double mean_ms = 0;
  double second_ms2 = 0;
};
JitterMoments jitter_moments(const Jitter& jitter);

class BrokerService {
public:
  /// `error_rng` draws which requests error.rate fails (a stream of its own, so that
  /// injecting errors leaves the jitter's draws as they were).
  BrokerService(const BrokerConfig& config, sim::RandomEngine jitter_rng,
                sim::RandomEngine error_rng = sim::RandomEngine{});

  /// A request the server starts: it finishes at `done_at`; it waited `waited` from arrival
  /// until it ran on a core (the queue, then on a shared host a free core).
  struct Started {
    std::uint64_t request;
    SimTime done_at;
    SimTime waited;
    std::uint32_t connection = 0;  ///< the connection it came on
  };

  /// A request arrives (the broker must be up) on `connection` (an id the client side gives:
  /// the producer's index, then a new id each time it reconnects; network thread id % n).
  /// When a server is idle (and, threaded, the connection and its network thread are free)
  /// it starts at once.
  std::optional<Started> arrive(std::uint64_t request, std::uint32_t connection, std::int64_t bytes,
                                std::int32_t batches, SimTime now);
  std::optional<Started> arrive(std::uint64_t request, std::int64_t bytes, std::int32_t batches, SimTime now) {
    return arrive(request, 0, bytes, batches, now);
  }
  /// A request in service is done; the next live one (if any) starts. `live(request)`
  /// says whether a queued request still counts (a producer may have given it up).
  std::optional<Started> finish(SimTime now, const std::function<bool(std::uint64_t)>& live);
  /// Threaded: the response on `connection` was sent (after acks=all's wait): the network
  /// thread unmutes the connection and reads its next request, which may start.
  std::optional<Started> response_sent(std::uint32_t connection, SimTime now,
                                       const std::function<bool(std::uint64_t)>& live);
  /// Runs the service on a host's cores (shared with whatever else is placed there).
  void place_on(HostCores* host) { host_ = host; }

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
  /// Requests in the request queue (threaded: not those muted on their connection).
  std::size_t queued() const { return queue_.size(); }
  /// A server is busy (threaded: any io thread).
  bool busy() const { return busy_ > 0; }
  /// Threaded (num.*.threads / queued.max.requests set): Kafka's request path.
  bool threaded() const { return threads_.io > 0; }
  /// Threaded: io threads busy, and network threads blocked on a full request queue.
  std::int32_t io_busy() const { return busy_; }
  std::size_t network_blocked() const { return blocked_order_.size(); }

private:
  struct Queued {
    std::uint64_t request;
    std::uint32_t connection;
    std::int64_t bytes;
    std::int32_t batches;
    SimTime arrived;
  };
  // Threaded: num.network.threads processors, each holding the connections index % n;
  // queued.max.requests bounds the request queue shared by num.io.threads threads.
  struct Threads {
    std::int32_t network = 0, io = 0, queued_max = 0;  // io 0: not threaded (one server)
  };
  struct Connection {
    bool in_broker = false;     // a request of it is queued, in service or awaiting its response
    std::deque<Queued> socket;  // requests not read yet (the connection is muted)
  };
  struct Processor {
    std::optional<Queued> blocked;  // the request it could not put into the full queue
  };
  Started start(const Queued& q, SimTime now);
  Connection& connection(std::uint32_t c);
  std::size_t processor_of(std::uint32_t c) const { return c % static_cast<std::size_t>(threads_.network); }
  /// The network thread reads the connection's next live request into the queue (or blocks).
  void read_next(std::uint32_t c, const std::function<bool(std::uint64_t)>& live);
  /// Blocked network threads put their requests into the room in the queue and read on.
  void unblock(const std::function<bool(std::uint64_t)>& live);
  /// Idle io threads take from the queue; blocked network threads put theirs in.
  std::optional<Started> dispatch(SimTime now, const std::function<bool(std::uint64_t)>& live);

  const BrokerConfig& config_;
  Threads threads_;
  HostCores* host_ = nullptr;
  std::vector<Connection> connections_;
  std::vector<Processor> processors_;
  std::deque<std::size_t> blocked_order_;  // processors blocked on the full queue, in order
  SimTime rtt_, request_time_;
  double bytes_per_second_;
  bool up_ = true;
  std::uint64_t epoch_ = 0;
  std::deque<Queued> queue_;
  std::int32_t busy_ = 0;  // servers (io threads) busy
  sim::RandomEngine jitter_rng_;
  double error_rate_;
  sim::RandomEngine error_rng_;
};

}  // namespace partsim::model
