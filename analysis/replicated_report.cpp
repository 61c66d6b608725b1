#include "analysis/replicated_report.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "analysis/format.hpp"
#include "analysis/run_report.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

nlohmann::ordered_json number(double v, int decimals) {
  if (!std::isfinite(v)) return nullptr;  // undefined, or max/min with an idle partition
  return round_to(v, decimals);
}

// Every line of `text` indented by `spaces`.
std::string indent(const std::string& text, std::size_t spaces) {
  std::string out(spaces, ' ');
  for (char c : text) {
    out += c;
    if (c == '\n') out.append(spaces, ' ');
  }
  return out;
}

// The per-partition rows: every partition, or the busiest by mean records of a big topic.
std::vector<std::size_t> partitions_shown(const std::vector<Summary>& sums,
                                          const std::vector<std::size_t>& records_metric) {
  std::vector<std::size_t> order(records_metric.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (order.size() <= kTableMaxPartitions) return order;
  auto mean = [&](std::size_t p) { return sums[records_metric[p]].mean; };
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kTablePartitionsShown), order.end(),
                    [&](std::size_t a, std::size_t b) { return mean(a) != mean(b) ? mean(a) > mean(b) : a < b; });
  order.resize(kTablePartitionsShown);
  return order;
}

}  // namespace

std::string mean_pm(const Summary& s, int decimals) {
  if (std::isnan(s.mean)) return "-";
  if (!std::isfinite(s.mean)) return "inf";
  return fixed(s.mean, decimals) + " ± " + fixed((s.ci_high - s.ci_low) / 2, decimals);
}

nlohmann::ordered_json summary_to_json(const std::string& name, const Summary& s) {
  return {{"name", name},
          {"mean", number(s.mean, 6)},
          {"ci95_low", number(s.ci_low, 6)},
          {"ci95_high", number(s.ci_high, 6)},
          {"min", number(s.min, 6)},
          {"median", number(s.median, 6)},
          {"max", number(s.max, 6)}};
}

std::string replicated_to_text(const ReplicationSummary& s, const model::RunResult& first, ReplicationCount count) {
  const auto sums = s.summaries();
  const auto& reg = s.registry();
  std::string out = "scenario " + first.scenario + "  seed " + std::to_string(first.seed) + "  " +
                    std::to_string(count.done) + " replications: mean ± 95% confidence half-width (Student t)\n";
  if (count.partial())
    out += "PARTIAL RESULT: interrupted after " + std::to_string(count.done) + " of " +
           std::to_string(count.requested) + " replications; the statistics cover those " + std::to_string(count.done) +
           "\n";
  if (s.unmeasured() > 0)
    out += "NO RECORDS MEASURED in " + std::to_string(s.unmeasured()) + " of " + std::to_string(count.done) +
           " replications: their shares, batching, latency and distribution are left out" +
           (s.unmeasured() == count.done ? " (none is left: \"-\" below)" : "") + "\n";
  out += "\n";

  const std::size_t partitions = first.partitions.size();
  std::vector<std::size_t> part_records(partitions);
  for (std::size_t p = 0; p < partitions; ++p) part_records[p] = reg.find(MetricScope::kPartition, p, "records");
  Table parts({{"partition", Align::kLeft}, {"records"}, {"min"}, {"median"}, {"max"}, {"batches"}});
  for (std::size_t p : partitions_shown(sums, part_records)) {
    const auto& rec = sums[part_records[p]];
    const auto& part = first.partitions[p];
    parts.add_row({part.topic + "." + std::to_string(part.partition), mean_pm(rec, 1), metric_text(rec.min, 0, "-"),
                   metric_text(rec.median, 1, "-"), metric_text(rec.max, 0, "-"),
                   mean_pm(sums[reg.find(MetricScope::kPartition, p, "batches")], 1)});
  }
  out += parts.to_text();
  if (partitions > kTableMaxPartitions) {
    std::size_t idle = 0;
    for (std::size_t i : part_records) idle += sums[i].max == 0 ? 1 : 0;
    out += "(the " + std::to_string(kTablePartitionsShown) + " busiest of " + std::to_string(partitions) +
           " partitions by mean records; " + std::to_string(idle) +
           " got no records in any replication; every partition: --format csv or --format json)\n";
  }
  out += "\n";

  Table brokers({{"broker", Align::kLeft}, {"share"}, {"min"}, {"max"}, {"records/batch"}, {"requests"}});
  for (std::size_t b = 0; b < first.brokers.size(); ++b) {
    auto at = [&](const char* field) { return sums[reg.find(MetricScope::kBroker, b, field)]; };
    const auto share = at("records_share");
    brokers.add_row({std::to_string(first.brokers[b].broker), mean_pm(share, 4), metric_text(share.min, 4, "-"),
                     metric_text(share.max, 4, "-"), mean_pm(at("records_per_batch"), 2), mean_pm(at("requests"), 0)});
  }
  out += brokers.to_text() + "\n";

  Table others(
      {{"metric", Align::kLeft}, {"mean"}, {"95% CI"}, {"min"}, {"median"}, {"max"}, {"meaning", Align::kLeft}});
  for (std::size_t i = 0; i < reg.size(); ++i) {
    const auto& m = reg[i];
    if (m.scope != MetricScope::kRun && m.scope != MetricScope::kGroup)
      continue;  // partitions and brokers have their tables
    const auto& v = sums[i];
    const int dm = std::max(m.decimals, 1);  // a mean of counts has a fraction
    const std::string ci =
        std::isnan(v.mean) ? "-" : "[" + metric_text(v.ci_low, dm, "-") + ", " + metric_text(v.ci_high, dm, "-") + "]";
    others.add_row({m.name, metric_text(v.mean, dm, "-"), ci, metric_text(v.min, m.decimals, "-"),
                    metric_text(v.median, dm, "-"), metric_text(v.max, m.decimals, "-"), label_with_unit(m)});
  }
  out += others.to_text();
  return out;
}

