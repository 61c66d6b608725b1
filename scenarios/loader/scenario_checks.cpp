#include "scenarios/loader/scenario_checks.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "model/placement/topic_placement.hpp"
#include "scenarios/loader/field_table.hpp"

namespace partsim::scenarios {

using namespace partsim::model;

void check_jitter(MapReader& m, Jitter& j) {
  if (j.kind == Jitter::Kind::kExponential && j.mean_ms <= 0) m.error("mean.ms", "must be > 0 for exponential jitter");
  if (j.kind == Jitter::Kind::kLognormal && j.mean_ms <= 0)
    m.error("mean.ms", "must be > 0 (the median) for lognormal jitter");
}

void check_step(MapReader& m, BrokerChange&) {
  int actions = 0;
  for (const char* key :
       {"set.rtt.ms", "set.request.ms", "set.byte.rate", "set.error.rate", "set.replica.rtt.ms", "fail", "recover"})
    actions += m.has(key) ? 1 : 0;
  if (actions != 1)
    m.error(
        "at.ms",
        "a schedule step needs exactly one of set.rtt.ms, set.request.ms, set.byte.rate, set.error.rate, set.replica.rtt.ms, fail, recover");
}

// A reassignment step's plan against its topic when it starts (`count` partitions then):
// its own topic's entries (a file's others are left to their topics), each an existing
// partition once, its replicas distinct (Kafka answers INVALID_REPLICA_ASSIGNMENT or
// UNKNOWN_TOPIC_OR_PARTITION otherwise). The brokers are checked with the cluster.
void check_plan(MapReader& step, const TopicConfig& t, std::int32_t count, ReassignStep& r) {
  MapReader m = step.map("reassign");
  std::vector<ReassignTarget> kept;
  std::set<std::int32_t> seen;
  for (std::size_t k = 0; k < r.plan.size(); ++k) {
    ReassignTarget& e = r.plan[k];
    const std::string where = r.plan_file.empty() ? "partitions." + std::to_string(k)
                                                  : "partition " + std::to_string(e.partition) + " of " + r.plan_file;
    if (!e.topic.empty() && e.topic != t.name) {
      if (r.plan_file.empty())
        m.error("plan", where + " names topic '" + e.topic + "': a step of topic '" + t.name +
                            "' moves its own partitions (give the other topic's in its schedule)");
      continue;
    }
    if (e.partition >= count) {
      m.error("plan", where + ": topic '" + t.name + "' has " + std::to_string(count) +
                          " partitions when the step starts, no partition " + std::to_string(e.partition));
      continue;
    }
    if (!seen.insert(e.partition).second) {
      m.error("plan", where + ": partition " + std::to_string(e.partition) + " is listed twice");
      continue;
    }
    std::set<std::int32_t> ids(e.replicas.begin(), e.replicas.end());
    if (ids.size() != e.replicas.size()) {
      m.error("plan", where + ": partition " + std::to_string(e.partition) + " lists a broker twice");
      continue;
    }
    e.topic = t.name;
    kept.push_back(std::move(e));
  }
  if (kept.empty() && !r.plan.empty() && m.context()->errors.empty())
    m.error("plan", "moves no partition of topic '" + t.name + "'");
  r.plan = std::move(kept);
}

void check_topic_step(MapReader& m, TopicChange&) {
  if (m.has("set.partitions") == m.has("reassign"))
    m.error("at.ms", "a topic schedule step needs exactly one of set.partitions, reassign");
}

// CreatePartitions (kafka-consumer-spec §7, RCM:1754-1760): the controller refuses the same
// count and a decrease, with these messages. Steps apply in time order (equal times in the
// order written), each against the count the one before left.
void check_topic(MapReader& m, TopicConfig& t) {
  if (t.schedule.empty()) return;
  const std::vector<YAML::Node> items = m.sequence("schedule");
  if (items.size() != t.schedule.size()) return;  // the list itself had errors
  std::vector<std::size_t> order(t.schedule.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // At equal times the engine makes partition steps before reassignments.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::pair(t.schedule[a].at, t.schedule[a].reassign.has_value()) <
           std::pair(t.schedule[b].at, t.schedule[b].reassign.has_value());
  });
  std::int32_t current = t.partitions;
  bool planned = false;
  for (const std::size_t i : order) {
    MapReader step(*m.context(), items[i], m.path() + ".schedule." + std::to_string(i));
    if (t.schedule[i].reassign) {
      ReassignStep& r = *t.schedule[i].reassign;
      if (r.plan.empty() && !planned)
        step.warn("reassign", "has no plan and comes before any plan of this topic: it changes the throttle of other "
                              "topics' moves under way then, if any (a throttle change applies to the brokers of every "
                              "move under way)");
      planned = planned || !r.plan.empty();
      check_plan(step, t, current, r);
      continue;
    }
    const std::int32_t requested = t.schedule[i].partitions;
    if (requested == current) {
      step.error("set.partitions", "Topic already has " + std::to_string(current) + " partition(s).");
    } else if (requested < current) {
      step.error("set.partitions", "The topic " + t.name + " currently has " + std::to_string(current) +
                                       " partition(s); " + std::to_string(requested) + " would not be an increase.");
    } else {
      current = requested;
    }
  }
}

