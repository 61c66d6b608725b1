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
      error_rng_(error_rng) {}

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
    case Jitter::Kind::kExponential: ms = boost::random::exponential_distribution<double>(1.0 / j.mean_ms)(jitter_rng_); break;
    case Jitter::Kind::kUniform: ms = boost::random::uniform_real_distribution<double>(0.0, j.max_ms)(jitter_rng_); break;
    case Jitter::Kind::kLognormal:
      // ln X ~ N(ln median, sigma): Boost takes the underlying normal's mean and sigma.
      ms = boost::random::lognormal_distribution<double>(std::log(j.mean_ms), j.sigma)(jitter_rng_);
      break;
  }
  return SimTime::from_ms(ms);
}

SimTime BrokerService::service_time(std::int64_t bytes, std::int32_t batches) const {
  double ms = request_time_.to_ms() + config_.batch_time.to_ms() * static_cast<double>(batches);
  if (bytes_per_second_ > 0) ms += static_cast<double>(bytes) * 1000.0 / bytes_per_second_;
  return SimTime::from_ms(ms);
}

BrokerService::Started BrokerService::start(const Queued& q, SimTime now) {
  busy_ = true;
  const SimTime service = service_time(q.bytes, q.batches);
  return Started{q.request, now + service + draw_jitter(), now - q.arrived};
}

std::optional<BrokerService::Started> BrokerService::arrive(std::uint64_t request, std::int64_t bytes, std::int32_t batches,
                                                            SimTime now) {
  queue_.push_back(Queued{request, bytes, batches, now});
  if (busy_) return std::nullopt;
  const Queued q = queue_.front();
  queue_.pop_front();
  return start(q, now);
}

std::optional<BrokerService::Started> BrokerService::finish(SimTime now, const std::function<bool(std::uint64_t)>& live) {
  busy_ = false;
  while (!queue_.empty()) {
    const Queued q = queue_.front();
    queue_.pop_front();
    if (!live(q.request)) continue;
    return start(q, now);
  }
  return std::nullopt;
}

void BrokerService::fail() {
  up_ = false;
  ++epoch_;
  queue_.clear();
  busy_ = false;
}

void BrokerService::recover() {
  up_ = true;
  ++epoch_;
}

}  // namespace partsim::model
