#include "analysis/hot_keys_report.hpp"

#include <algorithm>
#include <numeric>

#include "analysis/format.hpp"
#include "analysis/table.hpp"

namespace partsim::analysis {
namespace {

bool all_exact(const model::RunResult& r) {
  return std::all_of(r.hot_keys.keys.begin(), r.hot_keys.keys.end(),
                     [](const model::HotKey& k) { return k.error == 0; });
}

}  // namespace

std::vector<HotPartition> hot_partitions(const model::RunResult& r) {
  const auto& counted = r.hot_keys.partition_counted;
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < counted.size(); ++i)
    if (counted[i] > 0) order.push_back(i);
  const std::size_t shown = std::min(order.size(), kHotPartitions);
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                    [&](std::size_t a, std::size_t b) {
                      return counted[a] != counted[b] ? counted[a] > counted[b] : a < b;
                    });
  order.resize(shown);
  std::vector<HotPartition> out;
  for (std::size_t p : order) out.push_back({p, counted[p], {}});
  // The counters come highest first, so each partition's first entries are its hottest.
  for (const auto& k : r.hot_keys.keys)
    for (auto& hp : out)
      if (hp.partition == k.partition && hp.keys.size() < kHotKeysPerPartition) hp.keys.push_back(&k);
  return out;
}

std::string hot_keys_to_text(const model::RunResult& r) {
  const auto hot = hot_partitions(r);
  if (hot.empty()) return "";
  const bool exact = all_exact(r);
  std::string out = "hottest keys of the busiest partitions (keyed records sent after the warm-up; ";
  out += exact ? "counts exact)\n"
               : "Space-Saving over " + std::to_string(r.hot_keys.capacity) +
                     " counters: a count may exceed the truth by at most its '+-')\n";
  std::vector<Column> cols{{"topic", Align::kLeft}, {"partition"}, {"keyed records"},
                           {"key", Align::kLeft},   {"records"},   {"share"}};
  if (!exact) cols.push_back({"+-"});
  Table t(std::move(cols));
  for (const auto& hp : hot) {
    const auto& part = r.partitions[hp.partition];
    bool first = true;
    for (const auto* k : hp.keys) {
      std::vector<std::string> row{first ? part.topic : "",
                                   first ? std::to_string(part.partition) : "",
                                   first ? std::to_string(hp.keyed_records) : "",
                                   escape_controls(k->key),
                                   std::to_string(k->records),
                                   fixed(static_cast<double>(k->records) / static_cast<double>(hp.keyed_records), 4)};
      if (!exact) row.push_back(std::to_string(k->error));
      t.add_row(std::move(row));
      first = false;
    }
  }
  return out + t.to_text();
}

nlohmann::ordered_json hot_keys_to_json(const model::RunResult& r) {
  const auto hot = hot_partitions(r);
  if (hot.empty()) return nullptr;
  nlohmann::ordered_json j;
  j["counted"] = r.hot_keys.counted;
  j["capacity"] = r.hot_keys.capacity;
  j["exact"] = all_exact(r);
  auto& parts = j["partitions"] = nlohmann::ordered_json::array();
  for (const auto& hp : hot) {
    auto keys = nlohmann::ordered_json::array();
    for (const auto* k : hp.keys) keys.push_back({{"key", k->key}, {"records", k->records}, {"error", k->error}});
    parts.push_back({{"topic", r.partitions[hp.partition].topic},
                     {"partition", r.partitions[hp.partition].partition},
                     {"keyed_records", hp.keyed_records},
                     {"keys", std::move(keys)}});
  }
  return j;
}

}  // namespace partsim::analysis