void check_rule(MapReader& m, PartitionRule&) {
  const int forms = (m.has("prefix") ? 1 : 0) + (m.has("key") ? 1 : 0) + (m.has("regex") ? 1 : 0);
  if (forms != 1) m.error("partition", "a rule needs exactly one of prefix, key, regex");
}

void check_config(MapReader& m, ProducerConfig& c) {
  if (c.partitioner.kind != PartitionerKind::kRules && !c.partitioner.rules.empty())
    m.error("partsim.partitioner.rules", "only applies with partitioner: rules");
  check_client_rules(m, c);
  // delivery.timeout.ms >= linger.ms + request.timeout.ms (spec §1.1): an error when set,
  // silently raised when defaulted.
  if (c.delivery_timeout < c.linger + c.request_timeout) {
    if (m.has("delivery.timeout.ms"))
      m.error("delivery.timeout.ms",
              "must be >= linger.ms + request.timeout.ms (" +
                  std::to_string(static_cast<std::int64_t>((c.linger + c.request_timeout).to_ms())) + ")");
    else c.delivery_timeout = c.linger + c.request_timeout;
  }
  // BufferPool.allocate refuses any request above buffer.memory outright ("hard limit"), and
  // every new batch asks for at least batch.size: Kafka accepts the config, every send that
  // opens a batch fails. A warning, since the run shows what that does.
  if (c.batch_size_bytes > c.buffer_memory_bytes) {
    const std::string consequence = ": every send that needs a new batch will fail (BufferPool's hard limit)";
    if (m.has("batch.size"))
      m.warn("batch.size", std::to_string(c.batch_size_bytes) + " is larger than buffer.memory " +
                               std::to_string(c.buffer_memory_bytes) + consequence);
    else
      m.warn("buffer.memory", std::to_string(c.buffer_memory_bytes) + " is smaller than batch.size " +
                                  std::to_string(c.batch_size_bytes) + consequence);
  }
}

void check_arrivals(MapReader& m, Arrivals& a) {
  if (a.kind == Arrivals::Kind::kFlatOut && a.send_cost <= SimTime::zero())
    m.error("send.cost.us", "must be > 0 for flat-out arrivals (the application time one send() takes)");
}

void check_keys(MapReader& m, KeySpec& k) {
  if (k.kind == KeySpec::Kind::kZipf && k.cardinality < 1) m.error("cardinality", "must be >= 1 for zipf keys");
  if (k.kind == KeySpec::Kind::kList && k.list.empty()) m.error("list", "must hold at least one key");
  if (k.kind == KeySpec::Kind::kHot && !m.has("hot.key")) m.error("hot.key", "is required for hot keys");
}

