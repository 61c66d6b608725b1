#include "model/migration/migration.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

#include <boost/random/bernoulli_distribution.hpp>

#include "model/migration/bridge.hpp"
#include "sim/check.hpp"

namespace partsim::model::migration {
namespace {

using Strategy = MigrationSpec::Strategy;
using Identity = std::pair<std::int32_t, std::int64_t>;  ///< (producer, send index): one send() call

Identity identity(const Source& r) { return {r.producer, r.send_index}; }

std::size_t topic_index(const Scenario& s, const std::string& name) {
  const auto t = s.topic_index(name);
  PARTSIM_CHECK(t.has_value(), "a migration names a topic the scenario lacks (the loader checks this)");
  return *t;
}

/// The old topic's records, partition by partition in offset order.
std::vector<Source> old_topic(const Scenario& s, const BrokerLogs& logs, std::size_t topic) {
  std::size_t first = 0;
  for (std::size_t t = 0; t < topic; ++t)
    first += static_cast<std::size_t>(s.topics[t].partitions_before(s.run.duration));
  std::vector<Source> out;
  // Every partition it has by the run's end (a topic schedule may have added some).
  for (std::int32_t p = 0; p < s.topics[topic].partitions_before(s.run.duration); ++p)
    for (const LogRecord& r : logs.partitions[first + static_cast<std::size_t>(p)].records)
      out.push_back(Source{r.key, r.producer, r.send_index, r.sent, r.readable, p});
  return out;
}

/// Indices 0..n-1 of `items` ordered by `time_of(item)`, ties in index order.
template <class T, class TimeOf>
std::vector<std::size_t> by_time(const std::vector<T>& items, TimeOf time_of) {
  std::vector<std::size_t> order(items.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return time_of(items[a]) < time_of(items[b]); });
  return order;
}

/// The order a consumer of the old topic reads it in: each partition in offset order
/// (kafka-consumer-spec §4.5), partitions merged by when records became readable.
std::vector<std::size_t> read_order(const std::vector<Source>& sources) {
  return by_time(sources, [](const Source& r) { return r.readable; });
}

struct OrderCount {
  std::int64_t violations = 0;
  std::int64_t keys_affected = 0;
  std::int64_t duplicates = 0;
};

/// Order per key and producer within each partition, `partitions[p]` listing sources in log
/// order: a record is a violation when a record of its key that its producer sent later (a
/// higher send index) precedes it. Kafka orders nothing across producers, so records of one
/// key from two producers are not compared. A send() already seen in the topic is a
/// duplicate, not checked.
OrderCount check_order(const std::vector<std::vector<std::size_t>>& partitions, const std::vector<Source>& sources) {
  OrderCount c;
  std::set<Identity> seen;
  std::set<std::int32_t> affected;
  for (const auto& log : partitions) {
    std::unordered_map<std::uint64_t, std::int64_t> latest;  // (key, producer) -> the latest send index
    for (const std::size_t i : log) {
      const Source& r = sources[i];
      if (!seen.insert(identity(r)).second) {
        ++c.duplicates;
        continue;
      }
      if (r.key < 0) continue;
      const std::uint64_t key_and_producer = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(r.key)) << 32) |
                                             static_cast<std::uint32_t>(r.producer);
      const std::int64_t sent = r.send_index;
      auto [it, added] = latest.try_emplace(key_and_producer, sent);
      if (added) continue;
      if (sent < it->second) {
        ++c.violations;
        affected.insert(r.key);
      } else {
        it->second = sent;
      }
    }
  }
  c.keys_affected = static_cast<std::int64_t>(affected.size());
  return c;
}

/// Indices of `writes` by append time (ties: the order written): each partition's log order.
std::vector<std::size_t> by_append(const std::vector<Write>& writes) {
  return by_time(writes, [](const Write& w) { return w.append; });
}

/// The new topic's logs as indices into the sources.
std::vector<std::vector<std::size_t>> new_logs(const std::vector<Write>& writes, std::int32_t partitions) {
  std::vector<std::vector<std::size_t>> logs(static_cast<std::size_t>(partitions));
  for (const std::size_t i : by_append(writes))
    logs[static_cast<std::size_t>(writes[i].partition)].push_back(writes[i].source);
  return logs;
}

/// The new topic's log: readable once acknowledged, the high watermark never going back.
std::vector<PartitionLog> new_topic_log(const std::vector<Write>& writes, const std::vector<Source>& sources,
                                        std::int32_t partitions) {
  std::vector<PartitionLog> logs(static_cast<std::size_t>(partitions));
  for (const std::size_t i : by_append(writes)) {
    const Source& r = sources[writes[i].source];
    auto& records = logs[static_cast<std::size_t>(writes[i].partition)].records;
    const SimTime readable = records.empty() ? writes[i].ack : std::max(records.back().readable, writes[i].ack);
    records.push_back(LogRecord{r.key, r.producer, r.send_index, r.sent, readable});
  }
  return logs;
}

