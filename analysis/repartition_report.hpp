#pragma once
// A run's live partition increases (a topic's schedule): when each producer saw the new
// count, the records partitioned by the old count after the change, the keys split over
// partitions, the keys a consumer saw out of order and the records auto.offset.reset=latest
// skipped, as a table and as JSON.

#include <string>

#include <nlohmann/json.hpp>

#include "analysis/distribution.hpp"
#include "model/run_result.hpp"

namespace partsim::analysis {

/// {"changes": [{"topic", "at_ms", "from", "to"}], "producers": [{"producer",
/// "saw_new_count_at_ms"}], "records_old_rule_after_change", "keys_split", "keys_out_of_order",
/// "records_skipped_latest"}; null without a schedule. "saw_new_count_at_ms" is null for a
/// producer that never saw a change, "keys_out_of_order" null without consumer groups.
nlohmann::ordered_json repartition_to_json(const model::RunResult& r);
/// The "repartition ..." block; "" without a schedule.
std::string repartition_to_text(const model::RunResult& r);

}  // namespace partsim::analysis