void check_values(MapReader& m, ValueSpec& v) {
  if (v.kind == ValueSpec::Kind::kUniform && v.max_bytes < v.min_bytes) m.error("max", "must be >= min");
  if (v.kind == ValueSpec::Kind::kTemplate && !m.has("template"))
    m.error("template", "is required for template values");
  // Boost's lognormal takes ln(median) as the underlying normal's mean: 0 has none.
  if (v.kind == ValueSpec::Kind::kLognormal && !v.null_value && v.median_bytes <= 0)
    m.error("median", "must be > 0 for lognormal values (the median size in bytes)");
}

std::string topic_names(const Scenario& s) {
  std::string names;
  for (const auto& t : s.topics) names += (names.empty() ? "" : ", ") + t.name;
  return names;
}

MapReader list_item(MapReader& parent, const std::string& key, std::size_t i) {
  return MapReader(*parent.context(), parent.sequence(key).at(i),
                   join_path(parent.path(), key + "." + std::to_string(i)));
}

namespace {

// A time in ms as a scenario writes it: 320000, 0.5.
std::string fixed_ms(SimTime t) {
  const std::int64_t ns = t.count_ns();
  if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000);
  std::string s = std::to_string(ns / 1'000'000) + "." + std::to_string(1'000'000 + ns % 1'000'000).substr(1);
  while (s.back() == '0') s.pop_back();
  return s;
}

void check_producer_topic(MapReader& top, Scenario& s, std::size_t i) {
  ProducerSpec& ps = s.producers[i];
  if (ps.workload.topic.empty() && s.topics.size() == 1) ps.workload.topic = s.topics[0].name;
  if (s.topics.empty()) return;  // reported once, at topics
  const auto index = s.topic_index(ps.workload.topic);
  const TopicConfig* topic = index ? &s.topics[*index] : nullptr;
  MapReader p = list_item(top, "producers", i);
  if (!topic && ps.workload.topic.empty()) {
    p.map("workload").error("topic", "is required when the scenario has several topics (" + topic_names(s) + ")");
    return;
  }
  if (!topic) {
    p.map("workload")
        .error("topic",
               "names no topic of this scenario ('" + ps.workload.topic + "'; topics: " + topic_names(s) + ")");
    return;
  }
  const std::string partitions = std::to_string(topic->partitions);
  if (ps.workload.partition && *ps.workload.partition >= topic->partitions)
    p.map("workload")
        .error("partition",
               "must be < the topic's " + partitions + " partitions, got " + std::to_string(*ps.workload.partition));
  // A rule's partition is known here: out of range is a scenario error, not a run failure.
  MapReader cfg = p.map("config");
  const auto& spec = ps.config.partitioner;
  for (std::size_t r = 0; r < spec.rules.size(); ++r)
    if (spec.rules[r].partition >= topic->partitions)
      cfg.error("partsim.partitioner.rules." + std::to_string(r) + ".partition",
                "must be < the topic's " + partitions + " partitions, got " + std::to_string(spec.rules[r].partition));
  if (spec.kind == PartitionerKind::kRules) {
    const std::int64_t last =
        std::int64_t{spec.fallback.first} + (spec.fallback.count > 0 ? spec.fallback.count : 1) - 1;
    if (last >= topic->partitions)
      cfg.error("partsim.partitioner.fallback",
                "the range from " + std::to_string(spec.fallback.first) + " (" + std::to_string(spec.fallback.count) +
                    " partitions) must end below the topic's " + partitions + " partitions");
  }
}

}  // namespace

