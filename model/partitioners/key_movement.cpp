#include "model/partitioners/key_movement.hpp"

#include <algorithm>
#include <numeric>

namespace partsim::model {

double predicted_unchanged_share(PartitionChange c) {
  return static_cast<double>(std::gcd(c.from, c.to)) / static_cast<double>(std::max(c.from, c.to));
}

KeyMovement measure_key_movement(std::span<const std::int32_t> positive_hashes, PartitionChange change,
                                 bool with_flow) {
  KeyMovement m;
  m.change = change;
  m.keys = positive_hashes.size();
  if (with_flow) m.flow.assign(static_cast<std::size_t>(change.from) * static_cast<std::size_t>(change.to), 0);
  for (std::size_t i = 0; i < positive_hashes.size(); ++i) {
    const std::int32_t h = positive_hashes[i];
    const std::int32_t old_p = h % change.from;
    const std::int32_t new_p = h % change.to;
    if (old_p != new_p) {
      ++m.changed;
      if (!m.example_index) {
        m.example_index = i;
        m.example_old = old_p;
        m.example_new = new_p;
      }
    }
    if (new_p % change.from == old_p) ++m.modulo_stable;
    if (with_flow) ++m.flow[static_cast<std::size_t>(old_p) * static_cast<std::size_t>(change.to) + static_cast<std::size_t>(new_p)];
  }
  return m;
}

}  // namespace partsim::model
