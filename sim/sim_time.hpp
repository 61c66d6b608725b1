#pragma once
// Simulated time: a strong type over int64 nanoseconds. No floating-point clock anywhere:
// a run is a pure function of (scenario, seed), and int64 ns covers +-292 years.

#include <compare>
#include <cstdint>
#include <limits>

namespace partsim::sim {

/// A point in, or a span of, simulated time in integer nanoseconds.
class SimTime {
public:
  constexpr SimTime() = default;

  static constexpr SimTime ns(std::int64_t v) { return SimTime{v}; }
  static constexpr SimTime us(std::int64_t v) { return SimTime{v * 1'000}; }
  static constexpr SimTime ms(std::int64_t v) { return SimTime{v * 1'000'000}; }
  static constexpr SimTime sec(std::int64_t v) { return SimTime{v * 1'000'000'000}; }
  /// Rounds to the nearest nanosecond; the caller guarantees the value is in range.
  static constexpr SimTime from_ms(double v) {
    return SimTime{static_cast<std::int64_t>(v * 1e6 + (v >= 0 ? 0.5 : -0.5))};
  }
  static constexpr SimTime zero() { return SimTime{0}; }
  static constexpr SimTime max() { return SimTime{std::numeric_limits<std::int64_t>::max()}; }

  constexpr std::int64_t count_ns() const { return ns_; }
  /// Whole milliseconds, truncated toward zero (Kafka's clocks tick in ms).
  constexpr std::int64_t whole_ms() const { return ns_ / 1'000'000; }
  constexpr double to_ms() const { return static_cast<double>(ns_) / 1e6; }
  constexpr double to_sec() const { return static_cast<double>(ns_) / 1e9; }

  constexpr auto operator<=>(const SimTime&) const = default;
  constexpr SimTime operator+(SimTime o) const { return SimTime{ns_ + o.ns_}; }
  constexpr SimTime operator-(SimTime o) const { return SimTime{ns_ - o.ns_}; }
  constexpr SimTime& operator+=(SimTime o) {
    ns_ += o.ns_;
    return *this;
  }
  constexpr SimTime& operator-=(SimTime o) {
    ns_ -= o.ns_;
    return *this;
  }

  /// Addition that saturates at max() instead of overflowing ("never" + x stays "never").
  constexpr SimTime saturating_add(SimTime o) const {
    if (o.ns_ > 0 && ns_ > std::numeric_limits<std::int64_t>::max() - o.ns_) return max();
    return SimTime{ns_ + o.ns_};
  }

private:
  constexpr explicit SimTime(std::int64_t v) : ns_(v) {}
  std::int64_t ns_ = 0;
};

}  // namespace partsim::sim
