#pragma once
// A partition's log in segments, and what a retention check deletes of a replica's copy of
// it (docs/disks.md). Offsets are bytes of the leader's log, as everywhere in the followers'
// model; timestamps are the leader's append times in ms.
//
// Kafka's rules, read from apache/kafka (trunk 1eb7644):
// - A segment rolls before an append when it is not empty and the append would take it past
//   segment.bytes, or the append's timestamp is more than segment.ms after its first batch's
//   (LogSegment.shouldRoll, timeWaitedForRoll; segment.jitter.ms 0).
// - A retention check (UnifiedLog.deleteOldSegments) deletes, oldest first: the segments
//   wholly below the log start offset, then those the log's size passes retention.bytes by
//   (a segment goes while the excess still covers it whole), then those whose largest
//   timestamp is more than retention.ms old. A segment goes only if the high watermark has
//   passed its end; an empty last segment never goes; with every segment deletable the log
//   rolls first, so it keeps one, empty, at its end (deletableSegments, deleteSegments).
//
// partsim's choices: every replica keeps the leader's segment boundaries (a follower's
// differ by at most one fetch's bytes, replica.fetch.max.bytes, against segments of
// segment.bytes); a follower's copy of a segment carries the leader's timestamps.

#include <cstdint>
#include <deque>

#include "sim/sim_time.hpp"

namespace partsim::model {

/// A record's timestamp: the simulated time in ms, as Kafka's clock gives it.
inline std::int64_t timestamp_ms(sim::SimTime t) { return t.count_ns() / 1'000'000; }

struct SegmentRules {
  std::int64_t segment_bytes = std::int64_t{1} << 30;  ///< segment.bytes
  std::int64_t segment_ms = 604'800'000;               ///< segment.ms
  std::int64_t retention_ms = 604'800'000;             ///< retention.ms (-1: none)
  std::int64_t retention_bytes = -1;                   ///< retention.bytes, per partition (-1: none)
};

/// One replica's log as a retention check sees it: it holds [start, end) of the partition's
/// log; `hw` is its high watermark; `log_start` the log start offset it knows (a follower
/// learns its leader's from the fetch answers).
struct ReplicaLog {
  std::int64_t start = 0, end = 0, hw = 0, log_start = 0;
};

/// What a retention check deleted of one replica's log.
struct Deleted {
  std::int64_t start = 0;     ///< the replica's new start (its log start offset)
  std::int32_t segments = 0;  ///< segments deleted
  bool rolled = false;        ///< every segment went: its log now ends in an empty segment at `end`
};

class LogSegments {
public:
  explicit LogSegments(SegmentRules rules = {}) : rules_(rules) {}

  /// The leader appends `bytes` at its log's end `end` at `now_ms`; rolls first if due.
  void append(std::int64_t end, std::int64_t bytes, std::int64_t now_ms);
  /// The log now ends at `end` (a new leader's, shorter): the segments past it go.
  void truncate(std::int64_t end);
  /// The leader deleted every segment: a new, empty one starts at `end`.
  void roll(std::int64_t end);
  /// What a retention check at `now_ms` deletes of `log` (which this does not change:
  /// the caller moves its start).
  Deleted deletable(const ReplicaLog& log, std::int64_t now_ms) const;
  /// Forgets the segments wholly below `offset` (no replica holds them).
  void forget_below(std::int64_t offset);

  std::int64_t rolls() const { return rolls_; }
  std::size_t segments() const { return segs_.size(); }
  const SegmentRules& rules() const { return rules_; }

private:
  struct Segment {
    std::int64_t base = 0;
    std::int64_t first_ms = -1;  ///< the first batch's timestamp (-1: empty)
    std::int64_t last_ms = -1;   ///< the largest timestamp
  };
  std::size_t containing(std::int64_t offset) const;

  SegmentRules rules_;
  std::deque<Segment> segs_ = std::deque<Segment>(1);  // bases ascending; the last is the active segment
  std::int64_t rolls_ = 0;
};

}  // namespace partsim::model
