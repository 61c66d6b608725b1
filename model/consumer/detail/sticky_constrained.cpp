// AbstractStickyAssignor.ConstrainedAssignmentBuilder (spec §2.4, ASA:585-920): every member
// subscribes the same topics, so every member can take any partition. With P partitions and N
// members, minQuota = P / N, maxQuota = ceil(P / N), and exactly P % N members end at maxQuota.
// Worked example (AbstractStickyAssignorTest, "max quota consumer more than expected"): 4
// partitions, 3 members -> min 1, max 2, one member over. consumer2 (first in HashMap order)
// owns 2 and keeps both; consumer1 owns 2 but only one member may exceed min, so it keeps
// topic1-0 (partition order first) and topic2-0 goes to consumer3, "transferring ownership".

#include <algorithm>
#include <deque>

#include "model/consumer/detail/sticky_common.hpp"
#include "model/consumer/java_order.hpp"
#include "sim/check.hpp"

namespace partsim::model::consumer::detail {
namespace {

class ConstrainedBuilder {
public:
  ConstrainedBuilder(const StickyContext& ctx, const RackInfo& racks) : ctx_(ctx), racks_(racks) {
    const auto n = static_cast<std::int32_t>(ctx.spec.members.size());
    min_quota_ = ctx.total_partitions / n;
    max_quota_ = (ctx.total_partitions + n - 1) / n;
    expected_over_ = ctx.total_partitions % n;
    out_.assignment.resize(ctx.spec.members.size());
    out_.transferring.emplace();
  }

  StickyOutcome build() {
    assign_owned_partitions();
    auto unassigned = unassigned_partitions();
    const auto by_id = [&](std::size_t a, std::size_t b) {
      return java_string_less(ctx_.spec.members[a].id, ctx_.spec.members[b].id);
    };
    std::sort(under_.begin(), under_.end(), by_id);
    std::sort(exactly_min_.begin(), exactly_min_.end(), by_id);
    unassigned = racks_.sort_by_rack_consumers(std::move(unassigned));
    if (racks_.used()) assign_rack_aware_round_robin(unassigned);
    assign_round_robin(unassigned);
    verify_unfilled_members();
    return std::move(out_);
  }

private:
  // assignOwnedPartitions: each member, in HashMap order, keeps its rack-matching owned
  // partitions sorted by (partition, topic) up to minQuota, or up to maxQuota while fewer
  // than P % N members have been allowed over minQuota.
  void assign_owned_partitions() {
    for (auto m : ctx_.order) {
      std::vector<TopicPartition> owned;
      for (const auto& tp : ctx_.owned[m]) {
        if (racks_.racks_mismatch(m, tp)) maybe_revoked_[key_of(tp)] = m;
        else owned.push_back(tp);
      }
      std::stable_sort(owned.begin(), owned.end(), [](const TopicPartition& a, const TopicPartition& b) {
        return a.partition != b.partition ? a.partition < b.partition : java_string_less(a.topic, b.topic);
      });
      std::erase_if(owned, [&](const TopicPartition& tp) { return ctx_.multiply_owned.count(key_of(tp)) > 0; });
      const auto size = static_cast<std::int32_t>(owned.size());
      std::int32_t keep = 0;
      if (size < min_quota_) {
        keep = size;
        under_.push_back(m);
      } else if (size >= max_quota_ && current_over_ < expected_over_) {
        if (++current_over_ == expected_over_) exactly_min_.clear();
        keep = max_quota_;
      } else {
        keep = min_quota_;
        if (current_over_ < expected_over_) exactly_min_.push_back(m);
      }
      for (std::int32_t i = 0; i < size; ++i) {
        const auto& tp = owned[static_cast<std::size_t>(i)];
        if (i < keep) {
          out_.assignment[m].push_back(tp);
          assigned_.insert(key_of(tp));
        } else {
          maybe_revoked_[key_of(tp)] = m;
        }
      }
    }
  }

  // getUnassignedPartitions: every partition, topics by name and partitions ascending, that
  // no member kept.
  std::vector<TopicPartition> unassigned_partitions() const {
    std::vector<const TopicMetadata*> topics = ctx_.subscribed;
    std::sort(topics.begin(), topics.end(),
              [](const TopicMetadata* a, const TopicMetadata* b) { return java_string_less(a->name, b->name); });
    std::vector<TopicPartition> out;
    for (const auto* t : topics)
      for (std::int32_t p = 0; p < t->partitions; ++p)
        if (assigned_.count({t->name, p}) == 0) out.push_back({t->name, p});
    return out;
  }

