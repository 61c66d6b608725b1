// partsim reassign: the reassignment with the fewest replica moves (then the fewest
// preferred-leader changes) that meets rack and balance constraints, its copy cost under a
// replication throttle, and what kafka-reassign-partitions --generate would do instead. The
// command reads the options and inputs into a request, studies it
// (model/placement/reassign_study.hpp) and hands the result to its reporter
// (analysis/reassign_report.hpp).

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/format.hpp"
#include "analysis/isr_report.hpp"
#include "analysis/placement_text.hpp"
#include "analysis/reassign_report.hpp"
#include "analysis/reassignment_report.hpp"
#include "cli/assignment_inputs.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/cluster_simulation.hpp"
#include "model/placement/reassign_study.hpp"
#include "scenarios/loader/assignment_reader.hpp"
#include "scenarios/loader/key_reader.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/loader/scenario_writer.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kReassignUsage =
    "usage: partsim reassign (--current FILE | --describe FILE) --brokers FILE|ID[:RACK],... [--target-brokers 0-18,20]\n"
    "                        [--rf N] [--rack-mode strict|even|none] [--balance exact|band:T]\n"
    "                        [--replicas-per-broker LO:HI] [--leaders-per-broker LO:HI]\n"
    "                        [--partition-size SIZE | --sizes FILE] [--throttle RATE] [--failover] [--plan-out FILE]\n"
    "                        [--disk-capacity SIZE|ID:SIZE,... [--max-disk F] [--disk-balance T]]\n"
    "                        [--seed S] [--time-limit SEC] [--format table|json] [--simulate SCENARIO [--at-ms MS]]\n"
    "Plans a reassignment onto the target brokers with the fewest replica moves, then the fewest preferred-leader\n"
    "changes, that keeps racks and per-broker balance within bounds (exact, by integer programming); prints what\n"
    "kafka-reassign-partitions --generate would propose beside it. --simulate carries the plan out in a scenario\n"
    "(cluster.replication: followers) at --throttle, as a topic schedule step, and reports the move over time.\n";

constexpr std::int64_t kMaxVariables = 4'000'000;

// The options as given; each is checked where it is turned into a setting.
struct ReassignArgs {
  std::string current_file, describe_file, brokers_text, targets_text, rf_text, rack_text,
      balance = "band:1.10", replicas_text, leaders_text, size_text, sizes_file, throttle_text, plan_out,
      format_text = "table", seed_text = "0", limit_text = "60", scope_text = "cluster", disk_text, max_disk_text,
      disk_balance_text, simulate, at_text;
  bool failover = false;
  bool targets_given = false;  ///< --target-brokers was given (an empty list is an error, not the default)
};

