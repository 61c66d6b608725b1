#include "analysis/assign_report.hpp"

#include "analysis/placement_text.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

// How the placer placed: which one, and its draws.
std::string method_text(const AssignReport& r) {
  switch (r.placer) {
    case model::Placer::kSimple: return "plain round-robin over the brokers as listed (the book's T6)";
    case model::Placer::kAdmin:
      return std::string("Kafka's AdminUtils, ") + (r.placement.rack_aware ? "rack-aware" : "rack-unaware") +
             ", start index " + std::to_string(r.placement.start_index) + ", replica shift " +
             std::to_string(r.placement.replica_shift);
    case model::Placer::kStriped: break;
  }
  return "the KRaft controller's StripedReplicaPlacer, java.util.Random seed " + std::to_string(r.seed);
}

Table assignment_table(const AssignReport& r) {
  Table a({{"partition"}, {"replicas (leader first)", Align::kLeft}});
  const auto& assignment = r.placement.assignment;
  for (std::size_t p = 0; p < assignment.size(); ++p) a.add_row({std::to_string(p), replica_list(assignment[p])});
  return a;
}

}  // namespace

std::string placement_method(const AssignReport& r) { return method_text(r); }

const char* placer_name(model::Placer placer) {
  switch (placer) {
    case model::Placer::kAdmin: return "admin";
    case model::Placer::kStriped: return "striped";
    case model::Placer::kSimple: break;
  }
  return "simple";
}

nlohmann::ordered_json assign_to_json(const AssignReport& r) {
  const auto& score = r.score;
  nlohmann::ordered_json j;
  j["placer"] = placer_name(r.placer);
  j["method"] = method_text(r);
  auto& parts = j["assignment"] = nlohmann::ordered_json::array();
  for (std::size_t p = 0; p < r.placement.assignment.size(); ++p)
    parts.push_back({{"partition", p}, {"replicas", r.placement.assignment[p]}});
  auto& loads = j["brokers"] = nlohmann::ordered_json::array();
  for (const auto& b : score.brokers)
    loads.push_back(
        {{"broker", b.broker}, {"rack", b.rack}, {"replicas", b.replicas}, {"preferred_leaders", b.leaders}});
  j["replicas_per_broker"] = {{"min", score.replica_min}, {"max", score.replica_max}};
  j["leaders_per_broker"] = {{"min", score.leader_min}, {"max", score.leader_max}};
  j["partitions_rack_spread"] = score.partitions_rack_ok;
  auto& fails = j["single_failures"] = nlohmann::ordered_json::array();
  for (const auto& f : score.failures)
    fails.push_back(
        {{"failed", f.failed}, {"max_leaders", f.max_leaders}, {"min_leaders", f.min_leaders}, {"offline", f.offline}});
  j["cost"] = {{"partition_directories", r.cost.directories},
               {"files", r.cost.files},
               {"logs", r.cost.logs},
               {"min_segment_files", r.cost.min_segment_files}};
  return j;
}

std::string assign_to_text(const AssignReport& r) {
  const auto& score = r.score;
  Table b({{"broker"}, {"rack", Align::kLeft}, {"replicas"}, {"preferred leaders"}});
  for (const auto& x : score.brokers)
    b.add_row({std::to_string(x.broker), x.rack, std::to_string(x.replicas), std::to_string(x.leaders)});
  Table f({{"failed broker"}, {"max leaders"}, {"min leaders"}, {"offline partitions"}});
  for (const auto& x : score.failures)
    f.add_row({std::to_string(x.failed), std::to_string(x.max_leaders), std::to_string(x.min_leaders),
               std::to_string(x.offline)});
  return method_text(r) + "\n\n" + assignment_table(r).to_text() + "\n" + b.to_text() +
         "\nscore: replicas per broker " + std::to_string(score.replica_min) + ".." +
         std::to_string(score.replica_max) + ", preferred leaders " + std::to_string(score.leader_min) + ".." +
         std::to_string(score.leader_max) + ", rack spread " + std::to_string(score.partitions_rack_ok) + "/" +
         std::to_string(score.partitions) + " partitions, worst single failure leaves a broker with " +
         std::to_string(score.worst_failure_max_leaders) +
         " leaders\n\nleaders after one broker fails (first live replica leads):\n" + f.to_text() +
         "\ncost on disk: " + std::to_string(r.cost.directories) + " partition directories, " +
         std::to_string(r.cost.files) + " files when new, " + std::to_string(r.cost.logs) + " logs, at least " +
         std::to_string(r.cost.min_segment_files) + " segment files\n";
}

