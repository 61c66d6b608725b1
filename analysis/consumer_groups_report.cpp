#include "analysis/consumer_groups_report.hpp"

#include <algorithm>
#include <numeric>

#include "analysis/format.hpp"
#include "analysis/run_report.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

using Json = nlohmann::ordered_json;

Json latency_json(const model::LatencyHistogram& h) {
  if (h.count() == 0) return {{"p50", nullptr}, {"p99", nullptr}, {"max", nullptr}};
  return {{"p50", round_to(ns_to_ms(h.quantile(0.5)), 3)},
          {"p99", round_to(ns_to_ms(h.quantile(0.99)), 3)},
          {"max", round_to(ns_to_ms(h.max()), 3)}};
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : " ") + s;
  return out;
}

// The first kTablePartitionsShown items, then how many more there are (the text's lists;
// JSON keeps every item).
std::string join_capped(const std::vector<std::string>& items) {
  if (items.size() <= kTablePartitionsShown) return join(items);
  const std::vector<std::string> head(items.begin(),
                                      items.begin() + static_cast<std::ptrdiff_t>(kTablePartitionsShown));
  return join(head) + " and " + std::to_string(items.size() - kTablePartitionsShown) + " more";
}

// Indexes of the `n` items that rank first by `before`, in their original order.
template <class Before>
std::vector<std::size_t> first_by(std::size_t size, std::size_t n, Before before) {
  std::vector<std::size_t> order(size);
  std::iota(order.begin(), order.end(), std::size_t{0});
  n = std::min(n, size);
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                    [&](std::size_t a, std::size_t b) { return before(a, b) || (!before(b, a) && a < b); });
  order.resize(n);
  std::sort(order.begin(), order.end());
  return order;
}

// Rebalances after the group's start (the start moves nothing): what compare's
// group.<name>.rebalances and consumer_groups.csv count.
std::size_t rebalances_after_start(const model::GroupResult& g) {
  return g.rebalances.empty() ? 0 : g.rebalances.size() - 1;
}

}  // namespace

nlohmann::ordered_json consumer_groups_to_json(const model::RunResult& r) {
  if (r.consumer_groups.empty()) return nullptr;
  Json groups = Json::array();
  for (const auto& g : r.consumer_groups) {
    Json members = Json::array();
    for (const auto& m : g.members) {
      Json mj{{"member", m.member}, {"partitions", m.partitions}, {"records", m.records}};
      if (m.crashed) mj["crashed"] = true;
      if (m.left) mj["left"] = true;
      members.push_back(std::move(mj));
    }
    Json rebalances = Json::array();
    for (const auto& rb : g.rebalances)
      rebalances.push_back({{"at_ms", round_to(rb.at_ms, 3)},
                            {"kind", rb.kind},
                            {"cause", rb.cause},
                            {"rounds", rb.rounds},
                            {"done_ms", round_to(rb.done_ms, 3)},
                            {"partitions_paused", rb.paused},
                            {"pause_max_ms", round_to(rb.pause_max_ms, 3)},
                            {"pause_sum_ms", round_to(rb.pause_sum_ms, 3)}});
    groups.push_back({{"group", g.group},
                      {"protocol", g.protocol},
                      {"assignor", g.assignor},
                      {"members", std::move(members)},
                      {"records_consumed", g.records_consumed},
                      {"duplicates", g.duplicates},
                      {"order_violations", g.order_violations},
                      {"keys_out_of_order", g.keys_out_of_order},
                      {"records_unconsumed", g.records_unconsumed},
                      {"lag_max", g.lag_max},
                      {"e2e_latency_ms", latency_json(g.e2e_latency)},
                      {"rebalances", std::move(rebalances)},
                      {"idle_members", g.idle_members},
                      {"end_ms", round_to(g.end_ms, 3)}});
    if (g.stalled) groups.back()["stalled"] = true;
    if (g.steps_not_played > 0) groups.back()["steps_not_played"] = g.steps_not_played;
    if (!g.lag_time_ms.empty())
      groups.back()["lag_timeseries"] = {{"partitions", g.lag_partitions},
                                         {"time_ms", g.lag_time_ms},
                                         {"lag", g.lag},
                                         {"latency_mean_ms", g.latency_mean_ms},
                                         {"latency_max_ms", g.latency_max_ms}};
  }
  return groups;
}

namespace {
// Whether a member read from a follower (KIP-392): the fetch tables then say so.
bool reads_from_replicas(const model::RunResult& r) {
  return std::any_of(r.consumer_fetches.begin(), r.consumer_fetches.end(),
                     [](const auto& b) { return b.as_follower > 0 || b.redirected > 0; });
}
}  // namespace

