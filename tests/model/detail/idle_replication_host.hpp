#pragma once
// A replication host that runs nothing, for the engine parts' tests: the followers' fetches
// never happen, and nothing is told of acks or high watermarks; what a test checks (who
// leads, what the leader appends) does not need them.

#include "model/cluster/replication.hpp"

namespace partsim::model::testing {

struct IdleReplicationHost final : ReplicationHost {
  bool schedule_fetch(Step, std::uint32_t, std::uint64_t, sim::SimTime) override { return true; }
  std::int64_t readable_records(std::size_t) const override { return 0; }
  void acks_settled(std::uint64_t) override {}
  void ack_error(std::uint64_t, std::size_t, ProduceError) override {}
  std::int64_t records_acked() const override { return 0; }
  void high_watermark_moved(std::size_t, std::int64_t) override {}
  void log_truncated(std::size_t, std::int64_t) override {}
  void fetch_answered(std::int32_t, std::int32_t, std::int64_t, std::int32_t, std::int32_t) override {}
  void follower_high_watermark(std::size_t, std::int32_t) override {}
  void reassignment_done(std::size_t, bool) override {}
  void log_dir_failed(std::int32_t) override {}
};

}  // namespace partsim::model::testing
