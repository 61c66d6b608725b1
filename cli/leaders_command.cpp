// partsim leaders: balance preferred leaders among the existing replicas (no data moves),
// and order followers so that a single broker failure spreads its leadership evenly.

#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/table.hpp"
#include "cli/assignment_inputs.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/placement/assignment_score.hpp"
#include "model/placement/leader_balance.hpp"
#include "scenarios/loader/assignment_reader.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kLeadersUsage =
    "usage: partsim leaders (--current FILE | --describe FILE) --brokers FILE|ID[:RACK],... [--balance exact|band:T]\n"
    "                       [--leaders-per-broker LO:HI] [--failover] [--plan-out FILE] [--format table|json]\n"
    "Chooses preferred leaders among each partition's replicas (no data moves) so that every live broker\n"
    "leads between LO and HI partitions with the fewest changes; --failover also orders the followers so\n"
    "that any single broker's failure spreads its leadership as evenly as the replicas allow.\n";

}  // namespace

int run_leaders_command(const Args& args) {
  std::string current_file, describe_file, brokers_text, balance = "exact", bounds_text, plan_out, format_text = "table";
  bool failover = false;
  po::options_description desc("leaders options");
  desc.add_options()
      ("help,h", "show this help")
      ("current", po::value<std::string>(&current_file), "current assignment as Kafka's reassignment JSON")
      ("describe", po::value<std::string>(&describe_file), "current assignment as kafka-topics.sh --describe output")
      ("brokers", po::value<std::string>(&brokers_text)->required(), "brokers JSON file or ID[:RACK],... (all alive)")
      ("balance", po::value<std::string>(&balance)->default_value("exact"), "exact (floor/ceil of the average) or band:T (e.g. band:1.10)")
      ("leaders-per-broker", po::value<std::string>(&bounds_text), "explicit bounds LO:HI (overrides --balance)")
      ("failover", po::bool_switch(&failover), "also order followers to balance leadership after any single broker failure")
      ("plan-out", po::value<std::string>(&plan_out), "write the new order as Kafka's reassignment JSON to FILE")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table or json");
  if (help_requested(args, kLeadersUsage, desc)) return kExitOk;
  parse_command_line(args, desc);
  const auto format = parse_format(format_text, false);
  const auto current = load_current_assignment(current_file, describe_file);
  const auto brokers = load_brokers(brokers_text);
  const auto racked = live_brokers(brokers);
  std::vector<std::int32_t> alive;
  for (const auto& b : racked) alive.push_back(b.id);
  if (alive.empty()) throw UsageError("--brokers: no broker is alive");
  const auto P = static_cast<std::int32_t>(current.size());
  const auto B = static_cast<std::int32_t>(alive.size());
  const auto bounds = per_broker_bounds(bounds_text, "--leaders-per-broker", balance, P, B);

  model::Assignment a;
  for (const auto& p : current) a.push_back(p.replicas);
  const auto plan = model::balance_leaders(a, alive, bounds, failover);
  if (!plan.feasible) {
    std::cerr << "partsim leaders: infeasible: " << plan.infeasible_reason << " (bounds " << bounds.lo << ".." << bounds.hi << ")\n";
    return kExitRunFailed;
  }
  const auto before = model::score_assignment(a, racked);
  const auto after = model::score_assignment(plan.reordered, racked);
  std::vector<scenarios::PartitionReplicas> out = current;
  for (std::size_t p = 0; p < out.size(); ++p) out[p].replicas = plan.reordered[p];
  if (!plan_out.empty()) write_file_atomically(plan_out, scenarios::write_reassignment_json(out));

  if (format == OutputFormat::kJson) {
    nlohmann::ordered_json j;
    j["bounds"] = {{"lo", bounds.lo}, {"hi", bounds.hi}};
    j["leader_changes"] = plan.leader_changes;
    j["failover_changes"] = plan.failover_changes;
    auto& bs = j["brokers"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < before.brokers.size(); ++i)
      bs.push_back({{"broker", before.brokers[i].broker}, {"leaders_before", before.brokers[i].leaders},
                    {"leaders_after", after.brokers[i].leaders}});
    j["worst_single_failure_max_leaders"] = {{"before", before.worst_failure_max_leaders}, {"after", after.worst_failure_max_leaders}};
    j["plan"] = nlohmann::ordered_json::parse(scenarios::write_reassignment_json(out));
    write_stdout(j.dump(2) + "\n");
    return kExitOk;
  }
  analysis::Table t({{"broker"}, {"leaders before"}, {"leaders after"}});
  for (std::size_t i = 0; i < before.brokers.size(); ++i)
    t.add_row({std::to_string(before.brokers[i].broker), std::to_string(before.brokers[i].leaders), std::to_string(after.brokers[i].leaders)});
  write_stdout("preferred leaders per broker within " + std::to_string(bounds.lo) + ".." + std::to_string(bounds.hi) + ": " +
               std::to_string(plan.leader_changes) + " of " + std::to_string(P) + " partitions change leader (no data moves)\n\n" +
               t.to_text() + "\nworst single broker failure: a broker then leads " + std::to_string(before.worst_failure_max_leaders) +
               " partitions before, " + std::to_string(after.worst_failure_max_leaders) + " after" +
               (failover ? " (" + std::to_string(plan.failover_changes) + " second replicas reordered)" : "") + "\n" +
               (plan_out.empty() ? "" : "plan written to " + plan_out + " (kafka-reassign-partitions --execute)\n"));
  return kExitOk;
}

}  // namespace partsim::cli
