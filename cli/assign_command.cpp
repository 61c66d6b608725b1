// partsim assign: what Kafka's placers do with a set of brokers, and how good it is. The
// command reads the options, places the topic (model/placement/topic_placement.hpp), scores
// it, and hands the result to its reporter (analysis/assign_report.hpp).

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/assign_report.hpp"
#include "cli/assignment_inputs.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/placement/assignment_score.hpp"
#include "model/placement/reassign_planner.hpp"
#include "model/placement/topic_placement.hpp"
#include "scenarios/loader/assignment_reader.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kAssignUsage =
    "usage: partsim assign --brokers ID[:RACK[:fenced]],... --partitions N --rf R [--placer admin|striped|simple]\n"
    "                      [--start-index K | --seed S] [--format table|json|csv]\n"
    "       partsim assign --brokers ... (--partitions N --rf R [--created-on IDS] | --current FILE)\n"
    "                      --add-partitions M [--placer admin|striped] [--plan-out FILE]\n"
    "Places replicas as Kafka would and scores the result: replicas and preferred leaders per broker,\n"
    "racks per partition, leaders after any single broker failure, and what the partitions cost on disk.\n"
    "With --add-partitions: where Kafka's controller puts M partitions added to the topic (admin: the\n"
    "ZooKeeper-era rule, striped: KRaft), the unevenness they leave, and the least-move plan that evens it.\n";

std::vector<model::UsableBroker> parse_brokers(const std::string& text) {
  if (text.empty()) throw UsageError("--brokers: must list at least one broker as ID[:RACK[:fenced]],..., got ''");
  std::vector<model::UsableBroker> out;
  std::set<std::int32_t> ids;
  std::size_t pos = 0;
  for (;;) {
    const auto comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const auto c1 = item.find(':');
    model::UsableBroker b{static_cast<std::int32_t>(parse_int(item.substr(0, c1), "--brokers", 0,
                                                              std::numeric_limits<std::int32_t>::max())),
                          std::nullopt, false};
    if (c1 != std::string::npos) {
      const auto c2 = item.find(':', c1 + 1);
      b.rack = item.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
      if (b.rack->empty())
        throw UsageError("--brokers: each broker is ID[:RACK[:fenced]] with a non-empty RACK, got '" + item + "'");
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

model::Placer parse_placer(const std::string& text) {
  if (text == "admin") return model::Placer::kAdmin;
  if (text == "striped") return model::Placer::kStriped;
  if (text == "simple") return model::Placer::kSimple;
  throw UsageError("--placer: must be admin, striped or simple, got '" + text + "'");
}

// What only some placers accept: a fixed start index and racks on some brokers (admin),
// fenced brokers (striped, the only placer that knows fencing; it needs one unfenced).
void check_placer_inputs(model::TopicPlacementRequest& r, const std::string& start_text) {
  const auto n = static_cast<std::int32_t>(r.brokers.size());
  const auto racked =
      std::count_if(r.brokers.begin(), r.brokers.end(), [](const auto& b) { return b.rack.has_value(); });
  const auto fenced = std::count_if(r.brokers.begin(), r.brokers.end(), [](const auto& b) { return b.fenced; });
  if (r.placer == model::Placer::kAdmin) {
    if (!start_text.empty())
      r.start_index = static_cast<std::int32_t>(parse_int(start_text, "--start-index", 0, n - 1));
    if (racked > 0 && racked < n)
      throw UsageError("--brokers: with racks, every broker needs one (Kafka's AdminOperationException)");
  } else if (!start_text.empty()) {
    throw UsageError("--start-index: only --placer admin has a start index, got --placer " +
                     std::string(analysis::placer_name(r.placer)));
  }
  if (r.placer != model::Placer::kStriped && fenced > 0)
    throw UsageError("--brokers: ':fenced' needs --placer striped (the KRaft controller's placer); --placer " +
                     std::string(analysis::placer_name(r.placer)) +
                     " places on every broker listed, so leave fenced brokers out");
  if (r.placer == model::Placer::kStriped && fenced == n)
    throw UsageError(
        "--brokers: every broker is fenced, and the striped placer needs an unfenced one to lead (Kafka: All brokers are currently fenced.)");
}

// The brokers listed in --created-on, with their racks from --brokers: where the topic was
// made before brokers were added.
std::vector<model::UsableBroker> created_on(const std::string& text, const std::vector<model::UsableBroker>& all) {
  std::vector<model::UsableBroker> out;
  for (const auto id : parse_id_ranges(text, "--created-on")) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const auto& b) { return b.id == id; });
    if (it == all.end())
      throw UsageError("--created-on: broker " + std::to_string(id) + " is not in --brokers (list every broker there)");
    out.push_back(*it);
  }
  return out;
}

