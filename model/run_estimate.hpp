#pragma once
// What a scenario will cost before it runs: records to simulate and memory to hold. Used
// to refuse absurd scenarios (10^9 partitions, 10^15 records without a time limit) with
// the estimate, rather than run for days or run out of memory.

#include <cstdint>
#include <string>

#include "model/scenario.hpp"

namespace partsim::model {

struct RunEstimate {
  double records = 0;       ///< records the run will send (an upper estimate)
  double memory_bytes = 0;  ///< peak memory of the simulation state
};

RunEstimate estimate_run(const Scenario& s);

/// The limits past which a run is refused unless the user insists (--allow-large).
inline constexpr double kMaxRecords = 1e11;            // about 6 hours at 5 million records/s
inline constexpr double kMaxMemoryBytes = 8.0 * (1ull << 30);

/// Empty when the run is within the limits, else why not (with the estimate).
std::string check_run_limits(const Scenario& s);

}  // namespace partsim::model
