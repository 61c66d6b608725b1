#include "model/placement/kafka_generate.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "model/placement/java_random.hpp"
#include "model/placement/reassign_planner.hpp"

namespace partsim::model {
namespace {

// Replicas of the topic's partitions (`rows`) placed on a broker that did not hold them.
std::int64_t moves_of(const GenerateRequest& r, const std::vector<std::size_t>& rows, const Assignment& placed) {
  std::int64_t moves = 0;
  for (auto i : rows) {
    const auto& now = r.current[i];
    for (auto broker : placed[static_cast<std::size_t>(r.partitions[i].partition)])
      if (std::find(now.begin(), now.end(), broker) == now.end()) ++moves;
  }
  return moves;
}

// Every (start, shift) pair when placing the topic for each costs at most `max_work`
// partition placements, else a fixed sample of pairs drawn from java.util.Random(seed + 1).
std::vector<std::pair<std::int32_t, std::int32_t>> candidate_draws(std::int32_t n, std::int32_t count,
                                                                   const GenerateRequest& r, bool& sampled) {
  std::vector<std::pair<std::int32_t, std::int32_t>> draws;
  if (static_cast<std::int64_t>(n) * n * count <= r.max_work) {
    for (std::int32_t a = 0; a < n; ++a)
      for (std::int32_t b = 0; b < n; ++b) draws.push_back({a, b});
    return draws;
  }
  // seed + 1 wraps as Java's long does (a signed overflow would be undefined in C++).
  JavaRandom<JavaLcg> sampler{JavaLcg(static_cast<std::int64_t>(static_cast<std::uint64_t>(r.seed) + 1))};
  const auto k = std::max<std::int64_t>(100, r.max_work / std::max(1, count));
  for (std::int64_t i = 0; i < k; ++i) {
    const auto a = sampler.next_int(n);
    draws.push_back({a, sampler.next_int(n)});
  }
  sampled = true;
  return draws;
}

}  // namespace

GenerateResult kafka_generate(const GenerateRequest& r) {
  auto targets = r.targets;
  std::sort(targets.begin(), targets.end(), [](const auto& x, const auto& y) { return x.id < y.id; });
  std::vector<std::int32_t> ids;
  for (const auto& t : targets) ids.push_back(t.id);
  const auto n = static_cast<std::int32_t>(ids.size());
  std::map<std::string, std::vector<std::size_t>> topics;  // topic -> input rows
  for (std::size_t i = 0; i < r.partitions.size(); ++i) topics[r.partitions[i].topic].push_back(i);
  GenerateResult g;
  g.rack_aware = std::none_of(targets.begin(), targets.end(), [](const auto& t) { return t.rack.empty(); });
  g.seeded.resize(r.partitions.size());
  JavaRandom<JavaLcg> random{JavaLcg(r.seed)};
  for (const auto& [topic, rows] : topics) {
    std::int32_t count = 0;
    for (auto i : rows) count = std::max(count, r.partitions[i].partition + 1);
    const auto topic_rf = r.rf[rows.front()];  // Kafka takes the topic's replication factor from its first partition
    auto place = [&](std::int32_t start, std::int32_t shift) {
      return g.rack_aware ? admin_rack_aware(targets, count, topic_rf, start, shift)
                          : admin_rack_unaware(ids, count, topic_rf, start, shift);
    };
    const auto start = random.next_int(n);
    const auto shift = random.next_int(n);
    const auto drawn = place(start, shift);
    for (auto i : rows) g.seeded[i] = drawn[static_cast<std::size_t>(r.partitions[i].partition)];
    const auto draws = candidate_draws(n, count, r, g.sampled);
    std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = 0, sum = 0;
    for (const auto& [a, b] : draws) {
      const auto moves = moves_of(r, rows, place(a, b));
      lo = std::min(lo, moves);
      hi = std::max(hi, moves);
      sum += moves;
    }
    g.min_moves += lo;
    g.max_moves += hi;
    g.mean_moves += static_cast<double>(sum) / static_cast<double>(draws.size());
    g.draws = std::max<std::int64_t>(g.draws, static_cast<std::int64_t>(draws.size()));
  }
  g.possible = static_cast<std::int64_t>(n) * n;
  g.moves = count_moves(r.current, g.seeded);
  g.leader_changes = count_leader_changes(r.current, g.seeded);
  return g;
}

}  // namespace partsim::model
