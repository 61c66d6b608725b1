#include "analysis/reassignment_report.hpp"

#include <algorithm>

#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {

namespace {

std::string megabytes(double bytes) { return fixed(bytes / 1e6, 1); }
std::string mb_per_s(std::int64_t bytes, double interval_ms) {
  return interval_ms > 0 ? fixed(static_cast<double>(bytes) / interval_ms * 1000 / 1e6, 2) : "-";
}
double per_second(std::int64_t n, double interval_ms) {
  return interval_ms > 0 ? static_cast<double>(n) / interval_ms * 1000 : 0;
}

std::string id_list(const std::vector<std::int32_t>& v) {
  std::string out;
  for (const auto x : v) out += (out.empty() ? "" : " ") + std::to_string(x);
  return out;
}
std::string list_mb(const std::vector<std::int64_t>& v) {
  std::string out;
  for (const auto x : v) out += (out.empty() ? "" : " ") + fixed(static_cast<double>(x) / 1e6, 0);
  return out;
}

// The verdict line: done, never, or not yet with what the budgets say.
std::string verdict(const model::ReassignmentResult& r) {
  if (r.completed_ms) return "every move completed at " + fixed(*r.completed_ms / 1000, 1) + " s";
  std::string out = "not completed by the run's end: " + std::to_string(r.partitions_left) + " partitions moving, " +
                    human_bytes(static_cast<double>(r.bytes_left)) + " left to copy; ";
  if (r.budgets.empty() && r.window_ms < 11000)
    return out + "the last step was " + fixed(r.window_ms / 1000, 1) +
           " s before the end, too short to judge (the throttle's rate is measured over 11 s)";
  if (r.never) {
    for (const auto& b : r.budgets)
      if (b.spare() <= 0)
        return out + "never, at this throttle: broker " + std::to_string(b.broker) + "'s " +
               (b.leader ? "leader" : "follower") + " throttle " + megabytes(b.throttle) + " MB/s less " +
               megabytes(b.listed_in_sync) + " MB/s of listed in-sync traffic leaves " +
               megabytes(b.throttle - b.listed_in_sync) + " MB/s, at most the " + megabytes(b.produced) +
               " MB/s written into the partitions it copies";
  }
  if (r.budgets.empty()) return out + "no throttle holds it back (an unthrottled copy that the run's end cut short)";
  // The slowest side: the most time its copies' bytes need at its spare.
  double seconds = 0;
  for (const auto& b : r.budgets) seconds = std::max(seconds, static_cast<double>(b.bytes_left) / b.spare());
  return out + "every throttled broker has spare: it would complete, in about " + human_duration(seconds) +
         " more at the slowest broker's spare";
}

}  // namespace

double reassignment_p99_max(const model::ReassignmentResult& r) {
  if (r.steps.empty()) return 0;
  double m = 0;
  for (const auto& s : r.samples)
    if (s.time_ms > r.steps.front().at_ms) m = std::max(m, s.p99_ms);
  return m;
}

