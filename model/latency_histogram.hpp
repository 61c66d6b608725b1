#pragma once
// A log-linear histogram of non-negative durations (like HdrHistogram): values below 256 ns
// are exact, above that each power of two is split into 128 buckets, so a percentile is
// within 0.8% of the exact value while memory stays 64 KiB however many records run.

#include <array>
#include <bit>
#include <cstdint>

namespace partsim::model {

class LatencyHistogram {
public:
  void record(std::int64_t ns) {
    if (ns < 0) ns = 0;
    ++counts_[index_of(static_cast<std::uint64_t>(ns))];
    ++total_;
    if (ns > max_) max_ = ns;
    if (total_ == 1 || ns < min_) min_ = ns;
    sum_ += static_cast<double>(ns);
  }

  std::uint64_t count() const { return total_; }
  std::int64_t max() const { return max_; }
  std::int64_t min() const { return total_ ? min_ : 0; }
  double mean() const { return total_ ? sum_ / static_cast<double>(total_) : 0.0; }

  /// The smallest recorded value v such that at least q of the values are <= v (nearest
  /// rank), reported as its bucket's upper edge, capped at the exact maximum.
  std::int64_t quantile(double q) const {
    if (total_ == 0) return 0;
    auto rank = static_cast<std::uint64_t>(q * static_cast<double>(total_) + 0.9999999);
    if (rank < 1) rank = 1;
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
      seen += counts_[i];
      if (seen >= rank) {
        const auto upper = static_cast<std::int64_t>(upper_edge(i));
        return upper < max_ ? upper : max_;
      }
    }
    return max_;
  }

  void merge(const LatencyHistogram& o) {
    for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += o.counts_[i];
    if (o.total_ && (total_ == 0 || o.min_ < min_)) min_ = o.min_;
    total_ += o.total_;
    if (o.max_ > max_) max_ = o.max_;
    sum_ += o.sum_;
  }

private:
  static constexpr int kSubBits = 7;  // 128 sub-buckets per power of two
  static constexpr std::size_t kBuckets = (64 - kSubBits + 1) * (1u << kSubBits);

  static std::size_t index_of(std::uint64_t v) {
    if (v < (1u << (kSubBits + 1))) return static_cast<std::size_t>(v);
    const int exp = 63 - std::countl_zero(v);  // >= kSubBits + 1
    const int shift = exp - kSubBits;
    const std::uint64_t mant = (v >> shift) & ((1u << kSubBits) - 1);
    return static_cast<std::size_t>((static_cast<std::uint64_t>(shift + 1) << kSubBits) + mant);
  }
  static std::uint64_t upper_edge(std::size_t i) {
    if (i < (1u << (kSubBits + 1))) return i;
    const std::uint64_t shift = (i >> kSubBits) - 1;
    const std::uint64_t mant = i & ((1u << kSubBits) - 1);
    return (((std::uint64_t{1} << kSubBits) | mant) << shift) + ((std::uint64_t{1} << shift) - 1);
  }

  std::array<std::uint64_t, kBuckets> counts_{};
  std::uint64_t total_ = 0;
  std::int64_t max_ = 0;
  std::int64_t min_ = 0;
  double sum_ = 0;
};

}  // namespace partsim::model
