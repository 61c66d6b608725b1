#include "model/detail/migration_runner.hpp"

#include <algorithm>
#include <cmath>
#include <queue>

#include <boost/random/bernoulli_distribution.hpp>

#include "model/partitioners/key_hash.hpp"
#include "sim/check.hpp"

namespace partsim::model::detail {
namespace {

using Strategy = MigrationSpec::Strategy;
using Kind = MigrationStep::Kind;

// While the bridge's producer waits for buffer.memory, a thread looks again this often.
constexpr SimTime kMemoryPoll = SimTime::ms(1);
// Stop-replay: how often the bridge looks whether the stopped producers hold anything more.
constexpr SimTime kPoll = SimTime::ms(1);

std::int32_t partitions_of(const Scenario& s, const std::string& topic) {
  const auto t = s.topic_index(topic);
  PARTSIM_CHECK(t.has_value(), "a migration names a topic the scenario lacks (the loader checks this)");
  return s.topics[*t].partitions_before(s.run.duration);
}

}  // namespace

MigrationRunner::MigrationRunner(const Scenario& s, const BrokerLogs& logs, const std::vector<PartitionStats>& rows,
                                 std::size_t from_row, std::size_t to_row, const sim::RandomStreams& streams,
                                 const SimTime& clock, MigrationHost& host)
    : s_(s),
      spec_(*s.migration),
      logs_(logs),
      rows_(rows),
      from_row_(from_row),
      to_row_(to_row),
      from_partitions_(partitions_of(s, spec_.from)),
      clock_(clock),
      host_(host),
      dual_write_rng_(streams.stream("migration/dual-write")) {
  cursor_.assign(static_cast<std::size_t>(from_partitions_), 0);
  read_due_.assign(static_cast<std::size_t>(from_partitions_), SimTime::max());
  threads_.resize(static_cast<std::size_t>(std::max(1, spec_.bridge.threads)));
}

void MigrationRunner::start() {
  // A dual write's second sends are the producers' own: their twins take each send() made
  // from at.ms on.
  if (spec_.strategy == Strategy::kDualWrite) host_.start_dual_write();
  host_.schedule_migration({Kind::kStart}, spec_.at);
}

bool MigrationRunner::second_send_fails() {
  boost::random::bernoulli_distribution<double> fails(spec_.dual_write_failure_rate);
  return fails(dual_write_rng_);
}

void MigrationRunner::step(const MigrationStep& e, SimTime now) {
  switch (e.kind) {
    case Kind::kStart:
      started_ = true;
      if (spec_.strategy == Strategy::kDualWrite) return;
      if (spec_.strategy == Strategy::kStopReplay) host_.stop_sources();
      read_backlog(now);
      check_caught_up(now);
      return;
    case Kind::kRead:
      read_due_[e.index] = SimTime::max();
      read(e.index, now);
      return;
    case Kind::kThread:
      threads_[e.index].waiting = false;
      send(e.index, now);
      return;
    case Kind::kSwitch:
      switch_pending_ = false;
      timeline_.switched = now;
      host_.switch_producers(spec_.strategy == Strategy::kStopReplay ? now - spec_.at : SimTime::zero());
      return;
    case Kind::kPoll:
      polling_ = false;
      check_caught_up(now);
      return;
  }
}

void MigrationRunner::readable_changed(std::size_t log, SimTime now) {
  if (!started_ || spec_.strategy == Strategy::kDualWrite) return;
  if (log < from_row_ || log >= from_row_ + cursor_.size()) return;
  read(static_cast<std::uint32_t>(log - from_row_), now);
}

// What the old topic holds at the start, read in the order it became readable (partitions
// merged by time, ties in partition order), as a consumer that had followed it would have.
void MigrationRunner::read_backlog(SimTime now) {
  using Head = std::pair<SimTime, std::uint32_t>;  // a partition's next record's readable time
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  const auto push = [&](std::uint32_t p) {
    const auto& records = logs_.partitions[from_row_ + p].records;
    if (cursor_[p] < records.size() && records[cursor_[p]].readable <= now)
      heads.emplace(records[cursor_[p]].readable, p);
  };
  for (std::uint32_t p = 0; p < cursor_.size(); ++p) push(p);
  while (!heads.empty()) {
    const std::uint32_t p = heads.top().second;
    heads.pop();
    take(p, now);
    push(p);
  }
  for (std::uint32_t p = 0; p < cursor_.size(); ++p) read(p, now);  // the first not yet readable is due later
}

// The bridge's consumer reads a partition's records in offset order once readable (the high
// watermark never goes back, so the first not yet readable ends what it may read now).
void MigrationRunner::read(std::uint32_t p, SimTime now) {
  const auto& records = logs_.partitions[from_row_ + p].records;
  while (cursor_[p] < records.size()) {
    const SimTime readable = records[cursor_[p]].readable;
    if (readable > now) {
      if (readable != SimTime::max() && readable < read_due_[p]) {
        read_due_[p] = readable;
        host_.schedule_migration({Kind::kRead, p}, readable);
      }
      return;
    }
    take(p, now);
  }
}

// The bridge reads the next record of old partition `p` and hands it to a writer thread.
void MigrationRunner::take(std::uint32_t p, SimTime now) {
  const LogRecord r = logs_.partitions[from_row_ + p].records[cursor_[p]++];
  // What the read carried: a record of the partition's mean wire bytes so far.
  const PartitionStats& row = rows_[from_row_ + p];
  host_.bridge_read(static_cast<std::int32_t>(p),
                    row.records > 0 ? std::max<std::int64_t>(1, row.bytes / row.records) : 1);
  const std::size_t j = copies_.size();
  const auto threads = threads_.size();
  std::size_t thread = j % threads;
  if (spec_.bridge.route == BridgeSpec::Route::kByKey && r.key >= 0)
    thread = static_cast<std::size_t>(to_positive(murmur2(logs_.keys[static_cast<std::size_t>(r.key)]))) % threads;
  SimTime earliest = spec_.at;
  if (spec_.bridge.records_per_second > 0)
    earliest = std::max(earliest, migration::paced(spec_.at, j, spec_.bridge.records_per_second));
  copies_.push_back(Copy{r, earliest, static_cast<std::uint32_t>(thread)});
  ++outstanding_;
  threads_[thread].queue.push_back(j);
  send(static_cast<std::uint32_t>(thread), now);
}

// A writer thread hands its oldest record to the producer, if it may: one at a time, at its
// pace, and not while the producer waits for memory (its thread is inside send() then).
void MigrationRunner::send(std::uint32_t thread, SimTime now) {
  Thread& t = threads_[thread];
  if (t.sending || t.waiting || t.queue.empty()) return;
  const std::size_t j = t.queue.front();
  if (copies_[j].earliest > now) return wake(thread, copies_[j].earliest);
  if (writer_->blocked()) return wake(thread, now + kMemoryPoll);
  t.sending = true;
  const LogRecord& r = copies_[j].record;
  GeneratedRecord rec;
  rec.has_key = r.key >= 0;
  if (rec.has_key) rec.key = logs_.keys[static_cast<std::size_t>(r.key)];
  rec.shape = write_shape(rec.has_key ? static_cast<std::int32_t>(rec.key.size()) : -1);
  feeding_ = j;
  writer_->mirrored_send(rec, static_cast<std::int64_t>(j), now, now);
  feeding_.reset();
  if (writer_->blocked() && t.sending && !blocked_copy_) blocked_copy_ = j;
}

// The record's send() came back: acknowledged, or failed for good (the producer's retries
// and delivery.timeout.ms are over, or send() itself failed).
void MigrationRunner::done(std::size_t j, bool acked, SimTime now) {
  const std::uint32_t thread = copies_[j].thread;
  Thread& t = threads_[thread];
  PARTSIM_CHECK(t.sending && !t.queue.empty() && t.queue.front() == j, "a bridge record answered out of turn");
  t.sending = false;
  t.queue.pop_front();
  --outstanding_;
  last_completion_ = std::max(last_completion_, now);
  if (acked) timeline_.copies.emplace_back(copies_[j].record.readable, now);
  else ++timeline_.given_up;
  // The thread's next record; after a failure as a step of its own, so that records failing
  // inside send() one after the other do not nest.
  if (acked) send(thread, now);
  else wake(thread, now);
  check_caught_up(now);
}

void MigrationRunner::record_appended(std::uint32_t, const AppendedRecord&) {
  if (!feeding_) blocked_copy_.reset();  // the waiting send() got its memory
}

void MigrationRunner::record_failed(std::uint32_t, FailureReason) {
  // send() failed: for the record being handed over, or for the one that waited for memory.
  const std::optional<std::size_t> j = feeding_ ? feeding_ : blocked_copy_;
  PARTSIM_CHECK(j.has_value(), "the bridge's producer failed a record it was not sending");
  if (!feeding_) blocked_copy_.reset();
  done(*j, false, clock_);
}

void MigrationRunner::batch_done(std::uint32_t, const BatchArena& batches, BatchId id, std::int32_t node,
                                 std::optional<FailureReason>) {
  for (const RecordTag& tag : batches.tags(id)) done(static_cast<std::size_t>(tag.send_index), node >= 0, clock_);
}

void MigrationRunner::wake(std::uint32_t thread, SimTime at) {
  Thread& t = threads_[thread];
  if (t.waiting) return;
  t.waiting = true;
  host_.schedule_migration({Kind::kThread, thread}, at);
}

// Nothing left to read now: no readable record unread (`readable_only`), or none at all.
bool MigrationRunner::all_read(bool readable_only, SimTime now) const {
  for (std::size_t p = 0; p < cursor_.size(); ++p) {
    const auto& records = logs_.partitions[from_row_ + p].records;
    if (cursor_[p] == records.size()) continue;
    if (!readable_only || records[cursor_[p]].readable <= now) return false;
  }
  return true;
}

// Bridge: caught up once everything readable is copied; the switch comes verify.ms later,
// unless the producers had stopped by then. Stop-replay: the replay is done once the
// stopped producers hold nothing more and all they wrote is copied; they resume verify.ms later.
void MigrationRunner::check_caught_up(SimTime now) {
  if (!started_ || timeline_.caught_up || outstanding_ > 0) return;
  if (spec_.strategy == Strategy::kBridge) {
    if (!all_read(true, now)) return;
    timeline_.caught_up = now;
    timeline_.caught_up_while_sending = !host_.sources_stopped(false);
  } else {
    // The stopped producers' batches still in flight may yet add records: looked at again
    // shortly while they hold any. Records above a high watermark wake the bridge when they
    // become readable (readable_changed); a partition that never gets there never resumes.
    if (!host_.sources_stopped(true)) {
      if (!polling_) {
        polling_ = true;
        host_.schedule_migration({Kind::kPoll}, now + kPoll);
      }
      return;
    }
    if (!all_read(false, now)) return;
    timeline_.caught_up = now;
  }
  if (!timeline_.caught_up_while_sending) return;
  switch_pending_ = true;
  host_.schedule_migration({Kind::kSwitch}, now + spec_.verify);
}

bool MigrationRunner::active() const {
  if (!started_) return true;
  if (spec_.strategy == Strategy::kDualWrite) return false;
  for (const SimTime due : read_due_)
    if (due != SimTime::max()) return true;
  return switch_pending_ || polling_ || outstanding_ > 0;
}

// The bridge writes records of the old topic's average size so far (its batch bytes per
// record less a record's framing, spec §5.2): a value of that size, the record's own key.
RecordShape MigrationRunner::write_shape(std::int32_t key_bytes) {
  if (value_bytes_ < 0 || copies_.size() % 256 == 0) {
    std::int64_t records = 0, bytes = 0, batches = 0;
    for (std::size_t p = 0; p < cursor_.size(); ++p) {
      records += rows_[from_row_ + p].records;
      bytes += rows_[from_row_ + p].bytes;
      batches += rows_[from_row_ + p].batches;
    }
    // A batch's 61 bytes of header spread over its records; a record's framing (length,
    // attributes, deltas: about 5 bytes) and its key part. (No record counted yet, before
    // the warm-up's end: looked at again at the next write.)
    if (records > 0)
      value_bytes_ = std::max(0.0, (static_cast<double>(bytes) - 61.0 * static_cast<double>(batches)) /
                                           static_cast<double>(records) -
                                       5.0);
  }
  RecordShape shape;
  shape.key_bytes = key_bytes;
  const double key_part = key_bytes < 0 ? 1.0 : 1.0 + key_bytes;
  shape.value_bytes = static_cast<std::int32_t>(std::max(0.0, std::round(value_bytes_ - key_part)));
  return shape;
}

migration::MigrationResult MigrationRunner::finish() const {
  migration::Timeline t = timeline_;
  std::int64_t records = 0, bytes = 0;
  for (std::size_t p = 0; p < cursor_.size(); ++p) {
    records += rows_[from_row_ + p].records;
    bytes += rows_[from_row_ + p].bytes;
  }
  t.record_bytes = records > 0 ? static_cast<double>(bytes) / static_cast<double>(records) : 1.0;
  return migration::figures(s_, logs_, from_row_, to_row_, t);
}

}  // namespace partsim::model::detail