std::string assign_to_csv(const AssignReport& r) { return assignment_table(r).to_csv(); }

namespace {

// Whose rule placed the new partitions, and how it drew.
std::string added_method(const AddPartitionsReport& r) {
  const auto first = std::to_string(r.existing.size());
  if (r.placer == model::Placer::kStriped)
    return "the KRaft controller places them (ReplicationControlManager.createPartitions): a fresh "
           "StripedReplicaPlacer placement of the new partitions alone, java.util.Random seed " +
           std::to_string(r.seed);
  return std::string("the ZooKeeper-era controller places them (AdminZkClient.createNewPartitionsAssignment): ") +
         "AdminUtils, " + (r.added.rack_aware ? "rack-aware" : "rack-unaware") + ", over every broker, start index " +
         std::to_string(r.added.start_index) +
         " (the position, among the brokers sorted by id, of the first whose id is at least partition 0's leader " +
         std::to_string(r.existing[0][0]) +
         (r.added.rack_aware ? "; applied, as Kafka does, to the rack-alternated list" : "") +
         "), replica shift the same, partition ids from " + first;
}

std::string range(std::int32_t lo, std::int32_t hi) { return std::to_string(lo) + ".." + std::to_string(hi); }

std::string score_line(const model::AssignmentScore& s) {
  return "replicas per broker " + range(s.replica_min, s.replica_max) + ", preferred leaders " +
         range(s.leader_min, s.leader_max) + ", rack spread " + std::to_string(s.partitions_rack_ok) + "/" +
         std::to_string(s.partitions) + ", worst single failure " + std::to_string(s.worst_failure_max_leaders) +
         " leaders";
}

const char* plan_status_name(model::PlanStatus s) {
  switch (s) {
    case model::PlanStatus::kOptimal: return "optimal";
    case model::PlanStatus::kFeasible: return "feasible";
    case model::PlanStatus::kInfeasible: return "infeasible";
    case model::PlanStatus::kTimedOut: break;
  }
  return "timed out";
}

bool has_plan(const AddPartitionsReport& r) {
  return r.plan.status == model::PlanStatus::kOptimal || r.plan.status == model::PlanStatus::kFeasible;
}

// The load of broker `id` in a score (zeros when it holds nothing there).
model::BrokerLoad load_of(const model::AssignmentScore& s, std::int32_t id) {
  for (const auto& b : s.brokers)
    if (b.broker == id) return b;
  return {};
}

}  // namespace

nlohmann::ordered_json add_partitions_to_json(const AddPartitionsReport& r) {
  nlohmann::ordered_json j;
  j["topic"] = r.topic;
  j["existing_from"] = r.existing_from;
  j["existing_partitions"] = r.existing.size();
  j["placer"] = placer_name(r.placer);
  j["method"] = added_method(r);
  auto& added = j["added"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.added.assignment.size(); ++i)
    added.push_back({{"partition", r.existing.size() + i}, {"replicas", r.added.assignment[i]}});
  const auto score_json = [](const model::AssignmentScore& s) {
    return nlohmann::ordered_json{{"replicas_per_broker", {{"min", s.replica_min}, {"max", s.replica_max}}},
                                  {"leaders_per_broker", {{"min", s.leader_min}, {"max", s.leader_max}}},
                                  {"partitions_rack_spread", s.partitions_rack_ok},
                                  {"worst_single_failure_max_leaders", s.worst_failure_max_leaders}};
  };
  j["before"] = score_json(r.before);
  j["after"] = score_json(r.after);
  auto& brokers = j["brokers"] = nlohmann::ordered_json::array();
  for (const auto& b : r.after.brokers) {
    const auto was = load_of(r.before, b.broker);
    nlohmann::ordered_json row{{"broker", b.broker},
                               {"rack", b.rack},
                               {"replicas_before", was.replicas},
                               {"replicas_after", b.replicas},
                               {"leaders_before", was.leaders},
                               {"leaders_after", b.leaders}};
    if (has_plan(r)) {
      const auto then = load_of(r.evened, b.broker);
      row["replicas_planned"] = then.replicas;
      row["leaders_planned"] = then.leaders;
    }
    brokers.push_back(std::move(row));
  }
  auto& plan = j["plan"];
  plan["status"] = plan_status_name(r.plan.status);
  plan["rack_mode"] = r.rack_mode;
  if (!has_plan(r)) {
    plan["reason"] = r.plan.reason;
    return j;
  }
  plan["moves"] = r.plan.moves;
  plan["leader_changes"] = r.plan.leader_changes;
  plan["method"] = r.plan.method;
  plan["evened"] = score_json(r.evened);
  auto& changed = plan["changed"] = nlohmann::ordered_json::array();
  const auto all = [&](std::size_t p) {
    return p < r.existing.size() ? r.existing[p] : r.added.assignment[p - r.existing.size()];
  };
  for (std::size_t p = 0; p < r.plan.plan.size(); ++p)
    if (r.plan.plan[p] != all(p)) changed.push_back({{"partition", p}, {"from", all(p)}, {"to", r.plan.plan[p]}});
  return j;
}

