// partsim reassign: the reassignment with the fewest replica moves (then the fewest
// preferred-leader changes) that meets rack and balance constraints, its copy cost under a
// replication throttle, and what kafka-reassign-partitions --generate would do instead.

#include <algorithm>
#include <array>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/format.hpp"
#include "analysis/table.hpp"
#include "cli/assignment_inputs.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/placement/assignment_score.hpp"
#include "model/placement/java_random.hpp"
#include "model/placement/leader_balance.hpp"
#include "model/placement/reassign_planner.hpp"
#include "scenarios/loader/key_reader.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kReassignUsage =
    "usage: partsim reassign (--current FILE | --describe FILE) --brokers FILE|ID[:RACK],... [--target-brokers 0-18,20]\n"
    "                        [--rf N] [--rack-mode strict|even|none] [--balance exact|band:T]\n"
    "                        [--replicas-per-broker LO:HI] [--leaders-per-broker LO:HI]\n"
    "                        [--partition-size SIZE | --sizes FILE] [--throttle RATE] [--failover] [--plan-out FILE]\n"
    "                        [--seed S] [--time-limit SEC] [--format table|json]\n"
    "Plans a reassignment onto the target brokers with the fewest replica moves, then the fewest preferred-leader\n"
    "changes, that keeps racks and per-broker balance within bounds (exact, by integer programming); prints what\n"
    "kafka-reassign-partitions --generate would propose beside it.\n";

constexpr std::int64_t kMaxVariables = 4'000'000;
constexpr std::int64_t kGenerateWork = 20'000'000;  ///< draws x partitions placed for --generate's statistics

