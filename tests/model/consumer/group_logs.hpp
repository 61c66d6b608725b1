#pragma once
// Hand-made broker logs for the consumer group simulation's tests: one topic "t" on one
// broker 1 ms away (the group's coordinator too), records added offset by offset, and a
// group of `members` reading it from earliest.

#include <cstdint>
#include <string>

#include "model/consumer/consumer_simulation.hpp"

namespace partsim::model::consumer::testing {

struct GroupLogs {
  BrokerLogs logs;
  ConsumeInputs in;
  std::int64_t sends = 0;  ///< producer 0's sends so far

  explicit GroupLogs(std::int32_t partitions, std::int32_t trace = 0) {
    logs.partitions.resize(static_cast<std::size_t>(partitions));
    in.logs = &logs;
    in.topics = {{"t", partitions, {}, {}}};
    in.topic_first_log = {0};
    in.leader.assign(static_cast<std::size_t>(partitions), 0);
    in.record_bytes.assign(static_cast<std::size_t>(partitions), 100);
    in.broker_rtt = {SimTime::ms(1)};
    in.trace = trace;
  }
  /// A record sent by `producer` as its send number `send_index` (a retry's second copy of a
  /// record repeats both); key "" is a null key.
  void add(std::int32_t p, const std::string& key, std::int32_t producer, std::int64_t send_index, double sent_ms,
           double readable_ms) {
    LogRecord r;
    r.key = key.empty() ? LogRecord::kNullKey : logs.intern(key);
    r.producer = producer;
    r.send_index = send_index;
    r.sent = SimTime::from_ms(sent_ms);
    r.readable = SimTime::from_ms(readable_ms);
    logs.partitions[static_cast<std::size_t>(p)].records.push_back(r);
  }
  /// Producer 0's next send.
  void add(std::int32_t p, const std::string& key, double sent_ms, double readable_ms) {
    add(p, key, 0, sends++, sent_ms, readable_ms);
  }
  /// Producer 0's next send, keyed "k<partition>".
  void add(std::int32_t p, double sent_ms, double readable_ms) {
    add(p, "k" + std::to_string(p), sent_ms, readable_ms);
  }
};

/// A group "g" of `members` on topic "t", each record taking `processing`, from earliest.
inline ConsumerGroupSpec group_from_earliest(std::int32_t members, SimTime processing) {
  ConsumerGroupSpec g;
  g.group = "g";
  g.topics = {"t"};
  g.members = members;
  g.processing = processing;
  g.config.auto_offset_reset = ConsumerConfig::OffsetReset::kEarliest;
  return g;
}

/// group_from_earliest with each record taking `processing_us` microseconds.
inline ConsumerGroupSpec group(std::int32_t members, double processing_us = 0) {
  return group_from_earliest(members, SimTime::from_ms(processing_us / 1000));
}

}  // namespace partsim::model::consumer::testing
