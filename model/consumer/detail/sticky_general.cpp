// AbstractStickyAssignor.GeneralAssignmentBuilder (spec §2.4, ASA:939-1502): subscriptions
// differ. Members keep the owned partitions they still subscribe to (and, with KIP-881, whose
// racks match); the rest go one by one, topics with the fewest potential members first, to
// the least-loaded subscriber; then partitions move from members that hold two or more more
// than another potential owner until the assignment is balanced, preferring to hand a
// partition back to its owner of an older generation. A rebalance that ends no better
// balanced than it started (by the sum of pairwise size differences) is undone.
// Worked example (AbstractStickyAssignorTest, "multiple consumers mixed topic
// subscriptions"): topic1 with 3 partitions, topic2 with 2; consumer1 and consumer3
// subscribe topic1, consumer2 both. topic1 has 3 potential members, topic2 one, so topic2
// goes first: both to consumer2; topic1-0 to consumer1, topic1-1 to consumer3, topic1-2 to
// consumer1 (sizes 1, 2, 1 -> the least loaded by id). Result [t1-0, t1-2], [t2-0, t2-1], [t1-1].

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "model/consumer/detail/partition_movements.hpp"
#include "model/consumer/detail/sticky_common.hpp"
#include "model/consumer/java_order.hpp"
#include "model/topic_partition.hpp"
#include "sim/check.hpp"

namespace partsim::model::consumer::detail {
namespace {

constexpr std::ptrdiff_t kNobody = -1;

class GeneralBuilder {
public:
  GeneralBuilder(const StickyContext& ctx, const RackInfo& racks)
      : ctx_(ctx), racks_(racks), n_(ctx.spec.members.size()) {
    index_partitions();
    potential_topics_.resize(n_);
    subscribes_.assign(n_, std::vector<bool>(topic_names_.size(), false));
    for (auto m : ctx_.order)
      for (const auto& t : ctx_.topics_of[m])
        if (const auto it = topic_index_.find(t); it != topic_index_.end()) {
          potential_topics_[m].push_back(it->second);
          potential_consumers_[it->second].push_back(m);
          subscribes_[m][it->second] = true;
        }
    assignment_.resize(n_);
    owner_.assign(partitions_.size(), kNobody);
    for (auto m : ctx_.order)
      for (const auto& tp : ctx_.owned[m]) {
        assignment_[m].push_back(handle(tp));
        owner_[handle(tp)] = static_cast<std::ptrdiff_t>(m);
      }
    std::vector<std::size_t> topics(topic_names_.size());
    std::iota(topics.begin(), topics.end(), 0);
    std::sort(topics.begin(), topics.end(), [&](std::size_t a, std::size_t b) {  // TopicComparator
      const auto ca = potential_consumers_[a].size(), cb = potential_consumers_[b].size();
      return ca != cb ? ca < cb : java_string_less(topic_names_[a], topic_names_[b]);
    });
    for (auto t : topics)
      for (std::int32_t p = 0; p < partition_counts_[t]; ++p)
        sorted_all_partitions_.push_back(first_handle_[t] + static_cast<std::size_t>(p));
    const auto by_id = sorted_by_id(ctx_.spec.members);
    rank_.resize(n_);
    for (std::size_t r = 0; r < by_id.size(); ++r) rank_[by_id[r]] = static_cast<std::int32_t>(r);
    member_at_rank_ = by_id;
    fixed_.assign(n_, false);
    in_sorted_.assign(n_, false);
    sorted_size_.assign(n_, 0);
  }

  StickyOutcome build() {
    const auto prev = previous_assignment();
    std::vector<std::int32_t> hash_of(partitions_.size());
    for (std::size_t h = 0; h < partitions_.size(); ++h)
      hash_of[h] = topic_partition_hash(partitions_[h].topic, partitions_[h].partition);
    movements_.emplace(handle_topic_, std::move(hash_of));
    const auto assigned = assign_owned_partitions();
    auto unassigned = sorted_all_partitions_;
    std::erase_if(unassigned, [&](std::size_t h) { return assigned.count(h) > 0; });
    for (std::size_t m = 0; m < n_; ++m) sorted_insert(m);
    balance(prev, unassigned);
    StickyOutcome out;
    out.kafka_failure = kafka_failure_;
    out.assignment.resize(n_);
    for (std::size_t m = 0; m < n_; ++m)
      for (auto h : assignment_[m]) out.assignment[m].push_back(partitions_[h]);
    return out;
  }

private:
  struct PreviousOwner {
    std::size_t member = 0;
    std::int32_t generation = kDefaultGeneration;
  };

