// The settings only one cluster.replication mode models (scenario_checks.hpp): under the
// other mode each draws a located warning, and the disks, which hold the replicas' logs, an
// error (docs/disks.md).

#include <string>
#include <utility>

#include "scenarios/loader/scenario_checks.hpp"

namespace partsim::scenarios {

using namespace partsim::model;

// Settings only one cluster.replication mode models: set to anything but the default under
// the other mode, they would be silently ignored, so each draws a located warning. (Under
// fixed, min.insync.replicas takes effect: the replicas on live brokers stand for the ISR.)
void check_replication_mode(MapReader& top, const Scenario& s) {
  const ReplicationConfig defaults;
  const BrokerConfig broker_defaults;
  if (!s.replication.followers()) {
    const char* why =
        " is ignored under cluster.replication: fixed (the default), which models no follower fetches, ISR changes "
        "or fencing; set cluster.replication: followers for it to take effect";
    if (top.has("cluster")) {
      MapReader cluster = top.map("cluster");
      // A follower serves reads up to the high watermark it learns from its leader: fixed
      // models no followers to read from.
      if (s.replication.rack_aware_selector)
        cluster.error("replica.selector.class",
                      "rack-aware needs cluster.replication: followers (consumers read from in-sync followers, "
                      "which fixed does not model)");
      const std::pair<const char*, bool> set[] = {
          {"replica.fetch.wait.max.ms", s.replication.fetch_wait_max != defaults.fetch_wait_max},
          {"replica.fetch.min.bytes", s.replication.fetch_min_bytes != defaults.fetch_min_bytes},
          {"replica.lag.time.max.ms", s.replication.lag_time_max != defaults.lag_time_max},
          {"broker.heartbeat.interval.ms", s.replication.heartbeat_interval != defaults.heartbeat_interval},
          {"broker.session.timeout.ms", s.replication.session_timeout != defaults.session_timeout},
          {"log.retention.check.interval.ms", s.replication.retention_check != defaults.retention_check},
          {"log.initial.task.delay.ms", s.replication.initial_task_delay != defaults.initial_task_delay},
          {"file.delete.delay.ms", s.replication.file_delete_delay != defaults.file_delete_delay}};
      for (const auto& [key, changed] : set)
        if (changed && cluster.has(key)) cluster.warn(key, std::string(key) + why);
    }
    for (std::size_t i = 0; i < s.brokers.size(); ++i)
      if (s.brokers[i].replica_rtt != broker_defaults.replica_rtt) {
        MapReader cluster = top.map("cluster");
        MapReader b = list_item(cluster, "brokers", i);
        if (b.has("replica.rtt.ms")) b.warn("replica.rtt.ms", std::string("replica.rtt.ms") + why);
      }
    // The disks hold the replicas' logs, which only followers model: a disk that could fill
    // is refused rather than ignored.
    for (std::size_t i = 0; i < s.brokers.size(); ++i) {
      const std::pair<const char*, bool> disk[] = {{"disk.bytes", s.brokers[i].disk_bytes > 0},
                                                   {"disk.used.bytes", s.brokers[i].disk_used_bytes > 0}};
      for (const auto& [key, set] : disk) {
        if (!set) continue;
        MapReader cluster = top.map("cluster");
        list_item(cluster, "brokers", i)
            .error(key, "needs cluster.replication: followers (the disks hold the replicas' logs, which fixed does "
                        "not model)");
      }
    }
    const TopicConfig topic_defaults;
    for (std::size_t i = 0; i < s.topics.size(); ++i) {
      const TopicConfig& tc = s.topics[i];
      const std::pair<const char*, bool> set[] = {{"segment.bytes", tc.segment_bytes != topic_defaults.segment_bytes},
                                                  {"segment.ms", tc.segment_ms != topic_defaults.segment_ms},
                                                  {"retention.ms", tc.retention_ms != topic_defaults.retention_ms},
                                                  {"retention.bytes",
                                                   tc.retention_bytes != topic_defaults.retention_bytes}};
      for (const auto& [key, changed] : set)
        if (changed) list_item(top, "topics", i).warn(key, std::string(key) + why);
    }
  } else {
    for (std::size_t i = 0; i < s.brokers.size(); ++i)
      if (s.brokers[i].disk_bytes > 0 && s.brokers[i].disk_used_bytes > s.brokers[i].disk_bytes) {
        MapReader cluster = top.map("cluster");
        list_item(cluster, "brokers", i)
            .error("disk.used.bytes", "must be at most disk.bytes (" + std::to_string(s.brokers[i].disk_bytes) + ")");
      }
    for (std::size_t i = 0; i < s.brokers.size(); ++i)
      if (s.brokers[i].replication != broker_defaults.replication) {
        MapReader cluster = top.map("cluster");
        MapReader b = list_item(cluster, "brokers", i);
        if (b.has("replication.ms"))
          b.warn("replication.ms",
                 "replication.ms is ignored under cluster.replication: followers, where acks=all waits for the "
                 "followers' fetches (replica.rtt.ms, replica.fetch.wait.max.ms); it applies under fixed");
      }
  }
}

}  // namespace partsim::scenarios