namespace {

/// Every host a broker or producer names is listed under cluster.hosts.
void check_hosts(MapReader& top, const Scenario& s) {
  std::string names;
  for (const auto& h : s.hosts) names += (names.empty() ? "" : ", ") + h.name;
  const auto known = [&](const std::string& host) {
    return host.empty() ||
           std::any_of(s.hosts.begin(), s.hosts.end(), [&](const HostConfig& h) { return h.name == host; });
  };
  const std::string allowed = names.empty() ? "cluster.hosts lists none" : "hosts: " + names;
  MapReader cluster = top.map("cluster");
  for (std::size_t i = 0; i < s.brokers.size(); ++i)
    if (!known(s.brokers[i].host))
      list_item(cluster, "brokers", i)
          .error("host", "names no host of cluster.hosts ('" + s.brokers[i].host + "'; " + allowed + ")");
  for (std::size_t i = 0; i < s.producers.size(); ++i)
    if (!known(s.producers[i].host))
      list_item(top, "producers", i)
          .error("host", "names no host of cluster.hosts ('" + s.producers[i].host + "'; " + allowed + ")");
}

}  // namespace

// topics[].assignment: one list per partition the topic will have, each of replication.factor
// distinct brokers' ids.
// topics[].placer: the assignment Kafka's placer makes over the scenario's brokers (as
// partsim assign makes it), checked below like one given.
void place_topic(MapReader& top, Scenario& s, std::size_t i) {
  TopicConfig& t = s.topics[i];
  if (t.placer == TopicConfig::Placer::kNone) return;
  MapReader topic = list_item(top, "topics", i);
  if (topic.has("assignment")) {
    topic.error("placer", "a topic's replicas are placed by its assignment or by a placer, not both");
    return;
  }
  if (t.grows_before(std::nullopt)) {
    // Kafka places partitions added to an existing topic by a rule of its own (from the
    // existing assignment), which partsim does not model yet.
    topic.error("placer", "places a topic's partitions when it is created; for a topic with a schedule give an "
                          "assignment that lists every partition it will have");
    return;
  }
  model::TopicPlacementRequest request;
  request.placer = t.placer == TopicConfig::Placer::kAdmin     ? model::Placer::kAdmin
                   : t.placer == TopicConfig::Placer::kStriped ? model::Placer::kStriped
                                                               : model::Placer::kSimple;
  for (const auto& b : s.brokers)
    request.brokers.push_back({b.id, b.rack.empty() ? std::nullopt : std::optional<std::string>(b.rack), false});
  request.partitions = t.partitions;
  request.replication_factor = t.replication_factor;
  request.seed = t.placer_seed;
  try {
    t.assignment = model::place_topic(request).assignment;
  } catch (const model::PlacementError& e) {
    topic.error("placer", std::string("Kafka's placer refuses: ") + e.what());
  }
}

// Racks that place the clients (traffic): a rack no broker is in is most likely a typo, and
// would make every byte of that client cross; a producer placed in one rack that tells
// KIP-1123's partitioner another steers by a rack it is not in.
void check_client_racks(MapReader& top, const Scenario& s) {
  std::vector<std::string> racks;
  for (const auto& b : s.brokers)
    if (!b.rack.empty()) racks.push_back(b.rack);
  if (racks.empty()) return;
  std::sort(racks.begin(), racks.end());
  racks.erase(std::unique(racks.begin(), racks.end()), racks.end());
  std::string listed;
  for (const auto& r : racks) listed += (listed.empty() ? "" : ", ") + r;
  const auto known = [&](const std::string& r) {
    return r.empty() || std::binary_search(racks.begin(), racks.end(), r);
  };
  const auto unknown = [&](const std::string& r) {
    return "rack '" + r + "' is no broker's (the brokers' racks: " + listed + "): every byte it sends or reads crosses";
  };
  for (std::size_t i = 0; i < s.producers.size(); ++i) {
    const ProducerSpec& p = s.producers[i];
    if (!known(p.rack)) list_item(top, "producers", i).warn("rack", unknown(p.rack));
    if (!p.rack.empty() && !p.config.client_rack.empty() && p.rack != p.config.client_rack)
      list_item(top, "producers", i)
          .warn("rack", "'" + p.rack + "' is not its config's client.rack '" + p.config.client_rack +
                            "': its traffic is counted from " + p.rack + ", its partitioner is told " +
                            p.config.client_rack);
  }
  for (std::size_t g = 0; g < s.consumers.size(); ++g) {
    const ConsumerGroupSpec& c = s.consumers[g];
    for (const auto& r : c.racks)
      if (!known(r)) list_item(top, "consumers", g).warn("rack", unknown(r));
    if (c.racks.empty() && !known(c.config.client_rack))
      list_item(top, "consumers", g).warn("config", unknown(c.config.client_rack));
  }
}