std::string add_partitions_to_text(const AddPartitionsReport& r) {
  std::string out = "the topic: " + r.existing_from + "\nadding " + std::to_string(r.added.assignment.size()) +
                    " partitions: " + added_method(r) + "\n\n";
  Table a({{"partition"}, {"replicas (leader first)", Align::kLeft}});
  for (std::size_t i = 0; i < r.added.assignment.size(); ++i)
    a.add_row({std::to_string(r.existing.size() + i), replica_list(r.added.assignment[i])});
  out += "the new partitions:\n" + a.to_text() + "\n";
  const bool planned = has_plan(r);
  std::vector<Column> columns{{"broker"}, {"rack", Align::kLeft}, {"replicas before"}, {"after"}};
  if (planned) columns.push_back({"planned"});
  columns.insert(columns.end(), {{"leaders before"}, {"after"}});
  if (planned) columns.push_back({"planned"});
  Table b(columns);
  for (const auto& x : r.after.brokers) {
    const auto was = load_of(r.before, x.broker), then = load_of(r.evened, x.broker);
    std::vector<std::string> row{std::to_string(x.broker), x.rack, std::to_string(was.replicas),
                                 std::to_string(x.replicas)};
    if (planned) row.push_back(std::to_string(then.replicas));
    row.insert(row.end(), {std::to_string(was.leaders), std::to_string(x.leaders)});
    if (planned) row.push_back(std::to_string(then.leaders));
    b.add_row(row);
  }
  out += b.to_text() + "\nbefore: " + score_line(r.before) + "\nafter:  " + score_line(r.after) + "\n";
  if (!planned)
    return out + "\nno plan evens it (" + std::string(plan_status_name(r.plan.status)) + "): " + r.plan.reason + "\n";
  out += "planned: " + score_line(r.evened) +
         "\n\nthe least-move plan that evens it (replicas and preferred leaders per broker within floor..ceil of "
         "the average, racks " +
         r.rack_mode + "): " + std::to_string(r.plan.moves) + " replica moves, " +
         std::to_string(r.plan.leader_changes) + " preferred-leader changes (" + plan_status_name(r.plan.status) +
         ", " + r.plan.method + ")\n";
  Table c({{"partition"}, {"now", Align::kLeft}, {"planned", Align::kLeft}});
  for (std::size_t p = 0; p < r.plan.plan.size(); ++p) {
    const auto& now = p < r.existing.size() ? r.existing[p] : r.added.assignment[p - r.existing.size()];
    if (r.plan.plan[p] != now) c.add_row({std::to_string(p), replica_list(now), replica_list(r.plan.plan[p])});
  }
  if (r.plan.moves == 0 && r.plan.leader_changes == 0) return out;
  return out + c.to_text();
}

std::string add_partitions_to_csv(const AddPartitionsReport& r) {
  Table a({{"partition"}, {"replicas (leader first)", Align::kLeft}});
  for (std::size_t p = 0; p < r.existing.size(); ++p) a.add_row({std::to_string(p), replica_list(r.existing[p])});
  for (std::size_t i = 0; i < r.added.assignment.size(); ++i)
    a.add_row({std::to_string(r.existing.size() + i), replica_list(r.added.assignment[i])});
  return a.to_csv();
}

}  // namespace partsim::analysis