nlohmann::ordered_json consumer_fetches_to_json(const model::RunResult& r) {
  if (r.consumer_fetches.empty()) return nullptr;
  Json brokers = Json::array();
  const auto mean = [](double sum, std::int64_t n) {
    return n > 0 ? Json(round_to(sum / static_cast<double>(n), 3)) : Json(nullptr);
  };
  const bool read_replicas = reads_from_replicas(r);
  for (const auto& b : r.consumer_fetches) {
    Json row = {{"broker", b.broker},
                {"fetches", b.fetches},
                {"records", b.records},
                {"empty", b.empty},
                {"failed", b.failed},
                {"queue_wait_ms_mean", mean(b.queue_wait_ms_sum, b.fetches)},
                {"parked_ms_mean", mean(b.parked_ms_sum, b.fetches)}};
    if (read_replicas) {
      row["as_follower"] = b.as_follower;
      row["redirected"] = b.redirected;
    }
    brokers.push_back(std::move(row));
  }
  return brokers;
}

nlohmann::ordered_json consume_trace_to_json(const model::RunResult& r) {
  if (r.consumer_groups.empty()) return nullptr;
  Json rows = Json::array();
  for (const auto& t : r.consume_trace)
    rows.push_back({{"group", t.group},
                    {"member", t.member},
                    {"partition", t.partition},
                    {"offset", t.offset},
                    {"key", t.null_key ? Json(nullptr) : Json(t.key)}});
  return rows;
}

std::string consumer_groups_to_text(const model::RunResult& r) {
  std::string out;
  for (const auto& g : r.consumer_groups) {
    out += "\nconsumer group " + g.group + " (" + g.protocol + ", " + g.assignor + "): consumed " +
           std::to_string(g.records_consumed) + ", duplicates " + std::to_string(g.duplicates) + ", order violations " +
           std::to_string(g.order_violations) + " (" + std::to_string(g.keys_out_of_order) + " keys), never consumed " +
           std::to_string(g.records_unconsumed) + ", lag max " + std::to_string(g.lag_max) + "\n";
    if (g.stalled)
      out +=
          "STALLED: no progress (a record processed for the first time, or again past the furthest replayed) in 10 x "
          "max(max.poll.interval.ms, session timeout) with records left to read; the group was stopped\n";
    if (g.steps_not_played > 0)
      out += std::to_string(g.steps_not_played) +
             " schedule step(s) not played: after the run's end, with every record processed\n";
    if (g.e2e_latency.count() > 0)
      out += "latency send->processed ms: p50 " + fixed(ns_to_ms(g.e2e_latency.quantile(0.5)), 3) + ", p99 " +
             fixed(ns_to_ms(g.e2e_latency.quantile(0.99)), 3) + ", max " + fixed(ns_to_ms(g.e2e_latency.max()), 3) +
             "; last processed at " + fixed(g.end_ms, 1) + " ms\n";
    if (g.members.empty()) {
      out += "no member ever joined\n";
      continue;
    }
    // A big group shows its busiest members and its rebalances with the longest pauses, like
    // the partition table (kTableMaxPartitions); JSON keeps every row.
    const bool many_members = g.members.size() > kTableMaxPartitions;
    const std::vector<std::size_t> shown_members =
        first_by(g.members.size(), many_members ? kTablePartitionsShown : g.members.size(),
                 [&](std::size_t a, std::size_t b) { return g.members[a].records > g.members[b].records; });
    Table members({{"member", Align::kLeft}, {"records"}, {"partitions at the end", Align::kLeft}});
    for (const std::size_t i : shown_members) {
      const auto& m = g.members[i];
      members.add_row({m.member, std::to_string(m.records),
                       m.crashed              ? "(crashed)"
                       : m.left               ? "(left)"
                       : m.partitions.empty() ? "(idle)"
                                              : join_capped(m.partitions)});
    }
    out += members.to_text();
    if (many_members) {
      const auto none = std::count_if(g.members.begin(), g.members.end(), [](const auto& m) { return m.records == 0; });
      out += "(the " + std::to_string(kTablePartitionsShown) + " busiest of " + std::to_string(g.members.size()) +
             " members; " + std::to_string(none) + " processed no records; every member: --format json)\n";
    }
    if (!g.idle_members.empty())
      out += g.idle_members.size() <= kTablePartitionsShown ? "idle members: " + join(g.idle_members) + "\n"
                                                            : "idle members (" + std::to_string(g.idle_members.size()) +
                                                                  "): " + join_capped(g.idle_members) + "\n";
    const bool many_rebalances = g.rebalances.size() > kTableMaxPartitions;
    const std::vector<std::size_t> shown_rebalances =
        first_by(g.rebalances.size(), many_rebalances ? kTablePartitionsShown : g.rebalances.size(),
                 [&](std::size_t a, std::size_t b) {
                   return g.rebalances[a].pause_sum_ms > g.rebalances[b].pause_sum_ms;
                 });
    Table rebalances({{"at ms"},
                      {"kind", Align::kLeft},
                      {"cause", Align::kLeft},
                      {"rounds"},
                      {"done ms"},
                      {"paused"},
                      {"pause max ms"},
                      {"pause sum ms"}});
    for (const std::size_t i : shown_rebalances) {
      const auto& rb = g.rebalances[i];
      rebalances.add_row({fixed(rb.at_ms, 1), rb.kind, rb.cause, std::to_string(rb.rounds), fixed(rb.done_ms, 1),
                          std::to_string(rb.paused), fixed(rb.pause_max_ms, 1), fixed(rb.pause_sum_ms, 1)});
    }
    out += "rebalances:\n" + rebalances.to_text();
    if (many_rebalances)
      out += "(the " + std::to_string(kTablePartitionsShown) + " of " + std::to_string(g.rebalances.size()) +
             " rebalances with the longest pause sum; every rebalance: --format json)\n";
  }
  if (!r.consumer_fetches.empty()) {
    // The groups' fetches as the brokers served them (beside the produce requests above).
    // KIP-392's columns when a member read from a follower.
    const bool read_replicas = reads_from_replicas(r);
    std::vector<Column> columns{{"broker"}, {"fetches"},       {"records"},  {"empty"},
                                {"failed"}, {"queue wait ms"}, {"parked ms"}};
    if (read_replicas) columns.insert(columns.end(), {{"as follower"}, {"redirected"}});
    Table fetches(columns);
    const auto mean = [](double sum, std::int64_t n) { return n > 0 ? fixed(sum / static_cast<double>(n), 3) : "-"; };
    for (const auto& b : r.consumer_fetches) {
      std::vector<std::string> row{std::to_string(b.broker),        std::to_string(b.fetches),
                                   std::to_string(b.records),       std::to_string(b.empty),
                                   std::to_string(b.failed),        mean(b.queue_wait_ms_sum, b.fetches),
                                   mean(b.parked_ms_sum, b.fetches)};
      if (read_replicas) row.insert(row.end(), {std::to_string(b.as_follower), std::to_string(b.redirected)});
      fetches.add_row(row);
    }
    out += read_replicas ? "\nconsumer fetches per broker (parked: waiting at the leader or read replica for "
                           "fetch.min.bytes; as follower: answered as a member's read replica; redirected: partitions "
                           "the leader named a read replica for; KIP-392):\n"
                         : "\nconsumer fetches per broker (parked: waiting at the leader for fetch.min.bytes):\n";
    out += fetches.to_text();
  }
  return out;
}

