#pragma once
// run.check: the simulation beside a closed form (theory.hpp), as a table and as the
// "theory" JSON member. poisson-batching: records per batch; broker-queue: the broker's
// mean queue wait against Pollaczek-Khinchine.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/theory.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace partsim::analysis {

struct TheoryReport {
  std::string text;
  nlohmann::ordered_json json;
};

/// `observed[k]`: measured batches of k records, summed over the replications.
TheoryReport poisson_batching_report(const model::Scenario& s, const std::vector<std::int64_t>& observed);

/// One replication's requests at the broker that leads the one partition.
struct QueueSample {
  std::int32_t broker = -1;  ///< its id (-1: no requests)
  std::int64_t requests = 0;
  std::int64_t records = 0;
  double wait_ms_sum = 0;
  std::int64_t retries = 0;  ///< batches re-enqueued (RunResult::retries)
  std::int64_t failed = 0;   ///< records failed
};
/// The sample of a run (the broker that answered requests).
QueueSample queue_sample(const model::RunResult& r);

/// The service time's moments of a one-record request at `broker` (scenario units).
ServiceMoments one_record_service(const model::Scenario& s, const model::BrokerConfig& broker);

/// `samples`: one per replication. The test needs 2 or more (a t test over replications;
/// one run's waits are correlated, so one run gives no test), and none where the closed
/// form's assumptions broke (a request of more than one record, a retry, a failed record):
/// then the text says why and `p_value` is null.
TheoryReport broker_queue_report(const model::Scenario& s, const std::vector<QueueSample>& samples);

}  // namespace partsim::analysis