void check_assignment(MapReader& top, const Scenario& s, std::size_t i) {
  const TopicConfig& t = s.topics[i];
  if (t.assignment.empty()) return;
  MapReader topic = list_item(top, "topics", i);
  const auto partitions = static_cast<std::size_t>(t.final_partitions());
  if (t.assignment.size() != partitions) {
    topic.error("assignment", "lists " + std::to_string(t.assignment.size()) +
                                  (t.assignment.size() == 1 ? " partition" : " partitions") + "; the topic will have " +
                                  std::to_string(partitions) +
                                  " (partitions and its schedule's steps): one replica list per partition, in order");
    return;
  }
  std::string ids;
  for (const auto& b : s.brokers) ids += (ids.empty() ? "" : ", ") + std::to_string(b.id);
  for (std::size_t p = 0; p < partitions; ++p) {
    const auto& replicas = t.assignment[p];
    const std::string which = "partition " + std::to_string(p);
    if (replicas.size() != static_cast<std::size_t>(t.replication_factor)) {
      topic.error("assignment", which + " lists " + std::to_string(replicas.size()) +
                                    (replicas.size() == 1 ? " replica" : " replicas") + "; replication.factor is " +
                                    std::to_string(t.replication_factor));
      return;
    }
    for (std::size_t r = 0; r < replicas.size(); ++r) {
      const bool known =
          std::any_of(s.brokers.begin(), s.brokers.end(), [&](const BrokerConfig& b) { return b.id == replicas[r]; });
      if (!known) {
        topic.error("assignment",
                    which + ": broker id " + std::to_string(replicas[r]) + " is not a broker's (ids: " + ids + ")");
        return;
      }
      if (std::find(replicas.begin(), replicas.begin() + static_cast<std::ptrdiff_t>(r), replicas[r]) !=
          replicas.begin() + static_cast<std::ptrdiff_t>(r)) {
        topic.error("assignment", which + " lists broker " + std::to_string(replicas[r]) + " twice");
        return;
      }
    }
  }
}

