#include "model/detail/network.hpp"

namespace partsim::model::detail {

Connections::Connections(std::uint32_t producers, std::size_t brokers) : brokers_(brokers), next_(brokers, producers) {
  for (std::uint32_t p = 0; p < producers; ++p) producer_.insert(producer_.end(), brokers, p);
}

std::uint32_t Connections::consumer(std::uint32_t group, std::int32_t member, std::size_t broker) {
  const auto [it, opened] = consumer_.try_emplace({group, member, broker}, 0);
  if (opened) it->second = next_[broker]++;
  return it->second;
}

void Connections::drop_consumers_at(std::size_t broker) {
  std::erase_if(consumer_, [broker](const auto& c) { return std::get<2>(c.first) == broker; });
}

std::optional<Connections::Muted> Connections::settled(std::uint64_t request) {
  const auto it = muted_.find(request);
  if (it == muted_.end()) return std::nullopt;
  const Muted m = it->second;
  muted_.erase(it);
  return m;
}

}  // namespace partsim::model::detail
