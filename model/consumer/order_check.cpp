#include "model/consumer/order_check.hpp"

#include <algorithm>
#include <cstddef>
#include <unordered_map>

namespace partsim::model::consumer {
namespace {

// The latest send index processed per (key, producer): a dense table when keys x producers
// is small, a hash map otherwise (a million keys from many producers).
class LatestSend {
public:
  LatestSend(std::size_t keys, std::size_t producers)
      : producers_(producers), dense_mode_(keys * producers <= kDenseMax) {
    if (dense_mode_) dense_.assign(keys * producers, -1);
  }
  /// The latest send index of (key, producer) processed so far; -1 when none.
  std::int64_t& at(std::int32_t key, std::int32_t producer) {
    const std::size_t i = static_cast<std::size_t>(key) * producers_ + static_cast<std::size_t>(producer);
    if (dense_mode_) return dense_[i];
    return sparse_.try_emplace(i, -1).first->second;
  }

private:
  static constexpr std::size_t kDenseMax = std::size_t{1} << 22;
  std::size_t producers_;
  bool dense_mode_;
  std::vector<std::int64_t> dense_;
  std::unordered_map<std::size_t, std::int64_t> sparse_;
};

}  // namespace

OrderSummary check_order(std::vector<Processed>& processed, const BrokerLogs& logs) {
  std::stable_sort(processed.begin(), processed.end(),
                   [](const Processed& a, const Processed& b) { return a.at < b.at; });
  auto record = [&](const Processed& p) -> const LogRecord& {
    return logs.partitions[static_cast<std::size_t>(p.log)].records[static_cast<std::size_t>(p.offset)];
  };
  std::size_t producers = 0;
  for (const Processed& p : processed)
    producers = std::max(producers, static_cast<std::size_t>(record(p).producer) + 1);
  LatestSend latest(logs.keys.size(), producers);
  std::vector<std::vector<bool>> consumed(producers);  ///< per producer, by send index: processed once already
  std::vector<bool> key_violated(logs.keys.size(), false);
  OrderSummary s;
  for (Processed& p : processed) {
    if (p.duplicate) continue;  // an offset processed again: its first processing was checked
    const LogRecord& r = record(p);
    // The same send() at a second offset (a retry of a batch the leader had appended,
    // kafka-consumer-spec §8): the copy processed second is a duplicate.
    auto& seen = consumed[static_cast<std::size_t>(r.producer)];
    const auto index = static_cast<std::size_t>(r.send_index);
    if (index >= seen.size()) seen.resize(std::max(index + 1, seen.size() * 2), false);
    if (seen[index]) {
      p.duplicate = true;
      ++s.written_twice;
      continue;
    }
    seen[index] = true;
    if (r.key == LogRecord::kNullKey) continue;
    // Kafka orders one producer's records of a key in one partition, nothing across
    // producers: each producer's send order is checked on its own (as log_order does).
    std::int64_t& last = latest.at(r.key, r.producer);
    if (r.send_index < last) {
      ++s.violations;
      if (!key_violated[static_cast<std::size_t>(r.key)]) ++s.keys_affected;
      key_violated[static_cast<std::size_t>(r.key)] = true;
    } else {
      last = r.send_index;
    }
  }
  return s;
}

}  // namespace partsim::model::consumer