void check_scenario(MapReader& top, Scenario& s) {
  if (!top.node().IsMap()) return;  // reported by the reader; nothing else can be checked
  check_hosts(top, s);
  check_replication_mode(top, s);
  for (std::size_t i = 0; i < s.topics.size(); ++i)
    if (!s.brokers.empty() && s.topics[i].replication_factor > static_cast<std::int32_t>(s.brokers.size()))
      list_item(top, "topics", i)
          .error("replication.factor", "must be <= the number of brokers (" + std::to_string(s.brokers.size()) +
                                           "), got " + std::to_string(s.topics[i].replication_factor));
  for (std::size_t i = 0; i < s.topics.size(); ++i) place_topic(top, s, i);
  check_client_racks(top, s);
  for (std::size_t i = 0; i < s.topics.size(); ++i) check_assignment(top, s, i);
  for (std::size_t i = 0; i < s.producers.size(); ++i) check_producer_topic(top, s, i);
  // A closed loop sends again as soon as a send completes. With acks=0 a send completes as
  // its batch leaves, so where a batch is sendable at once (linger.ms 0, a partition's
  // second batch) the application and the sender go round without end at one instant; with
  // max.block.ms 0 a send fails at once while memory is used up, and the next one too.
  // Time per send() lets the clock advance.
  for (std::size_t i = 0; i < s.producers.size(); ++i) {
    const ProducerSpec& p = s.producers[i];
    if (p.workload.arrivals.kind != Arrivals::Kind::kClosedLoop || p.workload.arrivals.send_cost > SimTime::zero())
      continue;
    // clang-format off
    const char* why = p.config.acks == Acks::kNone                ? "acks 0 (each send completes as its batch leaves"
                      : p.config.max_block <= SimTime::zero() ? "max.block.ms 0 (each send fails at once while memory is used up"
                                                               : nullptr;
    // clang-format on
    if (why)
      list_item(top, "producers", i)
          .map("workload")
          .map("arrivals")
          .error("send.cost.us", std::string("must be > 0 for closed-loop arrivals with ") + why +
                                     ": without time per send() the run may never advance)");
  }
  // A follower with nothing to fetch waits replica.fetch.wait.max.ms, then asks again a
  // round trip later: both 0 would spin at one instant.
  if (s.replication.followers() && s.replication.fetch_wait_max == SimTime::zero())
    for (const auto& b : s.brokers)
      if (b.replica_rtt == SimTime::zero()) {
        top.map("cluster").error("replica.fetch.wait.max.ms",
                                 "must be > 0 when a broker's replica.rtt.ms is 0 (broker " + std::to_string(b.id) +
                                     "): a follower's fetches would never let time pass");
        return;
      }
  for (const auto& b : s.brokers)
    for (const auto& step : b.schedule)
      if (step.kind == BrokerChange::Kind::kSetReplicaRtt && !s.replication.followers()) {
        top.map("cluster").error("replication",
                                 "must be followers for a schedule step with set.replica.rtt.ms (broker " +
                                     std::to_string(b.id) + ")");
        return;
      }
  // A reassignment moves replicas between the scenario's brokers, copied by followers.
  for (std::size_t i = 0; i < s.topics.size(); ++i) {
    const TopicConfig& t = s.topics[i];
    if (!t.reassigns()) continue;
    MapReader topic = list_item(top, "topics", i);
    const std::vector<YAML::Node> steps = topic.sequence("schedule");
    for (std::size_t k = 0; k < t.schedule.size() && k < steps.size(); ++k) {
      if (!t.schedule[k].reassign) continue;
      MapReader step(*top.context(), steps[k], join_path(topic.path(), "schedule." + std::to_string(k)));
      if (!s.replication.followers()) {
        step.error("reassign", "needs cluster.replication: followers (the new replicas copy the log by fetching)");
        return;
      }
      for (const ReassignTarget& e : t.schedule[k].reassign->plan)
        for (const std::int32_t id : e.replicas)
          if (std::none_of(s.brokers.begin(), s.brokers.end(), [&](const BrokerConfig& b) { return b.id == id; })) {
            step.error("reassign", "partition " + std::to_string(e.partition) + " of topic '" + t.name +
                                       "' gets a replica on broker " + std::to_string(id) +
                                       ", which is not in cluster.brokers (Kafka: INVALID_REPLICA_ASSIGNMENT)");
            return;
          }
    }
  }
  // A topic step at or after the run's end is never made (the engine leaves it out): say so.
  if (s.run.duration)
    for (std::size_t i = 0; i < s.topics.size(); ++i) {
      const TopicConfig& t = s.topics[i];
      if (t.schedule.empty()) continue;
      MapReader topic = list_item(top, "topics", i);
      const std::vector<YAML::Node> steps = topic.sequence("schedule");
      for (std::size_t k = 0; k < t.schedule.size() && k < steps.size(); ++k) {
        if (t.schedule[k].at < *s.run.duration) continue;
        MapReader step(*top.context(), steps[k], join_path(topic.path(), "schedule." + std::to_string(k)));
        step.warn("at.ms",
                  (t.schedule[k].reassign ? std::string("the reassignment")
                                          : "the step to " + std::to_string(t.schedule[k].partitions) + " partitions") +
                      " at " + fixed_ms(t.schedule[k].at) + " ms is at or after the run's end (run.duration.ms " +
                      fixed_ms(*s.run.duration) + "): it is never made, the topic keeps " +
                      std::to_string(t.partitions_before(s.run.duration)) + " partitions");
      }
    }
  MapReader run = top.map("run");
  if (!s.run.records && !s.run.duration && !run.has("records") && !run.has("duration.ms")) {
    bool all_bounded = !s.producers.empty();
    for (const auto& p : s.producers) all_bounded = all_bounded && p.workload.records.has_value();
    if (!all_bounded)
      run.error("records", "the run needs a stop rule: run.records, run.duration.ms, or records on every producer");
  }
  if (s.run.check == RunSpec::Check::kPoissonBatching) {
    // The closed form holds for one producer sending Poisson arrivals of one size with null
    // keys into one partition, batches drained when linger expires (deltas stay 1 byte).
    const bool shape = s.producers.size() == 1 && s.topics.size() == 1 && s.topics[0].partitions == 1 &&
                       s.producers[0].workload.arrivals.kind == Arrivals::Kind::kPoisson &&
                       s.producers[0].workload.keys.kind == KeySpec::Kind::kNone &&
                       s.producers[0].workload.values.kind == ValueSpec::Kind::kFixed &&
                       s.producers[0].config.partitioner.kind == PartitionerKind::kBuiltin &&
                       s.producers[0].config.compression == Compression::kNone &&
                       s.producers[0].config.linger < SimTime::ms(64);
    if (!shape)
      run.error("check",
                "poisson-batching needs one producer, one topic with one partition, Poisson arrivals, null keys, "
                "fixed-size values, no compression, the built-in partitioner and linger.ms < 64");
  }
  if (s.run.check == RunSpec::Check::kBrokerQueue) {
    // M/G/1: every record its own request (linger.ms 0, one partition, one size), arriving
    // as a Poisson process at one FIFO server whose service time is its fixed costs plus
    // the jitter; nothing else may delay, batch or drop requests.
    bool shape = !s.producers.empty() && s.topics.size() == 1 && s.topics[0].partitions == 1 &&
                 s.topics[0].schedule.empty() && s.hosts.empty() && !s.replication.followers() && !s.migration &&
                 s.run.warmup == SimTime::zero();
    for (const auto& p : s.producers)
      shape = shape && p.workload.arrivals.kind == Arrivals::Kind::kPoisson &&
              p.workload.arrivals.send_cost == SimTime::zero() && !p.workload.records &&
              p.workload.keys.kind == KeySpec::Kind::kNone && p.workload.values.kind == ValueSpec::Kind::kFixed &&
              p.workload.values.null_value == s.producers[0].workload.values.null_value &&
              p.workload.values.size_bytes == s.producers[0].workload.values.size_bytes &&
              p.workload.header_count == 0 && p.config.partitioner.kind == PartitionerKind::kBuiltin &&
              p.config.compression == Compression::kNone && p.config.linger == SimTime::zero() &&
              p.cpu.per_request == SimTime::zero() && p.cpu.per_batch == SimTime::zero() && p.cpu.per_byte_ns == 0;
    for (const auto& b : s.brokers) shape = shape && !b.threaded() && b.schedule.empty() && b.error_rate == 0;
    if (!shape)
      run.error("check",
                "broker-queue needs one topic with one partition (no schedule), Poisson arrivals without send.cost.us, "
                "sender cpu or a records limit per producer, null keys, one fixed value size without headers, no "
                "compression, linger.ms 0, the built-in partitioner, no run.warmup.ms, and brokers without threads, "
                "hosts, schedules, error.rate or followers");
  }
}

