#include "analysis/run_tables.hpp"

#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {

namespace {

constexpr std::size_t kPieceBytes = 1 << 20;  // handed to the sink at a time

// Hands `out` to the sink once it holds a piece's worth.
void pass_on(std::string& out, const TextSink& sink, bool last = false) {
  if (out.size() >= kPieceBytes || (last && !out.empty())) {
    sink(out);
    out.clear();
  }
}

std::string collect(void (*write)(const model::RunResult&, const TextSink&), const model::RunResult& r) {
  std::string all;
  write(r, [&all](std::string_view piece) { all += piece; });
  return all;
}

}  // namespace

// Both tables are written line by line, a piece at a time, not through a Table of cells:
// a million rows are tens of megabytes of text passing through, not a gigabyte of strings.

void write_batches_csv(const model::RunResult& r, const TextSink& sink) {
  std::string out = "topic,partition,broker,records,bytes,created_ms,sent_ms,done_ms,outcome\n";
  for (const auto& b : r.batches) {
    append_csv_cell(out, b.topic);
    for (std::int32_t v : {b.partition, b.broker, b.records, b.bytes}) {
      out += ',';
      append_int(out, v);
    }
    out += ',';
    out += fixed(b.created_ms, 6);
    out += ',';
    out += b.sent_ms < 0 ? "-1" : fixed(b.sent_ms, 6);
    out += ',';
    out += fixed(b.done_ms, 6);
    out += b.acked ? ",acked\n" : ",failed\n";
    pass_on(out, sink);
  }
  pass_on(out, sink, true);
}

std::string batches_to_csv(const model::RunResult& r) { return collect(write_batches_csv, r); }

void write_timeseries_csv(const model::RunResult& r, const TextSink& sink) {
  const auto& ts = r.timeseries;
  std::string out = "time_ms,buffer_bytes";
  auto column = [&out](const std::string& name) {
    out += ',';
    append_csv_cell(out, name);
  };
  for (const auto& p : r.partitions) column("p" + p.topic + "." + std::to_string(p.partition) + "_queue");
  for (const auto& p : r.partitions) column("p" + p.topic + "." + std::to_string(p.partition) + "_records");
  for (const auto& b : r.brokers) column("b" + std::to_string(b.broker) + "_in_flight");
  for (const auto& b : r.brokers) column("b" + std::to_string(b.broker) + "_queue_wait_ms");
  out += '\n';
  for (std::size_t i = 0; i < ts.time_ms.size(); ++i) {
    out += fixed(ts.time_ms[i], 3);
    out += ',';
    append_int(out, ts.buffer_bytes[i]);
    for (auto q : ts.partition_queue[i]) {
      out += ',';
      append_int(out, q);
    }
    for (auto n : ts.partition_records[i]) {
      out += ',';
      append_int(out, n);
    }
    for (auto f : ts.broker_in_flight[i]) {
      out += ',';
      append_int(out, f);
    }
    for (auto w : ts.broker_queue_wait_ms[i]) {
      out += ',';
      out += fixed(w, 4);
    }
    out += '\n';
    pass_on(out, sink);
  }
  pass_on(out, sink, true);
}

std::string timeseries_to_csv(const model::RunResult& r) { return collect(write_timeseries_csv, r); }

}  // namespace partsim::analysis
