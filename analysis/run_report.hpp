#pragma once
// A run's results as people and programs read them: aligned tables, JSON, CSV. The JSON
// fields are documented in the README ("Output of partsim run").

#include <string>

#include <nlohmann/json.hpp>

#include "model/run_result.hpp"

namespace partsim::analysis {

nlohmann::ordered_json run_to_json(const model::RunResult& r);
std::string run_to_text(const model::RunResult& r);
/// One row per partition: topic,partition,leader,records,bytes,batches,records_per_batch,bytes_per_batch
std::string partitions_to_csv(const model::RunResult& r);

}  // namespace partsim::analysis
