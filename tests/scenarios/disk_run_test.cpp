// The brokers' disks through the whole engine (docs/disks.md), on the study scenario
// (scenarios/studies/disk-retention.yaml, two hours: three brokers with 6 GB disks, broker 0
// holding 1 GB of other data; three partitions of 1.0 MB/s each, RF 2, so 2 MB/s per broker;
// segments of 100 MB, a retention check every 5 minutes):
// - retention.ms keeps each disk between what 30 minutes of writes hold and that plus a
//   segment's time and the check's;
// - retention.bytes keeps each replica between the limit and the limit plus a segment and a
//   check's writes;
// - bytes written to the disks = bytes at the end + bytes retention deleted (file.delete.delay.ms 0);
// - a disk that cannot take a write halts its broker when it fills, never past its size, and
//   the records are each acknowledged once or failed; a broker that recovers onto it halts again;
// - a reassignment copies only what retention kept.

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"

using namespace partsim;

namespace {

const std::string kStudy = std::string(PARTSIM_SOURCE_DIR) + "/scenarios/studies/disk-retention.yaml";
constexpr double kOther = 1e9;                    // broker 0's disk.used.bytes
constexpr double kDisk = 6e9;                     // every broker's disk.bytes
constexpr double kPerBroker = 2.002e6;            // bytes/s: two replicas of 1.001 MB/s (16,000-byte values, framing)
constexpr double kSegment = 100e6;                // segment.bytes
constexpr double kSegmentS = kSegment / 1.001e6;  // a segment's time to fill
constexpr double kCheckS = 300;                   // log.retention.check.interval.ms

model::RunResult run_with(const std::vector<std::string>& sets, const std::string& path = kStudy) {
  return model::run_scenario(scenarios::load_scenario_file(path, sets), 3, 0, {});
}

// The bytes of the replicas' logs on broker b at a sample (its other data apart).
double logs_at(const model::DiskSample& s, std::size_t b) {
  return static_cast<double>(s.used[b]) - (b == 0 ? kOther : 0.0);
}

}  // namespace

TEST_CASE("retention.ms keeps each disk between its retention's writes and those plus a segment and a check") {
  const auto r = run_with({});
  const auto& d = r.replication.disks;
  REQUIRE(d.enabled());
  CHECK(d.failures() == 0);
  CHECK(d.retention_checks == 24);  // 30 s, 330 s, ..., 6,930 s
  int checked = 0;
  for (const auto& s : d.samples) {
    if (s.time_ms < 2400000) continue;  // the first deletions and their removal are behind
    // Kept: every record newer than retention.ms (30 min) at the last check, and every record
    // since: a segment goes only when its newest record is that old.
    const double since_check = std::fmod(s.time_ms / 1000 - 30, kCheckS);
    for (std::size_t b = 0; b < 3; ++b) {
      CHECK(logs_at(s, b) >= kPerBroker * (1800 + since_check) * 0.995);
      // Within file.delete.delay.ms (60 s) of a check, what it deleted is still on the disk:
      // the 5 minutes before it too.
      if (since_check < 60) CHECK(logs_at(s, b) >= kPerBroker * (1800 + kCheckS + since_check) * 0.995);
      // At most: the segment that holds the oldest of them (100 s) and the check's 5 minutes,
      // and what the last check deleted, which file.delete.delay.ms keeps for 60 s.
      CHECK(logs_at(s, b) <= kPerBroker * (1800 + kSegmentS + kCheckS + 60) * 1.01);
    }
    ++checked;
  }
  CHECK(checked >= 400);
  // Broker 0 peaks above the guidance's 85% with its other data, under the disk.
  CHECK(static_cast<double>(d.brokers[0].peak) > 0.85 * kDisk);
  CHECK(static_cast<double>(d.brokers[0].peak) < kDisk);
  CHECK(d.brokers[0].deleted_segments > 0);
}

TEST_CASE("retention.bytes keeps each replica between the limit and the limit plus a segment and a check") {
  const auto r =
      run_with({"topics.0.retention.ms=-1", "topics.0.retention.bytes=1000000000", "cluster.file.delete.delay.ms=0"});
  const auto& d = r.replication.disks;
  CHECK(d.failures() == 0);
  int checked = 0;
  for (const auto& s : d.samples) {
    if (s.time_ms < 1500000) continue;  // full
    for (std::size_t b = 0; b < 3; ++b) {
      // Two replicas, each at least the limit after a check and at most the limit, a segment
      // and the writes until the next check.
      CHECK(logs_at(s, b) >= 2 * 1e9);
      CHECK(logs_at(s, b) <= 2 * (1e9 + kSegment) + kPerBroker * kCheckS);
    }
    ++checked;
  }
  CHECK(checked >= 400);
}

