#pragma once
// What a reassignment copies, and the least time the copy takes under Kafka's replication
// throttle. Every new replica (a broker that did not hold the partition) is copied in full
// from the partition's leader, or from its first live replica when the leader is dead (as
// after failover); the throttle (leader.replication.throttled.rate and
// follower.replication.throttled.rate) caps each broker's sending and receiving alike, so
// the busiest broker, in or out, sets the pace.
// Example: one 20 GB partition moves from broker 19 to 1, its leader is 8: broker 8 sends
// 20 GB, broker 1 receives 20 GB; at 50 MB/s that is at least 20e9 / 50e6 = 400 s.

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "model/placement/replica_placement.hpp"

namespace partsim::model {

struct CopyLoad {
  std::int64_t total_bytes = 0;                    ///< over every new replica
  std::map<std::int32_t, std::int64_t> in_bytes;   ///< per broker: what it receives
  std::map<std::int32_t, std::int64_t> out_bytes;  ///< per broker: what it sends as a copy source
  /// The most bytes any one broker sends or receives.
  std::int64_t busiest_bytes() const;
};

/// `sizes_bytes`: per partition; `alive`: the brokers that can serve a copy. A partition
/// with no live replica adds to total and in, but has no sender.
CopyLoad copy_load(const Assignment& before, const Assignment& after, const std::vector<std::int64_t>& sizes_bytes,
                   const std::set<std::int32_t>& alive);

/// The least time the copy takes at `throttle_bytes_per_s` (> 0): busiest_bytes() / throttle.
double copy_seconds(const CopyLoad& load, std::int64_t throttle_bytes_per_s);

}  // namespace partsim::model
