// partsim assign: what Kafka's placers do with a set of brokers, and how good it is.

#include <algorithm>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/format.hpp"
#include "analysis/table.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/placement/assignment_score.hpp"
#include "model/placement/java_random.hpp"
#include "model/placement/replica_placement.hpp"
#include "model/placement/striped_placer.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kAssignUsage =
    "usage: partsim assign --brokers ID[:RACK[:fenced]],... --partitions N --rf R [--placer admin|striped|simple]\n"
    "                      [--start-index K | --seed S] [--format table|json|csv]\n"
    "Places replicas as Kafka would and scores the result: replicas and preferred leaders per broker,\n"
    "racks per partition, leaders after any single broker failure, and what the partitions cost on disk.\n";

struct BrokerSpec {
  std::int32_t id;
  std::string rack;
  bool fenced;
};

std::vector<BrokerSpec> parse_brokers(const std::string& text) {
  std::vector<BrokerSpec> out;
  std::set<std::int32_t> ids;
  std::size_t pos = 0;
  for (;;) {
    const auto comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const auto c1 = item.find(':');
    BrokerSpec b{static_cast<std::int32_t>(parse_int(item.substr(0, c1), "--brokers", 0, std::numeric_limits<std::int32_t>::max())), "",
                 false};
    if (c1 != std::string::npos) {
      const auto c2 = item.find(':', c1 + 1);
      b.rack = item.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
      if (c2 != std::string::npos) {
        if (item.substr(c2 + 1) != "fenced")
          throw UsageError("--brokers: each broker is ID[:RACK[:fenced]], got '" + item + "'");
        b.fenced = true;
      }
    }
    if (!ids.insert(b.id).second) throw UsageError("--brokers: broker " + std::to_string(b.id) + " is listed twice");
    out.push_back(b);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

}  // namespace

int run_assign_command(const Args& args) {
  std::string brokers_text, partitions_text, rf_text, placer = "admin", start_text, seed_text = "0", format_text = "table";
  po::options_description desc("assign options");
  desc.add_options()
      ("help,h", "show this help")
      ("brokers", po::value<std::string>(&brokers_text)->required(), "brokers: ID[:RACK[:fenced]],... e.g. 0:a,1:a,2:b,3:b")
      ("partitions", po::value<std::string>(&partitions_text)->required(), "number of partitions")
      ("rf", po::value<std::string>(&rf_text)->required(), "replication factor")
      ("placer", po::value<std::string>(&placer)->default_value("admin"),
       "admin (AdminUtils: rack-aware when brokers have racks), striped (KRaft controller), simple (round-robin)")
      ("start-index", po::value<std::string>(&start_text), "admin: fixed start index (Kafka's fixedStartIndex); else drawn")
      ("seed", po::value<std::string>(&seed_text), "java.util.Random seed for the draws (admin without --start-index, striped)")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table, json or csv (csv: the assignment)");
  if (help_requested(args, kAssignUsage, desc)) return kExitOk;
  parse_command_line(args, desc);
  const auto format = parse_format(format_text);
  const auto specs = parse_brokers(brokers_text);
  const auto partitions = static_cast<std::int32_t>(parse_int(partitions_text, "--partitions", 1, 1'000'000));
  const auto rf = static_cast<std::int32_t>(parse_int(rf_text, "--rf", 1, 1000));
  const auto seed = parse_int(seed_text, "--seed", std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
  if (rf > static_cast<std::int32_t>(specs.size()))
    throw UsageError("--rf: must be <= the number of brokers (" + std::to_string(specs.size()) + "), got " + std::to_string(rf));

  std::vector<model::RackedBroker> brokers;
  std::vector<std::int32_t> ids;
  bool any_rack = false, all_racks = true;
  for (const auto& b : specs) {
    brokers.push_back({b.id, b.rack});
    ids.push_back(b.id);
    any_rack = any_rack || !b.rack.empty();
    all_racks = all_racks && !b.rack.empty();
  }
  auto random = std::make_shared<model::JavaRandom<model::JavaLcg>>(model::JavaLcg(seed));
  model::Assignment assignment;
  std::string method;
  if (placer == "simple") {
    assignment = model::round_robin_assignment(ids, partitions, rf);
    method = "plain round-robin over the brokers as listed (the book's T6)";
  } else if (placer == "admin") {
    std::sort(ids.begin(), ids.end());  // callers pass brokers sorted by id
    std::sort(brokers.begin(), brokers.end(), [](auto& x, auto& y) { return x.id < y.id; });
    const auto n = static_cast<std::int32_t>(ids.size());
    std::int32_t start = 0, shift = 0;
    if (start_text.empty()) {  // AdminUtils draws startIndex, then nextReplicaShift
      start = random->next_int(n);
      shift = random->next_int(n);
    } else {
      start = shift = static_cast<std::int32_t>(parse_int(start_text, "--start-index", 0, n - 1));
    }
    if (any_rack && !all_racks) throw UsageError("--brokers: with racks, every broker needs one (Kafka's AdminOperationException)");
    assignment = any_rack ? model::admin_rack_aware(brokers, partitions, rf, start, shift)
                          : model::admin_rack_unaware(ids, partitions, rf, start, shift);
    method = std::string("Kafka's AdminUtils, ") + (any_rack ? "rack-aware" : "rack-unaware") + ", start index " +
             std::to_string(start) + ", replica shift " + std::to_string(shift);
  } else if (placer == "striped") {
    std::vector<model::UsableBroker> usable;
    std::vector<BrokerSpec> sorted = specs;
    std::sort(sorted.begin(), sorted.end(), [](auto& x, auto& y) { return x.id < y.id; });
    for (const auto& b : sorted)
      usable.push_back({b.id, b.rack.empty() ? std::nullopt : std::optional<std::string>(b.rack), b.fenced});
    try {
      assignment = model::striped_place(model::PlacerRandom{[random](std::int32_t bound) { return random->next_int(bound); }}, usable,
                                        partitions, rf);
    } catch (const model::PlacementError& e) {
      throw UsageError(std::string("--rf: ") + e.what());
    }
    method = "the KRaft controller's StripedReplicaPlacer, java.util.Random seed " + std::to_string(seed);
  } else {
    throw UsageError("--placer: must be admin, striped or simple, got '" + placer + "'");
  }

  const auto score = model::score_assignment(assignment, brokers);
  const auto cost = model::partition_cost(partitions, rf);
  nlohmann::ordered_json j;
  j["placer"] = placer;
  j["method"] = method;
  auto& parts = j["assignment"] = nlohmann::ordered_json::array();
  for (std::size_t p = 0; p < assignment.size(); ++p) parts.push_back({{"partition", p}, {"replicas", assignment[p]}});
  auto& loads = j["brokers"] = nlohmann::ordered_json::array();
  for (const auto& b : score.brokers)
    loads.push_back({{"broker", b.broker}, {"rack", b.rack}, {"replicas", b.replicas}, {"preferred_leaders", b.leaders}});
  j["replicas_per_broker"] = {{"min", score.replica_min}, {"max", score.replica_max}};
  j["leaders_per_broker"] = {{"min", score.leader_min}, {"max", score.leader_max}};
  j["partitions_rack_spread"] = score.partitions_rack_ok;
  auto& fails = j["single_failures"] = nlohmann::ordered_json::array();
  for (const auto& f : score.failures)
    fails.push_back({{"failed", f.failed}, {"max_leaders", f.max_leaders}, {"min_leaders", f.min_leaders}, {"offline", f.offline}});
  j["cost"] = {{"partition_directories", cost.directories}, {"files", cost.files}, {"logs", cost.logs},
               {"min_segment_files", cost.min_segment_files}};

  if (format == OutputFormat::kJson) {
    write_stdout(j.dump(2) + "\n");
    return kExitOk;
  }
  analysis::Table a({{"partition"}, {"replicas (leader first)", analysis::Align::kLeft}});
  for (std::size_t p = 0; p < assignment.size(); ++p) {
    std::string r;
    for (std::size_t k = 0; k < assignment[p].size(); ++k) r += (k ? "," : "") + std::to_string(assignment[p][k]);
    a.add_row({std::to_string(p), r});
  }
  if (format == OutputFormat::kCsv) {
    write_stdout(a.to_csv());
    return kExitOk;
  }
  analysis::Table b({{"broker"}, {"rack", analysis::Align::kLeft}, {"replicas"}, {"preferred leaders"}});
  for (const auto& x : score.brokers) b.add_row({std::to_string(x.broker), x.rack, std::to_string(x.replicas), std::to_string(x.leaders)});
  analysis::Table f({{"failed broker"}, {"max leaders"}, {"min leaders"}, {"offline partitions"}});
  for (const auto& x : score.failures)
    f.add_row({std::to_string(x.failed), std::to_string(x.max_leaders), std::to_string(x.min_leaders), std::to_string(x.offline)});
  std::string out = method + "\n\n" + a.to_text() + "\n" + b.to_text() + "\nscore: replicas per broker " +
                    std::to_string(score.replica_min) + ".." + std::to_string(score.replica_max) + ", preferred leaders " +
                    std::to_string(score.leader_min) + ".." + std::to_string(score.leader_max) + ", rack spread " +
                    std::to_string(score.partitions_rack_ok) + "/" + std::to_string(score.partitions) +
                    " partitions, worst single failure leaves a broker with " + std::to_string(score.worst_failure_max_leaders) +
                    " leaders\n\nleaders after one broker fails (first live replica leads):\n" + f.to_text() +
                    "\ncost on disk: " + std::to_string(cost.directories) + " partition directories, " + std::to_string(cost.files) +
                    " files when new, " + std::to_string(cost.logs) + " logs, at least " + std::to_string(cost.min_segment_files) +
                    " segment files\n";
  write_stdout(out);
  return kExitOk;
}

}  // namespace partsim::cli
