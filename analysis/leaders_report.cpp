#include "analysis/leaders_report.hpp"

#include "analysis/table.hpp"

namespace partsim::analysis {

nlohmann::ordered_json leaders_to_json(const LeadersReport& r) {
  nlohmann::ordered_json j;
  j["bounds"] = {{"lo", r.bounds.lo}, {"hi", r.bounds.hi}};
  j["leader_changes"] = r.plan.leader_changes;
  j["failover_changes"] = r.plan.failover_changes;
  auto& bs = j["brokers"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.before.brokers.size(); ++i)
    bs.push_back({{"broker", r.before.brokers[i].broker}, {"leaders_before", r.before.brokers[i].leaders},
                  {"leaders_after", r.after.brokers[i].leaders}});
  j["worst_single_failure_max_leaders"] = {{"before", r.before.worst_failure_max_leaders}, {"after", r.after.worst_failure_max_leaders}};
  j["plan"] = nlohmann::ordered_json::parse(r.plan_json);
  return j;
}

std::string leaders_to_text(const LeadersReport& r) {
  Table t({{"broker"}, {"leaders before"}, {"leaders after"}});
  for (std::size_t i = 0; i < r.before.brokers.size(); ++i)
    t.add_row({std::to_string(r.before.brokers[i].broker), std::to_string(r.before.brokers[i].leaders), std::to_string(r.after.brokers[i].leaders)});
  return "preferred leaders per broker within " + std::to_string(r.bounds.lo) + ".." + std::to_string(r.bounds.hi) + ": " +
         std::to_string(r.plan.leader_changes) + " of " + std::to_string(r.current.size()) + " partitions change leader (no data moves)\n\n" +
         t.to_text() + "\nworst single broker failure: a broker then leads " + std::to_string(r.before.worst_failure_max_leaders) +
         " partitions before, " + std::to_string(r.after.worst_failure_max_leaders) + " after" +
         (r.failover ? " (" + std::to_string(r.plan.failover_changes) + " second replicas reordered)" : "") + "\n" +
         (r.plan_out.empty() ? "" : "plan written to " + r.plan_out + " (kafka-reassign-partitions --execute)\n");
}

}  // namespace partsim::analysis
