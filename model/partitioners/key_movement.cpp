#include "model/partitioners/key_movement.hpp"

#include <algorithm>
#include <numeric>

namespace partsim::model {

double predicted_unchanged_share(PartitionChange c) {
  return static_cast<double>(std::gcd(c.from, c.to)) / static_cast<double>(std::max(c.from, c.to));
}

TwoRuleWindow two_rule_window(double t_ms, std::int32_t producers, double rate) {
  TwoRuleWindow w;
  const double n = static_cast<double>(producers);
  w.producer_expected_ms = t_ms / 2;
  w.producer_max_ms = t_ms;
  w.all_expected_ms = t_ms * n / (n + 1);  // E[max of n uniforms on [0, T)]
  // Producer i sends rate/n records/s for U_i: the sum's mean is n (rate/n) T/2.
  w.records_old_rule_expected = rate * t_ms / 2 / 1000;
  w.records_old_rule_max = rate * t_ms / 1000;
  return w;
}

KeyMovementCounter::KeyMovementCounter(PartitionChange change, bool with_flow) : with_flow_(with_flow) {
  m_.change = change;
  if (with_flow) m_.flow.assign(static_cast<std::size_t>(change.from) * static_cast<std::size_t>(change.to), 0);
}

bool KeyMovementCounter::add(std::int32_t h, std::size_t index) {
  ++m_.keys;
  const std::int32_t old_p = h % m_.change.from;
  const std::int32_t new_p = h % m_.change.to;
  bool example = false;
  if (old_p != new_p) {
    ++m_.changed;
    if (!m_.example_index) {
      m_.example_index = index;
      m_.example_old = old_p;
      m_.example_new = new_p;
      example = true;
    }
  }
  if (new_p % m_.change.from == old_p) ++m_.modulo_stable;
  if (with_flow_)
    ++m_.flow[static_cast<std::size_t>(old_p) * static_cast<std::size_t>(m_.change.to) +
              static_cast<std::size_t>(new_p)];
  return example;
}

KeyMovement measure_key_movement(std::span<const std::int32_t> positive_hashes, PartitionChange change,
                                 bool with_flow) {
  KeyMovementCounter counter(change, with_flow);
  for (std::size_t i = 0; i < positive_hashes.size(); ++i) counter.add(positive_hashes[i], i);
  return counter.result();
}

}  // namespace partsim::model
