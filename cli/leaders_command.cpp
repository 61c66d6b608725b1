// partsim leaders: balance preferred leaders among the existing replicas (no data moves),
// and order followers so that a single broker failure spreads its leadership evenly. The
// command reads the options and inputs, balances (model/placement/leader_balance.hpp),
// scores before and after, and hands the result to its reporter (analysis/leaders_report.hpp).

#include <iostream>
#include <string>
#include <vector>

#include "analysis/leaders_report.hpp"
#include "analysis/placement_text.hpp"
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
  std::string current_file, describe_file, brokers_text, balance = "exact", bounds_text, plan_out,
                                                         format_text = "table";
  bool failover = false;
  po::options_description desc("leaders options");
  // clang-format off
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
  // clang-format on
  if (help_requested(args, kLeadersUsage, desc)) return kExitOk;
  parse_command_line(args, desc);
  const auto format = parse_format(format_text, false);
  const auto current = load_current_assignment(current_file, describe_file);
  const auto live = live_brokers(load_brokers(brokers_text));
  std::vector<std::int32_t> alive;
  for (const auto& b : live) alive.push_back(b.id);
  if (alive.empty()) throw UsageError("--brokers: no broker is alive");
  if (const auto lost = without_live_replica(current, live); !lost.empty()) {
    const auto& p = current[lost.front()];
    throw UsageError("--brokers: " + p.topic + "-" + std::to_string(p.partition) +
                     " has no replica on a live broker (its replicas are on brokers " +
                     analysis::replica_list(p.replicas) +
                     "), so none can lead it without moving data (partsim reassign moves it)");
  }

  analysis::LeadersReport report;
  for (const auto& p : current) {
    report.partitions.push_back({p.topic, p.partition});
    report.current.push_back(p.replicas);
  }
  report.bounds = per_broker_bounds(bounds_text, "--leaders-per-broker", balance,
                                    static_cast<std::int64_t>(current.size()), static_cast<std::int32_t>(alive.size()));
  report.plan = model::balance_leaders(report.current, alive, report.bounds, failover);
  if (!report.plan.feasible) {
    std::cerr << "partsim leaders: infeasible: " << report.plan.infeasible_reason << " (bounds " << report.bounds.lo
              << ".." << report.bounds.hi << ")\n";
    return kExitRunFailed;
  }
  report.before = model::score_assignment(report.current, live);
  report.after = model::score_assignment(report.plan.reordered, live);
  report.failover = failover;
  auto reordered = current;
  for (std::size_t p = 0; p < reordered.size(); ++p) reordered[p].replicas = report.plan.reordered[p];
  report.plan_json = scenarios::write_reassignment_json(reordered);
  report.plan_out = plan_out;
  if (!plan_out.empty()) write_file_atomically(plan_out, report.plan_json);
  write_stdout(format == OutputFormat::kJson ? analysis::leaders_to_json(report).dump(2) + "\n"
                                             : analysis::leaders_to_text(report));
  return kExitOk;
}

}  // namespace partsim::cli
