#pragma once
// A run's migration to a new topic (book ch. 10.3, book-tables T10): records migrated, keys
// whose partition changed, order per key, keys with all their events, downtime, duplicates,
// inconsistent keys and the bridge's lag, catch-up and switch, as a table and as JSON.

#include <string>

#include <nlohmann/json.hpp>

#include "model/run_result.hpp"

namespace partsim::analysis {

/// {"strategy", "from", "to", "from_partitions", "to_partitions", "old_records", "new_records",
/// "records_migrated", "keys", "keys_changed_partition", "ratio", "order_violations",
/// "order_violations_old", "keys_out_of_order", "keys_with_all_events", "stable", "downtime_ms",
/// "duplicates", "inconsistent_keys", "sample": {"key", "old", "new"}, with a bridge "bridge":
/// {"start_ms", "lag_at_start", "max_lag", "caught_up", "caught_up_ms", "catch_up_ms", "switch_ms",
/// "finished_ms", "records_after_switch", "records_given_up"}}; null without a migration. "ratio" is null without
/// keyed records; the three times are null when the bridge did not catch up ("caught_up": false).
nlohmann::ordered_json migration_to_json(const model::RunResult& r);
/// The "migration ..." block; "" without a migration.
std::string migration_to_text(const model::RunResult& r);

}  // namespace partsim::analysis
