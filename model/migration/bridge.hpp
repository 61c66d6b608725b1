#pragma once
// The bridge of a migration: one consumer reads the old topic and hands each record to one
// of `threads` writer threads, which send it to the new topic and wait for its
// acknowledgement before the next (send().get(), so a thread keeps its own order). Routed
// by key, all records of a key go through one thread and keep their order; routed
// round-robin, two records of a key may go through two threads and the later one may
// reach the new topic first (book ch. 10.3).

#include <cstdint>
#include <string>
#include <vector>

#include "model/cluster/broker_service.hpp"
#include "model/scenario.hpp"

namespace partsim::model::migration {

/// One record of the old topic, as the producers sent it.
struct Source {
  std::int32_t key = -1;  ///< index into the logs' key table, -1 = null key
  std::int32_t producer = 0;
  std::int64_t send_index = 0;
  SimTime sent, readable;
  std::int32_t old_partition = 0;
};

/// One record appended to the new topic.
struct Write {
  std::size_t source = 0;  ///< index into the sources
  std::int32_t partition = 0;
  SimTime append, ack;
};

/// The new topic: its partitions, where their leaders are and what a write there costs.
class NewTopic {
public:
  /// `brokers` serve the writes (partition p's leader is broker p mod n, the replica rule);
  /// `record_bytes` is the size a write carries; `keys` the logs' key table.
  NewTopic(const Scenario& s, std::int32_t partitions, double record_bytes, const std::vector<std::string>& keys,
           std::uint64_t seed, std::uint64_t replication);

  /// Kafka's rule for a keyed record (spec §2.6, §9): toPositive(murmur2(key)) % partitions;
  /// a null key goes round-robin by `index` (the sticky partitioner is not modelled here).
  std::int32_t partition_of(std::int32_t key, std::size_t index) const;
  /// A write sent at `at` to `partition`: appended one way + service + jitter later (no
  /// queueing: the bridge's load is taken as light), acknowledged one way later, plus the
  /// slowest follower for acks=all (spec §4; kafka-consumer-spec §9.2).
  Write send(std::size_t source, std::int32_t partition, SimTime at);
  std::int32_t partitions() const { return partitions_; }

private:
  std::int32_t partitions_;
  double record_bytes_;
  const std::vector<std::string>& keys_;
  std::vector<BrokerService> brokers_;
};

/// The earliest the j-th record read (from 0) may go at `records_per_second` (> 0): start +
/// j / rate, saturated at the end of simulated time (1e12 ms) so that it never overflows;
/// the loader refuses a rate whose pace over the run's bounded records would pass it.
SimTime paced(SimTime start, std::size_t j, double records_per_second);

/// Copies `order` (indices into `sources`, in the order the bridge reads them) starting
/// at `start`; a record is read once readable, at most `rate` records/s over all threads.
std::vector<Write> run_bridge(const std::vector<Source>& sources, const std::vector<std::size_t>& order,
                              const BridgeSpec& spec, SimTime start, NewTopic& topic,
                              const std::vector<std::string>& keys);

}  // namespace partsim::model::migration