  void index_partitions() {
    for (const auto* t : ctx_.subscribed) {
      topic_index_[t->name] = topic_names_.size();
      topic_names_.push_back(t->name);
      partition_counts_.push_back(t->partitions);
      first_handle_.push_back(partitions_.size());
      for (std::int32_t p = 0; p < t->partitions; ++p) {
        partitions_.push_back({t->name, p});
        handle_topic_.push_back(topic_names_.size() - 1);
      }
    }
    potential_consumers_.resize(topic_names_.size());
  }
  std::size_t handle(const TopicPartition& tp) const {
    return first_handle_[topic_index_.at(tp.topic)] + static_cast<std::size_t>(tp.partition);
  }
  std::size_t topic_of(std::size_t h) const { return handle_topic_[h]; }
  std::int32_t size_of(std::size_t m) const { return static_cast<std::int32_t>(assignment_[m].size()); }

  // sortedCurrentSubscriptions: a TreeSet by (assignment size, member id); a member leaves
  // it before its size changes and comes back after, as Kafka's code does.
  void sorted_insert(std::size_t m) {
    sorted_size_[m] = size_of(m);
    in_sorted_[m] = true;
    sorted_.insert({sorted_size_[m], rank_[m]});
  }
  void sorted_erase(std::size_t m) {
    if (!in_sorted_[m]) return;
    sorted_.erase({sorted_size_[m], rank_[m]});
    in_sorted_[m] = false;
  }
  std::size_t member_of(const std::pair<std::int32_t, std::int32_t>& entry) const {
    return member_at_rank_[static_cast<std::size_t>(entry.second)];
  }

  // prepopulateCurrentAssignments: the claims of members below the highest generation (or
  // without one, when some member has one), the highest such generation per partition
  // winning and the first in HashMap order on a tie.
  std::map<std::size_t, PreviousOwner> previous_assignment() const {
    std::map<std::size_t, PreviousOwner> prev;
    for (auto m : ctx_.order) {
      const auto& g = ctx_.spec.members[m].generation;
      std::int32_t generation = 0;
      if (g && *g < ctx_.max_generation) generation = *g;
      else if (!g && ctx_.max_generation > kDefaultGeneration) generation = kDefaultGeneration;
      else continue;
      for (const auto& tp : existing_owned(ctx_.spec.members[m], ctx_.topics)) {
        if (topic_index_.count(tp.topic) == 0) continue;  // never reassignable, so never looked up
        const auto [it, fresh] = prev.emplace(handle(tp), PreviousOwner{m, generation});
        if (!fresh && generation > it->second.generation) it->second = {m, generation};
      }
    }
    return prev;
  }

  // assignOwnedPartitions: a claim on a topic the member no longer subscribes to, or on a
  // partition without a replica on its rack, is dropped ("revocation required").
  std::set<std::size_t> assign_owned_partitions() {
    std::set<std::size_t> assigned;
    for (auto m : ctx_.order) {
      std::erase_if(assignment_[m], [&](std::size_t h) {
        if (!subscribes_[m][topic_of(h)] || racks_.racks_mismatch(m, partitions_[h])) {
          revocation_required_ = true;
          return true;  // currentPartitionConsumer keeps the stale entry, as Kafka's does
        }
        assigned.insert(h);
        return false;
      });
    }
    return assigned;
  }

  std::int32_t max_assignment_size(std::size_t m) const {
    std::int32_t total = 0;
    for (auto t : potential_topics_[m]) total += partition_counts_[t];
    return total;
  }

