#include "analysis/reassign_report.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <set>
#include <vector>

#include "analysis/format.hpp"
#include "analysis/placement_text.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

// Replicas before, after; preferred leaders before, after.
using Counts = std::array<std::int32_t, 4>;

// Per broker (the targets, and every broker that held a replica before) and, per topic, the
// fewest and most of each count a target broker has; per broker they add up over topics.
struct Spread {
  std::string topic;
  Counts lo, hi;
};
struct Tally {
  std::map<std::int32_t, Counts> per_broker;
  std::vector<Spread> per_topic;  // in topic name order
  std::set<std::int32_t> targets;
};

Tally tally(const ReassignReport& r) {
  const auto& current = r.request.plan.current;
  const auto& planned = r.study.planned;
  std::map<std::string, std::map<std::int32_t, Counts>> per_topic;
  for (std::size_t p = 0; p < current.size(); ++p) {
    auto& c = per_topic[r.request.partitions[p].topic];
    for (auto b : current[p]) ++c[b][0];
    ++c[current[p].front()][2];
    for (auto b : planned[p]) ++c[b][1];
    ++c[planned[p].front()][3];
  }
  Tally t;
  for (const auto& b : r.request.plan.targets) {
    t.per_broker[b.id] = {};
    t.targets.insert(b.id);
  }
  for (const auto& [topic, c] : per_topic)
    for (const auto& [b, n] : c)
      for (std::size_t k = 0; k < 4; ++k) t.per_broker[b][k] += n[k];
  for (const auto& [topic, c] : per_topic) {
    Spread sp{topic, {}, {}};
    sp.lo.fill(std::numeric_limits<std::int32_t>::max());
    for (auto id : t.targets) {
      const auto it = c.find(id);
      const Counts n = it == c.end() ? Counts{} : it->second;
      for (std::size_t k = 0; k < 4; ++k) {
        sp.lo[k] = std::min(sp.lo[k], n[k]);
        sp.hi[k] = std::max(sp.hi[k], n[k]);
      }
    }
    t.per_topic.push_back(sp);
  }
  return t;
}

const char* rack_mode_text(model::RackMode m) {
  return m == model::RackMode::kStrict ? "strict" : m == model::RackMode::kEven ? "even" : "none";
}

std::string rack_of(const ReassignReport& r, std::int32_t id) {
  const auto it = r.racks.find(id);
  return it == r.racks.end() ? "" : it->second;
}

double seconds(const ReassignReport& r, const model::CopyLoad& load) {
  return r.throttle_bytes_per_s > 0 ? model::copy_seconds(load, r.throttle_bytes_per_s) : 0.0;
}

nlohmann::ordered_json bounds_json(const model::CountBounds& replicas, const model::CountBounds& leaders) {
  return {{"replicas", {{"lo", replicas.lo}, {"hi", replicas.hi}}},
          {"leaders", {{"lo", leaders.lo}, {"hi", leaders.hi}}}};
}

// The headline: what is placed where, the bounds, and the plan with its cost.
std::string headline_text(const ReassignReport& r) {
  const auto& req = r.request.plan;
  const auto& plan = r.study.plan;
  std::set<std::string> racks;
  std::int64_t replicas = 0;
  for (const auto& t : req.targets)
    if (!t.rack.empty()) racks.insert(t.rack);
  for (auto rf : req.rf) replicas += rf;
  std::string rack_list;
  for (const auto& rack : racks) rack_list += (rack_list.empty() ? "" : " ") + rack;
  std::string out =
      count_of(static_cast<std::int64_t>(req.current.size()), "partition") + ", " + count_of(replicas, "replica") +
      " onto " + count_of(static_cast<std::int64_t>(req.targets.size()), "target broker") +
      (racks.empty() ? "" : " on racks " + rack_list) + "; rack mode " + rack_mode_text(req.rack_mode) + "\n";
  if (r.scope == BalanceScope::kTopic)
    out += "per broker: each topic balanced on its own (--balance-scope topic, --balance " + r.balance + ")\n\n";
  else
    out += "per broker: replicas " + std::to_string(req.replicas.lo) + ".." + std::to_string(req.replicas.hi) +
           ", preferred leaders " + std::to_string(req.leaders.lo) + ".." + std::to_string(req.leaders.hi) +
           (r.explicit_bounds ? "" : " (--balance " + r.balance + ")") +
           (r.scope == BalanceScope::kBoth ? "; and each topic on its own" : "") + "\n\n";
  const bool optimal = plan.status == model::PlanStatus::kOptimal;
  const bool fewest_moves = plan.moves == plan.lower_bound_moves;
  out += std::string("plan") +
         (optimal ? " (optimal)"
                  : " (time limit reached: " +
                        (fewest_moves
                             ? "fewest moves proven, preferred-leader changes at least " +
                                   std::to_string(plan.lower_bound_leader_changes)
                             : "not proven minimal, at least " + std::to_string(plan.lower_bound_moves) + " moves") +
                        ")") +
         ": " + count_of(plan.moves, "replica move") + ", " + count_of(plan.leader_changes, "preferred-leader change");
  const auto& load = r.study.load;
  if (r.have_sizes) out += "; " + human_bytes(static_cast<double>(load.total_bytes)) + " to copy";
  if (r.throttle_bytes_per_s > 0)
    out += ", at least " + human_duration(seconds(r, load)) + " at " +
           human_bytes(static_cast<double>(r.throttle_bytes_per_s)) + "/s (busiest broker " +
           human_bytes(static_cast<double>(load.busiest_bytes())) + ")";
  return out + "\n\n";
}

