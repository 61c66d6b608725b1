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

}  // namespace partsim::analysis
