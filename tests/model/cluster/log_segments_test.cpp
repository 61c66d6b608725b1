// A partition's segments and the retention check (model/cluster/log_segments.hpp), on the
// expectations of Kafka's own UnifiedLogTest (trunk 1eb7644): 15 records of one size in
// segments of 5 records' bytes make 3 segments; retention.bytes of 10 records leaves 2, of 15
// leaves 3; a retention.ms every record is older than leaves 1 (the log rolls, keeping an
// empty segment); the log start offset deletes the segments wholly below it. Then partsim's
// own rules: nothing past the high watermark goes, a follower learns the leader's log start,
// segment.ms rolls.

#include <doctest/doctest.h>

#include "model/cluster/log_segments.hpp"

using partsim::model::Deleted;
using partsim::model::LogSegments;
using partsim::model::ReplicaLog;
using partsim::model::SegmentRules;

namespace {

constexpr std::int64_t kRecord = 70;  // one record's batch bytes (any size: the rules scale)

// 15 appends of one record at `ms` each, as the tests do.
LogSegments fifteen(SegmentRules rules, std::int64_t ms = 10) {
  LogSegments log(rules);
  for (std::int64_t i = 0; i < 15; ++i) log.append(i * kRecord, kRecord, ms);
  return log;
}

ReplicaLog whole(std::int64_t log_start = 0) { return {0, 15 * kRecord, 15 * kRecord, log_start}; }

}  // namespace

TEST_CASE("15 records in segments of 5 make 3 segments (UnifiedLogTest)") {
  SegmentRules rules;
  rules.segment_bytes = 5 * kRecord;
  CHECK(fifteen(rules).segments() == 3);
  CHECK(fifteen(rules).rolls() == 2);
}

TEST_CASE("retention.bytes deletes the oldest segments the excess covers whole (shouldDeleteSizeBasedSegments)") {
  SegmentRules rules;
  rules.segment_bytes = 5 * kRecord;
  rules.retention_ms = -1;
  rules.retention_bytes = 10 * kRecord;  // 15 - 10 = 5 records over: one segment goes
  const Deleted d = fifteen(rules).deletable(whole(), 1000);
  CHECK(d.segments == 1);
  CHECK(d.start == 5 * kRecord);
  CHECK_FALSE(d.rolled);
  rules.retention_bytes = 15 * kRecord;  // shouldNotDeleteSizeBasedSegmentsWhenUnderRetentionSize
  CHECK(fifteen(rules).deletable(whole(), 1000).segments == 0);
  rules.retention_bytes = 11 * kRecord;  // 4 over: not a whole segment
  CHECK(fifteen(rules).deletable(whole(), 1000).segments == 0);
}

TEST_CASE("retention.ms deletes every old segment and the log rolls (shouldDeleteTimeBasedSegmentsReadyToBeDeleted)") {
  SegmentRules rules;
  rules.segment_bytes = 5 * kRecord;
  rules.retention_ms = 10000;
  LogSegments log = fifteen(rules, 10);
  const Deleted d = log.deletable(whole(), 20000);  // every record 19,990 ms old
  CHECK(d.segments == 3);
  CHECK(d.rolled);
  CHECK(d.start == 15 * kRecord);
  log.roll(15 * kRecord);
  log.forget_below(d.start);
  CHECK(log.segments() == 1);  // "There should be 1 segment remaining"
  // shouldNotDeleteTimeBasedSegmentsWhenNoneReadyToBeDeleted: records as new as the check.
  rules.retention_ms = 10000000;
  CHECK(fifteen(rules, 20000).deletable(whole(), 20000).segments == 0);
  // Exactly retention.ms old stays ("more than").
  rules.retention_ms = 10000;
  CHECK(fifteen(rules, 10000).deletable(whole(), 20000).segments == 0);
}

TEST_CASE("the log start offset deletes the segments wholly below it (testLogDeletionAfterDeleteRecords)") {
  SegmentRules rules;
  rules.segment_bytes = 5 * kRecord;
  rules.retention_ms = -1;
  const LogSegments log = fifteen(rules);
  CHECK(log.deletable(whole(1 * kRecord), 0).segments == 0);  // 3 segments stay
  const Deleted d6 = log.deletable(whole(6 * kRecord), 0);    // the first goes: 2 stay
  CHECK(d6.segments == 1);
  CHECK(d6.start == 5 * kRecord);
  const Deleted d15 = log.deletable(whole(15 * kRecord), 0);  // 1 stays: the last, full one
  CHECK(d15.segments == 2);
  CHECK_FALSE(d15.rolled);
}

TEST_CASE("nothing at or past the high watermark is deleted, and a follower's log is its own") {
  SegmentRules rules;
  rules.segment_bytes = 5 * kRecord;
  rules.retention_ms = 10000;
  const LogSegments log = fifteen(rules, 10);
  // The high watermark inside the second segment: only the first goes.
  Deleted d = log.deletable({0, 15 * kRecord, 7 * kRecord, 0}, 20000);
  CHECK(d.segments == 1);
  CHECK(d.start == 5 * kRecord);
  // A follower holding [5, 12) records, its high watermark at 12: its copy of the second
  // segment goes; its last, partial one is its active segment, below its high watermark: it
  // goes too and the follower's log rolls at its end.
  d = log.deletable({5 * kRecord, 12 * kRecord, 12 * kRecord, 0}, 20000);
  CHECK(d.segments == 2);
  CHECK(d.rolled);
  CHECK(d.start == 12 * kRecord);
  // An empty log deletes nothing.
  CHECK(log.deletable({12 * kRecord, 12 * kRecord, 12 * kRecord, 0}, 20000).segments == 0);
}

TEST_CASE("segment.ms rolls a segment whose first batch is older; truncation drops the segments past the end") {
  SegmentRules rules;
  rules.segment_ms = 1000;
  LogSegments log(rules);
  log.append(0, 100, 0);
  log.append(100, 100, 1000);  // exactly segment.ms: no roll ("more than")
  CHECK(log.segments() == 1);
  log.append(200, 100, 1001);
  CHECK(log.segments() == 2);
  log.append(300, 100, 1500);
  CHECK(log.segments() == 2);
  log.truncate(250);  // inside the second segment: it stays
  CHECK(log.segments() == 2);
  log.truncate(200);  // at its base: it stays, empty
  CHECK(log.segments() == 2);
  log.truncate(150);
  CHECK(log.segments() == 1);
}
