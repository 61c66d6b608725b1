#pragma once
// The brokers' network interfaces (brokers[].network.bytes.per.s; docs/reassignment.md):
// each broker sends and receives through a link of that many bytes/s each way, shared by
// everything it carries: produce requests in, their responses out, follower fetch answers
// out of the leader and into the follower (replication and reassignment copies alike), and
// consumer fetch answers out. A message passes the sender's link, travels the network's
// one-way time, then passes the receiver's. On a link it shares the rate with what is
// queued ahead, in two equal shares (as a TCP flow shares a link with another): it takes
// its own bytes / rate, plus as long again while the backlog lasts, so a small response
// behind a large copy waits about its own transfer time once more, and a large message
// waits for the whole backlog (first come, first served). The link's work is conserved: its
// backlog grows by every message's bytes / rate. Switch buffers that fill while a link is
// saturated are not modelled. A rate of 0 is no limit (the default: the link adds nothing).

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/sim_time.hpp"

namespace partsim::model {

class BrokerLinks {
public:
  /// Per broker, its link's bytes/s each way (0: no limit).
  explicit BrokerLinks(std::vector<double> rates)
      : rates_(std::move(rates)),
        out_free_(rates_.size(), sim::SimTime::zero()),
        in_free_(rates_.size(), sim::SimTime::zero()) {}

  bool limited() const {
    return std::any_of(rates_.begin(), rates_.end(), [](double r) { return r > 0; });
  }

  /// When `bytes` handed to broker `b`'s outbound link at `ready` have left it.
  sim::SimTime send(std::size_t b, std::int64_t bytes, sim::SimTime ready) { return pass(out_free_, b, bytes, ready); }
  /// When `bytes` reaching broker `b` at `ready` have come through its inbound link.
  sim::SimTime receive(std::size_t b, std::int64_t bytes, sim::SimTime ready) {
    return pass(in_free_, b, bytes, ready);
  }

private:
  sim::SimTime pass(std::vector<sim::SimTime>& free, std::size_t b, std::int64_t bytes, sim::SimTime ready) {
    const double rate = rates_[b];
    if (rate <= 0 || bytes <= 0) return ready;
    // (At most about 30 years of simulated time: a rate far below a byte per second.)
    const double ns = std::min(static_cast<double>(bytes) * 1e9 / rate + 0.5, 1e18);
    const sim::SimTime own = sim::SimTime::ns(static_cast<std::int64_t>(ns));
    const sim::SimTime backlog = free[b] > ready ? free[b] - ready : sim::SimTime::zero();
    free[b] = std::max(ready, free[b]) + own;
    return ready + own + std::min(own, backlog);
  }

  std::vector<double> rates_;
  std::vector<sim::SimTime> out_free_, in_free_;
};

}  // namespace partsim::model
