#include "model/consumer/order_check.hpp"

#include <algorithm>
#include <tuple>

namespace partsim::model::consumer {

OrderSummary check_order(std::vector<Processed>& processed, const BrokerLogs& logs) {
  std::stable_sort(processed.begin(), processed.end(), [](const Processed& a, const Processed& b) { return a.at < b.at; });
  struct Latest {
    bool seen = false;
    bool violated = false;
    std::tuple<SimTime, std::int32_t, std::int64_t> sent;  ///< the latest send processed so far
  };
  std::vector<Latest> latest(logs.keys.size());
  OrderSummary s;
  for (const Processed& p : processed) {
    if (p.duplicate) continue;
    const LogRecord& r = logs.partitions[static_cast<std::size_t>(p.log)].records[static_cast<std::size_t>(p.offset)];
    if (r.key == LogRecord::kNullKey) continue;
    Latest& k = latest[static_cast<std::size_t>(r.key)];
    const auto sent = std::make_tuple(r.sent, r.producer, r.send_index);
    if (k.seen && sent < k.sent) {
      ++s.violations;
      if (!k.violated) ++s.keys_affected;
      k.violated = true;
    } else {
      k.sent = sent;
      k.seen = true;
    }
  }
  return s;
}

}  // namespace partsim::model::consumer