namespace {

/// The bridge's rate: 0 (unlimited) or at least kMinBridgeRate records/s, and slow enough
/// only that its pace over every record the run may send (run.records, or every producer's
/// records) stays inside simulated time (model/migration/bridge.cpp saturates there).
void check_bridge_rate(MapReader& m, const MigrationSpec& spec, const Scenario& s) {
  MapReader b = m.map("bridge");
  const double rate = spec.bridge.records_per_second;
  if (!b.has("rate") || rate <= 0) return;
  if (rate < kMinBridgeRate) {
    b.error("rate", "must be 0 (unlimited) or at least " + number_text(kMinBridgeRate) + " records/s, got " +
                        number_text(rate));
    return;
  }
  std::optional<double> records;
  if (s.run.records) records = static_cast<double>(*s.run.records);
  bool bounded = true;
  double sum = 0;
  for (const auto& p : s.producers) {
    bounded = bounded && p.workload.records.has_value();
    if (p.workload.records && p.workload.topic == spec.from) sum += static_cast<double>(*p.workload.records);
  }
  if (bounded) records = records ? std::min(*records, sum) : sum;
  if (!records) return;
  const double end_ms = spec.at.to_ms() + *records / rate * 1e3;
  if (end_ms > kMaxSimulatedMs)
    b.error("rate", "paces the run's " + number_text(*records) + " records to " + number_text(end_ms) +
                        " ms, past the end of simulated time (" + number_text(kMaxSimulatedMs) +
                        " ms); raise it or set 0 (unlimited)");
}

}  // namespace

