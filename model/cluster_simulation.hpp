#pragma once
// A cluster of brokers and one or more producers, run as a discrete-event simulation.
// Each producer follows the 4.x Java client: KafkaProducer.doSend (spec §1), the
// RecordAccumulator (spec §3) with the BuiltInPartitioner (spec §2), the Sender (spec §4);
// each broker serves produce requests from one FIFO queue.

#include <cstdint>

#include "model/run_options.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::model {

/// Runs `scenario` with master seed `seed` and replication number `replication` until
/// every record sent has been acknowledged or has failed; returns the results.
RunResult run_scenario(const Scenario& scenario, std::uint64_t seed, std::uint64_t replication = 0,
                       const RunOptions& options = {});

}  // namespace partsim::model
