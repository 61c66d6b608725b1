#include "model/consumer/detail/uniform_heterogeneous.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace partsim::model::consumer::detail {
namespace {

constexpr int kMaxIterations = 16;  // UHet:71, MAX_ITERATION_COUNT

// MemberAssignmentBalancer: over a topic's subscribers sorted by (size, index), a range of
// least-loaded members that grows rightwards as its level rises, and a range of most-loaded
// members that grows leftwards as its level falls; balanced when the levels differ by <= 1.
class Balancer {
public:
  explicit Balancer(const std::vector<std::int32_t>& sizes) : sizes_(sizes) {}

  /// Returns the difference between the largest and the smallest size.
  std::int32_t initialize(const std::vector<std::size_t>& members) {
    sorted_ = members;
    std::sort(sorted_.begin(), sorted_.end(),
              [&](std::size_t a, std::size_t b) { return sizes_[a] != sizes_[b] ? sizes_[a] < sizes_[b] : a < b; });
    least_end_ = 0;
    least_level_ = sizes_[sorted_.front()] - 1;
    next_least_ = 0;
    most_start_ = most_end_ = sorted_.size();
    most_level_ = sizes_[sorted_.back()] + 1;
    next_most_ = static_cast<std::ptrdiff_t>(sorted_.size()) - 1;
    return sizes_[sorted_.back()] - sizes_[sorted_.front()];
  }

  std::size_t next_least_loaded() {
    if (next_least_ >= least_end_) {
      ++least_level_;
      while (least_end_ < sorted_.size() && sizes_[sorted_[least_end_]] == least_level_) ++least_end_;
      next_least_ = 0;
    }
    return sorted_[next_least_++];
  }

  /// -1 when no member is left that could give up a partition.
  std::ptrdiff_t next_most_loaded() {
    if (next_most_ < static_cast<std::ptrdiff_t>(most_start_)) {
      if (most_end_ <= most_start_ && most_start_ > 0) most_level_ = sizes_[sorted_[most_start_ - 1]];
      else --most_level_;
      while (most_start_ > 0 && sizes_[sorted_[most_start_ - 1]] == most_level_) --most_start_;
      next_most_ = static_cast<std::ptrdiff_t>(most_end_) - 1;
    }
    if (next_most_ < 0) return -1;
    return static_cast<std::ptrdiff_t>(sorted_[static_cast<std::size_t>(next_most_--)]);
  }

  /// Drops the member next_most_loaded() returned last from the most-loaded range.
  void exclude_most_loaded() {
    const auto at = static_cast<std::size_t>(next_most_ + 1);
    std::swap(sorted_[at], sorted_[most_end_ - 1]);
    --most_end_;
  }

  bool balanced() const { return most_level_ - least_level_ <= 1; }

private:
  const std::vector<std::int32_t>& sizes_;
  std::vector<std::size_t> sorted_;
  std::size_t least_end_ = 0, next_least_ = 0;
  std::int32_t least_level_ = -1, most_level_ = 1;
  std::size_t most_start_ = 0, most_end_ = 0;
  std::ptrdiff_t next_most_ = -1;
};

class Builder {
public:
  explicit Builder(const ServerGroup& g) : g_(g), n_(g.spec.members.size()), sizes_(n_, 0) {
    // memberIds() numbered 0..M-1: the indices break ties.
    for (std::size_t i = 0; i < n_; ++i) {
      const auto m = g.member_ids[i];
      for (const auto& t : g.subscribed[m]) {
        if (subscribers_.count(t) == 0) owners_[t].assign(static_cast<std::size_t>(g.topics.find(t)->partitions), -1);
        subscribers_[t].push_back(i);
        subscribed_[i].insert(t);
      }
    }
  }

  std::vector<std::vector<TopicPartition>> build() {
    std::vector<std::vector<TopicPartition>> out(n_);
    if (subscribers_.empty()) return out;
    // maybeRevokePartitions: what a member still subscribes to it keeps.
    for (std::size_t i = 0; i < n_; ++i)
      for (const auto& tp : g_.owned[g_.member_ids[i]])
        if (subscribed_[i].count(tp.topic) > 0) {
          owners_[tp.topic][static_cast<std::size_t>(tp.partition)] = static_cast<std::ptrdiff_t>(i);
          ++sizes_[i];
        }
    assign_remaining();
    balance();
    for (const auto& [topic, owners] : owners_)
      for (std::size_t p = 0; p < owners.size(); ++p)
        out[g_.member_ids[static_cast<std::size_t>(owners[p])]].push_back({topic, static_cast<std::int32_t>(p)});
    return out;
  }

private:
  // topicComparator: partitions per subscriber descending, subscribers ascending, topic id.
  std::vector<std::string> sorted_topics(std::vector<std::string> topics) const {
    std::sort(topics.begin(), topics.end(), [&](const std::string& a, const std::string& b) {
      const double pa =
          static_cast<double>(g_.topics.find(a)->partitions) / static_cast<double>(subscribers_.at(a).size());
      const double pb =
          static_cast<double>(g_.topics.find(b)->partitions) / static_cast<double>(subscribers_.at(b).size());
      if (pa != pb) return pa > pb;
      if (subscribers_.at(a).size() != subscribers_.at(b).size())
        return subscribers_.at(a).size() < subscribers_.at(b).size();
      return g_.topic_less(a, b);
    });
    return topics;
  }

