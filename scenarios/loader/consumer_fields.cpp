#include "scenarios/loader/consumer_fields.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>

#include "model/consumer/group_spec.hpp"
#include "scenarios/loader/scenario_fields_parts.hpp"

namespace partsim::scenarios {
namespace {

using namespace partsim::model;

const std::vector<std::string> kStrategies = {"range", "roundrobin", "sticky", "cooperative-sticky"};

void check_change(MapReader& m, MemberChange&) {
  const int actions =
      (m.has("join") ? 1 : 0) + (m.has("leave") ? 1 : 0) + (m.has("crash") ? 1 : 0) + (m.has("restart") ? 1 : 0);
  if (actions != 1) m.error("at.ms", "a consumer schedule step needs exactly one of join, leave, crash, restart");
}

// An ISO-8601 duration as java.time.Duration.parse reads it, without a sign (KIP-1106 refuses
// negative ones): P[nD][T[nH][nM][n[.f]S]], letters in either case, at least one part.
std::optional<SimTime> parse_iso_duration(const std::string& text) {
  std::size_t i = 0;
  const auto upper = [&](std::size_t k) {
    return k < text.size() ? static_cast<char>(std::toupper(static_cast<unsigned char>(text[k]))) : '\0';
  };
  if (upper(i++) != 'P') return std::nullopt;
  double ms = 0;
  bool any = false, time = false;
  std::string order = "D";  // the units still allowed, in order
  while (i < text.size()) {
    if (upper(i) == 'T') {
      if (time) return std::nullopt;
      time = true;
      order = "HMS";
      ++i;
      if (i == text.size()) return std::nullopt;  // "PT" alone
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == start || i - start > 12) return std::nullopt;
    double value = std::stod(text.substr(start, i - start));
    if (i < text.size() && (text[i] == '.' || text[i] == ',')) {
      const std::size_t frac = ++i;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
      if (i - frac > 9 || upper(i) != 'S') return std::nullopt;  // a fraction only of seconds, to ns
      if (i > frac) value += std::stod("0." + text.substr(frac, i - frac));
    }
    const char unit = upper(i++);
    const std::size_t at = order.find(unit);
    if (unit == '\0' || at == std::string::npos) return std::nullopt;
    order.erase(0, at + 1);
    ms += value * (unit == 'D' ? 86400000.0 : unit == 'H' ? 3600000.0 : unit == 'M' ? 60000.0 : 1000.0);
    any = true;
  }
  if (!any || ms > kMaxMs) return std::nullopt;
  return SimTime::from_ms(ms);
}

// A duration as parse_iso_duration reads it back: whole seconds and a decimal fraction to the
// nanosecond, never an exponent ("PT100000S", "PT0.000001S", "PT90.5S").
std::string iso_duration_text(SimTime d) {
  const std::int64_t ns = d.count_ns();
  std::string frac = std::to_string(ns % 1'000'000'000 + 1'000'000'000).substr(1);  // 9 digits
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return "PT" + std::to_string(ns / 1'000'000'000) + (frac.empty() ? "" : "." + frac) + "S";
}

// auto.offset.reset: latest, earliest, none, or by_duration:<ISO-8601 duration> (Kafka 4.0).
Field<ConsumerConfig> offset_reset_field() {
  using Reset = ConsumerConfig::OffsetReset;
  static const std::vector<std::string> kNames = {"latest", "earliest", "none"};
  const std::string key = "auto.offset.reset";
  return Fields<ConsumerConfig>::custom(
      field_info(
          FieldInfo::Shape::kValue, key, "choice", "", "latest | earliest | none | by_duration:<ISO-8601 duration>",
          "where a partition without a committed offset starts: the high watermark when assigned, offset 0, an error "
          "(refused: a group starts without committed offsets), or the first record sent at or after the assignment minus "
          "the duration (by_duration:PT10S; none sent since: the high watermark)"),
      [key](MapReader& m, ConsumerConfig& c) {
        if (!m.has(key)) return;
        std::string v;
        const std::size_t before = m.context()->errors.size();
        m.read(key, v, 100);
        if (m.context()->errors.size() != before) return;
        if (const auto it = std::find(kNames.begin(), kNames.end(), v); it != kNames.end()) {
          c.auto_offset_reset = static_cast<Reset>(it - kNames.begin());
          return;
        }
        const std::string prefix = "by_duration:";
        if (v.rfind(prefix, 0) == 0) {
          if (const auto d = parse_iso_duration(v.substr(prefix.size()))) {
            c.auto_offset_reset = Reset::kByDuration;
            c.auto_offset_reset_by = *d;
            return;
          }
          m.error(key, "'" + v +
                           "': by_duration takes a non-negative ISO-8601 duration P[nD][T[nH][nM][n[.f]S]] of at most "
                           "10^12 ms, e.g. by_duration:PT10S, by_duration:P1DT12H");
          return;
        }
        m.error(key,
                "must be latest, earliest, none or by_duration:<ISO-8601 duration> (e.g. by_duration:PT10S), got '" +
                    v + "'");
      },
      [](const ConsumerConfig& c) {
        if (c.auto_offset_reset == Reset::kByDuration)
          return YAML::Node("by_duration:" + iso_duration_text(c.auto_offset_reset_by));
        return YAML::Node(kNames[static_cast<std::size_t>(c.auto_offset_reset)]);
      });
}

// JoinGroupRequest.validateGroupInstanceId: at most 249 characters of [a-zA-Z0-9._-]; the
// index the members add takes up to 5 of them.
std::string instance_id_rule(std::string_view v) {
  if (v.empty()) return "must not be empty (leave it out for dynamic members)";
  for (const char ch : v)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '_' && ch != '-')
      return "'" + std::string(v) +
             "' has a character Kafka refuses in a group.instance.id: only ASCII letters, digits, '.', '_' and '-'";
  return "";
}

const Table<MemberChange>& change_table() {
  using F = Fields<MemberChange>;
  using K = MemberChange::Kind;
  const auto kind = &MemberChange::kind;
  static const Table<MemberChange> table(
      "consumer schedule step",
      {
          F::duration("at.ms", &MemberChange::at, kMs, 0, kMaxMs, "when it happens (simulated time)")
              .required("(when the change happens, in ms of simulated time)")
              .example("5000"),
          F::selects(F::integer("join", &MemberChange::count, 1, 10000, "members",
                                "action: this many new members join (ids continue the numbering)"),
                     kind, K::kJoin)
              .example("1"),
          F::selects(
              F::text(
                  "leave", &MemberChange::member, 255,
                  "action: this member closes (commits, then LeaveGroup: an immediate rebalance; a static member sends none)"),
              kind, K::kLeave)
              .example("c1"),
          F::selects(
              F::text("crash", &MemberChange::member, 255,
                      "action: this member stops without a word (noticed session.timeout.ms after its last heartbeat)"),
              kind, K::kCrash)
              .example("c2"),
          F::selects(
              F::text(
                  "restart", &MemberChange::member, 255,
                  "action: this static member (group.instance.id) starts again after a crash or leave: within its session "
                  "it gets its partitions back without a rebalance, from their committed offsets"),
              kind, K::kRestart)
              .example("c2"),
      },
      check_change);
  return table;
}

// §5.2: with none, poll() throws NoOffsetForPartitionException for a partition without a
// committed offset, and a scenario's group starts without any: its first poll would throw.
void check_offset_reset(MapReader& m, const ConsumerConfig& c) {
  if (c.auto_offset_reset == ConsumerConfig::OffsetReset::kNone)
    m.error("auto.offset.reset",
            "none: a scenario's group starts without committed offsets, so Kafka's first poll() would throw "
            "NoOffsetForPartitionException; use latest, earliest or by_duration:<ISO-8601 duration>");
}

// KAFKA-17338 (4.0): the consumer protocol refuses these when set; group.remote.assignor is
// refused with classic (CC:714-718). The messages are Kafka's ConfigException texts.
void check_consumer_config(MapReader& m, ConsumerConfig& c) {
  // What the group's client does not know yet (kafka-versions.md "3.0", "4.0").
  const ClientVersion& v = m.context()->version();
  if (c.protocol == ConsumerConfig::Protocol::kConsumer) {
    if (!java::consumer_protocol(v))
      m.error("group.protocol", "consumer is unknown to " + v.name() +
                                    ": group.protocol came with kafka-3.7 (KIP-848, early access), generally "
                                    "available from kafka-4.0");
    else if (!v.at_least(4, 0))
      m.warn("group.protocol", "consumer is early access in " + v.name() +
                                   " (generally available from kafka-4.0); partsim runs it as 4.0 does");
  }
  if (c.auto_offset_reset == ConsumerConfig::OffsetReset::kByDuration && !java::offset_reset_by_duration(v))
    m.error("auto.offset.reset", "by_duration is unknown to " + v.name() + ": it came with kafka-4.0 (KIP-1106)");
  if (c.protocol == ConsumerConfig::Protocol::kConsumer) {
    std::string names, first;
    for (const char* key : {"partition.assignment.strategy", "session.timeout.ms", "heartbeat.interval.ms"})
      if (m.has(key)) {
        names += (names.empty() ? "" : ", ") + std::string(key);
        if (first.empty()) first = key;
      }
    if (!names.empty()) m.error(first, names + " cannot be set when group.protocol=CONSUMER");
    check_offset_reset(m, c);
    return;
  }
  if (m.has("group.remote.assignor")) m.error("group.remote.assignor", "cannot be set when group.protocol=CLASSIC");
  check_offset_reset(m, c);
  if (c.assignment_strategy.empty())
    m.error("partition.assignment.strategy",
            "must list at least one assignor (" + detail::choice_range(kStrategies) + ")");
  for (const auto& name : c.assignment_strategy)
    if (std::find(kStrategies.begin(), kStrategies.end(), name) == kStrategies.end()) {
      m.error("partition.assignment.strategy",
              "'" + name + "' is not an assignor: " + detail::choice_range(kStrategies));
      break;
    }
  // AbstractHeartbeat (HB:47-48): the heartbeat must come more often than the session expires.
  if (c.heartbeat_interval >= c.session_timeout)
    m.error(m.has("heartbeat.interval.ms") ? "heartbeat.interval.ms" : "session.timeout.ms",
            "heartbeat.interval.ms must be < session.timeout.ms");
}

// A row written only under one protocol, so that a resolved scenario (and the reference)
// reads back without the refusals above.
Field<ConsumerConfig> only(ConsumerConfig::Protocol protocol, Field<ConsumerConfig> f) {
  f.write = [protocol, write = f.write](const ConsumerConfig& c) {
    return c.protocol == protocol ? write(c) : YAML::Node(YAML::NodeType::Undefined);
  };
  return f;
}

// A text row whose "" means unset: not written, no default shown.
Field<ConsumerConfig> optional_text(Field<ConsumerConfig> f) {
  f.write = [write = f.write](const ConsumerConfig& c) {
    YAML::Node v = write(c);
    return v.IsScalar() && v.Scalar().empty() ? YAML::Node(YAML::NodeType::Undefined) : v;
  };
  f.has_default = false;
  return f;
}

const Table<ConsumerConfig>& consumer_config_table() {
  using F = Fields<ConsumerConfig>;
  constexpr auto kClassic = ConsumerConfig::Protocol::kClassic;
  constexpr auto kConsumer = ConsumerConfig::Protocol::kConsumer;
  static const Table<ConsumerConfig> table(
      "consumer config",
      {
          F::choice(
              "group.protocol", &ConsumerConfig::protocol, {"classic", "consumer"},
              "classic (JoinGroup/SyncGroup, client-side assignors) or consumer (KIP-848, server-side assignors)"),
          F::integer("fetch.min.bytes", &ConsumerConfig::fetch_min_bytes, 0, kInt32Max, "bytes",
                     "the broker answers a fetch once this much is readable ..."),
          F::duration("fetch.max.wait.ms", &ConsumerConfig::fetch_max_wait, kMs, 0, kMaxMs, "... or after this long"),
          F::integer("max.partition.fetch.bytes", &ConsumerConfig::max_partition_fetch_bytes, 0, kInt32Max, "bytes",
                     "per partition per fetch (soft: the first record of the first partition always comes)"),
          F::integer("fetch.max.bytes", &ConsumerConfig::fetch_max_bytes, 0, kInt32Max, "bytes",
                     "per fetch response (soft, as above)"),
          F::integer("max.poll.records", &ConsumerConfig::max_poll_records, 1, kInt32Max, "records",
                     "records one poll() returns at most"),
          offset_reset_field(),
          F::flag(
              "enable.auto.commit", &ConsumerConfig::enable_auto_commit,
              "commit positions in poll() every auto.commit.interval.ms, before a rejoin and on close (else nothing is committed)"),
          F::duration("auto.commit.interval.ms", &ConsumerConfig::auto_commit_interval, kMs, 0, kMaxMs,
                      "how often poll() commits"),
          F::duration(
              "max.poll.interval.ms", &ConsumerConfig::max_poll_interval, kMs, 1, kMaxMs,
              "a member whose batch outlasts it leaves the group meanwhile (its partitions lost, uncommitted) and rejoins at its next poll()"),
          F::duration(
              "metadata.max.age.ms", &ConsumerConfig::metadata_max_age, kMs, 0, kMaxMs,
              "how late a classic group sees partitions added by a topic schedule: at the first multiple of it from the start at or after the change (KIP-848 groups see them at once)"),
          F::text("client.rack", &ConsumerConfig::client_rack, 255,
                  "the members' rack, for KIP-881 rack-aware assignment from kafka-3.5 (unless the group lists racks)"),
          optional_text(
              F::text(
                  "group.instance.id", &ConsumerConfig::group_instance_id, 244,
                  "static membership: member i has this plus its index (i -> i0, i1, ...); a static member's leave sends "
                  "no LeaveGroup and it can restart (schedule) within its session without a rebalance",
                  instance_id_rule))
              .example("i"),
          only(
              kClassic,
              F::strings(
                  "partition.assignment.strategy", &ConsumerConfig::assignment_strategy,
                  "classic only: range, roundrobin, sticky, cooperative-sticky; the group uses the first, cooperatively only if all are cooperative-sticky"))
              .client_default([](ConsumerConfig& c,
                                 const ClientVersion& v) { c.assignment_strategy = java::default_assignors(v); },
                              "[range] before kafka-3.0"),
          only(
              kClassic,
              F::duration(
                  "session.timeout.ms", &ConsumerConfig::session_timeout, kMs, 6000, 1800000,
                  "classic only: a crashed member is noticed this long after its last heartbeat (the broker's group.min/max.session.timeout.ms bound it)"))
              .client_default([](ConsumerConfig& c,
                                 const ClientVersion& v) { c.session_timeout = java::default_session_timeout(v); },
                              "10000 before kafka-3.0"),
          only(
              kClassic,
              F::duration("heartbeat.interval.ms", &ConsumerConfig::heartbeat_interval, kMs, 1, kMaxMs,
                          "classic only: members heartbeat this often and learn of a rebalance at the next heartbeat")),
          only(kConsumer, F::choice("group.remote.assignor", &ConsumerConfig::remote_assignor, {"uniform", "range"},
                                    "consumer only: the KIP-848 server assignor (the broker's default is uniform)"))
              .example("uniform"),
      },
      check_consumer_config);
  return table;
}

}  // namespace

const Table<ConsumerGroupSpec>& consumer_group_table() {
  using F = Fields<ConsumerGroupSpec>;
  static const Table<ConsumerGroupSpec> table(
      "consumer group",
      {
          F::text("group", &ConsumerGroupSpec::group, 255, "the group.id, unique").required(),
          client_field<ConsumerGroupSpec>(
              [](auto& g) -> auto& { return g.config.client; }, false, true),
          F::strings("topics", &ConsumerGroupSpec::topics, "the topics every member subscribes to").required(),
          F::integer("members", &ConsumerGroupSpec::members, 0, 10000, "",
                     "members at the start (ids member.prefix + index, zero-padded)"),
          F::text("member.prefix", &ConsumerGroupSpec::member_prefix, 200,
                  "member ids: c0, c1, ... (c00.. with 10 or more members in all)"),
          F::duration("processing.us", &ConsumerGroupSpec::processing, TimeUnit::kMicros, 0, 1e12,
                      "application time per record processed"),
          F::choice(
              "commit", &ConsumerGroupSpec::commit, {"none", "sync-per-poll", "async-per-poll", "per-record"},
              "the application's own commits, beside any auto commit: commitSync() after each poll's records (waits a round trip "
              "to the coordinator), commitAsync() after them, commitSync of each record after it, or none"),
          F::strings("rack", &ConsumerGroupSpec::racks,
                     "the members' racks, member i gets rack i mod n (KIP-881: used from kafka-3.5)"),
          F::list(
              "schedule", &ConsumerGroupSpec::schedule, change_table(),
              ListRules<MemberChange>("consumer schedule step"),
              "membership over time, e.g. [{at.ms: 5000, join: 1}, {at.ms: 9000, leave: c1}, {at.ms: 12000, crash: c2}]"),
          F::section("config", &ConsumerGroupSpec::config, consumer_config_table(),
                     "Kafka consumer config under Kafka's names; defaults are the client's"),
      });
  return table;
}

std::vector<Field<Scenario>> coordinator_fields() {
  using F = Fields<Scenario>;
  return {
      F::duration(
          "group.consumer.session.timeout.ms",
          [](auto& s) -> auto& { return s.group_coordinator.consumer_session_timeout; }, kMs, 45000, 60000,
          "KIP-848 groups: a crashed member is noticed this long after its last heartbeat"),
      F::duration(
          "group.consumer.heartbeat.interval.ms",
          [](auto& s) -> auto& { return s.group_coordinator.consumer_heartbeat_interval; }, kMs, 5000, 15000,
          "KIP-848 groups: members heartbeat this often (and learn of a new target assignment then)"),
  };
}

void check_consumers(MapReader& top, Scenario& s) {
  if (!top.node().IsMap()) return;
  const auto items = top.sequence("consumers");
  for (std::size_t i = 0; i < s.consumers.size() && i < items.size(); ++i) {
    const ConsumerGroupSpec& g = s.consumers[i];
    MapReader r(*top.context(), items[i], join_path(top.path(), "consumers." + std::to_string(i)));
    for (const auto& name : g.topics)
      if (!s.topic_index(name))
        r.error("topics", "names no topic of this scenario ('" + name + "'; topics: " + topic_names(s) + ")");
    if (g.topics.empty()) r.error("topics", "must list at least one topic");
    // The ids the group will have: the initial members, then the joiners in schedule order.
    std::int32_t total = g.members;
    for (const auto& c : g.schedule)
      if (c.kind == MemberChange::Kind::kJoin) total += c.count;
    std::vector<std::string> ids;
    for (std::int32_t m = 0; m < total; ++m) ids.push_back(consumer::member_id(g.member_prefix, m, total));
    const auto steps = r.sequence("schedule");
    if (steps.size() != g.schedule.size()) continue;  // the list itself was refused
    // Play the schedule as the simulation does (in time order, equal times in file order) and
    // refuse what cannot happen: a member that has not joined yet, has left, or is stopped.
    struct State {
      enum class Is { kAbsent, kRunning, kLeft, kCrashed } is = Is::kAbsent;
      SimTime since;
    };
    std::map<std::string, State> state;
    std::int32_t joined = 0;
    const auto start = std::min<std::int32_t>(g.members, total);
    for (; joined < start; ++joined)
      state[ids[static_cast<std::size_t>(joined)]] = {State::Is::kRunning, SimTime::zero()};
    std::vector<std::size_t> order(g.schedule.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return g.schedule[a].at < g.schedule[b].at; });
    const bool is_static = !g.config.group_instance_id.empty();
    const auto ms_text = [](SimTime t) {
      return (t.count_ns() % 1000000 == 0 ? std::to_string(t.count_ns() / 1000000)
                                          : number_text(time_value(t, TimeUnit::kMillis))) +
             " ms";
    };
    for (const std::size_t k : order) {
      const MemberChange& c = g.schedule[k];
      MapReader step(*top.context(), steps[k], join_path(r.path(), "schedule." + std::to_string(k)));
      if (s.run.duration && c.at > *s.run.duration)
        step.warn(
            "at.ms",
            ms_text(c.at) + " is after the run ends (run.duration.ms " + ms_text(*s.run.duration) +
                "): the group stops once the run has ended and every record is processed, so this step plays only if "
                "records are left to process then");
      if (c.kind == MemberChange::Kind::kJoin) {
        for (std::int32_t n = 0; n < c.count && joined < total; ++n, ++joined)
          state[ids[static_cast<std::size_t>(joined)]] = {State::Is::kRunning, c.at};
        continue;
      }
      const char* key = c.kind == MemberChange::Kind::kLeave   ? "leave"
                        : c.kind == MemberChange::Kind::kCrash ? "crash"
                                                               : "restart";
      if (std::find(ids.begin(), ids.end(), c.member) == ids.end()) {
        step.error(key, "names no member of group '" + g.group + "' ('" + c.member + "'; members: " +
                            (ids.empty() ? std::string("none") : ids.front() + " .. " + ids.back()) + ")");
        continue;
      }
      State& m = state[c.member];
      const std::string who = c.member + " ";
      if (m.is == State::Is::kAbsent) {
        step.error(key, who + "has not joined by " + ms_text(c.at) + " (it joins with a later join step)");
        continue;
      }
      if (c.kind == MemberChange::Kind::kRestart) {
        if (!is_static) {
          step.error(
              key,
              who + "is a dynamic member: a restarted process joins under a new member.id, so use join (restart is for "
                    "static members: config group.instance.id)");
        } else if (m.is == State::Is::kRunning) {
          step.error(key, who + "is running at " + ms_text(c.at) + ": restart follows a crash or a leave");
        } else {
          m = {State::Is::kRunning, c.at};
        }
        continue;
      }
      if (m.is == State::Is::kLeft) {
        step.error(key, who + "has left at " + ms_text(m.since) + (is_static ? " (restart it first)" : ""));
        continue;
      }
      if (m.is == State::Is::kCrashed) {
        step.error(key, who + "already crashed at " + ms_text(m.since) + (is_static ? " (restart it first)" : ""));
        continue;
      }
      m = {c.kind == MemberChange::Kind::kLeave ? State::Is::kLeft : State::Is::kCrashed, c.at};
    }
  }
}

}  // namespace partsim::scenarios
