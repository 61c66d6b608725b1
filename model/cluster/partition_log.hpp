#pragma once
// What the brokers hold after a run, record by record: one log per partition, in offset
// order, each record with what a consumer sees of it (its key, its place in the log) and
// what the order and latency checks need (when it was sent, by whom, and when it became
// readable). The producer side fills it (the engine appends a batch's records when the
// leader appends the batch); the consumer side reads it (model/consumer/). It exists only
// when a run asks for it (consumer groups configured), since it costs memory per record.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/sim_time.hpp"

namespace partsim::model {

using sim::SimTime;

/// One record in a partition's log; its offset is its index in PartitionLog::records.
struct LogRecord {
  static constexpr std::int32_t kNullKey = -1;
  std::int32_t key = kNullKey;  ///< index into BrokerLogs::keys, or kNullKey
  std::int32_t producer = 0;    ///< index of the producer that sent it
  std::int64_t send_index = 0;  ///< the producer's send() count before this record (0, 1, ...): its send order
  SimTime sent;                 ///< when send() was called (end-to-end latency starts here)
  SimTime readable;             ///< when a consumer can fetch it: the high watermark passed it
                                ///< (the leader's append for acks 0/1; replication done for acks=all);
                                ///< nondecreasing along offsets, as the high watermark only advances
};

struct PartitionLog {
  std::vector<LogRecord> records;  ///< offset order
};

/// Every partition's log, indexed as RunResult::partitions (topic by topic, partition by
/// partition), and the key table the records point into.
struct BrokerLogs {
  std::vector<PartitionLog> partitions;
  std::vector<std::string> keys;

  /// The index of `key` in `keys`, adding it on first sight.
  std::int32_t intern(std::string_view key) {
    auto [it, added] = key_index_.try_emplace(std::string(key), static_cast<std::int32_t>(keys.size()));
    if (added) keys.emplace_back(key);
    return it->second;
  }

private:
  std::unordered_map<std::string, std::int32_t> key_index_;
};

}  // namespace partsim::model
