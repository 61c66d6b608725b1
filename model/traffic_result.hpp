#pragma once
// Bytes on the wire, by kind and by (from rack, to rack): plain data a run fills
// (model/cluster/traffic.hpp counts them), formatted in analysis/traffic_report.

#include <cstdint>
#include <string>
#include <vector>

namespace partsim::model {

/// One kind of traffic: every message of it the run put on the wire.
struct TrafficKind {
  std::string name;        ///< produce_request, produce_response, replication_fetch, consumer_fetch, migration_copy
  std::int64_t bytes = 0;  ///< all of it, framing included
  std::int64_t framing_bytes = 0;     ///< of them, the protocol's headers (the rest are record batches)
  std::int64_t messages = 0;          ///< requests or responses
  std::int64_t cross_rack_bytes = 0;  ///< from one rack to another (both known)
  std::vector<std::int64_t> matrix;   ///< [from * racks + to], TrafficResult::racks' order
};

struct TrafficResult {
  /// The racks, sorted; "" (an endpoint without a rack) last when there is one.
  std::vector<std::string> racks;
  bool racked = false;                 ///< some broker, producer or consumer member has a rack
  bool replication_simulated = false;  ///< cluster.replication: followers (fixed: no follower traffic)
  double seconds = 0;                  ///< simulated time the rates are over
  double cost_per_gb = 0;              ///< cluster.cost.cross.rack.per.gb (0: bytes only)
  std::vector<TrafficKind> kinds;      ///< every kind, in the order above

  std::int64_t cross_rack_bytes() const {
    std::int64_t n = 0;
    for (const auto& k : kinds) n += k.cross_rack_bytes;
    return n;
  }
  std::int64_t bytes() const {
    std::int64_t n = 0;
    for (const auto& k : kinds) n += k.bytes;
    return n;
  }
  /// Bytes per second crossing racks, and their price per hour and per 30-day month.
  double cross_rack_bytes_per_s() const { return seconds > 0 ? static_cast<double>(cross_rack_bytes()) / seconds : 0; }
  double cost_per_hour() const { return cross_rack_bytes_per_s() * 3600 / 1e9 * cost_per_gb; }
  double cost_per_month() const { return cost_per_hour() * 24 * 30; }
};

}  // namespace partsim::model