std::string consumer_groups_to_csv(const model::RunResult& r) {
  std::string out =
      "group,protocol,assignor,members,records_consumed,duplicates,order_violations,keys_out_of_order,records_unconsumed,lag_max,"
      "e2e_p50_ms,e2e_p99_ms,e2e_max_ms,rebalances,pause_max_ms,pause_sum_ms,idle_members\n";
  for (const auto& g : r.consumer_groups) {
    double pause_max = 0, pause_sum = 0;
    for (const auto& rb : g.rebalances) {
      pause_max = std::max(pause_max, rb.pause_max_ms);
      pause_sum += rb.pause_sum_ms;
    }
    const bool lat = g.e2e_latency.count() > 0;
    append_csv_cell(out, g.group);
    out += "," + g.protocol + "," + g.assignor + "," + std::to_string(g.members.size()) + "," +
           std::to_string(g.records_consumed) + "," + std::to_string(g.duplicates) + "," +
           std::to_string(g.order_violations) + "," + std::to_string(g.keys_out_of_order) + "," +
           std::to_string(g.records_unconsumed) + "," + std::to_string(g.lag_max) + "," +
           (lat ? fixed(ns_to_ms(g.e2e_latency.quantile(0.5)), 3) : "") + "," +
           (lat ? fixed(ns_to_ms(g.e2e_latency.quantile(0.99)), 3) : "") + "," +
           (lat ? fixed(ns_to_ms(g.e2e_latency.max()), 3) : "") + "," + std::to_string(rebalances_after_start(g)) +
           "," + fixed(pause_max, 3) + "," + fixed(pause_sum, 3) + "," + std::to_string(g.idle_members.size()) + "\n";
  }
  return out;
}

void write_consumer_lag_csv(const model::RunResult& r, const TextSink& sink) {
  sink("group,time_ms,partition,lag\n");
  for (const auto& g : r.consumer_groups)
    for (std::size_t s = 0; s < g.lag_time_ms.size(); ++s) {
      std::string rows;
      for (std::size_t p = 0; p < g.lag_partitions.size(); ++p) {
        append_csv_cell(rows, g.group);
        rows += "," + fixed(g.lag_time_ms[s], 3) + "," + g.lag_partitions[p] + "," + std::to_string(g.lag[s][p]) + "\n";
      }
      sink(rows);
    }
}

}  // namespace partsim::analysis
