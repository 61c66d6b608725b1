#pragma once
// The bytes a run put on the wire, by kind and by (from rack, to rack)
// (model::TrafficResult): a table for people, JSON, a CSV of the rack matrices, and the
// cross-rack price per hour and month when cluster.cost.cross.rack.per.gb is set. Shown
// when the scenario places something in a rack or sets a price: otherwise every byte stays
// in one place.

#include <string>

#include "model/run_result.hpp"
#include "nlohmann/json.hpp"

namespace partsim::analysis {

/// Whether the run's report shows its traffic (a rack anywhere, or a price).
bool shows_traffic(const model::TrafficResult& t);

/// "traffic": racks, by_kind (bytes, framing, messages, cross-rack bytes, the rack x rack
/// matrix), cross_rack_bytes, cross_rack_bytes_per_s, cost (with a price).
nlohmann::ordered_json traffic_to_json(const model::TrafficResult& t);
/// The table by kind, the cost line and the rack x rack matrix of all kinds.
std::string traffic_to_text(const model::TrafficResult& t);
/// traffic.csv: kind,from_rack,to_rack,bytes for every non-zero cell.
std::string traffic_to_csv(const model::TrafficResult& t);

}  // namespace partsim::analysis