// The changed partitions, replicas and leaders per broker, and per topic when it matters.
std::string tables_text(const ReassignReport& r, const Tally& t) {
  const auto& current = r.request.plan.current;
  const auto& planned = r.study.planned;
  std::string out;
  for (auto p : r.study.stranded)
    out += "warning: " + r.request.partitions[p].name() +
           " has no live replica to copy from; the move waits until one of its brokers returns\n";
  if (!r.study.stranded.empty()) out += "\n";
  if (r.study.changed.empty()) {
    out += "nothing to change: the current assignment meets the constraints\n\n";
  } else {
    Table c({{"partition", Align::kLeft},
             {"before", Align::kLeft},
             {"after", Align::kLeft},
             {"moves"},
             {"leader", Align::kLeft}});
    for (auto p : r.study.changed)
      c.add_row({r.request.partitions[p].name(), replica_list(current[p]), replica_list(planned[p]),
                 std::to_string(model::count_moves({current[p]}, {planned[p]})),
                 current[p].front() != planned[p].front() ? "changed" : ""});
    out += c.to_text() + "\n";
  }
  Table b({{"broker"}, {"rack", Align::kLeft}, {"replicas before"}, {"after"}, {"leaders before"}, {"after"}});
  for (const auto& [id, c] : t.per_broker)
    b.add_row({std::to_string(id) + (t.targets.count(id) ? "" : " (leaves)"), rack_of(r, id), std::to_string(c[0]),
               std::to_string(c[1]), std::to_string(c[2]), std::to_string(c[3])});
  out += b.to_text() + "\n";
  if (t.per_topic.size() > 1 || r.scope != BalanceScope::kCluster) {
    auto range = [](std::int32_t lo, std::int32_t hi) { return std::to_string(lo) + ".." + std::to_string(hi); };
    Table tt({{"topic", Align::kLeft},
              {"replicas per broker before", Align::kLeft},
              {"after", Align::kLeft},
              {"leaders before", Align::kLeft},
              {"after", Align::kLeft}});
    for (const auto& sp : t.per_topic)
      tt.add_row({sp.topic, range(sp.lo[0], sp.hi[0]), range(sp.lo[1], sp.hi[1]), range(sp.lo[2], sp.hi[2]),
                  range(sp.lo[3], sp.hi[3])});
    out += tt.to_text() + "\n";
  }
  return out;
}

// The worst single failure, and what kafka-reassign-partitions --generate would do instead.
std::string comparison_text(const ReassignReport& r) {
  const auto& s = r.study;
  const auto& g = s.generate;
  std::string out =
      "worst single broker failure: a broker then leads " + std::to_string(s.before.worst_failure_max_leaders) +
      " partitions before, " + std::to_string(s.after.worst_failure_max_leaders) + " after" +
      (r.request.failover ? " (--failover reordered " + std::to_string(s.failover_changes) + " second replicas)" : "") +
      "\n\n";
  const bool any_rack = std::any_of(r.request.plan.targets.begin(), r.request.plan.targets.end(),
                                    [](const auto& b) { return !b.rack.empty(); });
  out += std::string("kafka-reassign-partitions --generate (AdminUtils ") +
         (g.rack_aware ? "rack-aware"
          : !any_rack  ? "rack-unaware"
                       : "rack-unaware as with --disable-rack-aware; Kafka refuses brokers with and without racks") +
         ", java.util.Random seed " + std::to_string(r.request.generate_seed) + "): " + std::to_string(g.moves) +
         " replica moves, " + std::to_string(g.leader_changes) + " preferred-leader changes";
  if (r.have_sizes) out += ", " + human_bytes(static_cast<double>(s.generate_load.total_bytes));
  if (r.throttle_bytes_per_s > 0) out += ", at least " + human_duration(seconds(r, s.generate_load));
  out += "\n  over " +
         (g.sampled ? std::to_string(g.draws) + " sampled of the " + std::to_string(g.possible)
                    : "all " + std::to_string(g.draws)) +
         " draws of its start index and replica shift: moves min " + std::to_string(g.min_moves) + ", mean " +
         fixed(g.mean_moves, 1) + ", max " + std::to_string(g.max_moves) + "\n";
  if (!r.plan_out.empty())
    out += "plan written to " + r.plan_out + " (" + count_of(static_cast<std::int64_t>(s.changed.size()), "partition") +
           "; kafka-reassign-partitions --execute)\n";
  return out;
}

}  // namespace

