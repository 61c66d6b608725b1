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
  for (std::size_t t = 0; t < s.topics.size(); ++t)
    if (s.topics[t].name == name) return t;
  PARTSIM_CHECK(false, "a migration names a topic the scenario lacks (the loader checks this)");
  return 0;
}

/// The old topic's records, partition by partition in offset order.
std::vector<Source> old_topic(const Scenario& s, const BrokerLogs& logs, std::size_t topic) {
  std::size_t first = 0;
  for (std::size_t t = 0; t < topic; ++t) first += static_cast<std::size_t>(s.topics[t].partitions);
  std::vector<Source> out;
  for (std::int32_t p = 0; p < s.topics[topic].partitions; ++p)
    for (const LogRecord& r : logs.partitions[first + static_cast<std::size_t>(p)].records)
      out.push_back(Source{r.key, r.producer, r.send_index, r.sent, r.readable, p});
  return out;
}

/// The order a consumer of the old topic reads it in: each partition in offset order
/// (kafka-consumer-spec §4.5), partitions merged by when records became readable.
std::vector<std::size_t> read_order(const std::vector<Source>& sources) {
  std::vector<std::size_t> order(sources.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sources[a].readable < sources[b].readable; });
  return order;
}

struct OrderCount {
  std::int64_t violations = 0;
  std::int64_t keys_affected = 0;
  std::int64_t duplicates = 0;
};

