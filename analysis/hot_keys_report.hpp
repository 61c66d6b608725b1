#pragma once
// The keys behind the busiest partitions of a keyed run: for the partitions that got the
// most keyed records after the warm-up, their hottest keys with counts (from the run's
// Space-Saving counters, model/producer/hot_keys.hpp), as a table and as JSON.

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/run_result.hpp"

namespace partsim::analysis {

inline constexpr std::size_t kHotPartitions = 5;        ///< busiest partitions shown
inline constexpr std::size_t kHotKeysPerPartition = 3;  ///< hottest keys shown for each

struct HotPartition {
  std::size_t partition = 0;               ///< index into RunResult::partitions
  std::int64_t keyed_records = 0;          ///< keyed records it got after the warm-up (exact)
  std::vector<const model::HotKey*> keys;  ///< its hottest keys, highest count first
};

/// The busiest partitions by keyed records (ties: lower index first) with their hottest
/// keys; empty when the run had no keyed records after the warm-up.
std::vector<HotPartition> hot_partitions(const model::RunResult& r);

/// "hottest keys of the busiest partitions ..." and a table; "" without keyed records.
std::string hot_keys_to_text(const model::RunResult& r);

/// {"counted", "capacity", "exact", "partitions": [{"topic", "partition", "keyed_records",
/// "keys": [{"key", "records", "error"}]}]}; null without keyed records.
nlohmann::ordered_json hot_keys_to_json(const model::RunResult& r);

}  // namespace partsim::analysis