namespace {

// Disks (--disk-capacity): per target broker, its bytes before and after, after with what
// moved in counted with the reserve (what the cap bounds), while copying (the replicas it
// gives up stay until their new copies are in sync), and its largest partition after.
struct DiskRow {
  std::int32_t broker = 0;
  std::int64_t capacity = 0;
  double before = 0, after = 0;
  double reserved = 0;  ///< after, what moved in counted with the reserve
  double during = 0;    ///< while copying: before, plus what moves in counted with the reserve
  std::string largest;  ///< "" when it holds nothing
  std::int64_t largest_bytes = 0;
};

std::vector<DiskRow> disk_rows(const ReassignReport& r) {
  const auto& req = r.request.plan;
  std::vector<DiskRow> rows;
  for (std::size_t b = 0; b < req.targets.size(); ++b) {
    DiskRow row;
    row.broker = req.targets[b].id;
    row.capacity = req.disk_capacity[b];
    row.before = model::broker_bytes(req, req.current, row.broker, false);
    row.after = model::broker_bytes(req, r.study.planned, row.broker, false);
    row.reserved = model::broker_bytes(req, r.study.planned, row.broker, true);
    double kept = 0;  // held before and after
    for (std::size_t p = 0; p < r.study.planned.size(); ++p) {
      const auto& now = req.current[p];
      const auto& reps = r.study.planned[p];
      const bool holds = std::find(reps.begin(), reps.end(), row.broker) != reps.end();
      if (holds && std::find(now.begin(), now.end(), row.broker) != now.end())
        kept += static_cast<double>(req.sizes[p]);
      if (!holds || req.sizes[p] <= row.largest_bytes) continue;
      row.largest_bytes = req.sizes[p];
      row.largest = r.request.partitions[p].name();
    }
    row.during = row.before + (row.reserved - kept);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string percent(double bytes, std::int64_t capacity) {
  return fixed(100 * bytes / static_cast<double>(capacity), 1) + "%";
}

std::string disks_text(const ReassignReport& r) {
  const auto& req = r.request.plan;
  if (req.disk_capacity.empty()) return "";
  Table t({{"broker"},
           {"disk"},
           {"before"},
           {"after"},
           {"after + reserve"},
           {"while copying"},
           {"largest partition after", Align::kLeft}});
  for (const auto& row : disk_rows(r))
    t.add_row({std::to_string(row.broker), human_bytes(static_cast<double>(row.capacity)),
               human_bytes(row.before) + " " + percent(row.before, row.capacity),
               human_bytes(row.after) + " " + percent(row.after, row.capacity), percent(row.reserved, row.capacity),
               percent(row.during, row.capacity),
               row.largest.empty() ? "-" : row.largest + " " + human_bytes(static_cast<double>(row.largest_bytes))});
  return "disks (after the move every broker under " + fixed(100 * req.max_disk, 0) + "%, what moved in counted x" +
         exact(req.move_in_reserve) +
         (req.disk_balance > 0 ? "; each within [avg (2 - " + exact(req.disk_balance) + "), avg " +
                                     exact(req.disk_balance) + "] of the average use"
                               : "") +
         "; while copying a broker also keeps the replicas it gives up, which the cap does not bound):\n" +
         t.to_text() + "\n";
}

}  // namespace

nlohmann::ordered_json reassign_to_json(const ReassignReport& r) {
  const auto& req = r.request.plan;
  const auto& s = r.study;
  const auto& current = req.current;
  const bool optimal = s.plan.status == model::PlanStatus::kOptimal;
  nlohmann::ordered_json j;
  j["status"] = optimal ? "optimal" : "feasible";
  j["method"] = s.plan.method;
  if (!optimal)
    j["lower_bounds"] = {{"moves", s.plan.lower_bound_moves}, {"leader_changes", s.plan.lower_bound_leader_changes}};
  j["rack_mode"] = rack_mode_text(req.rack_mode);
  j["bounds"] = bounds_json(req.replicas, req.leaders);
  j["moves"] = s.plan.moves;
  j["leader_changes"] = s.plan.leader_changes;
  j["worst_single_failure_max_leaders"] = {{"before", s.before.worst_failure_max_leaders},
                                           {"after", s.after.worst_failure_max_leaders}};
  if (r.request.failover) j["failover_changes"] = s.failover_changes;
  auto& stranded = j["no_live_replica"] = nlohmann::ordered_json::array();
  for (auto p : s.stranded) stranded.push_back(r.request.partitions[p].name());
  if (r.have_sizes) j["bytes_to_copy"] = s.load.total_bytes;
  if (r.throttle_bytes_per_s > 0) j["copy_seconds"] = round_to(seconds(r, s.load), 3);
  auto& parts = j["changed"] = nlohmann::ordered_json::array();
  for (auto p : s.changed)
    parts.push_back({{"topic", r.request.partitions[p].topic},
                     {"partition", r.request.partitions[p].partition},
                     {"before", current[p]},
                     {"after", s.planned[p]},
                     {"moves", model::count_moves({current[p]}, {s.planned[p]})},
                     {"leader_changed", current[p].front() != s.planned[p].front()}});
  const auto t = tally(r);
  auto& bs = j["brokers"] = nlohmann::ordered_json::array();
  for (const auto& [id, c] : t.per_broker)
    bs.push_back({{"broker", id},
                  {"rack", rack_of(r, id)},
                  {"target", t.targets.count(id) > 0},
                  {"replicas_before", c[0]},
                  {"replicas_after", c[1]},
                  {"leaders_before", c[2]},
                  {"leaders_after", c[3]}});
  auto& ts = j["topics"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < t.per_topic.size(); ++i) {
    const auto& sp = t.per_topic[i];
    nlohmann::ordered_json e{{"topic", sp.topic},
                             {"replicas_per_broker",
                              {{"before", {sp.lo[0], sp.hi[0]}}, {"after", {sp.lo[1], sp.hi[1]}}}},
                             {"leaders_per_broker",
                              {{"before", {sp.lo[2], sp.hi[2]}}, {"after", {sp.lo[3], sp.hi[3]}}}}};
    if (!req.topic_replicas.empty()) e["bounds"] = bounds_json(req.topic_replicas[i], req.topic_leaders[i]);
    ts.push_back(std::move(e));
  }
  const auto& g = s.generate;
  j["generate"] = {{"seed", r.request.generate_seed},
                   {"moves", g.moves},
                   {"leader_changes", g.leader_changes},
                   {"over_draws",
                    {{"draws", g.draws},
                     {"possible_draws", g.possible},
                     {"sampled", g.sampled},
                     {"min_moves", g.min_moves},
                     {"mean_moves", round_to(g.mean_moves, 2)},
                     {"max_moves", g.max_moves}}}};
  if (r.have_sizes) j["generate"]["bytes_to_copy"] = s.generate_load.total_bytes;
  if (r.throttle_bytes_per_s > 0) j["generate"]["copy_seconds"] = round_to(seconds(r, s.generate_load), 3);
  if (!req.disk_capacity.empty()) {
    auto& d = j["disks"];
    d["max_disk"] = req.max_disk;
    d["move_in_reserve"] = req.move_in_reserve;
    if (req.disk_balance > 0) d["balance"] = req.disk_balance;
    auto& rows = d["brokers"] = nlohmann::ordered_json::array();
    for (const auto& row : disk_rows(r))
      rows.push_back({{"broker", row.broker},
                      {"capacity", row.capacity},
                      {"bytes_before", std::llround(row.before)},
                      {"bytes_after", std::llround(row.after)},
                      {"bytes_after_with_reserve", std::llround(row.reserved)},
                      {"bytes_while_copying", std::llround(row.during)},
                      {"largest_partition", row.largest},
                      {"largest_bytes", row.largest_bytes}});
  }
  j["plan"] = nlohmann::ordered_json::parse(r.plan_json);
  return j;
}

std::string reassign_to_text(const ReassignReport& r) {
  return headline_text(r) + tables_text(r, tally(r)) + disks_text(r) + comparison_text(r);
}

}  // namespace partsim::analysis
