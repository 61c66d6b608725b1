#pragma once
// Per-batch and per-sample tables of a run, as CSV (the files `--out` writes).

#include <functional>
#include <string>
#include <string_view>

#include "model/run_result.hpp"

namespace partsim::analysis {

/// Receives a table a piece (about 1 MiB) at a time, so it need not be held whole.
using TextSink = std::function<void(std::string_view)>;

/// topic,partition,broker,records,bytes,created_ms,sent_ms,done_ms,outcome (acked|failed);
/// sent_ms is -1 for a batch that never left the producer.
void write_batches_csv(const model::RunResult& r, const TextSink& sink);
std::string batches_to_csv(const model::RunResult& r);

/// time_ms,buffer_bytes, then per partition p<topic>.<n>_queue and p<topic>.<n>_records
/// (appended since the previous sample), then per broker b<id>_in_flight and
/// b<id>_queue_wait_ms (mean over requests served since the previous sample).
void write_timeseries_csv(const model::RunResult& r, const TextSink& sink);
std::string timeseries_to_csv(const model::RunResult& r);

}  // namespace partsim::analysis
