#pragma once
// A broker's replication throttle (leader.replication.throttled.rate or
// follower.replication.throttled.rate; docs/reassignment.md): Kafka's ReplicationQuotaManager
// measures the bytes of throttled partitions with a SimpleRate over
// replication.quota.window.num (11) samples of replication.quota.window.size.seconds (1 s):
// a sample is closed once it is a window old and the next record opens another; samples a
// whole horizon (11 windows) old are dropped; the rate is their sum over the time since the
// oldest opened, at least one window. The quota is exceeded while that rate is above the
// bound. Recording never refuses: a response already read is sent and counted.

#include <array>
#include <cstdint>

#include "sim/sim_time.hpp"

namespace partsim::model {

class ReplicationQuota {
public:
  static constexpr int kSamples = 11;                              // replication.quota.window.num
  static constexpr sim::SimTime kWindow = sim::SimTime::ms(1000);  // replication.quota.window.size.seconds

  /// The bound in bytes/s; 0: none (never exceeded).
  void set_bound(double bytes_per_s) { bound_ = bytes_per_s; }
  double bound() const { return bound_; }

  void record(std::int64_t bytes, sim::SimTime now) {
    if (bytes <= 0) return;
    Sample& s = current(now);
    s.bytes += bytes;
  }

  /// SimpleRate.measure at `now`, bytes/s.
  double rate(sim::SimTime now) const {
    std::int64_t bytes = 0;
    std::int64_t oldest = now.count_ns();
    for (const Sample& s : samples_) {
      if (!s.used || expired(s, now)) continue;
      bytes += s.bytes;
      oldest = std::min(oldest, s.start_ns);
    }
    const std::int64_t elapsed = std::max(now.count_ns() - oldest, kWindow.count_ns());
    return static_cast<double>(bytes) * 1e9 / static_cast<double>(elapsed);
  }

  bool exceeded(sim::SimTime now) const { return bound_ > 0 && rate(now) > bound_; }

private:
  struct Sample {
    std::int64_t start_ns = 0;
    std::int64_t bytes = 0;
    bool used = false;
  };
  static bool expired(const Sample& s, sim::SimTime now) {
    return now.count_ns() - s.start_ns >= kSamples * kWindow.count_ns();
  }
  // The sample a record at `now` adds to: the current one until it is a window old, then the
  // next slot, reset (SampledStat.record).
  Sample& current(sim::SimTime now) {
    Sample* s = &samples_[static_cast<std::size_t>(current_)];
    if (s->used && now.count_ns() - s->start_ns < kWindow.count_ns()) return *s;
    if (s->used) current_ = (current_ + 1) % kSamples;
    s = &samples_[static_cast<std::size_t>(current_)];
    *s = Sample{now.count_ns(), 0, true};
    return *s;
  }

  double bound_ = 0;
  std::array<Sample, kSamples> samples_{};
  int current_ = 0;
};

}  // namespace partsim::model
