#pragma once
// run.check: poisson-batching: the simulated records-per-batch counts beside the closed
// form (theory.hpp), as a table and as the "theory" JSON member.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/scenario.hpp"

namespace partsim::analysis {

struct TheoryReport {
  std::string text;
  nlohmann::ordered_json json;
};

/// `observed[k]`: measured batches of k records, summed over the replications.
TheoryReport poisson_batching_report(const model::Scenario& s, const std::vector<std::int64_t>& observed);

}  // namespace partsim::analysis
