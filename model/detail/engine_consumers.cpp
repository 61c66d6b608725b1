// The engine's side of the consumer groups (consumers.hpp, a part of their own that the loop
// steps between its events): whether records may still come, and what the groups and a
// migration's bridge are told of the logs and the leaders.

#include "model/detail/engine.hpp"

namespace partsim::model::detail {

// Records may still come, or become readable: a producer runs on, or (followers) records
// above the high watermark wait for followers that still fetch or brokers that may recover,
// or a follower consumers read from has yet to learn the high watermark.
bool Engine::logs_growing() const {
  if (!quiet()) return true;
  if (!replication_ || (replication_steps_ == 0 && broker_steps_left_ == 0)) return false;
  // (KIP-392: a follower that has yet to learn the high watermark will serve more)
  return leaders_->unreplicated() || replication_->followers_behind();
}

// Records of `log` were appended or became readable: the bridge may copy them, an idle member
// that owns the partition fetches it, and a fetch parked on it may be answered sooner.
void Engine::readable_changed(std::size_t log) {
  if (migration_) migration_->readable_changed(log, now());
  if (consumers_) consumers_->readable_changed(log, now());
}

void Engine::leaders_changed() {
  if (consumers_) consumers_->leaders_changed(now());
}

}  // namespace partsim::model::detail