void check_migration(MapReader& top, Scenario& s) {
  if (!s.migration || !top.node().IsMap()) return;
  MapReader m = top.map("migration");
  const auto declared = [&](const std::string& name) { return s.topic_index(name).has_value(); };
  const MigrationSpec& spec = *s.migration;
  for (const auto& [key, name] : {std::pair<std::string, std::string>{"from", spec.from}, {"to", spec.to}})
    if (!name.empty() && !declared(name))
      m.error(key, "names no topic of this scenario ('" + name + "'; topics: " + topic_names(s) +
                       "); declare it under topics:");
  if (!spec.from.empty() && spec.from == spec.to)
    m.error("to", "must differ from from ('" + spec.from + "'): a migration moves records to a new topic");
  for (const auto& p : s.producers)
    if (!spec.to.empty() && spec.from != spec.to && p.workload.topic == spec.to)
      m.error("to", "is the topic producer '" + p.name + "' sends to; the producers send to from ('" + spec.from +
                        "') and the migration fills to");
  // The migration's producers on the new topic are named NAME@TO (the application's, after
  // the switch or for a dual write's second sends) and bridge@TO: no other may be.
  const std::string suffix = "@" + spec.to;
  for (const auto& p : s.producers)
    if (!spec.to.empty() && p.name.size() >= suffix.size() &&
        p.name.compare(p.name.size() - suffix.size(), suffix.size(), suffix) == 0)
      m.error("to", "producer '" + p.name + "' has a name of the form NAME" + suffix +
                        ", which the migration's producers on the new topic take (the application's as NAME" + suffix +
                        ", the bridge's as bridge" + suffix + "); rename it");
  const auto sent_to = [&](const std::string& topic) {
    return std::any_of(s.producers.begin(), s.producers.end(),
                       [&](const ProducerSpec& p) { return p.workload.topic == topic; });
  };
  // (A producer sending to `to` instead is reported above.)
  if (!spec.from.empty() && declared(spec.from) && !sent_to(spec.from) && !sent_to(spec.to))
    m.error("from", "no producer sends to topic '" + spec.from +
                        "' (migration.from): a migration moves a topic the producers send to");
  if (m.has("bridge")) check_bridge_rate(m, spec, s);
}

}  // namespace partsim::scenarios
