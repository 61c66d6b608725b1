#include "scenarios/loader/consumer_fields.hpp"

#include <algorithm>
#include <limits>

#include "model/consumer/group_spec.hpp"

namespace partsim::scenarios {
namespace {

using namespace partsim::model;

constexpr double kMaxMs = 1e12;
constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr auto kMs = TimeUnit::kMillis;
const std::vector<std::string> kStrategies = {"range", "roundrobin", "sticky", "cooperative-sticky"};

void check_change(MapReader& m, MemberChange&) {
  const int actions = (m.has("join") ? 1 : 0) + (m.has("leave") ? 1 : 0) + (m.has("crash") ? 1 : 0);
  if (actions != 1) m.error("at.ms", "a consumer schedule step needs exactly one of join, leave, crash");
}

const Table<MemberChange>& change_table() {
  using F = Fields<MemberChange>;
  using K = MemberChange::Kind;
  const auto kind = &MemberChange::kind;
  static const Table<MemberChange> table("consumer schedule step", {
      F::duration("at.ms", &MemberChange::at, kMs, 0, kMaxMs, "when it happens (simulated time)")
          .required("(when the change happens, in ms of simulated time)")
          .example("5000"),
      F::selects(F::integer("join", &MemberChange::count, 1, 10000, "members", "action: this many new members join (ids continue the numbering)"),
                 kind, K::kJoin)
          .example("1"),
      F::selects(F::text("leave", &MemberChange::member, 255, "action: this member closes (commits, then LeaveGroup: an immediate rebalance)"),
                 kind, K::kLeave)
          .example("c1"),
      F::selects(F::text("crash", &MemberChange::member, 255,
                         "action: this member stops without a word (noticed session.timeout.ms after its last heartbeat)"),
                 kind, K::kCrash)
          .example("c2"),
  }, check_change);
  return table;
}

// KAFKA-17338 (4.0): the consumer protocol refuses these when set; group.remote.assignor is
// refused with classic (CC:714-718). The messages are Kafka's ConfigException texts.
void check_consumer_config(MapReader& m, ConsumerConfig& c) {
  if (c.protocol == ConsumerConfig::Protocol::kConsumer) {
    std::string names, first;
    for (const char* key : {"partition.assignment.strategy", "session.timeout.ms", "heartbeat.interval.ms"})
      if (m.has(key)) {
        names += (names.empty() ? "" : ", ") + std::string(key);
        if (first.empty()) first = key;
      }
    if (!names.empty()) m.error(first, names + " cannot be set when group.protocol=CONSUMER");
    return;
  }
  if (m.has("group.remote.assignor")) m.error("group.remote.assignor", "cannot be set when group.protocol=CLASSIC");
  if (c.assignment_strategy.empty()) m.error("partition.assignment.strategy", "must list at least one assignor (" + detail::choice_range(kStrategies) + ")");
  for (const auto& name : c.assignment_strategy)
    if (std::find(kStrategies.begin(), kStrategies.end(), name) == kStrategies.end()) {
      m.error("partition.assignment.strategy", "'" + name + "' is not an assignor: " + detail::choice_range(kStrategies));
      break;
    }
  // AbstractHeartbeat (HB:47-48): the heartbeat must come more often than the session expires.
  if (c.heartbeat_interval >= c.session_timeout)
    m.error(m.has("heartbeat.interval.ms") ? "heartbeat.interval.ms" : "session.timeout.ms", "heartbeat.interval.ms must be < session.timeout.ms");
}

// A row written only under one protocol, so that a resolved scenario (and the reference)
// reads back without the refusals above.
Field<ConsumerConfig> only(ConsumerConfig::Protocol protocol, Field<ConsumerConfig> f) {
  f.write = [protocol, write = f.write](const ConsumerConfig& c) {
    return c.protocol == protocol ? write(c) : YAML::Node(YAML::NodeType::Undefined);
  };
  return f;
}

const Table<ConsumerConfig>& consumer_config_table() {
  using F = Fields<ConsumerConfig>;
  constexpr auto kClassic = ConsumerConfig::Protocol::kClassic;
  constexpr auto kConsumer = ConsumerConfig::Protocol::kConsumer;
  static const Table<ConsumerConfig> table("consumer config", {
      F::choice("group.protocol", &ConsumerConfig::protocol, {"classic", "consumer"},
                "classic (JoinGroup/SyncGroup, client-side assignors) or consumer (KIP-848, server-side assignors)"),
      F::integer("fetch.min.bytes", &ConsumerConfig::fetch_min_bytes, 0, kInt32Max, "bytes", "the broker answers a fetch once this much is readable ..."),
      F::duration("fetch.max.wait.ms", &ConsumerConfig::fetch_max_wait, kMs, 0, kMaxMs, "... or after this long"),
      F::integer("max.partition.fetch.bytes", &ConsumerConfig::max_partition_fetch_bytes, 0, kInt32Max, "bytes",
                 "per partition per fetch (soft: the first record of the first partition always comes)"),
      F::integer("fetch.max.bytes", &ConsumerConfig::fetch_max_bytes, 0, kInt32Max, "bytes", "per fetch response (soft, as above)"),
      F::integer("max.poll.records", &ConsumerConfig::max_poll_records, 1, kInt32Max, "records", "records one poll() returns at most"),
      F::choice("auto.offset.reset", &ConsumerConfig::auto_offset_reset, {"latest", "earliest"},
                "where a partition without a committed offset starts: the high watermark when assigned, or offset 0"),
      F::flag("enable.auto.commit", &ConsumerConfig::enable_auto_commit,
              "commit positions in poll() every auto.commit.interval.ms, before a rejoin and on close (else nothing is committed)"),
      F::duration("auto.commit.interval.ms", &ConsumerConfig::auto_commit_interval, kMs, 0, kMaxMs, "how often poll() commits"),
      F::duration("max.poll.interval.ms", &ConsumerConfig::max_poll_interval, kMs, 1, kMaxMs,
                  "a member whose batch outlasts it leaves the group meanwhile (its partitions lost, uncommitted) and rejoins at its next poll()"),
      F::duration("metadata.max.age.ms", &ConsumerConfig::metadata_max_age, kMs, 0, kMaxMs,
                  "how late a classic group sees partitions added by a topic schedule: at the first multiple of it from the start at or after the change (KIP-848 groups see them at once)"),
      F::text("client.rack", &ConsumerConfig::client_rack, 255, "the members' rack, for KIP-881 rack-aware assignment (unless the group lists racks)"),
      only(kClassic, F::strings("partition.assignment.strategy", &ConsumerConfig::assignment_strategy,
                                "classic only: range, roundrobin, sticky, cooperative-sticky; the group uses the first, cooperatively only if all are cooperative-sticky")),
      only(kClassic, F::duration("session.timeout.ms", &ConsumerConfig::session_timeout, kMs, 6000, 1800000,
                                 "classic only: a crashed member is noticed this long after its last heartbeat (the broker's group.min/max.session.timeout.ms bound it)")),
      only(kClassic, F::duration("heartbeat.interval.ms", &ConsumerConfig::heartbeat_interval, kMs, 1, kMaxMs,
                                 "classic only: members heartbeat this often and learn of a rebalance at the next heartbeat")),
      only(kConsumer, F::choice("group.remote.assignor", &ConsumerConfig::remote_assignor, {"uniform", "range"},
                                "consumer only: the KIP-848 server assignor (the broker's default is uniform)"))
          .example("uniform"),
  }, check_consumer_config);
  return table;
}

}  // namespace

const Table<ConsumerGroupSpec>& consumer_group_table() {
  using F = Fields<ConsumerGroupSpec>;
  static const Table<ConsumerGroupSpec> table("consumer group", {
      F::text("group", &ConsumerGroupSpec::group, 255, "the group.id, unique").required(),
      F::strings("topics", &ConsumerGroupSpec::topics, "the topics every member subscribes to").required(),
      F::integer("members", &ConsumerGroupSpec::members, 0, 10000, "", "members at the start (ids member.prefix + index, zero-padded)"),
      F::text("member.prefix", &ConsumerGroupSpec::member_prefix, 200, "member ids: c0, c1, ... (c00.. with 10 or more members in all)"),
      F::duration("processing.us", &ConsumerGroupSpec::processing, TimeUnit::kMicros, 0, 1e12, "application time per record processed"),
      F::strings("rack", &ConsumerGroupSpec::racks, "the members' racks, member i gets rack i mod n (KIP-881)"),
      F::list("schedule", &ConsumerGroupSpec::schedule, change_table(), ListRules<MemberChange>("consumer schedule step"),
              "membership over time, e.g. [{at.ms: 5000, join: 1}, {at.ms: 9000, leave: c1}, {at.ms: 12000, crash: c2}]"),
      F::section("config", &ConsumerGroupSpec::config, consumer_config_table(),
                 "Kafka consumer config under Kafka's names; defaults are Kafka 4.x's"),
  });
  return table;
}

std::vector<Field<Scenario>> coordinator_fields() {
  using F = Fields<Scenario>;
  return {
      F::duration("group.consumer.session.timeout.ms", [](auto& s) -> auto& { return s.group_coordinator.consumer_session_timeout; }, kMs,
                  45000, 60000, "KIP-848 groups: a crashed member is noticed this long after its last heartbeat"),
      F::duration("group.consumer.heartbeat.interval.ms", [](auto& s) -> auto& { return s.group_coordinator.consumer_heartbeat_interval; },
                  kMs, 5000, 15000, "KIP-848 groups: members heartbeat this often (and learn of a new target assignment then)"),
  };
}

void check_consumers(MapReader& top, Scenario& s) {
  if (!top.node().IsMap()) return;
  const auto items = top.sequence("consumers");
  for (std::size_t i = 0; i < s.consumers.size() && i < items.size(); ++i) {
    const ConsumerGroupSpec& g = s.consumers[i];
    MapReader r(*top.context(), items[i], join_path(top.path(), "consumers." + std::to_string(i)));
    for (const auto& name : g.topics)
      if (std::none_of(s.topics.begin(), s.topics.end(), [&](const TopicConfig& t) { return t.name == name; })) {
        std::string names;
        for (const auto& t : s.topics) names += (names.empty() ? "" : ", ") + t.name;
        r.error("topics", "names no topic of this scenario ('" + name + "'; topics: " + names + ")");
      }
    if (g.topics.empty()) r.error("topics", "must list at least one topic");
    // The ids the group will have: the initial members, then the joiners in schedule order.
    std::int32_t total = g.members;
    for (const auto& c : g.schedule)
      if (c.kind == MemberChange::Kind::kJoin) total += c.count;
    std::vector<std::string> ids;
    for (std::int32_t m = 0; m < total; ++m) ids.push_back(consumer::member_id(g.member_prefix, m, total));
    const auto steps = r.sequence("schedule");
    for (std::size_t k = 0; k < g.schedule.size() && k < steps.size(); ++k) {
      const MemberChange& c = g.schedule[k];
      if (c.kind == MemberChange::Kind::kJoin) continue;
      const char* key = c.kind == MemberChange::Kind::kLeave ? "leave" : "crash";
      if (std::find(ids.begin(), ids.end(), c.member) == ids.end()) {
        MapReader step(*top.context(), steps[k], join_path(r.path(), "schedule." + std::to_string(k)));
        step.error(key, "names no member of group '" + g.group + "' ('" + c.member + "'; members: " +
                            (ids.empty() ? std::string("none") : ids.front() + " .. " + ids.back()) + ")");
      }
    }
  }
}

}  // namespace partsim::scenarios
