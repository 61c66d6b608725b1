// partsim assign: what Kafka's placers do with a set of brokers, and how good it is. The
// command reads the options, places the topic (model/placement/topic_placement.hpp), scores
// it, and hands the result to its reporter (analysis/assign_report.hpp).

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "analysis/assign_report.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/placement/assignment_score.hpp"
#include "model/placement/topic_placement.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kAssignUsage =
    "usage: partsim assign --brokers ID[:RACK[:fenced]],... --partitions N --rf R [--placer admin|striped|simple]\n"
    "                      [--start-index K | --seed S] [--format table|json|csv]\n"
    "Places replicas as Kafka would and scores the result: replicas and preferred leaders per broker,\n"
    "racks per partition, leaders after any single broker failure, and what the partitions cost on disk.\n";

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

}  // namespace

int run_assign_command(const Args& args) {
  std::string brokers_text, partitions_text, rf_text, placer_text = "admin", start_text, seed_text = "0",
                                                      format_text = "table";
  po::options_description desc("assign options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("brokers", po::value<std::string>(&brokers_text)->required(), "brokers: ID[:RACK[:fenced]],... e.g. 0:a,1:a,2:b,3:b")
      ("partitions", po::value<std::string>(&partitions_text)->required(), "number of partitions")
      ("rf", po::value<std::string>(&rf_text)->required(), "replication factor")
      ("placer", po::value<std::string>(&placer_text)->default_value("admin"),
       "admin (AdminUtils: rack-aware when brokers have racks), striped (KRaft controller), simple (round-robin)")
      ("start-index", po::value<std::string>(&start_text), "admin: fixed start index (Kafka's fixedStartIndex); else drawn")
      ("seed", po::value<std::string>(&seed_text), "java.util.Random seed for the draws (admin without --start-index, striped)")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table, json or csv (csv: the assignment)");
  // clang-format on
  if (help_requested(args, kAssignUsage, desc)) return kExitOk;
  parse_command_line(args, desc);
  const auto format = parse_format(format_text);
  model::TopicPlacementRequest request;
  request.brokers = parse_brokers(brokers_text);
  request.partitions = static_cast<std::int32_t>(parse_int(partitions_text, "--partitions", 1, 1'000'000));
  request.replication_factor = static_cast<std::int32_t>(parse_int(rf_text, "--rf", 1, 1000));
  request.seed = parse_int(seed_text, "--seed", std::numeric_limits<std::int64_t>::min(),
                           std::numeric_limits<std::int64_t>::max());
  if (request.replication_factor > static_cast<std::int32_t>(request.brokers.size()))
    throw UsageError("--rf: must be <= the number of brokers (" + std::to_string(request.brokers.size()) + "), got " +
                     std::to_string(request.replication_factor));
  request.placer = parse_placer(placer_text);
  check_placer_inputs(request, start_text);

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