std::string reassignment_to_text(const model::RunResult& r) {
  const model::ReassignmentResult& re = r.replication.reassignment;
  if (!re.enabled()) return "";
  std::string out = "\nreassignment: " + verdict(re) + "\n";
  Table steps({{"at s"}, {"topic", Align::kLeft}, {"partitions"}, {"throttle MB/s"}, {"to copy MB"}, {"completed s"}});
  for (const auto& s : re.steps)
    steps.add_row({fixed(s.at_ms / 1000, 1), s.topic, s.partitions ? std::to_string(s.partitions) : "throttle change",
                   s.throttle > 0 ? megabytes(s.throttle) : "none", megabytes(static_cast<double>(s.bytes_to_copy)),
                   s.completed_ms ? fixed(*s.completed_ms / 1000, 1) : "-"});
  out += steps.to_text();
  if (!re.budgets.empty()) {
    Table b({{"broker"},
             {"throttle", Align::kLeft},
             {"MB/s"},
             {"listed in sync MB/s"},
             {"written into copies MB/s"},
             {"spare MB/s"}});
    for (const auto& x : re.budgets)
      b.add_row({std::to_string(x.broker), x.leader ? "leader" : "follower", megabytes(x.throttle),
                 megabytes(x.listed_in_sync), megabytes(x.produced), megabytes(x.spare())});
    out +=
        "\nthrottle budgets of the moves left (over the last " + fixed(re.window_ms / 1000, 1) + " s):\n" + b.to_text();
  }
  if (re.samples.empty()) return out;
  const std::size_t n = re.samples.size();
  const std::size_t every = std::max<std::size_t>(1, (n + 23) / 24);
  Table t({{"time s"},
           {"left MB"},
           {"reassigning"},
           {"URP"},
           {"in MB/s"},
           {"out MB/s"},
           {"shrinks/s"},
           {"expands/s"},
           {"leaders", Align::kLeft},
           {"disk MB", Align::kLeft},
           {"records"},
           {"p50 ms"},
           {"p99 ms"}});
  for (std::size_t i = 0; i < n; ++i) {
    if (i % every != 0 && i + 1 != n) continue;
    const auto& s = re.samples[i];
    t.add_row({fixed(s.time_ms / 1000, 1), megabytes(static_cast<double>(s.bytes_left)), std::to_string(s.reassigning),
               std::to_string(s.under_replicated), mb_per_s(s.bytes_in, s.interval_ms),
               mb_per_s(s.bytes_out, s.interval_ms), fixed(per_second(s.shrinks, s.interval_ms), 2),
               fixed(per_second(s.expands, s.interval_ms), 2), id_list(s.leaders), list_mb(s.disk),
               std::to_string(s.records), fixed(s.p50_ms, 2), fixed(s.p99_ms, 2)});
  }
  out += "\nreassignment over time (" +
         (every > 1 ? "every " + ordinal(every) + " of " + std::to_string(n) + " samples; JSON has all"
                    : std::to_string(n) + " samples") +
         "; per broker in RunResult order; in/out: ReassignmentBytesIn/OutPerSec summed; latency of the records "
         "acknowledged in the interval):\n" +
         t.to_text();
  return out;
}

nlohmann::ordered_json reassignment_to_json(const model::RunResult& r) {
  const model::ReassignmentResult& re = r.replication.reassignment;
  if (!re.enabled()) return nullptr;
  nlohmann::ordered_json j;
  auto& steps = j["steps"] = nlohmann::ordered_json::array();
  for (const auto& s : re.steps)
    steps.push_back({{"topic", s.topic},
                     {"at_ms", round_to(s.at_ms, 3)},
                     {"partitions", s.partitions},
                     {"throttle_bytes_per_s", s.throttle},
                     {"bytes_to_copy", s.bytes_to_copy},
                     {"completed_ms",
                      s.completed_ms ? nlohmann::ordered_json(round_to(*s.completed_ms, 3)) : nullptr}});
  j["completed_ms"] = re.completed_ms ? nlohmann::ordered_json(round_to(*re.completed_ms, 3)) : nullptr;
  j["bytes_left"] = re.bytes_left;
  j["partitions_left"] = re.partitions_left;
  j["never"] = re.never;
  j["window_ms"] = round_to(re.window_ms, 3);
  auto& budgets = j["budgets"] = nlohmann::ordered_json::array();
  for (const auto& b : re.budgets)
    budgets.push_back({{"broker", b.broker},
                       {"side", b.leader ? "leader" : "follower"},
                       {"throttle_bytes_per_s", round_to(b.throttle, 3)},
                       {"listed_in_sync_bytes_per_s", round_to(b.listed_in_sync, 3)},
                       {"written_into_copies_bytes_per_s", round_to(b.produced, 3)},
                       {"spare_bytes_per_s", round_to(b.spare(), 3)},
                       {"bytes_left", b.bytes_left}});
  auto& samples = j["samples"] = nlohmann::ordered_json::array();
  for (const auto& s : re.samples)
    samples.push_back({{"time_ms", round_to(s.time_ms, 3)},
                       {"bytes_left", s.bytes_left},
                       {"reassigning", s.reassigning},
                       {"under_replicated", s.under_replicated},
                       {"bytes_in_per_s", round_to(per_second(s.bytes_in, s.interval_ms), 3)},
                       {"bytes_out_per_s", round_to(per_second(s.bytes_out, s.interval_ms), 3)},
                       {"isr_shrinks_per_s", round_to(per_second(s.shrinks, s.interval_ms), 3)},
                       {"isr_expands_per_s", round_to(per_second(s.expands, s.interval_ms), 3)},
                       {"leaders", s.leaders},
                       {"disk_bytes", s.disk},
                       {"records", s.records},
                       {"p50_ms", round_to(s.p50_ms, 3)},
                       {"p99_ms", round_to(s.p99_ms, 3)}});
  return j;
}

}  // namespace partsim::analysis
