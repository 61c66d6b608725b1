// partsim consumers: the question operators ask before scaling a consumer group — which
// partitions each member gets from a given assignor, how even that is, who sits idle, and
// what moves from the current assignment. The command reads the options and the members
// file, builds the group (model/consumer/group_spec.hpp), runs the assignor and any follow-up
// rebalances (model/consumer/assignment_plan.hpp) and hands the plan to its reporter
// (analysis/consumers_report.hpp).

#include <set>
#include <string>
#include <vector>

#include "analysis/consumers_report.hpp"
#include "cli/assignment_inputs.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/consumer/assignment_plan.hpp"
#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/key_reader.hpp"
#include "scenarios/loader/members_reader.hpp"

namespace po = boost::program_options;
namespace mc = partsim::model::consumer;

namespace partsim::cli {
namespace {

constexpr const char* kConsumersUsage =
    "usage: partsim consumers --topics TOPIC:PARTITIONS,... (--members N | --members-file FILE | both) --assignor NAME\n"
    "                         [--member-racks RACK,...] [--brokers FILE|ID[:RACK],... [--rf N]] [--format table|json]\n"
    "Assigns the topics' partitions to a consumer group as Kafka's assignor NAME does (range, roundrobin, sticky,\n"
    "cooperative-sticky, or the KIP-848 server assignors consumer-uniform and consumer-range) and shows each member's\n"
    "partitions, the spread, the idle members and what moves from the assignment the members file gives.\n";

constexpr std::int32_t kMaxGroupPartitions = 100000;  // in all topics together
constexpr std::int64_t kMaxMembers = 10000;

// The topics as the metadata gives them: partition p's replicas on brokers p, p+1, ... of
// --brokers (their racks feed KIP-881 rack matching).
std::vector<mc::TopicMetadata> topic_metadata(const std::vector<std::pair<std::string, std::int32_t>>& counts,
                                              const std::string& brokers_text, const std::string& rf_text) {
  std::vector<std::string> racks;
  if (!brokers_text.empty())
    for (const auto& b : load_brokers(brokers_text)) racks.push_back(b.rack);
  if (!rf_text.empty() && racks.empty()) throw UsageError("--rf: needs --brokers (the brokers that hold the replicas)");
  const auto rf = rf_text.empty() ? std::min<std::int64_t>(3, static_cast<std::int64_t>(racks.size()))
                                  : parse_int(rf_text, "--rf", 1, static_cast<std::int64_t>(racks.size()));
  std::vector<mc::TopicMetadata> topics;
  for (const auto& [name, n] : counts)
    topics.push_back({name, n, mc::striped_replica_racks(n, racks, static_cast<std::int32_t>(rf)), std::nullopt});
  return topics;
}

// The members file's members, then new ones (c0, c1, ... for the lowest free indices,
// zero-padded to the width of N, subscribing every topic) up to --members N; a smaller N
// keeps the file's first N and the others leave the group (into `departed`).
std::vector<mc::GroupMember> group_members(const scenarios::MembersFile& file, const std::string& count_text,
                                           const std::string& racks_text, const std::vector<mc::TopicMetadata>& topics,
                                           std::vector<mc::GroupMember>& departed) {
  auto members = file.members;
  if (count_text.empty()) return members;
  const auto n = parse_int(count_text, "--members", 1, kMaxMembers);
  if (static_cast<std::int64_t>(members.size()) > n) {
    departed.assign(members.begin() + n, members.end());
    members.resize(static_cast<std::size_t>(n));
  }
  std::set<std::string> taken;
  for (const auto& m : members) taken.insert(m.id);
  std::vector<std::string> racks;
  for (std::size_t pos = 0; !racks_text.empty() && pos <= racks_text.size();) {
    const auto comma = std::min(racks_text.find(',', pos), racks_text.size());
    racks.push_back(racks_text.substr(pos, comma - pos));
    pos = comma + 1;
  }
  for (std::int32_t i = 0, added = 0; static_cast<std::int64_t>(members.size()) < n; ++i) {
    const auto id = mc::member_id("c", i, static_cast<std::int32_t>(n));
    if (!taken.insert(id).second) continue;
    mc::GroupMember m{id, std::nullopt,
                      {}, racks.empty() ? "" : racks[static_cast<std::size_t>(added++) % racks.size()],
                      {}, std::nullopt};
    for (const auto& t : topics) m.topics.push_back(t.name);
    members.push_back(std::move(m));
  }
  return members;
}

// What an assignor cannot take: a classic consumer without a subscription does not join a
// group; a KIP-848 target assignment never gives a partition to two members.
void check_members_for(mc::AssignorKind kind, const std::vector<mc::GroupMember>& members, const std::string& file) {
  const bool server = kind == mc::AssignorKind::kConsumerUniform || kind == mc::AssignorKind::kConsumerRange;
  std::map<std::string, std::string> owner;
  for (const auto& m : members) {
    if (!server && m.topics.empty())
      throw scenarios::InputError(
          {file}, "member " + m.id +
                      " subscribes to no topic: a classic consumer without a subscription does not join "
                      "the group (consumer-uniform and consumer-range take it)");
    for (const auto& p : m.owned)
      if (const auto [it, fresh] = owner.emplace(p.name(), m.id); !fresh && server)
        throw scenarios::InputError({file}, p.name() + " is owned by " + it->second + " and " + m.id +
                                                ": a KIP-848 target assignment gives each partition to one member");
  }
}

}  // namespace

int run_consumers_command(const Args& args) {
  std::string topics_text, count_text, file, assignor, racks_text, brokers_text, rf_text, format_text = "table";
  po::options_description desc("consumers options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("topics", po::value<std::string>(&topics_text)->required(), "the topics and their partition counts: orders:12,payments:6")
      ("members", po::value<std::string>(&count_text), "the group's size; new members c0, c1, ... subscribe every topic")
      ("members-file", po::value<std::string>(&file), "the members as JSON: subscriptions, racks, owned partitions, generations")
      ("assignor", po::value<std::string>(&assignor)->required(), "range, roundrobin, sticky, cooperative-sticky, consumer-uniform or consumer-range")
      ("member-racks", po::value<std::string>(&racks_text), "client.rack of the new members, in turn: a,b,c")
      ("brokers", po::value<std::string>(&brokers_text), "brokers JSON file or ID[:RACK],...: replicas of partition p on brokers p, p+1, ...")
      ("rf", po::value<std::string>(&rf_text), "replicas per partition (default: 3, or fewer brokers)")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table or json");
  // clang-format on
  if (help_requested(args, kConsumersUsage, desc)) return kExitOk;
  parse_command_line(args, desc);
  const auto format = parse_format(format_text, false);
  const auto kind = mc::parse_assignor(assignor);
  if (!kind)
    throw UsageError(
        "--assignor: must be range, roundrobin, sticky, cooperative-sticky, consumer-uniform or consumer-range, got '" +
        assignor + "'");
  if (count_text.empty() && file.empty()) throw UsageError("give --members N, --members-file FILE, or both");
  const auto counts = scenarios::parse_topic_counts(topics_text, "--topics", kMaxGroupPartitions);
  std::map<std::string, std::int32_t> partitions_of;
  std::int64_t total = 0;
  for (const auto& [name, n] : counts) total += partitions_of[name] = n;
  if (total > kMaxGroupPartitions)
    throw UsageError("--topics: " + std::to_string(total) + " partitions in all; partsim consumers takes at most " +
                     std::to_string(kMaxGroupPartitions));

  mc::GroupSpec spec;
  spec.topics = topic_metadata(counts, brokers_text, rf_text);
  const auto members_file = file.empty()
                                ? scenarios::MembersFile{}
                                : scenarios::parse_members_json(scenarios::read_input_file(file), file, partitions_of);
  for (auto& t : spec.topics)
    if (const auto id = members_file.topic_ids.find(t.name); id != members_file.topic_ids.end()) t.id = id->second;
  std::vector<mc::GroupMember> departed;
  spec.members = group_members(members_file, count_text, racks_text, spec.topics, departed);
  check_members_for(*kind, spec.members, file.empty() ? "--members" : file);

  analysis::ConsumersReport report{
      mc::plan_assignment(*kind, spec, departed), {},   {}, static_cast<std::int32_t>(counts.size()),
      static_cast<std::int32_t>(total),           false};
  for (const auto& m : spec.members) {
    report.members.push_back(m.id);
    report.racks.push_back(m.rack);
  }
  for (const auto& m : members_file.members)
    report.previous_assignment = report.previous_assignment || !m.owned.empty();
  write_stdout(format == OutputFormat::kJson ? analysis::consumers_to_json(report).dump(2) + "\n"
                                             : analysis::consumers_to_text(report));
  return kExitOk;
}

}  // namespace partsim::cli
