#pragma once
// Order as a consumer group sees it: every record processed, in processing order, checked
// per key and producer against the records of that key and producer processed before it
// (Kafka orders one producer's records of a key in one partition, nothing across
// producers; the engine's log_order checks the logs the same way). A record is an order
// violation when a record of its key from its producer sent later (a higher send index)
// was processed before it. Duplicates are neither checked nor violations: an offset
// processed again (after a crash or a revoke without a commit), and the second copy
// processed of a record the log holds twice (the same producer and send index at two
// offsets: a retry of a batch the leader had appended, kafka-consumer-spec §8).

#include <cstdint>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/latency_histogram.hpp"

namespace partsim::model::consumer {

/// One record processed by a member.
struct Processed {
  SimTime at;            ///< when its processing ended
  std::int32_t log = 0;  ///< index into BrokerLogs::partitions
  std::int64_t offset = 0;
  std::int32_t member = 0;
  bool duplicate = false;  ///< processed before: this offset again, or a record's second copy (check_order marks those)
};

struct OrderSummary {
  std::int64_t violations = 0;
  std::int64_t keys_affected = 0;
  std::int64_t written_twice = 0;  ///< copies of a record processed after its first copy (marked duplicate)
};

/// Sorts `processed` into processing order (time, then the order the records were handed
/// out), marks the second copy of a record written twice as a duplicate and counts the
/// order violations per key and producer.
OrderSummary check_order(std::vector<Processed>& processed, const BrokerLogs& logs);

}  // namespace partsim::model::consumer