TEST_CASE("the bytes written to the disks are those on them at the end and those retention deleted") {
  const auto r = run_with({"cluster.file.delete.delay.ms=0"});
  std::int64_t written = 0;
  for (const auto& p : r.partitions) written += p.bytes;
  std::int64_t held = 0;
  for (const auto& b : r.replication.disks.brokers) held += b.end - b.other + b.deleted_bytes;
  CHECK(written > 20'000'000'000);
  CHECK(held == 2 * written);  // RF 2, every follower caught up at the end
}

TEST_CASE("a disk that cannot take a write halts its broker when it fills, and the others take its leaders") {
  const auto r = run_with({"topics.0.retention.ms=3600000"});  // an hour: more than the disks hold
  const auto& d = r.replication.disks;
  REQUIRE(d.brokers[0].failures_ms.size() == 1);
  // Broker 0 has 5 GB free and takes 2 MB/s.
  const double expected = (kDisk - kOther) / kPerBroker * 1000;
  CHECK(d.brokers[0].failures_ms[0] == doctest::Approx(expected).epsilon(0.002));
  for (const auto& b : d.brokers) CHECK(b.peak <= b.capacity);  // never past the disk
  CHECK(r.replication.errors.at("KAFKA_STORAGE_ERROR") >= 1);
  // Fenced out of the ISR of partitions 0 and 2 (replicas [0, 1], [2, 0]) a session timeout later.
  bool fenced = false;
  for (const auto& h : r.replication.history)
    if (h.cause == "broker 0 fenced") fenced = h.under_replicated == 2;
  CHECK(fenced);
  // Brokers 1 and 2 fill later (nothing is old enough to delete before an hour).
  REQUIRE(d.brokers[1].failures_ms.size() == 1);
  CHECK(d.brokers[1].failures_ms[0] > d.brokers[0].failures_ms[0]);
  CHECK(d.brokers[0].deleted_bytes == 0);
  CHECK(r.records_acked + r.failed.total() == r.records_sent);
}

TEST_CASE("a broker that recovers onto a full disk halts again at its first write") {
  // Broker 0 comes back at 2,800 s: its log directory is online again, but the first copy it
  // fetches as a follower does not fit on its full disk.
  const auto r =
      run_with({"topics.0.retention.ms=3600000", "cluster.brokers.0.schedule=[{at.ms: 2800000, recover: true}]"});
  const auto& f = r.replication.disks.brokers[0].failures_ms;
  REQUIRE(f.size() == 2);
  CHECK(f[1] > 2800000);
  CHECK(f[1] < 2800000 + 1000);  // one fetch round trip, well within a second
  for (const auto& b : r.replication.disks.brokers) CHECK(b.peak <= b.capacity);
}

TEST_CASE("a reassignment copies only what retention kept") {
  const std::string study = std::string(PARTSIM_SOURCE_DIR) + "/scenarios/studies/reassign-throttle.yaml";
  const std::vector<std::string> keep = {"topics.0.segment.bytes=10000000", "topics.0.retention.bytes=20000000",
                                         "cluster.log.retention.check.interval.ms=10000",
                                         "cluster.log.initial.task.delay.ms=10000"};
  const auto r = model::run_scenario(scenarios::load_scenario_file(study, keep), 11, 0, {});
  const auto& re = r.replication.reassignment;
  REQUIRE(re.completed_ms);
  // Two partitions of at most retention.bytes + a segment + the 10 s since the last check.
  CHECK(re.steps[0].bytes_to_copy <= 2 * (20'000'000 + 10'000'000 + 10'500'000));
  CHECK(re.steps[0].bytes_to_copy >= 2 * 20'000'000);
  // What the new replicas received: that, and what was written meanwhile (they start at the
  // leader's log start, OFFSET_OUT_OF_RANGE, not at offset 0).
  std::int64_t in = 0;
  for (const auto& s : re.samples) in += s.bytes_in;
  const double copy_s = (*re.completed_ms - re.steps[0].at_ms) / 1000;
  CHECK(static_cast<double>(in) <= static_cast<double>(re.steps[0].bytes_to_copy) + 2.1e6 * copy_s + 1e6);
  // Broker 3 holds the two new replicas, kept as small by its own checks; broker 0 dropped its
  // replica of partition 0 when the move completed.
  CHECK(r.replication.disks.brokers[3].largest_bytes <= 20'000'000 + 10'000'000 + 10'500'000);
  CHECK(r.replication.disks.brokers[0].removed_bytes > 20'000'000);
}