po::options_description reassign_options(ReassignArgs& a) {
  po::options_description desc("reassign options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("current", po::value<std::string>(&a.current_file), "current assignment as Kafka's reassignment JSON")
      ("describe", po::value<std::string>(&a.describe_file), "current assignment as kafka-topics.sh --describe output")
      ("brokers", po::value<std::string>(&a.brokers_text)->required(),
       "brokers: a JSON file {\"brokers\":[{\"id\",\"rack\",\"alive\"}]} or ID[:RACK],...")
      ("target-brokers", po::value<std::string>(&a.targets_text), "brokers that may hold replicas, e.g. 0-18,20 (default: every live broker)")
      ("rf", po::value<std::string>(&a.rf_text), "new replication factor for every partition (default: keep each one's)")
      ("rack-mode", po::value<std::string>(&a.rack_text),
       "strict (at most one replica per rack), even (floor/ceil of rf/#racks per rack) or none; default even with racks")
      ("balance", po::value<std::string>(&a.balance)->default_value("band:1.10"),
       "per-broker replicas and leaders: exact (floor/ceil of the average) or band:T (Cruise Control's threshold)")
      ("balance-scope", po::value<std::string>(&a.scope_text)->default_value("cluster"),
       "cluster (all partitions given), topic (each topic on its own) or both; --balance's rule applies to each")
      ("replicas-per-broker", po::value<std::string>(&a.replicas_text), "explicit replica bounds LO:HI (overrides --balance)")
      ("leaders-per-broker", po::value<std::string>(&a.leaders_text), "explicit preferred-leader bounds LO:HI (overrides --balance)")
      ("partition-size", po::value<std::string>(&a.size_text), "bytes per partition, e.g. 20GB (for bytes to copy)")
      ("sizes", po::value<std::string>(&a.sizes_file), "partition sizes from kafka-log-dirs.sh --describe output")
      ("throttle", po::value<std::string>(&a.throttle_text), "replication throttle, e.g. 50MB/s: estimate the copy time")
      ("failover", po::bool_switch(&a.failover),
       "also order each plan's followers so that any single broker failure spreads its leadership evenly (as partsim leaders)")
      ("plan-out", po::value<std::string>(&a.plan_out), "write the plan (changed partitions) as Kafka's reassignment JSON to FILE")
      ("disk-capacity", po::value<std::string>(&a.disk_text),
       "each target broker's disk, e.g. 2TB, or per broker 0:2TB,1:4TB,...: keep every broker under --max-disk of it, "
       "partitions moving in counted 1.2x (needs --sizes or --partition-size)")
      ("max-disk", po::value<std::string>(&a.max_disk_text), "with --disk-capacity: the fill a broker may reach (default 0.85)")
      ("disk-balance", po::value<std::string>(&a.disk_balance_text),
       "with --disk-capacity: T, each broker's disk use within [avg (2 - T), avg T] of the average use (Cruise Control's "
       "DiskUsageDistributionGoal), e.g. 1.10")
      ("seed", po::value<std::string>(&a.seed_text), "java.util.Random seed for --generate's draw (default 0)")
      ("time-limit", po::value<std::string>(&a.limit_text), "seconds the solver may search (default 60)")
      ("format", po::value<std::string>(&a.format_text)->default_value("table"), "table or json")
      ("simulate", po::value<std::string>(&a.simulate),
       "carry the plan out in SCENARIO (a scenario file whose topics and brokers the plan names) at --throttle, and "
       "report it as a run does (docs/reassignment.md)")
      ("at-ms", po::value<std::string>(&a.at_text), "with --simulate: when the move starts (default: half run.duration.ms)");
  // clang-format on
  return desc;
}

// Target brokers: every live broker, or the list given (each known and alive).
std::vector<model::RackedBroker> target_brokers(const ReassignArgs& a,
                                                const std::map<std::int32_t, scenarios::BrokerEntry>& by_id) {
  std::vector<model::RackedBroker> targets;
  if (!a.targets_given) {
    for (const auto& [id, b] : by_id)
      if (b.alive) targets.push_back({id, b.rack});
  } else {
    if (a.targets_text.empty())
      throw UsageError("--target-brokers: must list at least one broker, e.g. 0-18,20, got ''");
    for (auto id : parse_id_ranges(a.targets_text, "--target-brokers")) {
      auto it = by_id.find(id);
      if (it == by_id.end())
        throw UsageError("--target-brokers: broker " + std::to_string(id) + " is not in --brokers");
      if (!it->second.alive) throw UsageError("--target-brokers: broker " + std::to_string(id) + " is not alive");
      targets.push_back({id, it->second.rack});
    }
  }
  if (targets.empty()) throw UsageError("--brokers: no broker is alive");
  return targets;
}

// --rack-mode: even by default when every target has a rack, else none; a mode with racks
// needs a rack on every target.
model::RackMode rack_mode(const std::string& text, const std::vector<model::RackedBroker>& targets) {
  // The last target without a rack, the one an error names.
  const auto unracked = std::find_if(targets.rbegin(), targets.rend(), [](const auto& t) { return t.rack.empty(); });
  if (text.empty()) return unracked == targets.rend() ? model::RackMode::kEven : model::RackMode::kNone;
  model::RackMode mode;
  if (text == "strict") mode = model::RackMode::kStrict;
  else if (text == "even") mode = model::RackMode::kEven;
  else if (text == "none") mode = model::RackMode::kNone;
  else throw UsageError("--rack-mode: must be strict, even or none, got '" + text + "'");
  if (mode != model::RackMode::kNone && unracked != targets.rend())
    throw UsageError("--rack-mode " + text + ": every target broker needs a rack, and broker " +
                     std::to_string(unracked->id) + " has none (give racks in --brokers, or use --rack-mode none)");
  return mode;
}

analysis::BalanceScope balance_scope(const std::string& text) {
  if (text == "cluster") return analysis::BalanceScope::kCluster;
  if (text == "topic") return analysis::BalanceScope::kTopic;
  if (text == "both") return analysis::BalanceScope::kBoth;
  throw UsageError("--balance-scope: must be cluster, topic or both, got '" + text + "'");
}

// Per-broker bounds on replicas and leaders for the cluster and, by --balance-scope, per topic.
void set_bounds(model::ReassignRequest& req, const ReassignArgs& a, analysis::BalanceScope scope,
                const std::vector<model::TopicPartition>& partitions) {
  const auto B = static_cast<std::int32_t>(req.targets.size());
  const auto P = static_cast<std::int64_t>(req.current.size());
  std::int64_t total = 0;
  for (auto rf : req.rf) total += rf;
  req.replicas = per_broker_bounds(a.replicas_text, "--replicas-per-broker", a.balance, total, B);
  req.leaders = per_broker_bounds(a.leaders_text, "--leaders-per-broker", a.balance, P, B);
  if (scope == analysis::BalanceScope::kTopic) {  // the cluster as a whole is then free
    req.replicas = {0,
                    static_cast<std::int32_t>(std::min<std::int64_t>(total, std::numeric_limits<std::int32_t>::max()))};
    req.leaders = {0, static_cast<std::int32_t>(P)};
  }
  if (scope == analysis::BalanceScope::kCluster) return;
  std::map<std::string, std::int32_t> topic_index;
  for (const auto& p : partitions) topic_index.emplace(p.topic, static_cast<std::int32_t>(topic_index.size()));
  std::vector<std::int64_t> replicas(topic_index.size()), count(topic_index.size());
  for (std::size_t p = 0; p < partitions.size(); ++p) {
    req.topic.push_back(topic_index[partitions[p].topic]);
    replicas[static_cast<std::size_t>(req.topic.back())] += req.rf[p];
    ++count[static_cast<std::size_t>(req.topic.back())];
  }
  for (std::size_t t = 0; t < topic_index.size(); ++t) {
    req.topic_replicas.push_back(per_broker_bounds("", "--balance", a.balance, replicas[t], B));
    req.topic_leaders.push_back(per_broker_bounds("", "--balance", a.balance, count[t], B));
  }
}

// Partition sizes: one for all (--partition-size), or each from kafka-log-dirs output (--sizes).
std::vector<std::int64_t> partition_sizes(const ReassignArgs& a, const std::vector<model::TopicPartition>& partitions) {
  if (!a.size_text.empty() && !a.sizes_file.empty())
    throw UsageError("give partition sizes with one of --partition-size or --sizes");
  std::vector<std::int64_t> sizes(partitions.size(), 0);
  if (!a.size_text.empty()) std::fill(sizes.begin(), sizes.end(), parse_bytes(a.size_text, "--partition-size"));
  if (!a.sizes_file.empty()) {
    const auto table = scenarios::parse_log_dirs_json(scenarios::read_input_file(a.sizes_file), a.sizes_file);
    for (std::size_t p = 0; p < partitions.size(); ++p) {
      auto it = table.find(partitions[p].name());
      if (it == table.end()) throw UsageError(a.sizes_file + ": no size for " + partitions[p].name());
      sizes[p] = it->second;
    }
  }
  return sizes;
}

// What no plan can do, refused as bad input: a partition with more replicas than there are
// target brokers, and an assignment of which no live broker holds anything.
void check_placeable(const ReassignArgs& a, const std::vector<scenarios::PartitionReplicas>& current,
                     const std::vector<std::int32_t>& rf, std::int32_t targets,
                     const std::vector<model::RackedBroker>& live) {
  for (std::size_t p = 0; p < current.size(); ++p) {
    if (rf[p] <= targets) continue;
    const auto name = current[p].topic + "-" + std::to_string(current[p].partition);
    throw UsageError((a.targets_given ? "--target-brokers: " : "--brokers: ") + name + " has " + std::to_string(rf[p]) +
                     " replicas and only " +
                     analysis::count_of(targets, a.targets_given ? "target broker" : "live broker") +
                     " can hold them; give at least " + std::to_string(rf[p]) +
                     (a.targets_given ? " target brokers" : " live brokers") + ", or --rf " + std::to_string(targets));
  }
  if (without_live_replica(current, live).size() < current.size()) return;
  std::set<std::int32_t> holders;
  for (const auto& p : current) holders.insert(p.replicas.begin(), p.replicas.end());
  std::string list;
  for (auto id : holders) list += (list.empty() ? "" : ",") + std::to_string(id);
  throw UsageError(std::string("--brokers: no live broker holds a replica of any partition in ") +
                   (a.current_file.empty() ? "--describe" : "--current") + " (its replicas are on brokers " + list +
                   "): there is nothing to copy from");
}

// --disk-capacity: one size for every target broker, or ID:SIZE for each of them.
std::vector<std::int64_t> disk_capacity(const ReassignArgs& a, const model::ReassignRequest& req, bool have_sizes) {
  for (const auto& [given, name] : {std::pair{a.max_disk_text, "--max-disk"}, {a.disk_balance_text, "--disk-balance"}})
    if (!given.empty() && a.disk_text.empty()) throw UsageError(std::string(name) + ": needs --disk-capacity");
  if (a.disk_text.empty()) return {};
  if (!have_sizes)
    throw UsageError("--disk-capacity: needs partition sizes (--sizes from kafka-log-dirs, or --partition-size)");
  std::vector<std::int64_t> out(req.targets.size(), -1);
  if (a.disk_text.find(':') == std::string::npos) {
    std::fill(out.begin(), out.end(), parse_bytes(a.disk_text, "--disk-capacity"));
  } else {
    std::size_t pos = 0;
    for (;;) {
      const auto comma = a.disk_text.find(',', pos);
      const std::string item = a.disk_text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      const auto colon = item.find(':');
      if (colon == std::string::npos)
        throw UsageError("--disk-capacity: each broker's is ID:SIZE, e.g. 0:2TB, got '" + item + "'");
      const auto id = parse_int(item.substr(0, colon), "--disk-capacity", 0, std::numeric_limits<std::int32_t>::max());
      const auto it = std::find_if(req.targets.begin(), req.targets.end(), [&](const auto& t) { return t.id == id; });
      if (it == req.targets.end())
        throw UsageError("--disk-capacity: broker " + std::to_string(id) + " is not a target broker");
      auto& slot = out[static_cast<std::size_t>(it - req.targets.begin())];
      if (slot >= 0) throw UsageError("--disk-capacity: broker " + std::to_string(id) + " is listed twice");
      slot = parse_bytes(item.substr(colon + 1), "--disk-capacity");
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    for (std::size_t b = 0; b < out.size(); ++b)
      if (out[b] < 0)
        throw UsageError("--disk-capacity: no capacity for target broker " + std::to_string(req.targets[b].id) +
                         " (give one size for all, or ID:SIZE for every target)");
  }
  for (std::size_t b = 0; b < out.size(); ++b)
    if (out[b] <= 0)
      throw UsageError("--disk-capacity: must be above 0 bytes, for broker " + std::to_string(req.targets[b].id));
  return out;
}

// The planner's disk rules: the fill cap (the 1.2x reserve for what moves in) and, with
// --disk-balance, the band around the average use.
void set_disks(const ReassignArgs& a, model::ReassignRequest& req, const std::vector<std::int64_t>& sizes,
               const std::vector<std::int64_t>& capacity) {
  const double max_disk = a.max_disk_text.empty() ? 0.85 : parse_number(a.max_disk_text, "--max-disk", 0.01, 1);
  req.sizes = sizes;
  req.disk_capacity = capacity;
  for (const auto c : capacity) req.disk_limit.push_back(static_cast<std::int64_t>(static_cast<double>(c) * max_disk));
  req.max_disk = max_disk;
  if (a.disk_balance_text.empty()) return;
  const double t = parse_number(a.disk_balance_text, "--disk-balance", 1, 2);
  double bytes = 0, total = 0;
  for (std::size_t p = 0; p < sizes.size(); ++p) bytes += static_cast<double>(sizes[p]) * req.rf[p];
  for (const auto c : capacity) total += static_cast<double>(c);
  const double average = bytes / total;  // the use every broker would have if perfectly even
  for (const auto c : capacity)
    req.disk_band.emplace_back(static_cast<std::int64_t>(std::floor(average * (2 - t) * static_cast<double>(c))),
                               static_cast<std::int64_t>(std::ceil(average * t * static_cast<double>(c))));
  req.disk_balance = t;
}

struct ReassignInputs {
  model::ReassignStudyRequest request;
  analysis::BalanceScope scope = analysis::BalanceScope::kCluster;
};

// The study's request from the options, the current assignment and the brokers, checked in
// the order the options depend on each other (targets, then racks and --rf, then bounds).
ReassignInputs study_request(const ReassignArgs& a, const std::vector<scenarios::PartitionReplicas>& current,
                             const std::vector<scenarios::BrokerEntry>& brokers) {
  std::map<std::int32_t, scenarios::BrokerEntry> by_id;
  for (const auto& b : brokers) by_id[b.id] = b;
  ReassignInputs in;
  auto& s = in.request;
  auto& req = s.plan;
  req.targets = target_brokers(a, by_id);
  req.rack_mode = rack_mode(a.rack_text, req.targets);
  const auto B = static_cast<std::int32_t>(req.targets.size());
  const auto new_rf = a.rf_text.empty() ? 0 : static_cast<std::int32_t>(parse_int(a.rf_text, "--rf", 1, B));
  for (const auto& p : current) {
    s.partitions.push_back({p.topic, p.partition});
    req.current.push_back(p.replicas);
    req.rf.push_back(new_rf ? new_rf : static_cast<std::int32_t>(p.replicas.size()));
    req.names.push_back(s.partitions.back().name());
  }
  check_placeable(a, current, req.rf, B, live_brokers(brokers));
  const auto P = static_cast<std::int64_t>(current.size());
  if (2 * P * B > kMaxVariables)
    throw UsageError("the plan would need " + std::to_string(2 * P * B) + " 0-1 variables (2 x " + std::to_string(P) +
                     " partitions x " + std::to_string(B) + " brokers); partsim's planner takes up to " +
                     std::to_string(kMaxVariables) + ": plan a subset of the topics at a time");
  in.scope = balance_scope(a.scope_text);
  set_bounds(req, a, in.scope, s.partitions);
  s.live = live_brokers(brokers);
  s.failover = a.failover;
  return in;
}

}  // namespace

// --simulate: the scenario, its topics placed as the plan's current assignment (an explicit
// assignment there must be that one), with the plan as a reassignment step of each topic it
// moves; written and read again, so the loader checks the step as one in a file.
model::RunResult simulate_plan(const ReassignArgs& a, const std::vector<scenarios::PartitionReplicas>& current,
                               const std::vector<scenarios::PartitionReplicas>& plan, std::int64_t throttle) {
  model::Scenario s = scenarios::load_scenario_file(a.simulate);
  const double at_ms = a.at_text.empty() ? (s.run.duration ? s.run.duration->to_ms() / 2 : -1.0)
                                         : parse_number(a.at_text, "--at-ms", 0, 1e12);
  if (at_ms < 0) throw UsageError("--at-ms: required when the scenario has no run.duration.ms");
  if (s.run.duration && at_ms >= s.run.duration->to_ms())
    throw UsageError("--at-ms: " + analysis::fixed(at_ms, 0) + " is at or after the scenario's run.duration.ms (" +
                     analysis::fixed(s.run.duration->to_ms(), 0) + "): the move would never start");
  if (plan.empty()) throw UsageError("--simulate: the plan moves nothing");
  std::map<std::string, std::vector<std::vector<std::int32_t>>> was;  // the current assignment, by topic
  for (const auto& c : current) {
    auto& rows = was[c.topic];
    if (static_cast<std::size_t>(c.partition) >= rows.size()) rows.resize(static_cast<std::size_t>(c.partition) + 1);
    rows[static_cast<std::size_t>(c.partition)] = c.replicas;
  }
  // Every topic the current assignment names is placed as it says (the cluster the plan was
  // made for); the plan's topics must be in the scenario.
  for (auto& t : s.topics) {
    const auto it = was.find(t.name);
    if (it == was.end()) continue;
    const auto& rows = it->second;
    const auto gap = std::find_if(rows.begin(), rows.end(), [](const auto& r) { return r.empty(); });
    if (gap != rows.end())
      throw UsageError("--simulate: the current assignment lacks partition " + std::to_string(gap - rows.begin()) +
                       " of topic '" + t.name + "'");
    if (static_cast<std::int32_t>(rows.size()) != t.partitions)
      throw UsageError("--simulate: topic '" + t.name + "' has " + std::to_string(t.partitions) + " partitions in " +
                       a.simulate + ", " + std::to_string(rows.size()) + " in the current assignment");
    if (!t.assignment.empty() && t.assignment != rows)
      throw UsageError("--simulate: " + a.simulate + " places topic '" + t.name +
                       "' otherwise than the current assignment the plan was made for (give it that assignment, or "
                       "none)");
    t.assignment = rows;
    t.placer = model::TopicConfig::Placer::kNone;
  }
  std::map<std::string, std::vector<model::ReassignTarget>> steps;
  for (const auto& e : plan) steps[e.topic].push_back({e.topic, e.partition, e.replicas});
  for (auto& [topic, targets] : steps) {
    const auto t = std::find_if(s.topics.begin(), s.topics.end(), [&](const auto& x) { return x.name == topic; });
    if (t == s.topics.end())
      throw UsageError("--simulate: the plan moves topic '" + topic + "', which " + a.simulate + " does not have");
    t->schedule.push_back({model::SimTime::from_ms(at_ms), 0,
                           model::ReassignStep{targets, static_cast<double>(throttle), ""}});
  }
  const model::Scenario with =
      scenarios::load_scenario_text(scenarios::write_scenario_yaml(s), a.simulate + " (with the plan)");
  return model::run_scenario(with, with.run.seed, 0, {});
}

int run_reassign_command(const Args& args) {
  ReassignArgs a;
  const auto desc = reassign_options(a);
  if (help_requested(args, kReassignUsage, desc)) return kExitOk;
  a.targets_given = parse_command_line(args, desc).count("target-brokers") > 0;
  const auto format = parse_format(a.format_text, false);
  const auto seed = parse_int(a.seed_text, "--seed", std::numeric_limits<std::int64_t>::min(),
                              std::numeric_limits<std::int64_t>::max());
  const auto time_limit_s = parse_number(a.limit_text, "--time-limit", 0.1, 86400);
  const auto current = load_current_assignment(a.current_file, a.describe_file);
  const auto brokers = load_brokers(a.brokers_text);
  auto [request, scope] = study_request(a, current, brokers);
  request.plan.time_limit_s = time_limit_s;
  request.generate_seed = seed;
  request.sizes_bytes = partition_sizes(a, request.partitions);
  const bool have_sizes = !a.size_text.empty() || !a.sizes_file.empty();
  const auto capacity = disk_capacity(a, request.plan, have_sizes);
  if (!capacity.empty()) set_disks(a, request.plan, request.sizes_bytes, capacity);
  const std::int64_t throttle = a.throttle_text.empty() ? 0 : parse_bytes(a.throttle_text, "--throttle", true);
  if (!a.throttle_text.empty() && throttle <= 0) throw UsageError("--throttle: must be above 0 bytes per second");
  if (throttle > 0 && !have_sizes && a.simulate.empty())
    throw UsageError(
        "--throttle: needs partition sizes (--partition-size or --sizes) to estimate a copy time, or --simulate");
  if (!a.at_text.empty() && a.simulate.empty()) throw UsageError("--at-ms: only with --simulate");

  auto study = model::study_reassignment(request);
  if (study.plan.status == model::PlanStatus::kInfeasible || study.plan.status == model::PlanStatus::kTimedOut) {
    std::cerr << "partsim reassign: "
              << (study.plan.status == model::PlanStatus::kInfeasible ? "infeasible: " : "no plan: ")
              << study.plan.reason << "\n";
    return kExitRunFailed;
  }
  std::vector<scenarios::PartitionReplicas> changed;
  for (auto p : study.changed) {
    changed.push_back(current[p]);
    changed.back().replicas = study.planned[p];
  }
  analysis::ReassignReport report{std::move(request),
                                  std::move(study),
                                  {},
                                  a.balance,
                                  !a.replicas_text.empty() && !a.leaders_text.empty(),
                                  scope,
                                  have_sizes,
                                  have_sizes ? throttle : 0,  // an estimate needs the sizes (--simulate measures)
                                  scenarios::write_reassignment_json(changed),
                                  a.plan_out};
  for (const auto& b : brokers) report.racks[b.id] = b.rack;
  if (!a.plan_out.empty()) write_file_atomically(a.plan_out, report.plan_json);
  if (a.simulate.empty()) {
    write_stdout(format == OutputFormat::kJson ? analysis::reassign_to_json(report).dump(2) + "\n"
                                               : analysis::reassign_to_text(report));
    return kExitOk;
  }
  const model::RunResult run = simulate_plan(a, current, changed, throttle);
  if (format == OutputFormat::kJson) {
    auto j = analysis::reassign_to_json(report);
    j["simulation"] = analysis::replication_to_json(run);
    write_stdout(j.dump(2) + "\n");
  } else {
    write_stdout(analysis::reassign_to_text(report) + "\nsimulated in " + a.simulate + ":" +
                 analysis::reassignment_to_text(run));
  }
  return kExitOk;
}

}  // namespace partsim::cli
