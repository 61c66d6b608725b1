#include "analysis/leaders_report.hpp"

#include "analysis/placement_text.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

// The partitions whose replica order changes: a new preferred leader, or with --failover
// a new second replica. A user reviews these before kafka-reassign-partitions --execute.
std::vector<std::size_t> changed_rows(const LeadersReport& r) {
  std::vector<std::size_t> rows;
  for (std::size_t p = 0; p < r.current.size(); ++p)
    if (r.plan.reordered[p] != r.current[p]) rows.push_back(p);
  return rows;
}

std::string changes_text(const LeadersReport& r) {
  const auto rows = changed_rows(r);
  if (rows.empty())
    return std::string("nothing to change: the current order already meets the bounds") +
           (r.failover ? " and spreads failover as evenly as the replicas allow" : "") + "\n\n";
  Table t({{"partition", Align::kLeft}, {"before", Align::kLeft}, {"after", Align::kLeft}, {"leader", Align::kLeft}});
  for (auto p : rows)
    t.add_row({r.partitions[p].name(), replica_list(r.current[p]), replica_list(r.plan.reordered[p]),
               r.current[p].front() != r.plan.reordered[p].front() ? "changed" : ""});
  return t.to_text() + "\n";
}

}  // namespace

nlohmann::ordered_json leaders_to_json(const LeadersReport& r) {
  nlohmann::ordered_json j;
  j["bounds"] = {{"lo", r.bounds.lo}, {"hi", r.bounds.hi}};
  j["leader_changes"] = r.plan.leader_changes;
  j["failover_changes"] = r.plan.failover_changes;
  auto& changed = j["changed"] = nlohmann::ordered_json::array();
  for (auto p : changed_rows(r))
    changed.push_back({{"topic", r.partitions[p].topic},
                       {"partition", r.partitions[p].partition},
                       {"before", r.current[p]},
                       {"after", r.plan.reordered[p]},
                       {"leader_changed", r.current[p].front() != r.plan.reordered[p].front()}});
  auto& bs = j["brokers"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.before.brokers.size(); ++i)
    bs.push_back({{"broker", r.before.brokers[i].broker},
                  {"leaders_before", r.before.brokers[i].leaders},
                  {"leaders_after", r.after.brokers[i].leaders}});
  j["worst_single_failure_max_leaders"] = {{"before", r.before.worst_failure_max_leaders},
                                           {"after", r.after.worst_failure_max_leaders}};
  j["plan"] = nlohmann::ordered_json::parse(r.plan_json);
  return j;
}

std::string leaders_to_text(const LeadersReport& r) {
  Table t({{"broker"}, {"leaders before"}, {"leaders after"}});
  for (std::size_t i = 0; i < r.before.brokers.size(); ++i)
    t.add_row({std::to_string(r.before.brokers[i].broker), std::to_string(r.before.brokers[i].leaders),
               std::to_string(r.after.brokers[i].leaders)});
  return "preferred leaders per broker within " + std::to_string(r.bounds.lo) + ".." + std::to_string(r.bounds.hi) +
         ": " + std::to_string(r.plan.leader_changes) + " of " + std::to_string(r.current.size()) +
         " partitions change leader (no data moves)\n\n" + changes_text(r) + t.to_text() +
         "\nworst single broker failure: a broker then leads " + std::to_string(r.before.worst_failure_max_leaders) +
         " partitions before, " + std::to_string(r.after.worst_failure_max_leaders) + " after" +
         (r.failover ? " (" + std::to_string(r.plan.failover_changes) + " second replicas reordered)" : "") + "\n" +
         (r.plan_out.empty() ? "" : "plan written to " + r.plan_out + " (kafka-reassign-partitions --execute)\n");
}

}  // namespace partsim::analysis
