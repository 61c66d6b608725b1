#include "model/placement/striped_placer.hpp"

#include <algorithm>

#include "model/partitioners/key_hash.hpp"

namespace partsim::model {
namespace {

// java.util.HashMap (default capacity 16, load 0.75) iteration order of the rack keys:
// Optional.hashCode is the String's hashCode, 0 when empty.
std::vector<std::size_t> hashmap_order(const std::vector<std::optional<std::string>>& keys) {
  std::uint32_t capacity = 16;
  while (keys.size() > capacity * 3 / 4) capacity *= 2;
  std::vector<std::size_t> order(keys.size());
  std::vector<std::uint32_t> bucket(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    order[i] = i;
    const auto h = keys[i] ? static_cast<std::uint32_t>(java_string_hash(*keys[i])) : 0U;
    bucket[i] = (h ^ (h >> 16)) & (capacity - 1);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return bucket[a] < bucket[b]; });
  return order;
}

}  // namespace

void RackList::BrokerList::initialize(PlacerRandom& random) {
  if (brokers.empty()) return;
  std::sort(brokers.begin(), brokers.end());
  offset = random.next_int(static_cast<std::int32_t>(brokers.size()));
}

std::int32_t RackList::BrokerList::next(std::int32_t e) {
  if (brokers.empty()) return -1;
  const auto n = static_cast<std::int32_t>(brokers.size());
  if (epoch != e) {  // a new epoch: start over, one position further
    epoch = e;
    index = 0;
    offset = (offset + 1) % n;
  }
  if (index >= n) return -1;
  return brokers[static_cast<std::size_t>((index++ + offset) % n)];
}

void RackList::BrokerList::shuffle(PlacerRandom& random) {
  for (std::size_t i = brokers.size(); i > 1; --i)
    std::swap(brokers[i - 1], brokers[static_cast<std::size_t>(random.next_int(static_cast<std::int32_t>(i)))]);
}

RackList::RackList(PlacerRandom random, const std::vector<UsableBroker>& brokers) : random_(std::move(random)) {
  std::vector<std::optional<std::string>> names;
  std::vector<Rack> seen;
  for (const auto& b : brokers) {
    auto it = std::find(names.begin(), names.end(), b.rack);
    if (it == names.end()) {
      names.push_back(b.rack);
      seen.push_back(Rack{b.rack, {}, {}});
      it = names.end() - 1;
    }
    Rack& r = seen[static_cast<std::size_t>(it - names.begin())];
    (b.fenced ? r.fenced : r.unfenced).brokers.push_back(b.id);
    ++total_;
    if (!b.fenced) ++unfenced_;
  }
  for (std::size_t i : hashmap_order(names)) racks_.push_back(std::move(seen[i]));
  for (auto& r : racks_) {
    r.fenced.initialize(random_);
    r.unfenced.initialize(random_);
  }
  for (std::size_t i = 0; i < racks_.size(); ++i) sorted_.push_back(i);
  std::sort(sorted_.begin(), sorted_.end(),
            [&](std::size_t a, std::size_t b) { return racks_[a].name < racks_[b].name; });
  offset_ = racks_.empty() ? 0 : random_.next_int(static_cast<std::int32_t>(racks_.size()));
}

std::vector<std::string> RackList::rack_names() const {
  std::vector<std::string> out;
  for (auto i : sorted_) out.push_back(racks_[i].name.value_or(""));
  return out;
}

std::vector<std::int32_t> RackList::place(std::int32_t rf) {
  if (rf <= 0)
    throw PlacementError("Invalid replication factor " + std::to_string(rf) +
                         ": the replication factor must be positive.");
  if (rf > total_)
    throw PlacementError("The target replication factor of " + std::to_string(rf) + " cannot be reached because only " +
                         std::to_string(total_) + " broker(s) are registered.");
  if (unfenced_ == 0) throw PlacementError("All brokers are currently fenced.");
  if (epoch_ == unfenced_ && unfenced_ > 1) {
    // Every unfenced broker led once: reshuffle rack order and every rack's lists.
    random_shuffle_sorted();
    for (auto& r : racks_) {
      r.fenced.shuffle(random_);
      r.unfenced.shuffle(random_);
    }
    epoch_ = 0;
  }
  const auto nracks = static_cast<std::int32_t>(sorted_.size());
  if (offset_ == nracks) offset_ = 0;
  std::vector<std::int32_t> out;
  std::int32_t first = offset_;
  for (;;) {  // the leader: the first rack from the offset with an unfenced broker left
    const std::int32_t b = racks_[sorted_[static_cast<std::size_t>(first)]].unfenced.next(epoch_);
    if (b >= 0) {
      out.push_back(b);
      break;
    }
    if (++first == nracks) first = 0;
  }
  std::int32_t rack = offset_;
  for (std::int32_t replica = 1; replica < rf; ++replica) {
    std::int32_t b = -1;
    do {
      if (rack == first) {
        first = -1;  // skip the leader's rack once
      } else {
        Rack& r = racks_[sorted_[static_cast<std::size_t>(rack)]];
        b = r.unfenced.next(epoch_);
        if (b < 0) b = r.fenced.next(epoch_);
      }
      if (++rack == nracks) rack = 0;
    } while (b < 0);
    out.push_back(b);
  }
  ++epoch_;
  ++offset_;
  return out;
}

void RackList::random_shuffle_sorted() {
  for (std::size_t i = sorted_.size(); i > 1; --i)
    std::swap(sorted_[i - 1], sorted_[static_cast<std::size_t>(random_.next_int(static_cast<std::int32_t>(i)))]);
}

std::vector<std::vector<std::int32_t>> striped_place(PlacerRandom random, const std::vector<UsableBroker>& brokers,
                                                     std::int32_t partitions, std::int32_t replication_factor) {
  RackList racks(std::move(random), brokers);
  std::vector<std::vector<std::int32_t>> out;
  for (std::int32_t p = 0; p < partitions; ++p) out.push_back(racks.place(replication_factor));
  return out;
}

}  // namespace partsim::model