/// Order per key within each partition, `partitions[p]` listing sources in log order: a
/// record is a violation when a record of its key sent later (sent time, producer, send
/// index) precedes it; a send() already seen in the topic is a duplicate, not checked.
OrderCount check_order(const std::vector<std::vector<std::size_t>>& partitions, const std::vector<Source>& sources) {
  OrderCount c;
  std::set<Identity> seen;
  std::set<std::int32_t> affected;
  for (const auto& log : partitions) {
    std::unordered_map<std::int32_t, std::tuple<SimTime, std::int32_t, std::int64_t>> latest;
    for (const std::size_t i : log) {
      const Source& r = sources[i];
      if (!seen.insert(identity(r)).second) {
        ++c.duplicates;
        continue;
      }
      if (r.key < 0) continue;
      const auto sent = std::make_tuple(r.sent, r.producer, r.send_index);
      auto [it, added] = latest.try_emplace(r.key, sent);
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

/// The new topic's logs: each partition's writes by append time (ties: the order written).
std::vector<std::vector<std::size_t>> new_logs(const std::vector<Write>& writes, std::int32_t partitions) {
  std::vector<std::size_t> idx(writes.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return writes[a].append < writes[b].append; });
  std::vector<std::vector<std::size_t>> logs(static_cast<std::size_t>(partitions));
  for (const std::size_t i : idx) logs[static_cast<std::size_t>(writes[i].partition)].push_back(writes[i].source);
  return logs;
}

/// The new topic's log: each partition's writes by append time (ties: the order written),
/// readable once acknowledged, the high watermark never going back.
std::vector<PartitionLog> new_topic_log(const std::vector<Write>& writes, const std::vector<Source>& sources, std::int32_t partitions) {
  std::vector<std::size_t> idx(writes.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return writes[a].append < writes[b].append; });
  std::vector<PartitionLog> logs(static_cast<std::size_t>(partitions));
  for (const std::size_t i : idx) {
    const Source& r = sources[writes[i].source];
    auto& records = logs[static_cast<std::size_t>(writes[i].partition)].records;
    const SimTime readable = records.empty() ? writes[i].ack : std::max(records.back().readable, writes[i].ack);
    records.push_back(LogRecord{r.key, r.producer, r.send_index, r.sent, readable});
  }
  return logs;
}

/// When the bridge had first copied everything readable: walking the read order, the
/// latest acknowledgement so far, once the next record became readable only after it.
SimTime caught_up(const std::vector<Source>& sources, const std::vector<std::size_t>& order, const std::vector<Write>& writes, SimTime start) {
  SimTime latest = start;
  for (std::size_t j = 0; j < writes.size(); ++j) {
    latest = std::max(latest, writes[j].ack);
    if (j + 1 == writes.size() || sources[order[j + 1]].readable > latest) return latest;
  }
  return start;
}

/// Lag: records readable in the old topic and not yet acknowledged by the new one. Returns
/// the bridge's last acknowledgement.
SimTime fill_lag(const std::vector<Source>& sources, const std::vector<Write>& bridged, SimTime start, BridgeFigures& f) {
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
void fill_common(const std::vector<Source>& sources, const std::vector<Write>& writes, const std::vector<bool>& expected,
                 const BrokerLogs& logs, std::int32_t to_partitions, MigrationResult& m) {
  std::set<Identity> present;
  for (const Write& w : writes) present.insert(identity(sources[w.source]));
  struct KeyState {
    std::int32_t old_partition = -1, new_partition = -1;
    bool split = false, all = true, missing_expected = false;
  };
  std::map<std::int32_t, KeyState> keys;  // by key index: the key table's (first-sent) order
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const Source& r = sources[i];
    if (r.key < 0) continue;
    KeyState& k = keys[r.key];
    if (k.old_partition < 0) k.old_partition = r.old_partition;
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
  m.keys = static_cast<std::int64_t>(keys.size());
  for (const auto& [key, k] : keys) {
    if (k.new_partition >= 0 && k.new_partition != k.old_partition) ++m.keys_changed_partition;
    if (k.all) ++m.keys_with_all_events;
    if (k.missing_expected) ++m.inconsistent_keys;
    if (k.split) m.stable = false;
  }
  m.ratio = m.keys > 0 ? static_cast<double>(m.keys_changed_partition) / static_cast<double>(m.keys) : 0;
  if (!keys.empty()) {
    const auto& [key, k] = *keys.begin();
    m.sample_key = logs.keys[static_cast<std::size_t>(key)];
    m.sample_old = k.old_partition;
    m.sample_new = k.new_partition;
  }
  const OrderCount fresh = check_order(new_logs(writes, to_partitions), sources);
  m.order_violations = fresh.violations;
  m.keys_out_of_order = fresh.keys_affected;
  m.duplicates = fresh.duplicates;
  m.new_records = static_cast<std::int64_t>(writes.size());
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

Migrated migrate(const Scenario& s, const BrokerLogs& logs, double average_record_bytes, std::uint64_t seed,
                 std::uint64_t replication) {
  PARTSIM_CHECK(s.migration.has_value(), "migrate() without a migration section");
  const MigrationSpec& spec = *s.migration;
  const TopicConfig& from = s.topics[topic_index(s, spec.from)];
  const TopicConfig& to = s.topics[topic_index(s, spec.to)];
  MigrationResult m;
  m.strategy = strategy_name(spec.strategy);
  m.from = from.name;
  m.to = to.name;
  m.from_partitions = from.partitions;
  m.to_partitions = to.partitions;
  const std::vector<Source> sources = old_topic(s, logs, topic_index(s, spec.from));
  const std::vector<std::size_t> order = read_order(sources);
  std::vector<bool> expected(sources.size(), true);
  std::vector<bool> in_old(sources.size(), true);
  std::vector<Write> writes;
  const auto topic = [&] { return NewTopic(s, to.partitions, average_record_bytes, logs.keys, seed, replication); };

  if (spec.strategy == Strategy::kDualWrite) {
    // One draw per send() call in the order the old topic made them readable; a call the
    // old topic holds twice (a retry without idempotence) is held twice in the new one too,
    // as the second send goes through the same producer (its append keeps that order).
    sim::RandomEngine rng = sim::RandomStreams(seed, replication).stream("migration/dual-write");
    boost::random::bernoulli_distribution<double> fails(spec.dual_write_failure_rate);
    std::map<Identity, bool> sent_ok;
    NewTopic t = topic();
    for (std::size_t j = 0; j < order.size(); ++j) {
      const Source& r = sources[order[j]];
      expected[order[j]] = r.sent >= spec.at;
      if (!expected[order[j]]) continue;
      auto [it, first] = sent_ok.try_emplace(identity(r), true);
      if (first) it->second = !fails(rng);
      if (it->second) writes.push_back(Write{order[j], t.partition_of(r.key, j), r.readable, r.readable});
    }
    m.records_migrated = static_cast<std::int64_t>(writes.size());
  } else {
    m.has_bridge = true;
    m.bridge.start_ms = spec.at.to_ms();
    NewTopic first_pass = topic();
    std::vector<Write> bridged = run_bridge(sources, order, spec.bridge, spec.at, first_pass, logs.keys);
    const SimTime up = caught_up(sources, order, bridged, spec.at);
    m.bridge.caught_up_ms = up.to_ms();
    m.bridge.catch_up_ms = (up - spec.at).to_ms();
    if (spec.strategy == Strategy::kBridge) {
      // The producers switch once the bridge has caught up and the copy is verified; what
      // they send from then on goes to the new topic directly (appended as it was in the
      // run), and the bridge copies only what was sent before. The bridge's prefix up to the
      // catch-up is unchanged by dropping later records: a second pass with the same draws.
      const SimTime switch_at = up + spec.verify;
      m.bridge.switch_ms = switch_at.to_ms();
      std::vector<std::size_t> before;
      for (const std::size_t i : order) {
        if (sources[i].sent < switch_at) before.push_back(i);
        else in_old[i] = false;
      }
      NewTopic second_pass = topic();
      bridged = run_bridge(sources, before, spec.bridge, spec.at, second_pass, logs.keys);
      for (const Write& w : bridged) m.bridge.after_switch += w.append > switch_at ? 1 : 0;
      writes = bridged;
      for (std::size_t j = 0; j < order.size(); ++j) {
        const Source& r = sources[order[j]];
        if (!in_old[order[j]]) writes.push_back(Write{order[j], second_pass.partition_of(r.key, j), r.readable, r.readable});
      }
    } else {
      writes = bridged;
    }
    const SimTime finished = fill_lag(sources, bridged, spec.at, m.bridge);
    m.records_migrated = static_cast<std::int64_t>(bridged.size());
    if (spec.strategy == Strategy::kStopReplay) {
      // Producers stopped at at.ms and resume after the replay and the verification.
      const SimTime resume = finished + spec.verify;
      m.bridge.switch_ms = resume.to_ms();
      m.downtime_ms = (resume - spec.at).to_ms();
    }
  }
  std::vector<std::vector<std::size_t>> old_logs(static_cast<std::size_t>(from.partitions));
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (!in_old[i]) continue;
    old_logs[static_cast<std::size_t>(sources[i].old_partition)].push_back(i);
    ++m.old_records;
  }
  m.order_violations_old = check_order(old_logs, sources).violations;
  fill_common(sources, writes, expected, logs, to.partitions, m);
  return Migrated{std::move(m), new_topic_log(writes, sources, to.partitions)};
}

}  // namespace partsim::model::migration