  // isBalanced: sizes within one, or no member could take a partition it may have from a
  // member holding two or more more.
  bool is_balanced() const {
    const auto min = sorted_.begin()->first, max = sorted_.rbegin()->first;
    if (min >= max - 1) return true;
    for (const auto& entry : sorted_) {
      const auto m = member_of(entry);
      const auto count = size_of(m);
      if (count == max_assignment_size(m)) continue;
      for (auto t : potential_topics_[m])
        for (std::int32_t p = 0; p < partition_counts_[t]; ++p) {
          const auto h = first_handle_[t] + static_cast<std::size_t>(p);
          if (owner_[h] == static_cast<std::ptrdiff_t>(m)) continue;
          if (count + 1 < size_of(static_cast<std::size_t>(owner_[h]))) return false;
        }
    }
    return true;
  }

  // getBalanceScore: the sum over member pairs of the difference of their sizes.
  std::int64_t balance_score(const std::vector<std::vector<std::size_t>>& assignment) const {
    std::vector<std::int64_t> sizes;
    for (std::size_t m = 0; m < n_; ++m)
      if (!fixed_[m]) sizes.push_back(static_cast<std::int64_t>(assignment[m].size()));
    std::int64_t score = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i)
      for (std::size_t j = i + 1; j < sizes.size(); ++j) score += std::abs(sizes[i] - sizes[j]);
    return score;
  }

  // maybeAssignPartition: to the least-loaded subscriber (on a matching rack when `racks`).
  bool maybe_assign_partition(std::size_t h, bool match_racks) {
    for (const auto& entry : sorted_) {
      const auto m = member_of(entry);
      if (!subscribes_[m][topic_of(h)] || (match_racks && racks_.racks_mismatch(m, partitions_[h]))) continue;
      sorted_erase(m);
      assignment_[m].push_back(h);
      owner_[h] = static_cast<std::ptrdiff_t>(m);
      sorted_insert(m);
      return true;
    }
    return false;
  }

  bool topic_can_move(std::size_t t) const { return potential_consumers_[t].size() >= 2; }

  // canConsumerParticipateInReassignment.
  bool consumer_can_move(std::size_t m) const {
    if (size_of(m) < max_assignment_size(m)) return true;
    return std::any_of(assignment_[m].begin(), assignment_[m].end(),
                       [&](std::size_t h) { return topic_can_move(topic_of(h)); });
  }

  void balance(const std::map<std::size_t, PreviousOwner>& prev, std::vector<std::size_t> unassigned) {
    const bool initializing = sorted_.rbegin()->first == 0;
    std::vector<std::size_t> to_assign = unassigned;
    if (racks_.used()) std::erase_if(to_assign, [&](std::size_t h) { return maybe_assign_partition(h, true); });
    for (auto h : to_assign) maybe_assign_partition(h, false);

    auto fixed_partition = [&](std::size_t h) { return !topic_can_move(topic_of(h)); };
    std::erase_if(sorted_all_partitions_, fixed_partition);
    std::erase_if(unassigned, fixed_partition);
    for (std::size_t m = 0; m < n_; ++m)
      if (!consumer_can_move(m)) {
        sorted_erase(m);
        fixed_[m] = true;
      }

    const auto before = assignment_;
    const auto owners_before = owner_;
    if (!revocation_required_) perform_reassignments(unassigned, prev);
    const bool performed = perform_reassignments(sorted_all_partitions_, prev);
    if (!initializing && performed && balance_score(assignment_) >= balance_score(before)) {
      assignment_ = before;
      owner_ = owners_before;
    }
  }