/// The old topic's log as the migration left it: the records `in_old`, in offset order.
std::vector<PartitionLog> old_topic_log(const std::vector<Source>& sources, const std::vector<bool>& in_old,
                                        std::int32_t partitions) {
  std::vector<PartitionLog> logs(static_cast<std::size_t>(partitions));
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (!in_old[i]) continue;
    const Source& r = sources[i];
    logs[static_cast<std::size_t>(r.old_partition)].records.push_back(LogRecord{r.key, r.producer, r.send_index, r.sent,
                                                                                r.readable});
  }
  return logs;
}

struct CaughtUp {
  SimTime at;
  bool while_sending = true;  ///< false: the bridge caught up only once the producers had stopped
};

/// When the bridge had first copied everything readable: walking the read order, the
/// latest acknowledgement so far, once the next record became readable only after it. When
/// that happens only at the last record, the producers stopped before the bridge caught up.
CaughtUp caught_up(const std::vector<Source>& sources, const std::vector<std::size_t>& order,
                   const std::vector<Write>& writes, SimTime start) {
  SimTime latest = start;
  for (std::size_t j = 0; j < writes.size(); ++j) {
    latest = std::max(latest, writes[j].ack);
    if (j + 1 == writes.size()) return {latest, false};
    if (sources[order[j + 1]].readable > latest) return {latest, true};
  }
  return {start, true};
}

/// Lag: records readable in the old topic and not yet acknowledged by the new one. Returns
/// the bridge's last acknowledgement.
SimTime fill_lag(const std::vector<Source>& sources, const std::vector<Write>& bridged, SimTime start,
                 BridgeFigures& f) {
  std::vector<std::pair<SimTime, int>> events;  // 0 = became readable, 1 = acknowledged (readable first at equal times)
  std::int64_t lag = 0;
  SimTime finished = start;
  for (const Write& w : bridged) {
    const SimTime readable = sources[w.source].readable;
    if (readable <= start) ++lag;
    else events.emplace_back(readable, 0);
    events.emplace_back(w.ack, 1);
    finished = std::max(finished, w.ack);
  }
  std::sort(events.begin(), events.end());
  f.lag_at_start = lag;
  f.max_lag = lag;
  for (const auto& [t, kind] : events) {
    lag += kind == 0 ? 1 : -1;
    f.max_lag = std::max(f.max_lag, lag);
  }
  f.finished_ms = finished.to_ms();
  return finished;
}

/// The figures every strategy shares, from what the producers sent (`sources`), what the
/// new topic holds (`writes`) and what it should hold (`expected[i]`).
/// False when `cancelled` stopped it between its passes (m is then incomplete).
template <class Cancelled>
bool fill_common(const std::vector<Source>& sources, const std::vector<Write>& writes,
                 const std::vector<bool>& expected, const BrokerLogs& logs, std::int32_t to_partitions,
                 MigrationResult& m, const Cancelled& cancelled) {
  std::set<Identity> present;
  for (const Write& w : writes) present.insert(identity(sources[w.source]));
  struct KeyState {
    std::int32_t old_partition = -1, new_partition = -1;  ///< the first old partition (the sample's), the first new one
    std::set<std::int32_t> old_partitions;                ///< every old partition of the key (one under the hash rule)
    bool split = false, all = true, missing_expected = false;
  };
  std::map<std::int32_t, KeyState> keys;  // by key index: the key table's (first-sent) order
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const Source& r = sources[i];
    if (r.key < 0) continue;
    KeyState& k = keys[r.key];
    if (k.old_partition < 0) k.old_partition = r.old_partition;
    k.old_partitions.insert(r.old_partition);
    const bool has = present.count(identity(r)) > 0;
    k.all = k.all && has;
    k.missing_expected = k.missing_expected || (expected[i] && !has);
  }
  for (const Write& w : writes) {
    const Source& r = sources[w.source];
    if (r.key < 0) continue;
    KeyState& k = keys[r.key];
    if (k.new_partition < 0) k.new_partition = w.partition;
    k.split = k.split || k.new_partition != w.partition;
  }
  if (cancelled()) return false;
  m.keys = static_cast<std::int64_t>(keys.size());
  for (const auto& [key, k] : keys) {
    // Changed: the key's new partition is none of its old ones (a key the old topic spread
    // over several partitions, e.g. by a non-hash partitioner, counts only if it left them all).
    if (k.new_partition >= 0 && k.old_partitions.count(k.new_partition) == 0) ++m.keys_changed_partition;
    if (k.all) ++m.keys_with_all_events;
    if (k.missing_expected) ++m.inconsistent_keys;
    if (k.split) m.stable = false;
  }
  if (m.keys > 0) m.ratio = static_cast<double>(m.keys_changed_partition) / static_cast<double>(m.keys);
  if (!keys.empty()) {
    const auto& [key, k] = *keys.begin();
    m.sample_key = logs.keys[static_cast<std::size_t>(key)];
    m.sample_old = k.old_partition;
    m.sample_new = k.new_partition;
  }
  if (cancelled()) return false;
  const OrderCount fresh = check_order(new_logs(writes, to_partitions), sources);
  m.order_violations = fresh.violations;
  m.keys_out_of_order = fresh.keys_affected;
  m.duplicates = fresh.duplicates;
  m.new_records = static_cast<std::int64_t>(writes.size());
  return true;
}