struct AssignArgs {
  std::string brokers, partitions, rf, placer = "admin", start, seed = "0", format = "table";
  std::string add, created_on, current, topic = "topic", plan_out;
};

// --add-partitions: the topic as it is (from --current, or placed by the placer on the
// brokers of --created-on), the partitions Kafka adds, and the plan that evens the result.
int run_add_partitions(const AssignArgs& a, model::TopicPlacementRequest request, OutputFormat format) {
  if (request.placer == model::Placer::kSimple)
    throw UsageError(
        "--add-partitions: takes --placer admin (the ZooKeeper-era controller's rule) or striped (KRaft's); "
        "no controller adds partitions by plain round-robin");
  analysis::AddPartitionsReport report;
  report.placer = request.placer;
  report.seed = request.seed;
  report.topic = a.topic;
  const auto added = static_cast<std::int32_t>(parse_int(a.add, "--add-partitions", 1, 1'000'000));
  if (!a.current.empty()) {
    for (const auto& [given, name] : {std::pair{a.partitions, "--partitions"},
                                      {a.rf, "--rf"},
                                      {a.created_on, "--created-on"},
                                      {a.start, "--start-index"}})
      if (!given.empty())
        throw UsageError(std::string(name) + ": the topic's partitions come from --current; leave " + name + " out");
    const auto rows = load_current_assignment(a.current, "");
    report.topic = rows.front().topic;
    report.existing.resize(rows.size());
    for (const auto& row : rows) {
      if (row.topic != report.topic)
        throw UsageError("--current: lists topics " + report.topic + " and " + row.topic +
                         "; --add-partitions takes one topic");
      if (row.partition < 0 || static_cast<std::size_t>(row.partition) >= rows.size() ||
          !report.existing[static_cast<std::size_t>(row.partition)].empty())
        throw UsageError("--current: " + report.topic + " must list each of its partitions 0.." +
                         std::to_string(rows.size() - 1) + " once, and lists partition " +
                         std::to_string(row.partition));
      report.existing[static_cast<std::size_t>(row.partition)] = row.replicas;
    }
    report.existing_from = report.topic + " from " + a.current + ", " + std::to_string(rows.size()) + " partitions";
  } else {
    if (a.partitions.empty() || a.rf.empty())
      throw UsageError(std::string("the option '") + (a.partitions.empty() ? "--partitions" : "--rf") +
                       "' is required but missing (or give the topic's assignment with --current)");
    auto creation = request;
    if (!a.created_on.empty()) creation.brokers = created_on(a.created_on, request.brokers);
    creation.partitions = static_cast<std::int32_t>(parse_int(a.partitions, "--partitions", 1, 1'000'000));
    creation.replication_factor = static_cast<std::int32_t>(parse_int(a.rf, "--rf", 1, 1000));
    if (creation.replication_factor > static_cast<std::int32_t>(creation.brokers.size()))
      throw UsageError("--rf: must be <= the number of brokers the topic was created on (" +
                       std::to_string(creation.brokers.size()) + "), got " +
                       std::to_string(creation.replication_factor));
    check_placer_inputs(creation, a.start);
    const auto made = model::place_topic(creation);
    report.existing = made.assignment;
    analysis::AssignReport how{creation.placer, creation.seed, made, {}, {}};
    std::string on;
    for (const auto& b : creation.brokers) on += (on.empty() ? "" : ",") + std::to_string(b.id);
    report.existing_from = std::to_string(creation.partitions) + " partitions, RF " +
                           std::to_string(creation.replication_factor) + ", created on brokers " + on + " (" +
                           analysis::placement_method(how) + ")";
  }
  // Every broker the topic is on is in the cluster (a replica elsewhere would vanish from the
  // counts), and the admin rule places on every broker listed (fenced ones: KRaft only).
  for (std::size_t p = 0; p < report.existing.size(); ++p)
    for (const auto id : report.existing[p])
      if (std::none_of(request.brokers.begin(), request.brokers.end(), [&](const auto& b) { return b.id == id; }))
        throw UsageError("--brokers: partition " + std::to_string(p) + " has a replica on broker " +
                         std::to_string(id) + ", which --brokers does not list (list every broker of the cluster)");
  if (request.placer == model::Placer::kAdmin &&
      std::any_of(request.brokers.begin(), request.brokers.end(), [](const auto& b) { return b.fenced; }))
    throw UsageError(
        "--brokers: ':fenced' needs --placer striped (the KRaft controller's placer); --placer admin places on "
        "every broker listed, so leave fenced brokers out");
  if (report.existing[0].size() > request.brokers.size())
    throw UsageError("--brokers: the topic has " + std::to_string(report.existing[0].size()) +
                     " replicas per partition and only " + std::to_string(request.brokers.size()) +
                     " brokers are listed");
  request.partitions = added;
  try {
    report.added = model::place_added_partitions(report.existing, request);
  } catch (const model::PlacementError& e) {
    throw UsageError(std::string("--add-partitions: Kafka refuses: ") + e.what());
  }

  // The score lists every broker, sorted by id (the new ones hold nothing before).
  std::vector<model::RackedBroker> brokers;
  for (const auto& b : request.brokers) brokers.push_back({b.id, b.rack.value_or("")});
  std::sort(brokers.begin(), brokers.end(), [](const auto& x, const auto& y) { return x.id < y.id; });
  model::Assignment after = report.existing;
  after.insert(after.end(), report.added.assignment.begin(), report.added.assignment.end());
  report.before = model::score_assignment(report.existing, brokers);
  report.after = model::score_assignment(after, brokers);

  // The fewest moves to replicas and preferred leaders within floor..ceil of the average on
  // every unfenced broker, each partition's replicas over the racks as evenly as they go.
  model::ReassignRequest plan;
  plan.current = after;
  for (const auto& p : after) plan.rf.push_back(static_cast<std::int32_t>(p.size()));
  for (const auto& b : request.brokers)
    if (!b.fenced) plan.targets.push_back({b.id, b.rack.value_or("")});
  const bool racked =
      std::all_of(plan.targets.begin(), plan.targets.end(), [](const auto& b) { return !b.rack.empty(); });
  plan.rack_mode = racked ? model::RackMode::kEven : model::RackMode::kNone;
  report.rack_mode = racked ? "even" : "none";
  std::int64_t replicas = 0;
  for (const auto rf : plan.rf) replicas += rf;
  const auto targets = static_cast<std::int32_t>(plan.targets.size());
  plan.replicas = model::leader_bounds_exact(static_cast<std::int32_t>(replicas), targets);
  plan.leaders = model::leader_bounds_exact(static_cast<std::int32_t>(after.size()), targets);
  plan.time_limit_s = 30;
  for (std::size_t p = 0; p < after.size(); ++p) plan.names.push_back(report.topic + "-" + std::to_string(p));
  report.plan = model::plan_reassignment(plan);
  const bool planned = report.plan.status == model::PlanStatus::kOptimal ||
                       report.plan.status == model::PlanStatus::kFeasible;
  if (planned) report.evened = model::score_assignment(report.plan.plan, brokers);
  if (!a.plan_out.empty()) {
    if (!planned)
      throw std::runtime_error("no plan evens it, so --plan-out " + a.plan_out +
                               " is not written: " + report.plan.reason);
    std::vector<scenarios::PartitionReplicas> changed;
    for (std::size_t p = 0; p < after.size(); ++p)
      if (report.plan.plan[p] != after[p])
        changed.push_back({report.topic, static_cast<std::int32_t>(p), report.plan.plan[p]});
    write_file_atomically(a.plan_out, scenarios::write_reassignment_json(changed));
  }
  switch (format) {
    case OutputFormat::kJson: write_stdout(analysis::add_partitions_to_json(report).dump(2) + "\n"); break;
    case OutputFormat::kCsv: write_stdout(analysis::add_partitions_to_csv(report)); break;
    case OutputFormat::kTable: write_stdout(analysis::add_partitions_to_text(report)); break;
  }
  return kExitOk;
}

}  // namespace

