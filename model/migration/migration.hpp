#pragma once
// A migration of a topic's records to a new topic (book ch. 10.3, book-tables T10), run on
// the old topic's log as the producer simulation left it:
//  - stop-replay: the producers stopped at at.ms (the engine ends their sends there); the
//    bridge replays the whole old topic, then verify.ms; downtime = replay + verify;
//  - dual-write: from at.ms every record is sent to both topics by the same producer, not
//    atomically: the second send fails with dual.write.failure.rate and nothing repairs it;
//  - bridge: the producers go on with the old topic while the bridge copies it from at.ms;
//    once it has caught up (and verify.ms later) the producers switch: what they send from
//    then on goes to the new topic directly (and not to the old one), and the bridge still
//    copies what was in flight. A bridge that catches up only once the producers stopped
//    makes no switch (BridgeFigures::caught_up false).
// The new topic routes a key by Kafka's rule over its own partition count (spec §2.6, §9).

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/migration_result.hpp"
#include "model/scenario.hpp"

namespace partsim::model::migration {

/// The strategy's name as the scenario spells it.
const char* strategy_name(MigrationSpec::Strategy s);

/// What a migration did, and the logs it left: the new topic's partition by partition in
/// append order, each record as the producers sent it (key, producer, send index, send time),
/// readable once its write was acknowledged; the old topic's with the records it keeps (the
/// bridge strategy: those sent before the switch; the others went to the new topic only), so
/// consumer groups read both topics as the migration left them.
struct Migrated {
  MigrationResult result;
  std::vector<PartitionLog> new_topic;
  std::vector<PartitionLog> old_topic;
};

/// Runs `s.migration` over `logs` (kept by the producers' run of `s`); `average_record_bytes`
/// sizes the bridge's writes. Random draws (the new topic's brokers' jitter, dual-write
/// failures) come from streams named "migration/...", so the producers' draws are unchanged.
/// With `cancel` set (Ctrl-C, SIGTERM) it stops between its passes over the records, each
/// well under a second for millions of records, and returns nothing. `resume` (stop-replay):
/// when the run resumed the producers, from its first run; by default the replay's end.
std::optional<Migrated> migrate(const Scenario& s, const BrokerLogs& logs, double average_record_bytes,
                                std::uint64_t seed, std::uint64_t replication,
                                const std::atomic<bool>* cancel = nullptr,
                                std::optional<SimTime> resume = std::nullopt);

}  // namespace partsim::model::migration