/// What a strategy works on: the old topic's records in their read order and the new topic.
struct Input {
  const Scenario& s;
  const MigrationSpec& spec;
  const BrokerLogs& logs;
  std::vector<Source> sources;
  std::vector<std::size_t> order;
  std::int32_t to_partitions = 0;
  double record_bytes = 0;
  std::uint64_t seed = 0, replication = 0;
  std::optional<SimTime> resume;  ///< stop-replay: when the run resumed the producers (its first run's replay)
  NewTopic topic() const { return NewTopic(s, to_partitions, record_bytes, logs.keys, seed, replication); }
};

/// What a strategy left: the new topic's writes, which records it should hold (`expected`)
/// and which the old topic keeps (`in_old`), both indexed as the sources.
struct Outcome {
  std::vector<Write> writes;
  std::vector<bool> expected, in_old;
  explicit Outcome(std::size_t n) : expected(n, true), in_old(n, true) {}
};

/// Dual write: one draw per send() call in the order the old topic made them readable; a
/// call the old topic holds twice (a retry without idempotence) is held twice in the new one
/// too, as the second send goes through the same producer (its append keeps that order).
Outcome dual_write(const Input& in, MigrationResult& m) {
  Outcome o(in.sources.size());
  sim::RandomEngine rng = sim::RandomStreams(in.seed, in.replication).stream("migration/dual-write");
  boost::random::bernoulli_distribution<double> fails(in.spec.dual_write_failure_rate);
  std::map<Identity, bool> sent_ok;
  const NewTopic t = in.topic();
  for (std::size_t j = 0; j < in.order.size(); ++j) {
    const Source& r = in.sources[in.order[j]];
    o.expected[in.order[j]] = r.sent >= in.spec.at;
    if (!o.expected[in.order[j]]) continue;
    auto [it, first] = sent_ok.try_emplace(identity(r), true);
    if (first) it->second = !fails(rng);
    if (it->second) o.writes.push_back(Write{in.order[j], t.partition_of(r.key, j), r.readable, r.readable});
  }
  m.records_migrated = static_cast<std::int64_t>(o.writes.size());
  return o;
}

/// Stop-replay: the producers stopped at at.ms; the bridge replays what they had sent, and
/// they resume after the replay and the verification, writing to the new topic directly
/// (appended as it was in the run) and no longer to the old one. The run paused them until
/// then (run_scenario: a first run tells when), so nothing is sent between at.ms and the resume.
Outcome stop_replay(const Input& in, MigrationResult& m) {
  Outcome o(in.sources.size());
  std::vector<std::size_t> before;
  for (const std::size_t i : in.order) {
    if (in.sources[i].sent < in.spec.at) before.push_back(i);
    else o.in_old[i] = false;
  }
  NewTopic t = in.topic();
  o.writes = run_bridge(in.sources, before, in.spec.bridge, in.spec.at, t, in.logs.keys);
  const SimTime up = caught_up(in.sources, before, o.writes, in.spec.at).at;
  m.bridge.caught_up_ms = up.to_ms();
  m.bridge.catch_up_ms = (up - in.spec.at).to_ms();
  // The run paused the producers until the resume its first run computed (run_scenario);
  // this run's replay of the same records gives the same time, and the pause is what holds.
  const SimTime replayed = fill_lag(in.sources, o.writes, in.spec.at, m.bridge) + in.spec.verify;
  const SimTime resume = in.resume.value_or(replayed);
  m.resume = resume;
  m.bridge.switch_ms = resume.to_ms();
  m.downtime_ms = (resume - in.spec.at).to_ms();
  m.records_migrated = static_cast<std::int64_t>(o.writes.size());
  for (std::size_t j = 0; j < in.order.size(); ++j) {
    const std::size_t i = in.order[j];
    if (o.in_old[i]) continue;
    const Source& r = in.sources[i];
    PARTSIM_CHECK(r.sent >= resume, "a stop-replay producer sent between at.ms and its resume");
    o.writes.push_back(Write{i, t.partition_of(r.key, j), r.readable, r.readable});
    ++m.records_after_resume;
  }
  return o;
}

