#include "model/cluster/leadership.hpp"

#include <algorithm>

#include "sim/check.hpp"

namespace partsim::model {

namespace {

std::vector<BrokerConfig> numbered(std::size_t brokers) {
  std::vector<BrokerConfig> out(brokers);
  for (std::size_t b = 0; b < brokers; ++b) out[b].id = static_cast<std::int32_t>(b);
  return out;
}

}  // namespace

Leadership::Leadership(const std::vector<TopicConfig>& topics, std::size_t brokers)
    : Leadership(topics, numbered(brokers)) {}

Leadership::Leadership(const std::vector<TopicConfig>& topics, const std::vector<BrokerConfig>& brokers)
    : brokers_(brokers.size()) {
  for (const auto& tc : topics) {
    // The assignment names brokers by id (the loader checks every id is a broker's).
    auto& assigned = assigned_.emplace_back();
    for (const auto& ids : tc.assignment) {
      auto& r = assigned.emplace_back();
      for (const std::int32_t id : ids)
        for (std::size_t b = 0; b < brokers.size(); ++b)
          if (brokers[b].id == id) r.push_back(static_cast<std::int32_t>(b));
      PARTSIM_CHECK(!r.empty() && r.size() == ids.size(), "a topic's assignment names a broker id no broker has");
    }
    const std::size_t t = replicas_.size();
    auto& reps = replicas_.emplace_back();
    auto& leads = leaders_.emplace_back();
    for (std::int32_t p = 0; p < tc.partitions; ++p) {
      std::vector<std::int32_t> r = placed(t, p, static_cast<std::size_t>(tc.replication_factor));
      leads.push_back(r.front());
      reps.push_back(std::move(r));
    }
  }
}

std::vector<std::int32_t> Leadership::placed(std::size_t t, std::int32_t p, std::size_t rf) const {
  if (static_cast<std::size_t>(p) < assigned_[t].size()) return assigned_[t][static_cast<std::size_t>(p)];
  const auto n = static_cast<std::int32_t>(brokers_);
  std::vector<std::int32_t> r;
  for (std::int32_t j = 0; j < static_cast<std::int32_t>(rf); ++j) r.push_back((p + j) % n);
  return r;
}

void Leadership::add_partitions(std::size_t t, std::int32_t partitions, std::span<const char> up) {
  auto& reps = replicas_[t];
  auto& leads = leaders_[t];
  const std::size_t rf = reps.empty() ? 1 : reps.front().size();
  for (auto p = static_cast<std::int32_t>(reps.size()); p < partitions; ++p) {
    std::vector<std::int32_t> r = placed(t, p, rf);
    std::int32_t leader = -1;
    for (const std::int32_t b : r)
      if (up[static_cast<std::size_t>(b)]) {
        leader = b;
        break;
      }
    leads.push_back(leader);
    reps.push_back(std::move(r));
  }
}

bool Leadership::broker_failed(std::int32_t b, std::span<const char> up) {
  bool changed = false;
  for (std::size_t t = 0; t < leaders_.size(); ++t)
    for (std::size_t p = 0; p < leaders_[t].size(); ++p) {
      if (leaders_[t][p] != b) continue;
      changed = true;
      leaders_[t][p] = -1;
      for (const std::int32_t r : replicas_[t][p])
        if (up[static_cast<std::size_t>(r)]) {
          leaders_[t][p] = r;
          break;
        }
    }
  return changed;
}

bool Leadership::broker_recovered(std::int32_t b) {
  bool changed = false;
  for (std::size_t t = 0; t < leaders_.size(); ++t)
    for (std::size_t p = 0; p < leaders_[t].size(); ++p) {
      const auto& r = replicas_[t][p];
      if (leaders_[t][p] < 0 && std::find(r.begin(), r.end(), b) != r.end()) {
        leaders_[t][p] = b;
        changed = true;
      }
    }
  return changed;
}

bool Leadership::rebalance_preferred(std::span<const char> up, double imbalance_percent, const Eligible& eligible) {
  bool moved = false;
  for (std::size_t b = 0; b < brokers_; ++b) {
    if (!up[b]) continue;
    const auto broker = static_cast<std::int32_t>(b);
    std::int32_t preferred = 0, elsewhere = 0;
    for (std::size_t t = 0; t < leaders_.size(); ++t)
      for (std::size_t p = 0; p < leaders_[t].size(); ++p)
        if (replicas_[t][p].front() == broker) {
          ++preferred;
          if (leaders_[t][p] != broker) ++elsewhere;
        }
    if (preferred == 0 || 100.0 * elsewhere / preferred <= imbalance_percent) continue;
    for (std::size_t t = 0; t < leaders_.size(); ++t)
      for (std::size_t p = 0; p < leaders_[t].size(); ++p)
        if (replicas_[t][p].front() == broker && leaders_[t][p] != broker && (!eligible || eligible(t, p, broker))) {
          leaders_[t][p] = broker;
          moved = true;
        }
  }
  return moved;
}

std::vector<std::int32_t> Leadership::leaders_per_broker() const {
  std::vector<std::int32_t> counts(brokers_, 0);
  for (const auto& leads : leaders_)
    for (const std::int32_t l : leads)
      if (l >= 0) ++counts[static_cast<std::size_t>(l)];
  return counts;
}

}  // namespace partsim::model
