#pragma once
// What a migration did (book-tables T10): the records it moved, the keys whose partition
// changed, order per key in the new topic, keys left incomplete, downtime, and for a bridge
// its lag, catch-up and switch.

#include <cstdint>
#include <optional>
#include <string>

#include "sim/sim_time.hpp"

namespace partsim::model::migration {

/// The bridge's timeline (stop-replay and bridge strategies).
struct BridgeFigures {
  std::int64_t lag_at_start = 0;  ///< records readable in the old topic, not yet copied, when the bridge starts
  std::int64_t max_lag = 0;       ///< the largest lag (records readable, not yet acknowledged by the new topic)
  double start_ms = 0;            ///< when the bridge started (at.ms)
  bool caught_up = true;          ///< bridge: it caught up while the producers still sent (else no switch:
                                  ///< the producers stopped first and caught_up_ms, catch_up_ms and
                                  ///< switch_ms are undefined); stop-replay: always (the topic stopped)
  double caught_up_ms = 0;        ///< first time it had copied everything readable then
  double catch_up_ms = 0;         ///< caught_up_ms - start_ms
  double switch_ms = 0;           ///< bridge: producers move to the new topic (caught up + verify.ms);
                                  ///< stop-replay: producers resume, writing to the new topic (replay + verify.ms)
  double finished_ms = 0;         ///< the bridge's last acknowledgement
  std::int64_t after_switch = 0;  ///< records the new topic acknowledged to the bridge after the switch
  std::int64_t given_up = 0;      ///< records the bridge gave up (not acknowledged within delivery.timeout.ms)
};

struct MigrationResult {
  std::string strategy;  ///< stop-replay, dual-write, bridge
  std::string from, to;
  std::int32_t from_partitions = 0, to_partitions = 0;
  std::int64_t old_records = 0;             ///< records the old topic holds (bridge: those sent before the switch)
  std::int64_t new_records = 0;             ///< records the new topic holds (migrated + written directly)
  std::int64_t records_migrated = 0;        ///< copied by the bridge, or written by the second send of a dual write
  std::int64_t keys = 0;                    ///< distinct non-null keys the producers sent
  std::int64_t keys_changed_partition = 0;  ///< keys whose new partition differs from every old partition they had
  std::optional<double> ratio;              ///< keys_changed_partition / keys; undefined without keyed records
  std::int64_t order_violations =
      0;  ///< new topic: records appended after a record of their key its producer sent later
  std::int64_t order_violations_old = 0;  ///< the same in the old topic
  std::int64_t keys_out_of_order = 0;     ///< keys with an order violation in the new topic
  std::int64_t keys_with_all_events = 0;  ///< keys whose every record is in the new topic
  bool stable = true;                     ///< every key in exactly one partition of the new topic
  double downtime_ms = 0;                 ///< producers stopped (stop-replay: replay + verify.ms)
  sim::SimTime resume;                    ///< stop-replay: when the producers resume (switch_ms, exact)
  double bridge_record_bytes = 0;         ///< the size of the bridge's writes (the old topic's average record)
  std::int64_t records_after_resume = 0;  ///< stop-replay: records the producers sent to the new topic after resuming
  std::int64_t duplicates = 0;            ///< records the new topic holds more than once
  std::int64_t inconsistent_keys = 0;     ///< keys missing in the new topic a record they should have there
  std::string sample_key;                 ///< the first key sent, with its old and new partition
  std::int32_t sample_old = -1, sample_new = -1;
  bool has_bridge = false;
  BridgeFigures bridge;
};

}  // namespace partsim::model::migration
