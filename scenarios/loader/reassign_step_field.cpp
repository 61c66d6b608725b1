// topics[].schedule[].reassign: a reassignment as kafka-reassign-partitions --execute
// --throttle starts it (docs/reassignment.md). The plan is Kafka's reassignment JSON, inline
// (as YAML or JSON) or in a file beside the scenario (what `partsim reassign --plan-out`
// writes); the throttle is the rate in bytes/s the tool sets on the move's brokers.

#include <filesystem>
#include <set>
#include <string>

#include "scenarios/loader/assignment_reader.hpp"
#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/key_reader.hpp"
#include "scenarios/loader/scenario_fields_parts.hpp"

namespace partsim::scenarios {

using model::ReassignStep;
using model::ReassignTarget;
using model::TopicChange;

namespace {

// One entry of an inline plan: {topic, partition, replicas[, log_dirs]}.
void read_entry(MapReader& e, ReassignStep& step) {
  std::string name;
  e.read("topic", name, 249);
  std::int64_t partition = -1;
  e.read("partition", partition, 0, kInt32Max);
  if (!e.has("partition")) e.error("partition", "is required (the partition's index)");
  std::vector<std::vector<std::int32_t>> lists;
  if (e.has("replicas")) {
    // Read as a one-row list of lists, so the row's errors name the replicas' places.
    const YAML::Node n = e.node()["replicas"];
    YAML::Node wrapped(YAML::NodeType::Map);
    YAML::Node rows(YAML::NodeType::Sequence);
    rows.push_back(n);
    wrapped["replicas"] = rows;
    MapReader w(*e.context(), wrapped, e.path());
    w.read_int_lists("replicas", lists, 0, static_cast<std::int32_t>(kInt32Max));
  } else {
    e.error("replicas", "is required (the partition's new replicas' broker ids, preferred leader first)");
  }
  std::vector<std::string> dirs;
  e.read_strings("log_dirs", dirs);  // Kafka's per-replica log directories: not modelled
  if (partition < 0 || lists.size() != 1) return;
  step.plan.push_back({name, static_cast<std::int32_t>(partition), lists.front()});
}

// A plan file, every topic's entries (check_topic keeps the step's topic's).
void read_file(MapReader& m, const std::string& file, ReassignStep& step) {
  std::filesystem::path path(file);
  if (path.is_relative()) path = std::filesystem::path(m.context()->file).parent_path() / path;
  step.plan_file = path.string();
  try {
    for (const auto& e : parse_reassignment_json(read_input_file(path.string()), path.string()))
      step.plan.push_back({e.topic, e.partition, e.replicas});
  } catch (const InputError& e) {
    // Named as written (the path beside the scenario starts the message).
    std::string message = e.messages().front();
    if (message.starts_with(path.string())) message = file + message.substr(path.string().size());
    m.error("plan", "cannot read the plan (relative to the scenario's directory): " + message);
  }
}

// plan: a file name, or the JSON's mapping inline.
void read_plan(MapReader& m, ReassignStep& step) {
  if (!m.has("plan")) return;
  const YAML::Node plan = m.node()["plan"];
  if (plan.IsScalar()) {
    std::string file;
    m.read("plan", file, 4096);
    read_file(m, file, step);
    return;
  }
  MapReader p = m.map("plan");
  if (!plan.IsMap()) return;  // map() said what it wanted
  std::int64_t version = 1;
  p.read("version", version, 1, 1);
  const std::vector<YAML::Node> entries = p.sequence("partitions");
  if (entries.empty()) p.error("partitions", "must list at least one partition: {partition, replicas}");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    MapReader e(*m.context(), entries[i], join_path(p.path(), "partitions." + std::to_string(i)));
    read_entry(e, step);
    e.finish();
  }
  p.finish();
}

YAML::Node write_plan(const ReassignStep& step) {
  if (step.plan.empty()) return YAML::Node(YAML::NodeType::Undefined);
  YAML::Node plan(YAML::NodeType::Map);
  YAML::Node parts(YAML::NodeType::Sequence);
  for (const ReassignTarget& t : step.plan) {
    YAML::Node e(YAML::NodeType::Map);
    e["partition"] = t.partition;
    YAML::Node reps(YAML::NodeType::Sequence);
    for (const std::int32_t id : t.replicas) reps.push_back(id);
    reps.SetStyle(YAML::EmitterStyle::Flow);
    e["replicas"] = reps;
    e.SetStyle(YAML::EmitterStyle::Flow);
    parts.push_back(e);
  }
  plan["partitions"] = parts;
  return plan;
}

const Table<ReassignStep>& reassign_table() {
  using Row = Fields<ReassignStep>;
  FieldInfo plan = field_info(
      FieldInfo::Shape::kValue, "plan", "file or mapping", "", "",
      "Kafka's reassignment JSON: a file (relative to the scenario; what partsim reassign --plan-out writes; the "
      "entries of this topic are taken) or inline, {partitions: [{partition: 0, replicas: [3, 1, 2]}]}, each "
      "partition's new replicas' broker ids, preferred leader first; absent: the step changes the throttle of the "
      "moves under way");
  plan.example = "{partitions: [{partition: 0, replicas: [1, 0]}]}";
  static const Table<ReassignStep> table(
      "reassignment",
      {
          Row::custom(std::move(plan), read_plan, write_plan),
          Row::number("throttle", &ReassignStep::throttle, 0, 1e15, "bytes/s",
                      "the rate kafka-reassign-partitions --throttle sets as leader.replication.throttled.rate and "
                      "follower.replication.throttled.rate on the move's brokers (0: none); the replicas it lists as "
                      "throttled are the partitions' current (leader side) and new (follower side) ones"),
      });
  return table;
}

}  // namespace

Field<TopicChange> reassign_field() {
  const Table<ReassignStep>& table = reassign_table();
  FieldInfo info = field_info(
      FieldInfo::Shape::kMapping, "reassign", "mapping", "", "",
      "action (cluster.replication: followers): a reassignment of this topic's partitions as kafka-reassign-partitions "
      "--execute --throttle starts it (docs/reassignment.md)");
  info.sub = &table.schema();
  return Fields<TopicChange>::custom(
      std::move(info),
      [&table](MapReader& m, TopicChange& c) {
        if (!m.has("reassign")) return;
        MapReader r = m.map("reassign");
        table.read(r, c.reassign.emplace());
      },
      [&table](const TopicChange& c) {
        return c.reassign ? table.write(*c.reassign) : YAML::Node(YAML::NodeType::Undefined);
      });
}

}  // namespace partsim::scenarios
