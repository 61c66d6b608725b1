#include "model/migration/migration.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include "sim/check.hpp"

namespace partsim::model::migration {
namespace {

using Strategy = MigrationSpec::Strategy;
using Identity = std::pair<std::int32_t, std::int64_t>;  ///< (producer, send index): one send() call

Identity identity(const LogRecord& r) { return {r.producer, r.send_index}; }

struct OrderCount {
  std::int64_t violations = 0;
  std::int64_t keys_affected = 0;
  std::int64_t duplicates = 0;
};

/// Order per key and producer within each partition, in log order: a record is a violation
/// when a record of its key that its producer sent later (a higher send index) precedes it.
/// Kafka orders nothing across producers, so records of one key from two producers are not
/// compared. A send() already seen in the topic is a duplicate, not checked.
OrderCount check_order(const BrokerLogs& logs, std::size_t first_row, std::int32_t partitions) {
  OrderCount c;
  std::set<Identity> seen;
  std::set<std::int32_t> affected;
  for (std::int32_t p = 0; p < partitions; ++p) {
    std::unordered_map<std::uint64_t, std::int64_t> latest;  // (key, producer) -> the latest send index
    for (const LogRecord& r : logs.partitions[first_row + static_cast<std::size_t>(p)].records) {
      if (!seen.insert(identity(r)).second) {
        ++c.duplicates;
        continue;
      }
      if (r.key < 0) continue;
      const std::uint64_t key_and_producer = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(r.key)) << 32) |
                                             static_cast<std::uint32_t>(r.producer);
      auto [it, added] = latest.try_emplace(key_and_producer, r.send_index);
      if (added) continue;
      if (r.send_index < it->second) {
        ++c.violations;
        affected.insert(r.key);
      } else {
        it->second = r.send_index;
      }
    }
  }
  c.keys_affected = static_cast<std::int64_t>(affected.size());
  return c;
}

/// Lag: records readable in the old topic and not yet acknowledged by the new one.
void fill_lag(const std::vector<std::pair<SimTime, SimTime>>& copies, SimTime start, BridgeFigures& f) {
  std::vector<std::pair<SimTime, int>> events;  // 0 = became readable, 1 = acknowledged (readable first at equal times)
  std::int64_t lag = 0;
  SimTime finished = start;
  for (const auto& [readable, ack] : copies) {
    if (readable <= start) ++lag;
    else events.emplace_back(readable, 0);
    events.emplace_back(ack, 1);
    finished = std::max(finished, ack);
  }
  std::sort(events.begin(), events.end());
  f.lag_at_start = lag;
  f.max_lag = lag;
  for (const auto& [t, kind] : events) {
    lag += kind == 0 ? 1 : -1;
    f.max_lag = std::max(f.max_lag, lag);
  }
  f.finished_ms = finished.to_ms();
}

/// One send() of the migrating producers: where its record went.
struct Send {
  std::int32_t key = -1;
  SimTime sent;
  std::int32_t old_partition = -1;  ///< in the old topic (its first), or -1
  bool in_new = false;
};

}  // namespace

const char* strategy_name(Strategy s) {
  switch (s) {
    case Strategy::kStopReplay: return "stop-replay";
    case Strategy::kDualWrite: return "dual-write";
    case Strategy::kBridge: return "bridge";
  }
  return "?";
}

SimTime paced(SimTime start, std::size_t j, double records_per_second) {
  // The end of simulated time a bridge's pace may reach (the loader's 1e12 ms), far inside
  // int64 nanoseconds so that the writes' later times stay representable.
  constexpr std::int64_t kLastNs = 1'000'000'000'000'000'000;
  const double ns = std::ceil(static_cast<double>(j) * 1e9 / records_per_second);
  if (!(ns < static_cast<double>(kLastNs - start.count_ns()))) return SimTime::ns(std::max(kLastNs, start.count_ns()));
  return start + SimTime::ns(static_cast<std::int64_t>(ns));
}

