#include "analysis/run_tables.hpp"

#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {

std::string batches_to_csv(const model::RunResult& r) {
  Table t({{"topic"}, {"partition"}, {"broker"}, {"records"}, {"bytes"}, {"created_ms"}, {"sent_ms"}, {"done_ms"}, {"outcome"}});
  for (const auto& b : r.batches)
    t.add_row({b.topic, std::to_string(b.partition), std::to_string(b.broker), std::to_string(b.records), std::to_string(b.bytes),
               fixed(b.created_ms, 6), b.sent_ms < 0 ? "-1" : fixed(b.sent_ms, 6), fixed(b.done_ms, 6), b.acked ? "acked" : "failed"});
  return t.to_csv();
}

std::string timeseries_to_csv(const model::RunResult& r) {
  const auto& ts = r.timeseries;
  std::vector<Column> cols{{"time_ms"}, {"buffer_bytes"}};
  for (const auto& p : r.partitions) cols.push_back({"p" + p.topic + "." + std::to_string(p.partition) + "_queue"});
  for (const auto& p : r.partitions) cols.push_back({"p" + p.topic + "." + std::to_string(p.partition) + "_records"});
  for (const auto& b : r.brokers) cols.push_back({"b" + std::to_string(b.broker) + "_in_flight"});
  for (const auto& b : r.brokers) cols.push_back({"b" + std::to_string(b.broker) + "_queue_wait_ms"});
  Table t(std::move(cols));
  for (std::size_t i = 0; i < ts.time_ms.size(); ++i) {
    std::vector<std::string> row{fixed(ts.time_ms[i], 3), std::to_string(ts.buffer_bytes[i])};
    for (auto q : ts.partition_queue[i]) row.push_back(std::to_string(q));
    for (auto n : ts.partition_records[i]) row.push_back(std::to_string(n));
    for (auto f : ts.broker_in_flight[i]) row.push_back(std::to_string(f));
    for (auto w : ts.broker_queue_wait_ms[i]) row.push_back(fixed(w, 4));
    t.add_row(std::move(row));
  }
  return t.to_csv();
}

}  // namespace partsim::analysis
