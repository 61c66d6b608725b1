#include "model/cluster/log_segments.hpp"

#include <algorithm>

namespace partsim::model {

void LogSegments::append(std::int64_t end, std::int64_t bytes, std::int64_t now_ms) {
  if (bytes <= 0) return;
  const Segment& active = segs_.back();
  const std::int64_t size = end - active.base;
  // LogSegment.shouldRoll. partsim rolls only a segment with bytes: a batch larger than
  // segment.bytes goes whole into an empty one (Kafka's max.message.bytes keeps batches smaller).
  if (size > 0 && (size > rules_.segment_bytes - bytes || now_ms - active.first_ms > rules_.segment_ms)) {
    segs_.push_back(Segment{end, -1, -1});
    ++rolls_;
  }
  Segment& s = segs_.back();
  if (s.first_ms < 0) s.first_ms = now_ms;
  s.last_ms = std::max(s.last_ms, now_ms);
}

void LogSegments::truncate(std::int64_t end) {
  // LocalLog.truncateTo: the segments starting past the new end go.
  while (segs_.size() > 1 && segs_.back().base > end) segs_.pop_back();
  if (segs_.back().base == end) segs_.back() = Segment{end, -1, -1};
}

void LogSegments::roll(std::int64_t end) {
  if (segs_.back().base >= end) return;  // the active segment is empty already
  segs_.push_back(Segment{end, -1, -1});
  ++rolls_;
}

std::size_t LogSegments::containing(std::int64_t offset) const {
  const auto it =
      std::upper_bound(segs_.begin(), segs_.end(), offset, [](std::int64_t o, const Segment& s) { return o < s.base; });
  return it == segs_.begin() ? 0 : static_cast<std::size_t>(it - segs_.begin()) - 1;
}

Deleted LogSegments::deletable(const ReplicaLog& log, std::int64_t now_ms) const {
  Deleted d;
  d.start = log.start;
  // One of deleteOldSegments' passes: from the replica's oldest segment while `keep` is false.
  const auto pass = [&](auto&& deletes) {
    if (d.rolled || d.start >= log.end) return;
    for (std::size_t j = containing(d.start);; ++j) {
      const bool has_next = j + 1 < segs_.size() && segs_[j + 1].base < log.end;
      const std::int64_t end = has_next ? segs_[j + 1].base : log.end;
      const std::int64_t size = end - std::max(segs_[j].base, d.start);
      if (!has_next && size == 0) return;                                        // an empty last segment stays
      if (log.hw < end) return;                                                  // not below the high watermark
      if (!deletes(segs_[j], size, has_next ? &segs_[j + 1] : nullptr)) return;  // the predicate
      ++d.segments;
      d.start = end;
      if (!has_next) {
        d.rolled = true;  // every segment went: the log rolls and keeps an empty one
        return;
      }
    }
  };
  // deleteLogStartOffsetBreachedSegments: the next segment starts at or below the log start.
  pass([&](const Segment&, std::int64_t, const Segment* next) { return next && next->base <= log.log_start; });
  // deleteRetentionSizeBreachedSegments.
  if (rules_.retention_bytes >= 0 && log.end - d.start >= rules_.retention_bytes) {
    std::int64_t excess = log.end - d.start - rules_.retention_bytes;
    pass([&](const Segment&, std::int64_t size, const Segment*) {
      if (excess - size < 0) return false;
      excess -= size;
      return true;
    });
  }
  // deleteRetentionMsBreachedSegments.
  if (rules_.retention_ms >= 0)
    pass([&](const Segment& s, std::int64_t, const Segment*) { return now_ms - s.last_ms > rules_.retention_ms; });
  return d;
}

void LogSegments::forget_below(std::int64_t offset) {
  while (segs_.size() > 1 && segs_[1].base <= offset) segs_.pop_front();
}

}  // namespace partsim::model
