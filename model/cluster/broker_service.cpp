#include "model/cluster/broker_service.hpp"

#include <cmath>

#include <boost/random/exponential_distribution.hpp>
#include <boost/random/lognormal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>

namespace partsim::model {

BrokerService::BrokerService(const BrokerConfig& config, sim::RandomEngine jitter_rng, sim::RandomEngine error_rng)
    : config_(config),
      rtt_(config.rtt),
      request_time_(config.request_time),
      bytes_per_second_(config.bytes_per_second),
      jitter_rng_(jitter_rng),
      error_rate_(config.error_rate),
      error_rng_(error_rng) {
  if (config.threaded()) {
    // Kafka's defaults for the ones not given (broker configs: num.network.threads 3,
    // num.io.threads 8, queued.max.requests 500).
    threads_.network = config.network_threads.value_or(3);
    threads_.io = config.io_threads.value_or(8);
    threads_.queued_max = config.queued_max_requests.value_or(500);
    processors_.resize(static_cast<std::size_t>(threads_.network));
  }
}

ProduceError BrokerService::draw_error() {
  if (error_rate_ <= 0) return ProduceError::kNone;
  const double u = boost::random::uniform_real_distribution<double>(0.0, 1.0)(error_rng_);
  return u < error_rate_ ? config_.error_code : ProduceError::kNone;
}

SimTime BrokerService::draw_jitter() {
  const Jitter& j = config_.jitter;
  double ms = 0;
  switch (j.kind) {
    case Jitter::Kind::kNone: break;
    case Jitter::Kind::kExponential:
      ms = boost::random::exponential_distribution<double>(1.0 / j.mean_ms)(jitter_rng_);
      break;
    case Jitter::Kind::kUniform:
      ms = boost::random::uniform_real_distribution<double>(0.0, j.max_ms)(jitter_rng_);
      break;
    case Jitter::Kind::kLognormal:
      // ln X ~ N(ln median, sigma): Boost takes the underlying normal's mean and sigma.
      ms = boost::random::lognormal_distribution<double>(std::log(j.mean_ms), j.sigma)(jitter_rng_);
      break;
  }
  return SimTime::from_ms(ms);
}

double service_ms(SimTime request_time, SimTime batch_time, double bytes_per_second, std::int64_t bytes,
                  std::int32_t batches) {
  double ms = request_time.to_ms() + batch_time.to_ms() * static_cast<double>(batches);
  if (bytes_per_second > 0) ms += static_cast<double>(bytes) * 1000.0 / bytes_per_second;
  return ms;
}

JitterMoments jitter_moments(const Jitter& j) {
  switch (j.kind) {
    case Jitter::Kind::kNone: break;
    case Jitter::Kind::kExponential: return {j.mean_ms, 2 * j.mean_ms * j.mean_ms};
    case Jitter::Kind::kUniform: return {j.max_ms / 2, j.max_ms * j.max_ms / 3};
    case Jitter::Kind::kLognormal: {
      const double v = j.sigma * j.sigma;
      return {j.mean_ms * std::exp(v / 2), j.mean_ms * j.mean_ms * std::exp(2 * v)};
    }
  }
  return {};
}

SimTime BrokerService::service_time(std::int64_t bytes, std::int32_t batches) const {
  return SimTime::from_ms(service_ms(request_time_, config_.batch_time, bytes_per_second_, bytes, batches));
}

BrokerService::Started BrokerService::start(const Queued& q, SimTime now) {
  ++busy_;
  const SimTime service = service_time(q.bytes, q.batches);
  const SimTime work = service + draw_jitter();
  // On a shared host the work waits for a core (HostCores); else it runs at once. The wait
  // counts from arrival to the start on a core: the queue's and the core's.
  const SimTime done = host_ ? host_->run(now, work) : now + work;
  return Started{q.request, done, done - work - q.arrived, q.connection};
}

std::optional<BrokerService::Started> BrokerService::arrive(std::uint64_t request, std::uint32_t connection_index,
                                                            std::int64_t bytes, std::int32_t batches, SimTime now) {
  const Queued arriving{request, connection_index, bytes, batches, now};
  if (!threaded()) {
    queue_.push_back(arriving);
    if (busy_ > 0) return std::nullopt;
    const Queued q = queue_.front();
    queue_.pop_front();
    return start(q, now);
  }
  // Kafka's network thread reads one request of a connection and mutes it until the
  // response is sent (SocketServer's Processor): later ones wait in the socket.
  Connection& conn = connection(connection_index);
  conn.socket.push_back(arriving);
  if (conn.in_broker || processors_[processor_of(connection_index)].blocked) return std::nullopt;
  const auto all_live = [](std::uint64_t) { return true; };
  read_next(connection_index, all_live);
  return dispatch(now, all_live);
}

std::optional<BrokerService::Started> BrokerService::finish(SimTime now,
                                                            const std::function<bool(std::uint64_t)>& live) {
  --busy_;
  if (threaded()) return dispatch(now, live);
  while (!queue_.empty()) {
    const Queued q = queue_.front();
    queue_.pop_front();
    if (!live(q.request)) continue;
    return start(q, now);
  }
  return std::nullopt;
}

std::optional<BrokerService::Started> BrokerService::response_sent(std::uint32_t c, SimTime now,
                                                                   const std::function<bool(std::uint64_t)>& live) {
  if (!threaded()) return std::nullopt;
  connection(c).in_broker = false;
  if (!processors_[processor_of(c)].blocked) read_next(c, live);
  return dispatch(now, live);
}

BrokerService::Connection& BrokerService::connection(std::uint32_t c) {
  if (c >= connections_.size()) connections_.resize(std::size_t{c} + 1);
  return connections_[c];
}

void BrokerService::read_next(std::uint32_t c, const std::function<bool(std::uint64_t)>& live) {
  Connection& conn = connection(c);
  while (!conn.socket.empty() && !live(conn.socket.front().request)) conn.socket.pop_front();
  if (conn.socket.empty()) return;
  const Queued q = conn.socket.front();
  conn.socket.pop_front();
  conn.in_broker = true;
  // queued.max.requests bounds the request queue: a network thread that finds it full
  // blocks until there is room (RequestChannel.sendRequest), reading nothing meanwhile.
  if (queue_.size() < static_cast<std::size_t>(threads_.queued_max)) {
    queue_.push_back(q);
    return;
  }
  const std::size_t p = processor_of(c);
  processors_[p].blocked = q;
  blocked_order_.push_back(p);
}

std::optional<BrokerService::Started> BrokerService::dispatch(SimTime now,
                                                              const std::function<bool(std::uint64_t)>& live) {
  // Every call adds at most one request an idle io thread can take (an idle io thread
  // means an empty queue), so at most one starts.
  for (;;) {
    unblock(live);
    if (busy_ >= threads_.io || queue_.empty()) return std::nullopt;
    const Queued q = queue_.front();
    queue_.pop_front();
    unblock(live);  // the place it left takes a blocked network thread's request
    if (live(q.request)) return start(q, now);
    // Given up by its producer: as if answered, the connection reads on.
    connection(q.connection).in_broker = false;
    if (!processors_[processor_of(q.connection)].blocked) read_next(q.connection, live);
  }
}

void BrokerService::unblock(const std::function<bool(std::uint64_t)>& live) {
  while (!blocked_order_.empty() && queue_.size() < static_cast<std::size_t>(threads_.queued_max)) {
    const std::size_t p = blocked_order_.front();
    blocked_order_.pop_front();
    queue_.push_back(*processors_[p].blocked);
    processors_[p].blocked.reset();
    // The network thread goes on reading its other connections (index p, p + n, ...).
    for (std::size_t c = p; c < connections_.size() && !processors_[p].blocked; c += processors_.size())
      if (!connections_[c].in_broker) read_next(static_cast<std::uint32_t>(c), live);
  }
}

void BrokerService::fail() {
  up_ = false;
  ++epoch_;
  queue_.clear();
  busy_ = 0;
  connections_.clear();
  for (Processor& p : processors_) p.blocked.reset();
  blocked_order_.clear();
}

void BrokerService::recover() {
  up_ = true;
  ++epoch_;
}

}  // namespace partsim::model