  // assignRackAwareRoundRobin: partitions go first to under-filled members on a rack that
  // holds a replica (circularly, from where the last one was found), then to members at
  // exactly minQuota on such a rack while members may still exceed it.
  void assign_rack_aware_round_robin(std::vector<TopicPartition>& unassigned) {
    std::size_t next = 0;
    for (auto it = unassigned.begin(); it != unassigned.end();) {
      const auto& tp = *it;
      std::optional<std::size_t> consumer;
      if (auto index = racks_.next_rack_consumer(tp, under_, next); index >= 0) {
        consumer = under_[static_cast<std::size_t>(index)];
        const auto count = static_cast<std::int32_t>(out_.assignment[*consumer].size()) + 1;
        if (count >= min_quota_) {
          under_.erase(std::find(under_.begin(), under_.end(), *consumer));
          if (count < max_quota_ && current_over_ < expected_over_) exactly_min_.push_back(*consumer);
        } else {
          ++index;
        }
        next = under_.empty() ? 0 : static_cast<std::size_t>(index) % under_.size();
      } else if (!exactly_min_.empty()) {
        const std::vector<std::size_t> candidates(exactly_min_.begin(), exactly_min_.end());
        if (const auto first = racks_.next_rack_consumer(tp, candidates, 0); first >= 0) {
          consumer = candidates[static_cast<std::size_t>(first)];
          if (static_cast<std::int32_t>(out_.assignment[*consumer].size()) + 1 == max_quota_) {
            exactly_min_.erase(exactly_min_.begin() + first);
            if (++current_over_ == expected_over_) exactly_min_.clear();
          }
        }
      }
      if (consumer) {
        assign_new_partition(tp, *consumer);
        it = unassigned.erase(it);
      } else {
        ++it;
      }
    }
  }

  // assignRoundRobin: the rest, one each to the under-filled members in turn (a member
  // reaching minQuota moves to the end of the exactly-min list), then to the exactly-min
  // members from the front, each taking one more up to maxQuota.
  void assign_round_robin(const std::vector<TopicPartition>& unassigned) {
    std::size_t cursor = 0;  // the LinkedList iterator over under_: next() returns under_[cursor]
    for (const auto& tp : unassigned) {
      std::size_t consumer = 0;
      if (cursor < under_.size()) {
        consumer = under_[cursor++];
      } else {
        PARTSIM_CHECK(!under_.empty() || !exactly_min_.empty(), "sticky assignor: no member left to fill");
        if (under_.empty()) {
          consumer = exactly_min_.front();
          exactly_min_.pop_front();
        } else {
          cursor = 0;
          consumer = under_[cursor++];
        }
      }
      const auto count = assign_new_partition(tp, consumer);
      if (count == min_quota_) {
        PARTSIM_CHECK(cursor > 0 && under_[cursor - 1] == consumer,
                      "sticky assignor: a member reached minQuota outside the under-filled list");
        under_.erase(under_.begin() + static_cast<std::ptrdiff_t>(--cursor));
        exactly_min_.push_back(consumer);
      } else if (count == max_quota_) {
        ++current_over_;
      }
    }
  }

  std::int32_t assign_new_partition(const TopicPartition& tp, std::size_t consumer) {
    out_.assignment[consumer].push_back(tp);
    const auto k = key_of(tp);
    const auto revoked = maybe_revoked_.find(k);
    if ((revoked != maybe_revoked_.end() && revoked->second != consumer) || ctx_.multiply_owned.count(k) > 0)
      (*out_.transferring)[k] = consumer;
    return static_cast<std::int32_t>(out_.assignment[consumer].size());
  }

  // verifyUnfilledMembers: Kafka throws IllegalStateException here; it marks a broken rule.
  void verify_unfilled_members() const {
    if (under_.empty()) return;
    PARTSIM_CHECK(current_over_ == expected_over_, "sticky assignor: too few members above minQuota");
    for (auto m : under_)
      PARTSIM_CHECK(static_cast<std::int32_t>(out_.assignment[m].size()) == min_quota_,
                    "sticky assignor: a member ended below minQuota");
  }

  const StickyContext& ctx_;
  const RackInfo& racks_;
  std::int32_t min_quota_ = 0, max_quota_ = 0, expected_over_ = 0, current_over_ = 0;
  std::map<PartitionKey, std::size_t> maybe_revoked_;
  std::vector<std::size_t> under_;       // unfilledMembersWithUnderMinQuotaPartitions
  std::deque<std::size_t> exactly_min_;  // unfilledMembersWithExactlyMinQuotaPartitions
  std::set<PartitionKey> assigned_;
  StickyOutcome out_;
};

}  // namespace

StickyOutcome constrained_assign(const StickyContext& ctx, const RackInfo& racks) {
  if (ctx.spec.members.empty()) {
    StickyOutcome none;
    none.transferring.emplace();
    return none;
  }
  return ConstrainedBuilder(ctx, racks).build();
}

}  // namespace partsim::model::consumer::detail
