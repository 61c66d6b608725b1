#include "analysis/run_report.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "analysis/consumer_groups_report.hpp"
#include "analysis/distribution.hpp"
#include "analysis/format.hpp"
#include "analysis/hot_keys_report.hpp"
#include "analysis/isr_report.hpp"
#include "analysis/migration_report.hpp"
#include "analysis/repartition_report.hpp"
#include "analysis/run_metrics.hpp"
#include "analysis/run_producer_metrics.hpp"
#include "analysis/table.hpp"
#include "analysis/traffic_report.hpp"

namespace partsim::analysis {
namespace {

double per(std::int64_t a, std::int64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }

using Json = nlohmann::ordered_json;

// A statistic of measured records: null in JSON when the run measured none.
Json stat(bool measured, double v) { return measured ? Json(v) : Json(nullptr); }
// A ratio cell of a table or CSV: `undefined` when the run measured nothing.
std::string cell(bool measured, double v, int decimals, const char* undefined) {
  return measured ? fixed(v, decimals) : undefined;
}

}  // namespace

bool measured_anything(const model::RunResult& r) { return r.records_measured > 0; }

std::string unmeasured_reason(const model::RunResult& r) {
  if (measured_anything(r)) return "";
  if (r.records_sent == 0) return "no record was sent";
  if (r.records_acked == 0) return "no record was acknowledged (" + std::to_string(r.failed.total()) + " failed)";
  return "every acknowledged record was sent before run.warmup.ms";
}

std::vector<std::size_t> busiest_partitions(const model::RunResult& r, std::size_t n) {
  std::vector<std::size_t> order(r.partitions.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  n = std::min(n, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                    [&](std::size_t a, std::size_t b) {
                      return r.partitions[a].records != r.partitions[b].records
                                 ? r.partitions[a].records > r.partitions[b].records
                                 : a < b;
                    });
  order.resize(n);
  return order;
}

nlohmann::ordered_json run_to_json(const model::RunResult& r) {
  nlohmann::ordered_json j;
  j["scenario"] = r.scenario;
  j["seed"] = r.seed;
  j["client"] = r.client;
  j["clients"] = nlohmann::ordered_json::array();
  for (const auto& c : r.clients) {
    nlohmann::ordered_json e;
    e[c.group ? "group" : "producer"] = c.name;
    e["client"] = c.client;
    if (!c.group) {
      e["partitioner_configured"] = c.configured;
      e["partitioner"] = c.partitioner;
      e["partitioner_runs_as"] = c.runs_as;
      if (!c.rack.empty()) {
        e["rack"] = c.rack;
        e["partitioner_rack_aware"] = c.rack_aware;
        e["records_in_rack"] = c.records_in_rack;
        e["records_in_rack_share"] =
            c.records > 0 ? round_to(static_cast<double>(c.records_in_rack) / static_cast<double>(c.records), 4) : 0.0;
      }
    }
    j["clients"].push_back(std::move(e));
  }
  if (r.partial) j["partial"] = true;
  j["records_sent"] = r.records_sent;
  j["records_acked"] = r.records_acked;
  j["records_failed"] = r.failed.total();
  j["failures"] = {{"buffer_timeout", r.failed.buffer_timeout},
                   {"buffer_limit", r.failed.buffer_limit},
                   {"delivery_timeout", r.failed.delivery_timeout},
                   {"record_too_large", r.failed.record_too_large},
                   {"retries_exhausted", r.failed.retries_exhausted},
                   {"invalid_partition", r.failed.invalid_partition}};
  j["records_measured"] = r.records_measured;
  const bool measured = measured_anything(r);
  auto& parts = j["partitions"] = nlohmann::ordered_json::array();
  for (const auto& p : r.partitions) {
    parts.push_back({{"topic", p.topic},
                     {"partition", p.partition},
                     {"leader", p.leader},
                     {"records", p.records},
                     {"bytes", p.bytes},
                     {"batches", p.batches},
                     {"records_per_batch", stat(measured, round_to(per(p.records, p.batches), 3))},
                     {"bytes_per_batch", stat(measured, round_to(per(p.bytes, p.batches), 1))}});
  }
  auto& brokers = j["brokers"] = nlohmann::ordered_json::array();
  std::int64_t total_records = 0;
  for (const auto& b : r.brokers) total_records += b.records;
  for (const auto& b : r.brokers) {
    brokers.push_back({{"broker", b.broker},
                       {"records", b.records},
                       {"share", stat(measured, round_to(per(b.records, total_records), 4))},
                       {"bytes", b.bytes},
                       {"batches", b.batches},
                       {"requests", b.requests},
                       {"records_per_batch", stat(measured, round_to(per(b.records, b.batches), 3))},
                       {"mean_queue_wait_ms",
                        round_to(b.requests ? b.queue_wait_ms_sum / static_cast<double>(b.requests) : 0.0, 4)}});
  }
  // Per topic: one topic's statistics directly under "distribution", several under their names.
  const auto topics = topic_distributions(r);
  auto distribution_json = [&](const TopicDistribution& t) {
    const bool m = measured && t.records > 0;
    const auto& d = t.stats;
    return Json{{"max_over_min", stat(m && !d.has_empty_bin, round_to(d.max_over_min, 4))},
                {"cv", stat(m, round_to(d.cv, 4))},
                {"jain", stat(m, round_to(d.jain, 4))},
                {"kl_divergence", stat(m, round_to(d.kl_divergence, 6))},
                {"chi_square", stat(m, round_to(d.chi_square, 4))},
                {"p_value", stat(m, round_to(d.p_value, 6))}};
  };
  if (topics.size() == 1) {
    j["distribution"] = distribution_json(topics.front());
  } else {
    auto& dist = j["distribution"] = Json::object();
    for (const auto& t : topics) dist[t.topic] = distribution_json(t);
  }
  const bool latencies = r.latency.count() > 0;
  j["latency_ms"] = {{"p50", stat(latencies, round_to(ns_to_ms(r.latency.quantile(0.5)), 3))},
                     {"p99", stat(latencies, round_to(ns_to_ms(r.latency.quantile(0.99)), 3))},
                     {"p999", stat(latencies, round_to(ns_to_ms(r.latency.quantile(0.999)), 3))},
                     {"max", stat(latencies, round_to(ns_to_ms(r.latency.max()), 3))},
                     {"mean", stat(latencies, round_to(r.latency.mean() / 1e6, 3))}};
  const bool batches = r.batch_bytes.count() > 0;
  auto batch_stat = [&](std::int64_t v) { return batches ? Json(v) : Json(nullptr); };
  j["batch_bytes"] = {{"p10", batch_stat(r.batch_bytes.quantile(0.1))},
                      {"p50", batch_stat(r.batch_bytes.quantile(0.5))},
                      {"p90", batch_stat(r.batch_bytes.quantile(0.9))},
                      {"max", batch_stat(r.batch_bytes.max())},
                      {"mean", stat(batches, round_to(r.batch_bytes.mean(), 1))}};
  j["buffer_full_ms"] = round_to(r.buffer_full_ms, 3);
  j["peak_buffer_bytes"] = r.peak_buffer_bytes;
  j["retries"] = r.retries;
  // Only in runs that inject errors or check order: every other run's JSON stays as it was.
  if (r.log_order.checked || r.produce_errors.total() > 0) {
    j["produce_errors"] = {{"injected", r.produce_errors.injected},
                           {"out_of_order_sequence", r.produce_errors.out_of_order},
                           {"duplicates", r.produce_errors.duplicates}};
    // Replication fixed with min.insync.replicas above 1: only once some batch was refused.
    if (r.produce_errors.not_enough_replicas > 0)
      j["produce_errors"]["not_enough_replicas"] = r.produce_errors.not_enough_replicas;
  }
  if (r.log_order.checked)
    j["log_order"] = {{"reordered_records", r.log_order.reordered_records},
                      {"reordered_keys", r.log_order.reordered_keys},
                      {"duplicated_records", r.log_order.duplicated_records}};
  j["producer_metrics"] = producer_metrics_to_json(r);
  if (r.key_agreement)
    j["key_agreement"] = {{"keyed_records", r.key_agreement->records},
                          {"as_java", r.key_agreement->as_java},
                          {"share",
                           r.key_agreement->records > 0
                               ? nlohmann::ordered_json(round_to(static_cast<double>(r.key_agreement->as_java) /
                                                                     static_cast<double>(r.key_agreement->records),
                                                                 4))
                               : nlohmann::ordered_json(nullptr)}};
  j["partitioner_switches"] = r.partitioner_switches;
  j["simulated_ms"] = round_to(r.simulated_ms, 3);
  j["events"] = r.events;
  j["trace"] = r.trace;
  if (!r.adaptive_choices.empty()) {
    // Adaptive partitioning's choices against what the queue-size weights promised.
    const auto a = distribution_stats(r.adaptive_choices, r.adaptive_expected);
    std::int64_t draws = 0;
    for (auto c : r.adaptive_choices) draws += c;
    auto& check = j["adaptive_check"];
    check["draws"] = draws;
    check["chi_square"] = round_to(a.chi_square, 4);
    check["p_value"] = round_to(a.p_value, 6);
    auto& choices = check["partitions"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.adaptive_choices.size(); ++i)
      choices.push_back({{"partition", r.partitions[i].partition},
                         {"choices", r.adaptive_choices[i]},
                         {"expected", round_to(r.adaptive_expected[i], 3)}});
  }
  if (!r.leader_history.empty()) {
    auto& h = j["leader_history"] = nlohmann::ordered_json::array();
    for (const auto& snap : r.leader_history)
      h.push_back({{"time_ms", round_to(snap.time_ms, 3)}, {"cause", snap.cause}, {"leaders", snap.leaders}});
  }
  if (r.window_ms > 0) {
    auto& w = j["windows"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.windows.size(); ++i)
      w.push_back({{"start_ms", round_to(static_cast<double>(i) * r.window_ms, 3)}, {"records", r.windows[i]}});
  }
  if (auto rep = replication_to_json(r); !rep.is_null()) j["replication"] = std::move(rep);
  if (auto hot = hot_keys_to_json(r); !hot.is_null()) j["hot_keys"] = std::move(hot);
  if (auto groups = consumer_groups_to_json(r); !groups.is_null()) {
    j["consumer_groups"] = std::move(groups);
    j["consume_trace"] = consume_trace_to_json(r);
    if (auto fetches = consumer_fetches_to_json(r); !fetches.is_null()) j["consumer_fetches"] = std::move(fetches);
  }
  if (auto migration = migration_to_json(r); !migration.is_null()) j["migration"] = std::move(migration);
  if (auto repartition = repartition_to_json(r); !repartition.is_null()) j["repartition"] = std::move(repartition);
  if (shows_traffic(r.traffic)) j["traffic"] = traffic_to_json(r.traffic);
  return j;
}

std::string dump_json(const nlohmann::ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

namespace {

/// "client kafka-4.3", or "clients kafka-3.6, kafka-4.3" when producers and groups differ.
std::string clients_text(const model::RunResult& r) {
  std::vector<std::string> names;
  for (const auto& c : r.clients)
    if (std::find(names.begin(), names.end(), c.client) == names.end()) names.push_back(c.client);
  if (names.empty()) names.push_back(r.client);
  std::string out = names.size() == 1 ? "client " : "clients ";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

}  // namespace

std::string run_to_text(const model::RunResult& r) {
  std::string out;
  out += "scenario " + r.scenario + "  seed " + std::to_string(r.seed) + "  " + clients_text(r) + "  simulated " +
         fixed(r.simulated_ms, 1) + " ms\n";
  for (const auto& c : r.clients) {
    if (c.group) continue;
    if (c.partitioner != c.configured)
      out += "partitioner " + c.configured + " (producer " + c.name + ") is " + c.partitioner + " in " + c.client +
             " (KIP-794's built-in partitioner came with kafka-3.3)\n";
    else if (c.runs_as != c.client)
      out += "partitioner " + c.partitioner + " (producer " + c.name + ") runs as in " + c.runs_as + ", not " +
             c.client + "\n";
    if (!c.rack.empty() && c.records > 0)
      out += "producer " + c.name + " in rack " + c.rack + (c.rack_aware ? " (partitioner.rack.aware)" : "") + ": " +
             std::to_string(c.records_in_rack) + " of " + std::to_string(c.records) + " records (" +
             fixed(100.0 * static_cast<double>(c.records_in_rack) / static_cast<double>(c.records), 1) +
             "%) to leaders in its rack\n";
  }
  if (r.partial)
    out += "PARTIAL RESULT: the run was interrupted; records still in flight are neither acked nor failed\n";
  out += "records sent " + std::to_string(r.records_sent) + ", acked " + std::to_string(r.records_acked) + ", failed " +
         std::to_string(r.failed.total());
  if (r.failed.total() > 0)
    out += " (buffer timeout " + std::to_string(r.failed.buffer_timeout) + ", buffer limit " +
           std::to_string(r.failed.buffer_limit) + ", delivery timeout " + std::to_string(r.failed.delivery_timeout) +
           ", too large " + std::to_string(r.failed.record_too_large) + ", retries exhausted " +
           std::to_string(r.failed.retries_exhausted) + ", invalid partition " +
           std::to_string(r.failed.invalid_partition) + ")";
  out += "; measured (after warm-up) " + std::to_string(r.records_measured) + "\n";
  const bool measured = measured_anything(r);
  if (!measured)
    out +=
        "NO RECORDS MEASURED: " + unmeasured_reason(r) + "; shares, batching, latency and distribution are undefined\n";
  out += "\n";

  Table parts({{"topic", Align::kLeft},
               {"partition"},
               {"leader"},
               {"records"},
               {"share"},
               {"bytes"},
               {"batches"},
               {"rec/batch"},
               {"bytes/batch"}});
  std::int64_t total = 0;
  for (const auto& p : r.partitions) total += p.records;
  // A big topic shows its busiest partitions and counts the idle ones (CSV and JSON keep every row).
  const bool big = r.partitions.size() > kTableMaxPartitions;
  std::vector<std::size_t> shown(r.partitions.size());
  std::iota(shown.begin(), shown.end(), std::size_t{0});
  if (big) shown = busiest_partitions(r, kTablePartitionsShown);
  for (std::size_t i : shown) {
    const auto& p = r.partitions[i];
    parts.add_row({p.topic, std::to_string(p.partition), std::to_string(p.leader), std::to_string(p.records),
                   cell(measured, per(p.records, total), 4, "-"), std::to_string(p.bytes), std::to_string(p.batches),
                   cell(measured, per(p.records, p.batches), 1, "-"), cell(measured, per(p.bytes, p.batches), 0, "-")});
  }
  out += parts.to_text();
  if (big) {
    std::size_t idle = 0;
    for (const auto& p : r.partitions) idle += p.records == 0 ? 1 : 0;
    out += "(the " + std::to_string(kTablePartitionsShown) + " busiest of " + std::to_string(r.partitions.size()) +
           " partitions; " + std::to_string(idle) +
           " got no records; every partition: --format csv, --format json or partitions.csv with --out)\n";
  }
  out += "\n";

  Table brokers(
      {{"broker"}, {"records"}, {"share"}, {"bytes"}, {"batches"}, {"requests"}, {"rec/batch"}, {"queue wait ms"}});
  for (const auto& b : r.brokers)
    brokers.add_row({std::to_string(b.broker), std::to_string(b.records), cell(measured, per(b.records, total), 4, "-"),
                     std::to_string(b.bytes), std::to_string(b.batches), std::to_string(b.requests),
                     cell(measured, per(b.records, b.batches), 1, "-"),
                     fixed(b.requests ? b.queue_wait_ms_sum / static_cast<double>(b.requests) : 0.0, 3)});
  out += brokers.to_text() + "\n";

  if (measured) {
    // Per topic: a topic's records spread over its own partitions (a migration's new topic,
    // which the producers never write, has none and says so).
    const auto topics = topic_distributions(r);
    for (const auto& t : topics) {
      const auto& d = t.stats;
      out += "records per partition" + (topics.size() == 1 ? std::string() : ", topic " + t.topic) + ": ";
      if (t.records == 0) {
        out += "no records measured\n";
        continue;
      }
      out += "max/min " + (d.has_empty_bin ? std::string("inf (an idle partition)") : fixed(d.max_over_min, 3)) +
             ", cv " + fixed(d.cv, 4) + ", Jain " + fixed(d.jain, 4) + ", chi-square " + fixed(d.chi_square, 2) +
             " (p = " + fixed(d.p_value, 4) +
             (t.time_weighted ? " vs shares by the time each partition existed)\n" : " vs uniform)\n");
    }
    out += "latency send->ack ms: p50 " + fixed(ns_to_ms(r.latency.quantile(0.5)), 3) + ", p99 " +
           fixed(ns_to_ms(r.latency.quantile(0.99)), 3) + ", p99.9 " + fixed(ns_to_ms(r.latency.quantile(0.999)), 3) +
           ", max " + fixed(ns_to_ms(r.latency.max()), 3) + "\n";
  } else {
    out += "records per partition: no records measured\nlatency send->ack ms: no records measured\n";
  }
  if (r.batch_bytes.count() > 0)
    out += "batch bytes: p10 " + std::to_string(r.batch_bytes.quantile(0.1)) + ", p50 " +
           std::to_string(r.batch_bytes.quantile(0.5)) + ", p90 " + std::to_string(r.batch_bytes.quantile(0.9)) +
           ", max " + std::to_string(r.batch_bytes.max()) + "\n";
  else out += "batch bytes: no batches measured\n";
  out += "buffer full " + fixed(r.buffer_full_ms, 1) + " ms (peak " + std::to_string(r.peak_buffer_bytes) +
         " bytes), retries " + std::to_string(r.retries) + ", built-in partitioner switches " +
         std::to_string(r.partitioner_switches) + "\n";
  if (r.log_order.checked || r.produce_errors.total() > 0)
    out +=
        "produce errors (batches): " + std::to_string(r.produce_errors.injected) + " answered with error.code, " +
        std::to_string(r.produce_errors.out_of_order) + " out of sequence, " +
        std::to_string(r.produce_errors.duplicates) + " duplicates not appended again" +
        (r.produce_errors.not_enough_replicas > 0
             ? ", " + std::to_string(r.produce_errors.not_enough_replicas) +
                   " refused NOT_ENOUGH_REPLICAS (acks=all with fewer replicas on live brokers than min.insync.replicas)"
             : std::string()) +
        "\n";
  if (r.key_agreement && r.key_agreement->records > 0)
    out += "keyed records placed as the Java client's rule places them (murmur2): " +
           fixed(100.0 * static_cast<double>(r.key_agreement->as_java) / static_cast<double>(r.key_agreement->records),
                 1) +
           "% (" + std::to_string(r.key_agreement->as_java) + " of " + std::to_string(r.key_agreement->records) + ")\n";
  if (r.log_order.checked)
    out += "per-key order in the logs: " + std::to_string(r.log_order.reordered_records) +
           " records behind a later-sent record of their key (" + std::to_string(r.log_order.reordered_keys) +
           " keys), " + std::to_string(r.log_order.duplicated_records) + " records written twice\n";
  if (!r.adaptive_choices.empty()) {
    const auto a = distribution_stats(r.adaptive_choices, r.adaptive_expected);
    std::int64_t draws = 0;
    for (auto c : r.adaptive_choices) draws += c;
    out += "adaptive partitioning: " + std::to_string(draws) +
           " weighted draws; choices vs queue-size weights: chi-square " + fixed(a.chi_square, 2) +
           ", p = " + fixed(a.p_value, 4) + "\n";
  }
  out += producer_metrics_to_text(r);
  if (!r.leader_history.empty()) {
    std::vector<Column> cols{{"time ms"}, {"cause", Align::kLeft}};
    for (const auto& b : r.brokers) cols.push_back({"broker " + std::to_string(b.broker) + " leaders"});
    Table h(std::move(cols));
    for (const auto& snap : r.leader_history) {
      std::vector<std::string> row{fixed(snap.time_ms, 1), snap.cause};
      for (auto n : snap.leaders) row.push_back(std::to_string(n));
      h.add_row(std::move(row));
    }
    out += "\nleaders per broker over time:\n" + h.to_text();
  }
  if (r.window_ms > 0 && !r.windows.empty()) {
    std::vector<Column> cols{{"window start ms"}};
    for (const auto& b : r.brokers) cols.push_back({"broker " + std::to_string(b.broker) + " share"});
    cols.push_back({"records"});
    Table w(std::move(cols));
    for (std::size_t i = 0; i < r.windows.size(); ++i) {
      std::int64_t sum = 0;
      for (auto c : r.windows[i]) sum += c;
      std::vector<std::string> row{fixed(static_cast<double>(i) * r.window_ms, 0)};
      for (auto c : r.windows[i]) row.push_back(fixed(per(c, sum), 4));
      row.push_back(std::to_string(sum));
      w.add_row(std::move(row));
    }
    out += "\nrecords per broker by send time:\n" + w.to_text();
  }
  out += replication_to_text(r);
  if (const auto hot = hot_keys_to_text(r); !hot.empty()) out += "\n" + hot;
  if (!r.trace.empty()) {
    out += "first " + std::to_string(r.trace.size()) + " partitions:";
    for (auto p : r.trace) out += " " + std::to_string(p);
    out += "\n";
  }
  out += consumer_groups_to_text(r);
  out += migration_to_text(r);
  out += repartition_to_text(r);
  if (shows_traffic(r.traffic)) out += traffic_to_text(r.traffic);
  return out;
}

std::string partitions_to_csv(const model::RunResult& r) {
  // Written row by row, not through a Table of cells: a million partitions are 40 MB of
  // text, not a gigabyte of strings.
  const bool measured = measured_anything(r);
  std::string out = "topic,partition,leader,records,bytes,batches,records_per_batch,bytes_per_batch\n";
  out.reserve(out.size() + r.partitions.size() * 48);
  for (const auto& p : r.partitions) {
    append_csv_cell(out, p.topic);
    for (std::int64_t v : {std::int64_t{p.partition}, std::int64_t{p.leader}, p.records, p.bytes, p.batches}) {
      out += ',';
      append_int(out, v);
    }
    out += ',';
    out += cell(measured, per(p.records, p.batches), 3, "");
    out += ',';
    out += cell(measured, per(p.bytes, p.batches), 1, "");
    out += '\n';
  }
  return out;
}

}  // namespace partsim::analysis