void append_summary_csv_rows(std::string& out, const ReplicationSummary& s, std::string_view prefix) {
  const auto& reg = s.registry();
  for (std::size_t i = 0; i < reg.size(); ++i) {
    const auto v = s.summary(i);
    out += prefix;
    append_csv_cell(out, reg[i].name);
    for (double x : {v.mean, v.ci_low, v.ci_high, v.min, v.median, v.max}) {
      out += ',';
      out += metric_text(x, 6, "");
    }
    out += '\n';
  }
}

std::string replicated_to_csv(const ReplicationSummary& s) {
  std::string out = "metric,mean,ci95_low,ci95_high,min,median,max\n";
  append_summary_csv_rows(out, s, "");
  return out;
}

nlohmann::ordered_json replicated_metrics_json(const ReplicationSummary& s) {
  auto metrics = nlohmann::ordered_json::array();
  const auto& reg = s.registry();
  for (std::size_t i = 0; i < reg.size(); ++i) metrics.push_back(summary_to_json(reg[i].name, s.summary(i)));
  return metrics;
}

std::string replicated_json_head(const model::RunResult& first) {
  nlohmann::ordered_json head;
  head["scenario"] = first.scenario;
  head["seed"] = first.seed;
  std::string text = dump_json(head);  // "{\n  ...\n}\n"
  text.resize(text.size() - 3);        // drop "\n}\n"
  return text + ",\n  \"runs\": [";
}

std::string replicated_json_run(const model::RunResult& r, std::size_t replication, bool first) {
  auto j = run_to_json(r);
  j["replication"] = replication;
  std::string text = dump_json(j);
  text.pop_back();  // the final newline
  return (first ? "\n" : ",\n") + indent(text, 4);
}

std::string replicated_json_tail(const ReplicationSummary& s, ReplicationCount count,
                                 const nlohmann::ordered_json& extra) {
  nlohmann::ordered_json tail;
  tail["replications"] = count.done;
  if (count.partial()) {
    tail["partial"] = true;
    tail["replications_requested"] = count.requested;
  }
  tail["metrics"] = replicated_metrics_json(s);
  for (const auto& [k, v] : extra.items()) tail[k] = v;
  const std::string text = dump_json(tail);  // "{\n  \"replications\": ..."
  return "\n  ],\n" + text.substr(2);
}

}  // namespace partsim::analysis