std::string list_text(const std::vector<std::int32_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

std::string count_of(std::int64_t n, const std::string& noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

std::string partition_name(const scenarios::PartitionReplicas& p) { return p.topic + "-" + std::to_string(p.partition); }

// Bytes each broker receives (new replicas) and sends (the partition's leader serves the
// copies; a dead leader's role falls to the first live replica, as after failover).
struct CopyLoad {
  std::int64_t total = 0;
  std::map<std::int32_t, std::int64_t> in, out;
  std::int64_t busiest() const {
    std::int64_t m = 0;
    for (const auto& [b, v] : in) m = std::max(m, v);
    for (const auto& [b, v] : out) m = std::max(m, v);
    return m;
  }
};

CopyLoad copy_load(const model::Assignment& before, const model::Assignment& after, const std::vector<std::int64_t>& sizes,
                   const std::set<std::int32_t>& alive) {
  CopyLoad load;
  for (std::size_t p = 0; p < after.size(); ++p) {
    std::int32_t source = -1;
    for (auto b : before[p])
      if (alive.count(b)) {
        source = b;
        break;
      }
    for (auto b : after[p])
      if (std::find(before[p].begin(), before[p].end(), b) == before[p].end()) {
        load.total += sizes[p];
        load.in[b] += sizes[p];
        if (source >= 0) load.out[source] += sizes[p];
      }
  }
  return load;
}

// What kafka-reassign-partitions --generate does: per topic, AdminUtils over the target
// brokers sorted by id (rack-aware when every broker has a rack), start index and replica
// shift drawn from java.util.Random; and over every possible draw, the range of its moves.
struct GenerateResult {
  model::Assignment seeded;  // per input partition
  std::int64_t draws = 0, possible = 0;  ///< draws evaluated (per topic), of the n^2 possible
  bool sampled = false;
  std::int64_t min_moves = 0, max_moves = 0;
  double mean_moves = 0;
};

GenerateResult kafka_generate(const std::vector<scenarios::PartitionReplicas>& current, const std::vector<std::int32_t>& rf,
                              std::vector<model::RackedBroker> targets, bool rack_aware, std::int64_t seed) {
  std::sort(targets.begin(), targets.end(), [](const auto& x, const auto& y) { return x.id < y.id; });
  std::vector<std::int32_t> ids;
  for (const auto& t : targets) ids.push_back(t.id);
  const auto n = static_cast<std::int32_t>(ids.size());
  std::map<std::string, std::vector<std::size_t>> topics;  // topic -> input rows
  for (std::size_t i = 0; i < current.size(); ++i) topics[current[i].topic].push_back(i);
  GenerateResult g;
  g.seeded.resize(current.size());
  model::JavaRandom<model::JavaLcg> random{model::JavaLcg(seed)};
  for (const auto& [topic, rows] : topics) {
    std::int32_t count = 0;
    for (auto i : rows) count = std::max(count, current[i].partition + 1);
    const auto topic_rf = rf[rows.front()];  // Kafka takes the topic's replication factor from its first partition
    auto place = [&](std::int32_t start, std::int32_t shift) {
      return rack_aware ? model::admin_rack_aware(targets, count, topic_rf, start, shift)
                        : model::admin_rack_unaware(ids, count, topic_rf, start, shift);
    };
    const auto start = random.next_int(n);
    const auto shift = random.next_int(n);
    const auto drawn = place(start, shift);
    for (auto i : rows) g.seeded[i] = drawn[static_cast<std::size_t>(current[i].partition)];
    // Every (start, shift) pair when that is cheap, else a fixed sample of them.
    std::vector<std::pair<std::int32_t, std::int32_t>> draws;
    const auto all = static_cast<std::int64_t>(n) * n;
    if (all * static_cast<std::int64_t>(count) <= kGenerateWork) {
      for (std::int32_t a = 0; a < n; ++a)
        for (std::int32_t b = 0; b < n; ++b) draws.push_back({a, b});
    } else {
      model::JavaRandom<model::JavaLcg> sampler{model::JavaLcg(seed + 1)};
      const auto k = std::max<std::int64_t>(100, kGenerateWork / std::max(1, count));
      for (std::int64_t i = 0; i < k; ++i) {
        const auto a = sampler.next_int(n);
        draws.push_back({a, sampler.next_int(n)});
      }
      g.sampled = true;
    }
    std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = 0, sum = 0;
    for (const auto& [a, b] : draws) {
      const auto placed = place(a, b);
      std::int64_t moves = 0;
      for (auto i : rows)
        for (auto broker : placed[static_cast<std::size_t>(current[i].partition)])
          if (std::find(current[i].replicas.begin(), current[i].replicas.end(), broker) == current[i].replicas.end()) ++moves;
      lo = std::min(lo, moves);
      hi = std::max(hi, moves);
      sum += moves;
    }
    g.min_moves += lo;
    g.max_moves += hi;
    g.mean_moves += static_cast<double>(sum) / static_cast<double>(draws.size());
    g.draws = std::max<std::int64_t>(g.draws, static_cast<std::int64_t>(draws.size()));
  }
  g.possible = static_cast<std::int64_t>(n) * n;
  return g;
}

}  // namespace

int run_reassign_command(const Args& args) {
  std::string current_file, describe_file, brokers_text, targets_text, rf_text, rack_text, balance = "band:1.10", replicas_text,
      leaders_text, size_text, sizes_file, throttle_text, plan_out, format_text = "table", seed_text = "0", limit_text = "60";
  std::string scope_text = "cluster";
  bool failover = false;
  po::options_description desc("reassign options");
  desc.add_options()
      ("help,h", "show this help")
      ("current", po::value<std::string>(&current_file), "current assignment as Kafka's reassignment JSON")
      ("describe", po::value<std::string>(&describe_file), "current assignment as kafka-topics.sh --describe output")
      ("brokers", po::value<std::string>(&brokers_text)->required(),
       "brokers: a JSON file {\"brokers\":[{\"id\",\"rack\",\"alive\"}]} or ID[:RACK],...")
      ("target-brokers", po::value<std::string>(&targets_text), "brokers that may hold replicas, e.g. 0-18,20 (default: every live broker)")
      ("rf", po::value<std::string>(&rf_text), "new replication factor for every partition (default: keep each one's)")
      ("rack-mode", po::value<std::string>(&rack_text),
       "strict (at most one replica per rack), even (floor/ceil of rf/#racks per rack) or none; default even with racks")
      ("balance", po::value<std::string>(&balance)->default_value("band:1.10"),
       "per-broker replicas and leaders: exact (floor/ceil of the average) or band:T (Cruise Control's threshold)")
      ("balance-scope", po::value<std::string>(&scope_text)->default_value("cluster"),
       "cluster (all partitions given), topic (each topic on its own) or both; --balance's rule applies to each")
      ("replicas-per-broker", po::value<std::string>(&replicas_text), "explicit replica bounds LO:HI (overrides --balance)")
      ("leaders-per-broker", po::value<std::string>(&leaders_text), "explicit preferred-leader bounds LO:HI (overrides --balance)")
      ("partition-size", po::value<std::string>(&size_text), "bytes per partition, e.g. 20GB (for bytes to copy)")
      ("sizes", po::value<std::string>(&sizes_file), "partition sizes from kafka-log-dirs.sh --describe output")
      ("throttle", po::value<std::string>(&throttle_text), "replication throttle, e.g. 50MB/s: estimate the copy time")
      ("failover", po::bool_switch(&failover),
       "also order each plan's followers so that any single broker failure spreads its leadership evenly (as partsim leaders)")
      ("plan-out", po::value<std::string>(&plan_out), "write the plan (changed partitions) as Kafka's reassignment JSON to FILE")
      ("seed", po::value<std::string>(&seed_text), "java.util.Random seed for --generate's draw (default 0)")
      ("time-limit", po::value<std::string>(&limit_text), "seconds the solver may search (default 60)")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table or json");
  if (help_requested(args, kReassignUsage, desc)) return kExitOk;
  parse_command_line(args, desc);
  const auto format = parse_format(format_text, false);
  const auto seed = parse_int(seed_text, "--seed", std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
  const auto time_limit = parse_number(limit_text, "--time-limit", 0.1, 86400);
  const auto current = load_current_assignment(current_file, describe_file);
  const auto brokers = load_brokers(brokers_text);
  std::map<std::int32_t, scenarios::BrokerEntry> by_id;
  for (const auto& b : brokers) by_id[b.id] = b;

  // Target brokers: every live broker, or the list given (each known and alive).
  std::vector<model::RackedBroker> targets;
  if (targets_text.empty()) {
    for (const auto& [id, b] : by_id)
      if (b.alive) targets.push_back({id, b.rack});
  } else {
    for (auto id : parse_id_ranges(targets_text, "--target-brokers")) {
      auto it = by_id.find(id);
      if (it == by_id.end()) throw UsageError("--target-brokers: broker " + std::to_string(id) + " is not in --brokers");
      if (!it->second.alive) throw UsageError("--target-brokers: broker " + std::to_string(id) + " is not alive");
      targets.push_back({id, it->second.rack});
    }
  }
  if (targets.empty()) throw UsageError("--brokers: no broker is alive");
  const auto B = static_cast<std::int32_t>(targets.size());
  std::set<std::int32_t> target_ids, alive;
  std::set<std::string> racks;
  std::int32_t unracked = -1;
  for (const auto& t : targets) {
    target_ids.insert(t.id);
    if (t.rack.empty()) unracked = t.id;
    else racks.insert(t.rack);
  }
  for (const auto& b : brokers)
    if (b.alive) alive.insert(b.id);

  const bool all_racked = unracked < 0;
  model::RackMode mode = all_racked ? model::RackMode::kEven : model::RackMode::kNone;
  if (!rack_text.empty()) {
    if (rack_text == "strict") mode = model::RackMode::kStrict;
    else if (rack_text == "even") mode = model::RackMode::kEven;
    else if (rack_text == "none") mode = model::RackMode::kNone;
    else throw UsageError("--rack-mode: must be strict, even or none, got '" + rack_text + "'");
    if (mode != model::RackMode::kNone && !all_racked)
      throw UsageError("--rack-mode " + rack_text + ": every target broker needs a rack, and broker " + std::to_string(unracked) +
                       " has none (give racks in --brokers, or use --rack-mode none)");
  }

  model::ReassignRequest req;
  req.targets = targets;
  req.rack_mode = mode;
  req.time_limit_s = time_limit;
  const auto new_rf = rf_text.empty() ? 0 : static_cast<std::int32_t>(parse_int(rf_text, "--rf", 1, B));
  std::int64_t total = 0;
  for (const auto& p : current) {
    req.current.push_back(p.replicas);
    req.rf.push_back(new_rf ? new_rf : static_cast<std::int32_t>(p.replicas.size()));
    req.names.push_back(partition_name(p));
    total += req.rf.back();
  }
  const auto P = static_cast<std::int64_t>(current.size());
  if (2 * P * B > kMaxVariables)
    throw UsageError("the plan would need " + std::to_string(2 * P * B) + " 0-1 variables (2 x " + std::to_string(P) + " partitions x " +
                     std::to_string(B) + " brokers); partsim's planner takes up to " + std::to_string(kMaxVariables) +
                     ": plan a subset of the topics at a time");
  if (scope_text != "cluster" && scope_text != "topic" && scope_text != "both")
    throw UsageError("--balance-scope: must be cluster, topic or both, got '" + scope_text + "'");
  req.replicas = per_broker_bounds(replicas_text, "--replicas-per-broker", balance, total, B);
  req.leaders = per_broker_bounds(leaders_text, "--leaders-per-broker", balance, P, B);
  if (scope_text == "topic") {  // the cluster as a whole is then free
    req.replicas = {0, static_cast<std::int32_t>(std::min<std::int64_t>(total, std::numeric_limits<std::int32_t>::max()))};
    req.leaders = {0, static_cast<std::int32_t>(P)};
  }
  if (scope_text != "cluster") {
    std::map<std::string, std::int32_t> topic_index;
    for (const auto& p : current) topic_index.emplace(p.topic, static_cast<std::int32_t>(topic_index.size()));
    std::vector<std::int64_t> replicas(topic_index.size()), partitions(topic_index.size());
    for (std::size_t p = 0; p < current.size(); ++p) {
      req.topic.push_back(topic_index[current[p].topic]);
      replicas[static_cast<std::size_t>(req.topic.back())] += req.rf[p];
      ++partitions[static_cast<std::size_t>(req.topic.back())];
    }
    for (std::size_t t = 0; t < topic_index.size(); ++t) {
      req.topic_replicas.push_back(per_broker_bounds("", "--balance", balance, replicas[t], B));
      req.topic_leaders.push_back(per_broker_bounds("", "--balance", balance, partitions[t], B));
    }
  }

  // Partition sizes: one for all, or each from kafka-log-dirs output.
  if (!size_text.empty() && !sizes_file.empty()) throw UsageError("give partition sizes with one of --partition-size or --sizes");
  std::vector<std::int64_t> sizes(current.size(), 0);
  const bool have_sizes = !size_text.empty() || !sizes_file.empty();
  if (!size_text.empty()) std::fill(sizes.begin(), sizes.end(), parse_bytes(size_text, "--partition-size"));
  if (!sizes_file.empty()) {
    const auto table = scenarios::parse_log_dirs_json(scenarios::read_input_file(sizes_file), sizes_file);
    for (std::size_t p = 0; p < current.size(); ++p) {
      auto it = table.find(partition_name(current[p]));
      if (it == table.end()) throw UsageError(sizes_file + ": no size for " + partition_name(current[p]));
      sizes[p] = it->second;
    }
  }
  const std::int64_t throttle = throttle_text.empty() ? 0 : parse_bytes(throttle_text, "--throttle", true);
  if (!throttle_text.empty() && throttle <= 0) throw UsageError("--throttle: must be above 0 bytes per second");
  if (throttle > 0 && !have_sizes) throw UsageError("--throttle: needs partition sizes (--partition-size or --sizes) to estimate a copy time");

  const auto plan = model::plan_reassignment(req);
  if (plan.status == model::PlanStatus::kInfeasible || plan.status == model::PlanStatus::kTimedOut) {
    std::cerr << "partsim reassign: " << (plan.status == model::PlanStatus::kInfeasible ? "infeasible: " : "no plan: ") << plan.reason
              << "\n";
    return kExitRunFailed;
  }
  // Followers ordered for failover: the leaders stay (bounds 0..P keep every first replica,
  // at no cost), then each leader's partitions get second replicas spread evenly.
  auto planned = plan.plan;
  std::int32_t failover_changes = 0;
  if (failover) {
    std::vector<std::int32_t> ids;
    for (const auto& t : targets) ids.push_back(t.id);
    const auto ordered = model::balance_leaders(planned, ids, {0, static_cast<std::int32_t>(P)}, true);
    planned = ordered.reordered;
    failover_changes = ordered.failover_changes;
  }
  const auto score_before = model::score_assignment(req.current, live_brokers(brokers));
  const auto score_after = model::score_assignment(planned, targets);
  const auto generate = kafka_generate(current, req.rf, targets, all_racked, seed);
  const auto gen_moves = model::count_moves(req.current, generate.seeded);
  const auto gen_leaders = model::count_leader_changes(req.current, generate.seeded);
  const auto load = copy_load(req.current, planned, sizes, alive);
  const auto gen_load = copy_load(req.current, generate.seeded, sizes, alive);
  const auto seconds = [&](const CopyLoad& l) { return throttle > 0 ? static_cast<double>(l.busiest()) / static_cast<double>(throttle) : 0.0; };

  // Partitions without a live replica have nothing to copy from: Kafka cannot move them
  // until one of their brokers returns.
  std::vector<std::string> stranded;
  for (std::size_t p = 0; p < current.size(); ++p)
    if (std::none_of(req.current[p].begin(), req.current[p].end(), [&](std::int32_t b) { return alive.count(b) > 0; }))
      stranded.push_back(partition_name(current[p]));
  std::vector<scenarios::PartitionReplicas> changed;
  std::vector<std::size_t> changed_rows;
  for (std::size_t p = 0; p < current.size(); ++p)
    if (planned[p] != current[p].replicas) {
      changed.push_back(current[p]);
      changed.back().replicas = planned[p];
      changed_rows.push_back(p);
    }
  if (!plan_out.empty()) write_file_atomically(plan_out, scenarios::write_reassignment_json(changed));

  // Replicas before/after and leaders before/after, per topic and broker; per broker they
  // add up over the topics (the targets, and every broker that held a replica before).
  using Counts = std::array<std::int32_t, 4>;
  std::map<std::string, std::map<std::int32_t, Counts>> per_topic;
  for (std::size_t p = 0; p < current.size(); ++p) {
    auto& c = per_topic[current[p].topic];
    for (auto b : req.current[p]) ++c[b][0];
    ++c[req.current[p].front()][2];
    for (auto b : planned[p]) ++c[b][1];
    ++c[planned[p].front()][3];
  }
  std::map<std::int32_t, Counts> per_broker;
  for (const auto& t : targets) per_broker[t.id] = {};
  for (const auto& [topic, c] : per_topic)
    for (const auto& [b, n] : c)
      for (std::size_t k = 0; k < 4; ++k) per_broker[b][k] += n[k];
  // Per topic: the fewest and most of each count a target broker has.
  struct TopicSpread {
    std::string topic;
    Counts lo, hi;
  };
  std::vector<TopicSpread> spreads;
  for (const auto& [topic, c] : per_topic) {
    TopicSpread sp{topic, {}, {}};
    sp.lo.fill(std::numeric_limits<std::int32_t>::max());
    for (auto id : target_ids) {
      const auto it = c.find(id);
      const Counts n = it == c.end() ? Counts{} : it->second;
      for (std::size_t k = 0; k < 4; ++k) {
        sp.lo[k] = std::min(sp.lo[k], n[k]);
        sp.hi[k] = std::max(sp.hi[k], n[k]);
      }
    }
    spreads.push_back(sp);
  }
  const char* mode_text = mode == model::RackMode::kStrict ? "strict" : mode == model::RackMode::kEven ? "even" : "none";
  const bool optimal = plan.status == model::PlanStatus::kOptimal;

  if (format == OutputFormat::kJson) {
    nlohmann::ordered_json j;
    j["status"] = optimal ? "optimal" : "feasible";
    j["method"] = plan.method;
    if (!optimal) j["lower_bounds"] = {{"moves", plan.lower_bound_moves}, {"leader_changes", plan.lower_bound_leader_changes}};
    j["rack_mode"] = mode_text;
    j["bounds"] = {{"replicas", {{"lo", req.replicas.lo}, {"hi", req.replicas.hi}}}, {"leaders", {{"lo", req.leaders.lo}, {"hi", req.leaders.hi}}}};
    j["moves"] = plan.moves;
    j["leader_changes"] = plan.leader_changes;
    j["worst_single_failure_max_leaders"] = {{"before", score_before.worst_failure_max_leaders},
                                             {"after", score_after.worst_failure_max_leaders}};
    if (failover) j["failover_changes"] = failover_changes;
    j["no_live_replica"] = stranded;
    if (have_sizes) j["bytes_to_copy"] = load.total;
    if (throttle > 0) j["copy_seconds"] = analysis::round_to(seconds(load), 3);
    auto& parts = j["changed"] = nlohmann::ordered_json::array();
    for (auto p : changed_rows) {
      const auto moves = model::count_moves({req.current[p]}, {planned[p]});
      parts.push_back({{"topic", current[p].topic}, {"partition", current[p].partition}, {"before", req.current[p]}, {"after", planned[p]},
                       {"moves", moves}, {"leader_changed", req.current[p].front() != planned[p].front()}});
    }
    auto& bs = j["brokers"] = nlohmann::ordered_json::array();
    for (const auto& [id, c] : per_broker)
      bs.push_back({{"broker", id}, {"rack", by_id.count(id) ? by_id[id].rack : ""}, {"target", target_ids.count(id) > 0},
                    {"replicas_before", c[0]}, {"replicas_after", c[1]}, {"leaders_before", c[2]}, {"leaders_after", c[3]}});
    auto& ts = j["topics"] = nlohmann::ordered_json::array();
    for (std::size_t t = 0; t < spreads.size(); ++t) {
      const auto& sp = spreads[t];
      nlohmann::ordered_json e{{"topic", sp.topic},
                               {"replicas_per_broker", {{"before", {sp.lo[0], sp.hi[0]}}, {"after", {sp.lo[1], sp.hi[1]}}}},
                               {"leaders_per_broker", {{"before", {sp.lo[2], sp.hi[2]}}, {"after", {sp.lo[3], sp.hi[3]}}}}};
      if (!req.topic_replicas.empty())
        e["bounds"] = {{"replicas", {{"lo", req.topic_replicas[t].lo}, {"hi", req.topic_replicas[t].hi}}},
                       {"leaders", {{"lo", req.topic_leaders[t].lo}, {"hi", req.topic_leaders[t].hi}}}};
      ts.push_back(std::move(e));
    }
    j["generate"] = {{"seed", seed}, {"moves", gen_moves}, {"leader_changes", gen_leaders},
                     {"over_draws", {{"draws", generate.draws}, {"possible_draws", generate.possible}, {"sampled", generate.sampled}, {"min_moves", generate.min_moves},
                                    {"mean_moves", analysis::round_to(generate.mean_moves, 2)}, {"max_moves", generate.max_moves}}}};
    if (have_sizes) j["generate"]["bytes_to_copy"] = gen_load.total;
    if (throttle > 0) j["generate"]["copy_seconds"] = analysis::round_to(seconds(gen_load), 3);
    j["plan"] = nlohmann::ordered_json::parse(scenarios::write_reassignment_json(changed));
    write_stdout(j.dump(2) + "\n");
    return kExitOk;
  }

  std::string rack_list;
  for (const auto& r : racks) rack_list += (rack_list.empty() ? "" : " ") + r;
  std::string out = count_of(P, "partition") + ", " + count_of(total, "replica") + " onto " + count_of(B, "target broker") +
                    (racks.empty() ? "" : " on racks " + rack_list) + "; rack mode " + mode_text + "\n";
  if (scope_text == "topic")
    out += "per broker: each topic balanced on its own (--balance-scope topic, --balance " + balance + ")\n\n";
  else
    out += "per broker: replicas " + std::to_string(req.replicas.lo) + ".." + std::to_string(req.replicas.hi) + ", preferred leaders " +
           std::to_string(req.leaders.lo) + ".." + std::to_string(req.leaders.hi) +
           (replicas_text.empty() || leaders_text.empty() ? " (--balance " + balance + ")" : "") +
           (scope_text == "both" ? "; and each topic on its own" : "") + "\n\n";
  const bool fewest_moves = plan.moves == plan.lower_bound_moves;
  out += std::string("plan") +
         (optimal ? " (optimal)"
                  : " (time limit reached: " +
                        (fewest_moves ? "fewest moves proven, preferred-leader changes at least " + std::to_string(plan.lower_bound_leader_changes)
                                      : "not proven minimal, at least " + std::to_string(plan.lower_bound_moves) + " moves") +
                        ")") +
         ": " + std::to_string(plan.moves) + " replica move" + (plan.moves == 1 ? "" : "s") + ", " +
         std::to_string(plan.leader_changes) + " preferred-leader change" + (plan.leader_changes == 1 ? "" : "s");
  if (have_sizes) out += "; " + analysis::human_bytes(static_cast<double>(load.total)) + " to copy";
  if (throttle > 0)
    out += ", at least " + analysis::human_duration(seconds(load)) + " at " + analysis::human_bytes(static_cast<double>(throttle)) +
           "/s (busiest broker " + analysis::human_bytes(static_cast<double>(load.busiest())) + ")";
  out += "\n\n";
  for (const auto& name : stranded)
    out += "warning: " + name + " has no live replica to copy from; the move waits until one of its brokers returns\n";
  if (!stranded.empty()) out += "\n";
  if (changed_rows.empty()) {
    out += "nothing to change: the current assignment meets the constraints\n\n";
  } else {
    analysis::Table t({{"partition", analysis::Align::kLeft}, {"before", analysis::Align::kLeft}, {"after", analysis::Align::kLeft},
                       {"moves"}, {"leader", analysis::Align::kLeft}});
    for (auto p : changed_rows)
      t.add_row({partition_name(current[p]), list_text(req.current[p]), list_text(planned[p]),
                 std::to_string(model::count_moves({req.current[p]}, {planned[p]})),
                 req.current[p].front() != planned[p].front() ? "changed" : ""});
    out += t.to_text() + "\n";
  }
  analysis::Table b({{"broker"}, {"rack", analysis::Align::kLeft}, {"replicas before"}, {"after"}, {"leaders before"}, {"after"}});
  for (const auto& [id, c] : per_broker)
    b.add_row({std::to_string(id) + (target_ids.count(id) ? "" : " (leaves)"), by_id.count(id) ? by_id[id].rack : "",
               std::to_string(c[0]), std::to_string(c[1]), std::to_string(c[2]), std::to_string(c[3])});
  out += b.to_text() + "\n";
  if (spreads.size() > 1 || scope_text != "cluster") {
    auto range = [](std::int32_t lo, std::int32_t hi) { return std::to_string(lo) + ".." + std::to_string(hi); };
    analysis::Table tt({{"topic", analysis::Align::kLeft}, {"replicas per broker before", analysis::Align::kLeft}, {"after", analysis::Align::kLeft},
                        {"leaders before", analysis::Align::kLeft}, {"after", analysis::Align::kLeft}});
    for (const auto& sp : spreads)
      tt.add_row({sp.topic, range(sp.lo[0], sp.hi[0]), range(sp.lo[1], sp.hi[1]), range(sp.lo[2], sp.hi[2]), range(sp.lo[3], sp.hi[3])});
    out += tt.to_text() + "\n";
  }
  out += "worst single broker failure: a broker then leads " + std::to_string(score_before.worst_failure_max_leaders) +
         " partitions before, " + std::to_string(score_after.worst_failure_max_leaders) + " after" +
         (failover ? " (--failover reordered " + std::to_string(failover_changes) + " second replicas)" : "") + "\n\n";
  out += std::string("kafka-reassign-partitions --generate (AdminUtils ") + (all_racked ? "rack-aware"
                                                                          : racks.empty() ? "rack-unaware"
                                                                                          : "rack-unaware as with --disable-rack-aware; "
                                                                                            "Kafka refuses brokers with and without racks") +
         ", java.util.Random seed " + std::to_string(seed) + "): " + std::to_string(gen_moves) + " replica moves, " +
         std::to_string(gen_leaders) + " preferred-leader changes";
  if (have_sizes) out += ", " + analysis::human_bytes(static_cast<double>(gen_load.total));
  if (throttle > 0) out += ", at least " + analysis::human_duration(seconds(gen_load));
  out += "\n  over " + (generate.sampled ? std::to_string(generate.draws) + " sampled of the " + std::to_string(generate.possible)
                                         : "all " + std::to_string(generate.draws)) +
         " draws of its start index and replica shift: moves min " +
         std::to_string(generate.min_moves) + ", mean " + analysis::fixed(generate.mean_moves, 1) + ", max " +
         std::to_string(generate.max_moves) + "\n";
  if (!plan_out.empty()) out += "plan written to " + plan_out + " (" + count_of(static_cast<std::int64_t>(changed.size()), "partition") +
                                 "; kafka-reassign-partitions --execute)\n";
  write_stdout(out);
  return kExitOk;
}

}  // namespace partsim::cli
