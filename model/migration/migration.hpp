#pragma once
// What a migration did (book ch. 10.3, book-tables T10), read from the logs the run left:
// the strategies themselves run in the engine's event loop (model/detail/migration_runner.hpp).
// The new topic routes a key by Kafka's rule over its own partition count (spec §2.6, §9).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/cluster/partition_log.hpp"
#include "model/migration_result.hpp"
#include "model/scenario.hpp"

namespace partsim::model::migration {

/// The strategy's name as the scenario spells it.
const char* strategy_name(MigrationSpec::Strategy s);

/// A migration as the run made it (model/detail/migration_runner.hpp): what the bridge copied
/// and when the application moved.
struct Timeline {
  /// Per record the bridge copied and the new topic acknowledged: when it was readable in the
  /// old topic and when the new one acknowledged it.
  std::vector<std::pair<SimTime, SimTime>> copies;
  std::optional<SimTime> caught_up;     ///< the first time the bridge had copied everything readable
  bool caught_up_while_sending = true;  ///< bridge: the producers still sent then
  std::optional<SimTime> switched;      ///< the application moved to the new topic (stop-replay: resumed)
  std::int64_t given_up = 0;            ///< records the bridge gave up (delivery.timeout.ms passed)
  double record_bytes = 0;              ///< the size of the bridge's writes
};

/// The figures of `s.migration` from the logs the run left (`logs`, the old topic's rows from
/// `from_row`, the new topic's from `to_row`) and its timeline. The old topic holds what the
/// producers wrote there; the new one the bridge's copies and what the producers wrote there
/// (after the switch, or a dual write's second sends), each record tagged with the producer
/// and send() that made it, so that a copy and its original are one send().
MigrationResult figures(const Scenario& s, const BrokerLogs& logs, std::size_t from_row, std::size_t to_row,
                        const Timeline& timeline);

/// The earliest the j-th record read (from 0) may go at `records_per_second` (> 0): start +
/// j / rate, saturated at the end of simulated time (1e12 ms) so that it never overflows;
/// the loader refuses a rate whose pace over the run's bounded records would pass it.
SimTime paced(SimTime start, std::size_t j, double records_per_second);

}  // namespace partsim::model::migration
