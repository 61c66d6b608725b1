#pragma once
// Order as a consumer group sees it: every record processed, in processing order, checked
// per key and producer against the records of that key and producer processed before it
// (Kafka orders one producer's records of a key in one partition, nothing across
// producers; the engine's log_order checks the logs the same way). A record is an order
// violation when a record of its key from its producer sent later (a higher send index)
// was processed before it. A record processed again (a duplicate: after a crash or a
// revoke without a commit) is neither checked nor counted as a violation.

#include <cstdint>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/latency_histogram.hpp"

namespace partsim::model::consumer {

/// One record processed by a member.
struct Processed {
  SimTime at;                 ///< when its processing ended
  std::int32_t log = 0;       ///< index into BrokerLogs::partitions
  std::int64_t offset = 0;
  std::int32_t member = 0;
  bool duplicate = false;
};

struct OrderSummary {
  std::int64_t violations = 0;
  std::int64_t keys_affected = 0;
};

/// Sorts `processed` into processing order (time, then the order the records were handed
/// out) and counts the order violations per key and producer.
OrderSummary check_order(std::vector<Processed>& processed, const BrokerLogs& logs);

}  // namespace partsim::model::consumer