MigrationResult figures(const Scenario& s, const BrokerLogs& logs, std::size_t from_row, std::size_t to_row,
                        const Timeline& t) {
  PARTSIM_CHECK(s.migration.has_value(), "migration figures without a migration section");
  const MigrationSpec& spec = *s.migration;
  const auto topic = [&](const std::string& name) -> const TopicConfig& {
    const auto i = s.topic_index(name);
    PARTSIM_CHECK(i.has_value(), "a migration names a topic the scenario lacks (the loader checks this)");
    return s.topics[*i];
  };
  MigrationResult m;
  m.strategy = strategy_name(spec.strategy);
  m.from = spec.from;
  m.to = spec.to;
  m.from_partitions = topic(spec.from).partitions_before(s.run.duration);  // after its schedule
  m.to_partitions = topic(spec.to).partitions_before(s.run.duration);
  // Every send() of the two topics' records, by (producer, send index): the old topic's,
  // then what only the new topic holds (sent after the switch).
  std::map<Identity, Send> sends;
  const auto send_of = [&sends](const LogRecord& r) -> Send& {
    Send& send = sends[identity(r)];
    send.key = r.key;
    send.sent = r.sent;
    return send;
  };
  for (std::int32_t p = 0; p < m.from_partitions; ++p)
    for (const LogRecord& r : logs.partitions[from_row + static_cast<std::size_t>(p)].records) {
      ++m.old_records;
      Send& send = send_of(r);
      if (send.old_partition < 0) send.old_partition = p;
    }
  struct KeyState {
    std::int32_t old_partition = -1, new_partition = -1;  ///< the first old partition (the sample's), the first new one
    std::set<std::int32_t> old_partitions;                ///< every old partition of the key (one under the hash rule)
    bool split = false, all = true, missing_expected = false;
  };
  std::map<std::int32_t, KeyState> keys;  // by key index: the key table's (first-sent) order
  for (std::int32_t p = 0; p < m.to_partitions; ++p)
    for (const LogRecord& r : logs.partitions[to_row + static_cast<std::size_t>(p)].records) {
      ++m.new_records;
      send_of(r).in_new = true;
      if (r.key < 0) continue;
      KeyState& k = keys[r.key];
      if (k.new_partition < 0) k.new_partition = p;
      k.split = k.split || k.new_partition != p;
    }
  for (const auto& [id, send] : sends) {
    if (spec.strategy == Strategy::kStopReplay && send.old_partition < 0 && send.in_new) ++m.records_after_resume;
    if (send.key < 0) continue;
    KeyState& k = keys[send.key];
    if (send.old_partition >= 0) {
      if (k.old_partition < 0) k.old_partition = send.old_partition;
      k.old_partitions.insert(send.old_partition);
    }
    // Dual write: the records sent from at.ms on belong in the new topic; else every one.
    const bool expected = spec.strategy != Strategy::kDualWrite || send.sent >= spec.at;
    k.all = k.all && send.in_new;
    k.missing_expected = k.missing_expected || (expected && !send.in_new);
  }
  m.keys = static_cast<std::int64_t>(keys.size());
  for (const auto& [key, k] : keys) {
    // Changed: the key's new partition is none of its old ones (a key the old topic spread
    // over several partitions, e.g. by a non-hash partitioner, counts only if it left them
    // all; a key sent only after the switch had none).
    if (k.new_partition >= 0 && !k.old_partitions.empty() && k.old_partitions.count(k.new_partition) == 0)
      ++m.keys_changed_partition;
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
  const OrderCount fresh = check_order(logs, to_row, m.to_partitions);
  m.order_violations = fresh.violations;
  m.keys_out_of_order = fresh.keys_affected;
  m.duplicates = fresh.duplicates;
  m.order_violations_old = check_order(logs, from_row, m.from_partitions).violations;
  m.bridge_record_bytes = t.record_bytes;
  m.has_bridge = spec.strategy != Strategy::kDualWrite;
  m.bridge.start_ms = spec.at.to_ms();
  if (!m.has_bridge) {
    m.records_migrated = m.new_records;  // the second sends that went through
    return m;
  }
  m.records_migrated = static_cast<std::int64_t>(t.copies.size());
  m.bridge.given_up = t.given_up;
  fill_lag(t.copies, spec.at, m.bridge);
  m.bridge.caught_up = t.caught_up.has_value() && t.caught_up_while_sending;
  if (t.caught_up) {
    m.bridge.caught_up_ms = t.caught_up->to_ms();
    m.bridge.catch_up_ms = (*t.caught_up - spec.at).to_ms();
  }
  if (t.switched) {
    m.bridge.switch_ms = t.switched->to_ms();
    for (const auto& [readable, ack] : t.copies) m.bridge.after_switch += ack > *t.switched ? 1 : 0;
    if (spec.strategy == Strategy::kStopReplay) {
      m.resume = *t.switched;
      m.downtime_ms = (*t.switched - spec.at).to_ms();
    }
  }
  return m;
}

}  // namespace partsim::model::migration
