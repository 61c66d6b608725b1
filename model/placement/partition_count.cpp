#include "model/placement/partition_count.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>

namespace partsim::model {

namespace {

std::int64_t ceil_div(double a, double b) { return static_cast<std::int64_t>(std::ceil(a / b - 1e-9)); }

std::int32_t divisor_count(std::int64_t n) {
  std::int32_t c = 0;
  for (std::int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) c += d * d == n ? 1 : 2;
  return c;
}

CountCandidate candidate(const PartitionCountInputs& in, std::int64_t p) {
  CountCandidate c;
  c.partitions = static_cast<std::int32_t>(p);
  c.even_brokers = p % in.brokers == 0;
  c.even_consumers = in.consumers <= 0 || p % in.consumers == 0;
  c.divisors = divisor_count(p);
  c.prime = p > 3 && c.divisors == 2;
  c.replicas_per_broker = (p * in.replication_factor + in.brokers - 1) / in.brokers + in.existing_per_broker;
  return c;
}

// Best first: within the per-broker limit; then even over both, over the brokers, over the
// members; then the most divisors (more even counts of members later), or over the limit the
// fewest replicas; then the smallest.
auto rank(const PartitionCountInputs& in, const CountCandidate& c) {
  const bool within = c.replicas_per_broker <= in.max_per_broker;
  return std::make_tuple(within, c.even_brokers && c.even_consumers, c.even_brokers, c.even_consumers,
                         within ? c.divisors : -c.partitions, -c.partitions);
}

}  // namespace

double keys_kept(std::int64_t from, std::int64_t to) {
  return static_cast<double>(std::gcd(from, to)) / static_cast<double>(std::max(from, to));
}

PartitionCountPlan plan_partition_count(const PartitionCountInputs& in) {
  if (!(in.peak_produce > 0) || !(in.per_partition_produce > 0))
    throw std::invalid_argument("the peak and the per-partition produce rates must be above 0");
  if ((in.peak_consume > 0) != (in.per_partition_consume > 0))
    throw std::invalid_argument("the consume peak and the per-partition consume rate go together");
  if (in.brokers < 1 || in.replication_factor < 1 || in.replication_factor > in.brokers)
    throw std::invalid_argument("the replication factor must be between 1 and the brokers");
  if (!(in.headroom_low >= 1) || in.headroom_high < in.headroom_low)
    throw std::invalid_argument("the headroom must be at least 1, its low end at most its high end");
  // (checked as doubles first: a ratio past 2^63 must not wrap when it becomes a count)
  const double most = std::max({in.peak_produce / in.per_partition_produce,
                                in.peak_consume > 0 ? in.peak_consume / in.per_partition_consume : 0.0,
                                static_cast<double>(in.consumers)}) *
                      in.headroom_high;
  if (!(most <= 1'000'000)) throw std::invalid_argument("more than 1,000,000 partitions: check the rates");
  PartitionCountPlan plan;
  plan.for_produce = ceil_div(in.peak_produce, in.per_partition_produce);
  plan.for_consume = in.peak_consume > 0 ? ceil_div(in.peak_consume, in.per_partition_consume) : 0;
  plan.for_consumers = std::max(0, in.consumers);
  plan.needed = std::max({plan.for_produce, plan.for_consume, plan.for_consumers, std::int64_t{1}});
  plan.low = ceil_div(static_cast<double>(plan.needed) * in.headroom_low, 1);
  plan.high = std::max(plan.low, ceil_div(static_cast<double>(plan.needed) * in.headroom_high, 1));
  for (std::int64_t p = plan.low; p <= plan.high; ++p) plan.candidates.push_back(candidate(in, p));
  // No count in the range spreads evenly over both: the next one that does, above it.
  const auto both = [](const CountCandidate& c) { return c.even_brokers && c.even_consumers; };
  if (std::none_of(plan.candidates.begin(), plan.candidates.end(), both)) {
    const std::int64_t step = std::lcm<std::int64_t>(in.brokers, std::max(1, in.consumers));
    const std::int64_t next = (plan.high / step + 1) * step;
    if (next <= 2 * plan.high) plan.candidates.push_back(candidate(in, next));
  }
  const auto best = std::max_element(plan.candidates.begin(), plan.candidates.end(),
                                     [&](const auto& a, const auto& b) { return rank(in, a) < rank(in, b); });
  plan.recommended = best->partitions;
  const std::int64_t room = in.max_per_broker - in.existing_per_broker;
  const std::int64_t replicas = static_cast<std::int64_t>(plan.recommended) * in.replication_factor;
  plan.brokers_needed = room > 0 ? std::max<std::int64_t>(in.brokers, (replicas + room - 1) / room) : -1;
  std::vector<std::int32_t> to = in.growth;
  for (const auto t : to)
    if (t <= plan.recommended)
      throw std::invalid_argument("a later count must be above the recommended " + std::to_string(plan.recommended) +
                                  " (Kafka only adds partitions), got " + std::to_string(t));
  if (to.empty()) {
    const std::int64_t step = std::lcm<std::int64_t>(in.brokers, std::max(1, in.consumers));
    to = {plan.recommended + 1,
          static_cast<std::int32_t>(plan.recommended + std::min<std::int64_t>(step, plan.recommended)),
          static_cast<std::int32_t>(plan.recommended + plan.recommended / 2), 2 * plan.recommended};
    std::sort(to.begin(), to.end());
    to.erase(std::unique(to.begin(), to.end()), to.end());
    std::erase_if(to, [&](std::int32_t t) { return t <= plan.recommended; });
  }
  for (const auto t : to) plan.growth.push_back({t, keys_kept(plan.recommended, t)});
  return plan;
}

}  // namespace partsim::model