int run_assign_command(const Args& args) {
  AssignArgs a;
  po::options_description desc("assign options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("brokers", po::value<std::string>(&a.brokers)->required(), "brokers: ID[:RACK[:fenced]],... e.g. 0:a,1:a,2:b,3:b")
      ("partitions", po::value<std::string>(&a.partitions), "number of partitions")
      ("rf", po::value<std::string>(&a.rf), "replication factor")
      ("placer", po::value<std::string>(&a.placer)->default_value("admin"),
       "admin (AdminUtils: rack-aware when brokers have racks), striped (KRaft controller), simple (round-robin)")
      ("start-index", po::value<std::string>(&a.start), "admin: fixed start index (Kafka's fixedStartIndex); else drawn")
      ("seed", po::value<std::string>(&a.seed), "java.util.Random seed for the draws (admin without --start-index, striped)")
      ("format", po::value<std::string>(&a.format)->default_value("table"), "table, json or csv (csv: the assignment)")
      ("add-partitions", po::value<std::string>(&a.add),
       "M: add M partitions to the topic as Kafka's controller does (admin: ZooKeeper-era, striped: KRaft), then plan the "
       "fewest moves that even it")
      ("created-on", po::value<std::string>(&a.created_on),
       "with --add-partitions: the broker ids the topic was created on (default: every broker; the others came later)")
      ("current", po::value<std::string>(&a.current),
       "with --add-partitions: the topic's assignment, Kafka's reassignment JSON (instead of --partitions, --rf)")
      ("topic", po::value<std::string>(&a.topic)->default_value("topic"), "with --add-partitions: the topic's name in the plan")
      ("plan-out", po::value<std::string>(&a.plan_out),
       "with --add-partitions: write the plan (changed partitions) as Kafka's reassignment JSON to FILE");
  // clang-format on
  if (help_requested(args, kAssignUsage, desc)) return kExitOk;
  parse_command_line(args, desc);
  const auto format = parse_format(a.format);
  model::TopicPlacementRequest request;
  request.brokers = parse_brokers(a.brokers);
  request.seed =
      parse_int(a.seed, "--seed", std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
  request.placer = parse_placer(a.placer);
  if (!a.add.empty()) return run_add_partitions(a, request, format);
  for (const auto& [given, name] :
       {std::pair{a.created_on, "--created-on"}, {a.current, "--current"}, {a.plan_out, "--plan-out"}})
    if (!given.empty()) throw UsageError(std::string(name) + ": only with --add-partitions");
  if (a.partitions.empty()) throw UsageError("the option '--partitions' is required but missing");
  if (a.rf.empty()) throw UsageError("the option '--rf' is required but missing");
  request.partitions = static_cast<std::int32_t>(parse_int(a.partitions, "--partitions", 1, 1'000'000));
  request.replication_factor = static_cast<std::int32_t>(parse_int(a.rf, "--rf", 1, 1000));
  if (request.replication_factor > static_cast<std::int32_t>(request.brokers.size()))
    throw UsageError("--rf: must be <= the number of brokers (" + std::to_string(request.brokers.size()) + "), got " +
                     std::to_string(request.replication_factor));
  check_placer_inputs(request, a.start);

  analysis::AssignReport report{request.placer, request.seed, model::place_topic(request), {}, {}};
  // The score lists the brokers as the placer saw them: admin sorted by id, the others as given.
  std::vector<model::RackedBroker> brokers;
  for (const auto& b : request.brokers) brokers.push_back({b.id, b.rack.value_or("")});
  if (request.placer == model::Placer::kAdmin)
    std::sort(brokers.begin(), brokers.end(), [](const auto& x, const auto& y) { return x.id < y.id; });
  report.score = model::score_assignment(report.placement.assignment, brokers);
  report.cost = model::partition_cost(request.partitions, request.replication_factor);
  switch (format) {
    case OutputFormat::kJson: write_stdout(analysis::assign_to_json(report).dump(2) + "\n"); break;
    case OutputFormat::kCsv: write_stdout(analysis::assign_to_csv(report)); break;
    case OutputFormat::kTable: write_stdout(analysis::assign_to_text(report)); break;
  }
  return kExitOk;
}

}  // namespace partsim::cli