  bool perform_reassignments(const std::vector<std::size_t>& reassignable,
                             const std::map<std::size_t, PreviousOwner>& prev) {
    bool performed = false, modified = false;
    do {
      modified = false;
      for (std::size_t i = 0; i < reassignable.size() && !is_balanced(); ++i) {
        const auto h = reassignable[i];
        const auto consumer = static_cast<std::size_t>(owner_[h]);
        // Back to its previous owner if that one holds two or more fewer. Kafka reads the
        // previous owner's size from a map without the fixed members: for a fixed previous
        // owner it throws a NullPointerException (AbstractStickyAssignor.java:1412) and the
        // rebalance fails. partsim records that and goes on without the step.
        const auto p = prev.find(h);
        if (p != prev.end() && fixed_[p->second.member] && !kafka_failure_)
          kafka_failure_ =
              "Kafka's sticky assignor throws a NullPointerException here (AbstractStickyAssignor.java:1412), so the rebalance fails: " +
              partitions_[h].name() + "'s owner of an older generation, " + ctx_.spec.members[p->second.member].id +
              ", holds only partitions no other member may take, and Kafka looks up its load where it has left it out; "
              "the assignment shown skips that step";
        if (p != prev.end() && !fixed_[p->second.member] && size_of(consumer) > size_of(p->second.member) + 1) {
          reassign(h, p->second.member);
          performed = modified = true;
          continue;
        }
        bool moved = false;
        const auto* rack = racks_.consumer_rack(consumer);
        const auto* partition_racks = racks_.partition_racks(partitions_[h]);
        const auto& others = potential_consumers_[topic_of(h)];
        if (rack != nullptr && partition_racks != nullptr && !partition_racks->empty() &&
            partition_racks->count(*rack) > 0) {
          moved = std::any_of(others.begin(), others.end(), [&](std::size_t o) {
            const auto* other_rack = racks_.consumer_rack(o);
            return other_rack != nullptr && partition_racks->count(*other_rack) > 0 &&
                   size_of(consumer) > size_of(o) + 1;
          });
        }
        if (!moved)
          moved = std::any_of(others.begin(), others.end(),
                              [&](std::size_t o) { return size_of(consumer) > size_of(o) + 1; });
        if (moved) {
          reassign(h, least_loaded_subscriber(h));
          performed = modified = true;
        }
      }
    } while (modified);
    return performed;
  }

  // reassignPartition(partition): the first member of the sorted set subscribed to its topic.
  std::size_t least_loaded_subscriber(std::size_t h) const {
    for (const auto& entry : sorted_) {
      const auto m = member_of(entry);
      if (subscribes_[m][topic_of(h)]) return m;
    }
    PARTSIM_CHECK(false, "sticky assignor: a reassignable partition without a subscriber");
    return 0;
  }

  // reassignPartition(partition, newConsumer) + processPartitionMovement.
  void reassign(std::size_t h, std::size_t to) {
    const auto moving = movements_->actual_partition_to_move(h, static_cast<std::size_t>(owner_[h]), to);
    const auto from = static_cast<std::size_t>(owner_[moving]);
    sorted_erase(from);
    sorted_erase(to);
    movements_->move(moving, from, to);
    assignment_[from].erase(std::find(assignment_[from].begin(), assignment_[from].end(), moving));
    assignment_[to].push_back(moving);
    owner_[moving] = static_cast<std::ptrdiff_t>(to);
    sorted_insert(to);
    sorted_insert(from);
  }

  const StickyContext& ctx_;
  const RackInfo& racks_;
  const std::size_t n_;
  std::vector<TopicPartition> partitions_;     // handle -> partition
  std::vector<std::size_t> handle_topic_;      // handle -> topic index
  std::vector<std::vector<bool>> subscribes_;  // member x topic index
  std::map<std::string, std::size_t> topic_index_;
  std::vector<std::string> topic_names_;
  std::vector<std::int32_t> partition_counts_;
  std::vector<std::size_t> first_handle_;
  std::vector<std::vector<std::size_t>> potential_consumers_;  // topic2AllPotentialConsumers
  std::vector<std::vector<std::size_t>> potential_topics_;     // consumer2AllPotentialTopics
  std::vector<std::vector<std::size_t>> assignment_;           // currentAssignment
  std::vector<std::ptrdiff_t> owner_;                          // currentPartitionConsumer
  std::vector<std::size_t> sorted_all_partitions_;
  std::vector<std::int32_t> rank_;
  std::vector<std::size_t> member_at_rank_;
  std::set<std::pair<std::int32_t, std::int32_t>> sorted_;  // (size, id rank)
  std::vector<bool> in_sorted_, fixed_;
  std::vector<std::int32_t> sorted_size_;
  std::optional<PartitionMovements> movements_;
  bool revocation_required_ = false;
  std::optional<std::string> kafka_failure_;
};

}  // namespace

StickyOutcome general_assign(const StickyContext& ctx, const RackInfo& racks) {
  if (ctx.spec.members.empty()) return {};
  return GeneralBuilder(ctx, racks).build();
}

}  // namespace partsim::model::consumer::detail
