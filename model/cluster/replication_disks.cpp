// The brokers' disks in the followers' model (Replication's part; docs/disks.md): every
// replica's log on its broker's disk, the retention check that deletes whole segments, and
// the log directory that fails when a write does not fit. What each rule follows, read from
// apache/kafka (trunk 1eb7644):
// - LogManager schedules "kafka-log-retention" after log.initial.task.delay.ms, then every
//   log.retention.check.interval.ms; it runs UnifiedLog.deleteOldSegments on every log the
//   broker holds, leader or follower (model/cluster/log_segments.hpp).
// - A deleted segment's files are renamed and removed file.delete.delay.ms later
//   (LocalLog.deleteSegmentFiles, asyncDelete): its bytes stay on the disk until then. A
//   replica a reassignment removes goes the same way (StopReplica with deletion).
// - A follower learns its leader's log start offset from every answer and deletes below it
//   at its next check (maybeIncrementLogStartOffset, deleteLogStartOffsetBreachedSegments); a
//   follower whose log ends below its leader's log start (a new replica, or one away long)
//   gets OFFSET_OUT_OF_RANGE, drops its log and fetches from the leader's log start.
// - A write that fails (an IOException: no space left) takes its log directory offline
//   (LogDirFailureChannel); with no log directory left the broker halts
//   (LogManager.handleLogDirFailure: "Shutdown broker because all log dirs ... have
//   failed"). partsim's brokers have one log directory on one disk, so a full disk halts the
//   broker; the write's batch is answered KAFKA_STORAGE_ERROR. A follower's failed append
//   halts it likewise.
// partsim counts the log bytes (not the index files, which Kafka preallocates sparse).

#include <algorithm>
#include <limits>

#include "model/cluster/replication.hpp"

namespace partsim::model {

std::int64_t Replication::leader_log_start(const Partition& p) const {
  if (p.leader < 0) return 0;
  const Follower& l = p.state[pos(p, p.leader)];
  return std::max(l.start, l.log_start);
}

std::int64_t Replication::lacks(const Partition& p, std::int32_t b) const {
  const std::int64_t from = leader_log_start(p);
  return std::max<std::int64_t>(0, p.log_end - std::max(p.state[pos(p, b)].leo, from));
}

void Replication::grow(std::int32_t b, std::int64_t bytes, SimTime now) {
  Disk& d = disks_[static_cast<std::size_t>(b)];
  d.logs += bytes;
  if (!disks_on_ || bytes <= 0) return;
  BrokerDisk& r = result_.disks.brokers[static_cast<std::size_t>(b)];
  if (const std::int64_t u = used(b, now); u > r.peak) {
    r.peak = u;
    r.peak_ms = now.to_ms();
  }
}

void Replication::delete_later(std::int32_t b, std::int64_t bytes, SimTime now) {
  if (bytes <= 0) return;
  Disk& d = disks_[static_cast<std::size_t>(b)];
  d.logs -= bytes;
  if (!disks_on_) return;
  d.deleting += bytes;
  d.removals.emplace_back(now + s_.replication.file_delete_delay, bytes);
}

std::int64_t Replication::used(std::int32_t b, SimTime now) {
  Disk& d = disks_[static_cast<std::size_t>(b)];
  for (; !d.removals.empty() && d.removals.front().first <= now; d.removals.pop_front())
    d.deleting -= d.removals.front().second;
  return d.other + d.logs + d.deleting;
}

bool Replication::fits(std::int32_t b, std::int64_t bytes, SimTime now) {
  const Disk& d = disks_[static_cast<std::size_t>(b)];
  if (d.failed) return false;
  return d.capacity <= 0 || used(b, now) + bytes <= d.capacity;
}

bool Replication::disk_refuses(std::size_t partition, std::int64_t bytes, SimTime now) {
  if (!disks_on_) return false;
  const std::int32_t b = parts_[partition].leader;
  if (b < 0 || fits(b, bytes, now)) return false;
  fail_log_dir(b, now);
  ++result_.errors[std::string(produce_error_info(ProduceError::kKafkaStorageError).name)];
  return true;
}

void Replication::fail_log_dir(std::int32_t b, SimTime now) {
  Disk& d = disks_[static_cast<std::size_t>(b)];
  if (d.failed) return;
  d.failed = true;
  result_.disks.brokers[static_cast<std::size_t>(b)].failures_ms.push_back(now.to_ms());
  sample_disks(now);
  host_.log_dir_failed(b);
}

void Replication::check_retention(SimTime now) {
  bool ran = false;
  const std::int64_t now_ms = timestamp_ms(now);
  for (Partition& p : parts_) {
    if (!p.created()) continue;
    std::int64_t lowest = std::numeric_limits<std::int64_t>::max();
    for (std::size_t k = 0; k < p.replicas.size(); ++k) {
      const std::int32_t b = p.replicas[k];
      Follower& f = p.state[k];
      const bool leads = b == p.leader;
      if (up(b) && !disks_[static_cast<std::size_t>(b)].failed) {
        ran = true;
        const ReplicaLog log{f.start, f.leo, leads ? p.hw : f.hw, std::max(f.start, f.log_start)};
        if (const Deleted gone = p.segments.deletable(log, now_ms); gone.segments > 0) {
          delete_later(b, gone.start - f.start, now);
          BrokerDisk& r = result_.disks.brokers[static_cast<std::size_t>(b)];
          r.deleted_bytes += gone.start - f.start;
          r.deleted_segments += gone.segments;
          f.start = gone.start;
          f.log_start = std::max(f.log_start, gone.start);
          if (gone.rolled && leads) p.segments.roll(f.leo);
        }
      }
      if (f.leo > f.start) lowest = std::min(lowest, f.start);
    }
    if (lowest != std::numeric_limits<std::int64_t>::max()) p.segments.forget_below(lowest);
  }
  if (ran) ++result_.disks.retention_checks;
}

void Replication::remove_log(std::int32_t b, std::int64_t bytes, SimTime now) {
  if (bytes <= 0) return;
  delete_later(b, bytes, now);
  if (disks_on_) result_.disks.brokers[static_cast<std::size_t>(b)].removed_bytes += bytes;
}

void Replication::sample_disks(SimTime now) {
  if (!disks_on_) return;
  DiskSample x;
  x.time_ms = now.to_ms();
  for (std::size_t b = 0; b < disks_.size(); ++b) x.used.push_back(used(static_cast<std::int32_t>(b), now));
  result_.disks.samples.push_back(std::move(x));
}

void Replication::finish_disks(SimTime now) {
  if (!disks_on_) return;
  auto& samples = result_.disks.samples;  // none after the end
  while (!samples.empty() && samples.back().time_ms > now.to_ms()) samples.pop_back();
  sample_disks(now);
  DiskResult& r = result_.disks;
  for (std::size_t b = 0; b < disks_.size(); ++b) r.brokers[b].end = used(static_cast<std::int32_t>(b), now);
  for (const Partition& p : parts_) {
    r.segments_rolled += p.segments.rolls();
    for (std::size_t k = 0; k < p.replicas.size(); ++k) {
      BrokerDisk& d = r.brokers[static_cast<std::size_t>(p.replicas[k])];
      const std::int64_t bytes = p.state[k].leo - p.state[k].start;
      if (bytes <= d.largest_bytes) continue;
      d.largest_bytes = bytes;
      d.largest = s_.topics[p.topic].name + "-" + std::to_string(p.index);
    }
  }
}

}  // namespace partsim::model