/// Bridge: the producers switch once the bridge has caught up and the copy is verified; what
/// they send from then on goes to the new topic directly (appended as it was in the run) and
/// leaves the old topic, and the bridge copies only what was sent before. The bridge's prefix
/// up to the catch-up is unchanged by dropping later records: a second pass with the same
/// draws. A bridge that catches up only once the producers stopped makes no switch.
Outcome bridge(const Input& in, MigrationResult& m) {
  Outcome o(in.sources.size());
  NewTopic first_pass = in.topic();
  o.writes = run_bridge(in.sources, in.order, in.spec.bridge, in.spec.at, first_pass, in.logs.keys);
  const CaughtUp up = caught_up(in.sources, in.order, o.writes, in.spec.at);
  m.bridge.caught_up = up.while_sending;
  m.bridge.caught_up_ms = up.at.to_ms();
  m.bridge.catch_up_ms = (up.at - in.spec.at).to_ms();
  if (up.while_sending) {
    const SimTime switch_at = up.at + in.spec.verify;
    m.bridge.switch_ms = switch_at.to_ms();
    std::vector<std::size_t> before;
    for (const std::size_t i : in.order) {
      if (in.sources[i].sent < switch_at) before.push_back(i);
      else o.in_old[i] = false;
    }
    NewTopic second_pass = in.topic();
    o.writes = run_bridge(in.sources, before, in.spec.bridge, in.spec.at, second_pass, in.logs.keys);
    for (const Write& w : o.writes) m.bridge.after_switch += w.append > switch_at ? 1 : 0;
  }
  fill_lag(in.sources, o.writes, in.spec.at, m.bridge);
  m.records_migrated = static_cast<std::int64_t>(o.writes.size());
  for (std::size_t j = 0; j < in.order.size(); ++j) {
    const Source& r = in.sources[in.order[j]];
    if (!o.in_old[in.order[j]])
      o.writes.push_back(Write{in.order[j], first_pass.partition_of(r.key, j), r.readable, r.readable});
  }
  return o;
}

}  // namespace

const char* strategy_name(Strategy s) {
  switch (s) {
    case Strategy::kStopReplay: return "stop-replay";
    case Strategy::kDualWrite: return "dual-write";
    case Strategy::kBridge: return "bridge";
  }
  return "?";
}

std::optional<Migrated> migrate(const Scenario& s, const BrokerLogs& logs, double average_record_bytes,
                                std::uint64_t seed, std::uint64_t replication, const std::atomic<bool>* cancel,
                                std::optional<SimTime> resume) {
  const auto cancelled = [cancel] { return cancel != nullptr && cancel->load(std::memory_order_relaxed); };
  PARTSIM_CHECK(s.migration.has_value(), "migrate() without a migration section");
  const MigrationSpec& spec = *s.migration;
  const TopicConfig& from = s.topics[topic_index(s, spec.from)];
  const TopicConfig& to = s.topics[topic_index(s, spec.to)];
  MigrationResult m;
  m.strategy = strategy_name(spec.strategy);
  m.from = from.name;
  m.to = to.name;
  const std::int32_t from_partitions = from.partitions_before(s.run.duration);  // after its schedule
  m.from_partitions = from_partitions;
  m.to_partitions = to.partitions;
  Input in{
      s,    spec,        logs,  old_topic(s, logs, topic_index(s, spec.from)), {}, to.partitions, average_record_bytes,
      seed, replication, resume};
  in.order = read_order(in.sources);
  if (cancelled()) return std::nullopt;
  m.has_bridge = spec.strategy != Strategy::kDualWrite;
  m.bridge.start_ms = spec.at.to_ms();
  const Outcome o = spec.strategy == Strategy::kDualWrite    ? dual_write(in, m)
                    : spec.strategy == Strategy::kStopReplay ? stop_replay(in, m)
                                                             : bridge(in, m);
  if (cancelled()) return std::nullopt;
  std::vector<std::vector<std::size_t>> old_logs(static_cast<std::size_t>(from_partitions));
  for (std::size_t i = 0; i < in.sources.size(); ++i) {
    if (!o.in_old[i]) continue;
    old_logs[static_cast<std::size_t>(in.sources[i].old_partition)].push_back(i);
    ++m.old_records;
  }
  m.order_violations_old = check_order(old_logs, in.sources).violations;
  if (cancelled()) return std::nullopt;
  if (!fill_common(in.sources, o.writes, o.expected, logs, to.partitions, m, cancelled) || cancelled())
    return std::nullopt;
  return Migrated{std::move(m), new_topic_log(o.writes, in.sources, to.partitions),
                  old_topic_log(in.sources, o.in_old, from_partitions)};
}

}  // namespace partsim::model::migration