  void assign(const std::string& topic, std::size_t p, std::size_t member) {
    auto& owner = owners_[topic][p];
    if (owner >= 0) --sizes_[static_cast<std::size_t>(owner)];
    owner = static_cast<std::ptrdiff_t>(member);
    ++sizes_[member];
  }

  // assignRemainingPartitions: topic by topic, each unassigned partition to the least-loaded
  // subscriber.
  void assign_remaining() {
    std::vector<std::string> topics;
    for (const auto& [t, owners] : owners_)
      if (std::find(owners.begin(), owners.end(), -1) != owners.end()) topics.push_back(t);
    Balancer balancer(sizes_);
    for (const auto& t : sorted_topics(topics)) {
      balancer.initialize(subscribers_.at(t));
      for (std::size_t p = 0; p < owners_[t].size(); ++p)
        if (owners_[t][p] == -1) assign(t, p, balancer.next_least_loaded());
    }
  }

  // balance + balanceTopics: rounds over the topics with two or more subscribers, stopping
  // after a full round without a move or after 16 rounds.
  void balance() {
    std::vector<std::string> topics;
    for (const auto& [t, subs] : subscribers_)
      if (subs.size() >= 2) topics.push_back(t);
    if (topics.empty()) return;
    topics = sorted_topics(topics);
    std::ptrdiff_t last_rebalanced = -1;
    Balancer balancer(sizes_);
    for (int i = 0; i < kMaxIterations; ++i)
      for (std::size_t k = 0; k < topics.size(); ++k) {
        if (static_cast<std::ptrdiff_t>(k) == last_rebalanced) return;
        if (balance_topic(topics[k], balancer) > 0 || last_rebalanced == -1)
          last_rebalanced = static_cast<std::ptrdiff_t>(k);
      }
  }

  // balanceTopic: the topic's partitions grouped by owner; the most-loaded subscribers give
  // their last partition to the least-loaded until the two levels differ by at most one.
  int balance_topic(const std::string& topic, Balancer& balancer) {
    int moved = 0;
    if (balancer.initialize(subscribers_.at(topic)) <= 1) return moved;
    const auto& owners = owners_[topic];
    std::vector<std::size_t> partitions(owners.size());
    for (std::size_t p = 0; p < partitions.size(); ++p) partitions[p] = p;
    std::sort(partitions.begin(), partitions.end(),
              [&](std::size_t a, std::size_t b) { return owners[a] != owners[b] ? owners[a] < owners[b] : a < b; });
    std::map<std::ptrdiff_t, std::size_t> start, end;  // per owner, its range in `partitions`
    for (std::size_t i = 0; i < partitions.size(); ++i) {
      start.emplace(owners[partitions[i]], i);
      end[owners[partitions[i]]] = i + 1;
    }
    while (!balancer.balanced()) {
      std::ptrdiff_t most = -1;
      for (;;) {
        most = balancer.next_most_loaded();
        if (most == -1) break;
        const auto e = end.find(most);
        if (e == end.end() || e->second <= start.at(most)) {
          balancer.exclude_most_loaded();
          continue;
        }
        break;
      }
      if (most == -1) break;
      const auto p = partitions[--end[most]];
      const auto least = balancer.next_least_loaded();
      if (balancer.balanced()) break;
      assign(topic, p, least);
      ++moved;
    }
    return moved;
  }

  const ServerGroup& g_;
  const std::size_t n_;
  std::vector<std::int32_t> sizes_;                              // memberTargetAssignmentSizes
  std::map<std::string, std::vector<std::size_t>> subscribers_;  // topicSubscribers
  std::map<std::size_t, std::set<std::string>> subscribed_;
  std::map<std::string, std::vector<std::ptrdiff_t>> owners_;  // targetAssignmentPartitionOwners
};

}  // namespace

std::vector<std::vector<TopicPartition>> uniform_heterogeneous(const ServerGroup& g) { return Builder(g).build(); }

}  // namespace partsim::model::consumer::detail
