#include "scenarios/loader/scenario_writer.hpp"

#include <yaml-cpp/yaml.h>

#include "model/partitioners/partitioner.hpp"

namespace partsim::scenarios {
namespace {

using namespace partsim::model;

double ms(SimTime t) { return static_cast<double>(t.count_ns()) / 1e6; }

const char* jitter_name(Jitter::Kind k) {
  switch (k) {
    case Jitter::Kind::kNone: return "none";
    case Jitter::Kind::kExponential: return "exponential";
    case Jitter::Kind::kUniform: return "uniform";
    case Jitter::Kind::kLognormal: return "lognormal";
  }
  return "none";
}

void write_broker(YAML::Emitter& e, const BrokerConfig& b) {
  e << YAML::BeginMap;
  e << YAML::Key << "id" << YAML::Value << b.id;
  e << YAML::Key << "rack" << YAML::Value << b.rack;
  e << YAML::Key << "rtt.ms" << YAML::Value << ms(b.rtt);
  e << YAML::Key << "request.ms" << YAML::Value << ms(b.request_time);
  e << YAML::Key << "batch.ms" << YAML::Value << ms(b.batch_time);
  e << YAML::Key << "byte.rate" << YAML::Value << b.bytes_per_second;
  e << YAML::Key << "replication.ms" << YAML::Value << ms(b.replication);
  e << YAML::Key << "jitter" << YAML::Value << YAML::BeginMap << YAML::Key << "kind" << YAML::Value << jitter_name(b.jitter.kind)
    << YAML::Key << "mean.ms" << YAML::Value << b.jitter.mean_ms << YAML::Key << "max.ms" << YAML::Value << b.jitter.max_ms
    << YAML::Key << "sigma" << YAML::Value << b.jitter.sigma << YAML::EndMap;
  e << YAML::Key << "schedule" << YAML::Value << YAML::BeginSeq;
  for (const auto& c : b.schedule) {
    e << YAML::BeginMap << YAML::Key << "at.ms" << YAML::Value << ms(c.at);
    switch (c.kind) {
      case BrokerChange::Kind::kSetRtt: e << YAML::Key << "set.rtt.ms" << YAML::Value << ms(c.duration); break;
      case BrokerChange::Kind::kSetRequestTime: e << YAML::Key << "set.request.ms" << YAML::Value << ms(c.duration); break;
      case BrokerChange::Kind::kSetByteRate: e << YAML::Key << "set.byte.rate" << YAML::Value << c.bytes_per_second; break;
      case BrokerChange::Kind::kFail: e << YAML::Key << "fail" << YAML::Value << true; break;
      case BrokerChange::Kind::kRecover: e << YAML::Key << "recover" << YAML::Value << true; break;
    }
    e << YAML::EndMap;
  }
  e << YAML::EndSeq << YAML::EndMap;
}

void write_config(YAML::Emitter& e, const ProducerConfig& c) {
  static const char* const kCompression[] = {"none", "gzip", "snappy", "lz4", "zstd"};
  e << YAML::BeginMap;
  e << YAML::Key << "batch.size" << YAML::Value << c.batch_size_bytes;
  e << YAML::Key << "linger.ms" << YAML::Value << ms(c.linger);
  e << YAML::Key << "buffer.memory" << YAML::Value << c.buffer_memory_bytes;
  e << YAML::Key << "max.block.ms" << YAML::Value << ms(c.max_block);
  e << YAML::Key << "max.request.size" << YAML::Value << c.max_request_size_bytes;
  e << YAML::Key << "max.in.flight.requests.per.connection" << YAML::Value << c.max_in_flight;
  e << YAML::Key << "request.timeout.ms" << YAML::Value << ms(c.request_timeout);
  e << YAML::Key << "delivery.timeout.ms" << YAML::Value << ms(c.delivery_timeout);
  e << YAML::Key << "retries" << YAML::Value << c.retries;
  e << YAML::Key << "retry.backoff.ms" << YAML::Value << ms(c.retry_backoff);
  e << YAML::Key << "retry.backoff.max.ms" << YAML::Value << ms(c.retry_backoff_max);
  e << YAML::Key << "acks" << YAML::Value << (c.acks == Acks::kNone ? "0" : c.acks == Acks::kLeader ? "1" : "all");
  e << YAML::Key << "compression.type" << YAML::Value << kCompression[static_cast<int>(c.compression)];
  e << YAML::Key << "partsim.compression.ratio" << YAML::Value << c.compression_ratio;
  e << YAML::Key << "partitioner.ignore.keys" << YAML::Value << c.ignore_keys;
  e << YAML::Key << "partitioner.adaptive.partitioning.enable" << YAML::Value << c.adaptive;
  e << YAML::Key << "partitioner.availability.timeout.ms" << YAML::Value << ms(c.availability_timeout);
  const auto kind = static_cast<std::size_t>(c.partitioner.kind);
  if (kind < partitioner_names().size()) {
    e << YAML::Key << "partitioner" << YAML::Value << partitioner_names()[kind];
  } else {
    e << YAML::Comment("partitioner written in C++ (" + c.partitioner.code_name + "): not expressible here");
  }
  e << YAML::Key << "partsim.sticky.align-batches" << YAML::Value << c.align_batches;
  if (c.partitioner.kind == PartitionerKind::kRules) {
    e << YAML::Key << "partsim.partitioner.rules" << YAML::Value << YAML::BeginSeq;
    for (const auto& r : c.partitioner.rules) {
      const char* match = r.match == PartitionRule::Match::kPrefix ? "prefix" : r.match == PartitionRule::Match::kExact ? "key" : "regex";
      e << YAML::BeginMap << YAML::Key << match << YAML::Value << r.text << YAML::Key << "partition" << YAML::Value << r.partition
        << YAML::EndMap;
    }
    e << YAML::EndSeq;
    e << YAML::Key << "partsim.partitioner.fallback" << YAML::Value << YAML::BeginMap << YAML::Key << "hash" << YAML::Value
      << (c.partitioner.fallback.hash == RuleFallback::Hash::kMurmur2 ? "murmur2" : "java-string") << YAML::Key << "from"
      << YAML::Value << c.partitioner.fallback.first << YAML::Key << "count" << YAML::Value << c.partitioner.fallback.count
      << YAML::EndMap;
  }
  e << YAML::EndMap;
}

void write_workload(YAML::Emitter& e, const Workload& w) {
  static const char* const kArrivals[] = {"constant", "poisson", "on-off", "closed-loop", "flat-out"};
  static const char* const kKeys[] = {"none", "template", "zipf", "hot", "list"};
  static const char* const kValues[] = {"fixed", "template", "uniform", "lognormal"};
  e << YAML::BeginMap;
  e << YAML::Key << "topic" << YAML::Value << w.topic;
  const auto& a = w.arrivals;
  e << YAML::Key << "arrivals" << YAML::Value << YAML::BeginMap << YAML::Key << "kind" << YAML::Value
    << kArrivals[static_cast<int>(a.kind)] << YAML::Key << "rate" << YAML::Value << a.records_per_second << YAML::Key << "on.ms" << YAML::Value
    << ms(a.on) << YAML::Key << "off.ms" << YAML::Value << ms(a.off) << YAML::Key << "concurrency" << YAML::Value << a.concurrency
    << YAML::Key << "send.cost.us" << YAML::Value << ms(a.send_cost) * 1000 << YAML::Key << "threads" << YAML::Value << a.threads
    << YAML::Key << "partition.gap.us" << YAML::Value << ms(a.partition_gap) * 1000 << YAML::EndMap;
  const auto& k = w.keys;
  e << YAML::Key << "keys" << YAML::Value << YAML::BeginMap << YAML::Key << "kind" << YAML::Value << kKeys[static_cast<int>(k.kind)]
    << YAML::Key << "template" << YAML::Value << k.key_template << YAML::Key << "templates" << YAML::Value << YAML::Flow
    << k.templates << YAML::Key << "cardinality" << YAML::Value << k.cardinality << YAML::Key << "s" << YAML::Value << k.zipf_s
    << YAML::Key << "hot.key" << YAML::Value << k.hot_key << YAML::Key << "hot.share" << YAML::Value << k.hot_share << YAML::Key
    << "list" << YAML::Value << YAML::Flow << k.list << YAML::EndMap;
  const auto& v = w.values;
  e << YAML::Key << "values" << YAML::Value << YAML::BeginMap << YAML::Key << "kind" << YAML::Value
    << (v.null_value ? "null" : kValues[static_cast<int>(v.kind)]) << YAML::Key << "size" << YAML::Value << v.size_bytes << YAML::Key
    << "template" << YAML::Value << v.value_template << YAML::Key << "min" << YAML::Value << v.min_bytes << YAML::Key << "max"
    << YAML::Value << v.max_bytes << YAML::Key << "median" << YAML::Value << v.median_bytes << YAML::Key << "sigma" << YAML::Value << v.sigma
    << YAML::EndMap;
  if (w.partition) e << YAML::Key << "partition" << YAML::Value << *w.partition;
  e << YAML::Key << "headers" << YAML::Value << YAML::BeginMap << YAML::Key << "count" << YAML::Value << w.header_count << YAML::Key
    << "key.bytes" << YAML::Value << w.header_key_bytes << YAML::Key << "value.bytes" << YAML::Value << w.header_value_bytes
    << YAML::EndMap;
  if (w.records) e << YAML::Key << "records" << YAML::Value << *w.records;
  e << YAML::EndMap;
}

}  // namespace

std::string write_scenario_yaml(const Scenario& s) {
  YAML::Emitter e;
  e.SetDoublePrecision(17);
  e << YAML::BeginMap;
  e << YAML::Key << "name" << YAML::Value << s.name;
  e << YAML::Key << "run" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "seed" << YAML::Value << s.run.seed;
  if (s.run.records) e << YAML::Key << "records" << YAML::Value << *s.run.records;
  if (s.run.duration) e << YAML::Key << "duration.ms" << YAML::Value << ms(*s.run.duration);
  e << YAML::Key << "warmup.ms" << YAML::Value << ms(s.run.warmup);
  e << YAML::Key << "trace" << YAML::Value << s.run.trace;
  e << YAML::Key << "window.ms" << YAML::Value << ms(s.run.window);
  e << YAML::Key << "partition.order" << YAML::Value << (s.run.sorted_partition_order ? "sorted" : "hashmap");
  e << YAML::Key << "check" << YAML::Value << (s.run.check == RunSpec::Check::kPoissonBatching ? "poisson-batching" : "none");
  e << YAML::EndMap;
  e << YAML::Key << "cluster" << YAML::Value << YAML::BeginMap << YAML::Key << "brokers" << YAML::Value << YAML::BeginSeq;
  for (const auto& b : s.brokers) write_broker(e, b);
  e << YAML::EndSeq;
  e << YAML::Key << "auto.leader.rebalance.enable" << YAML::Value << s.controller.auto_leader_rebalance;
  e << YAML::Key << "leader.imbalance.check.interval.seconds" << YAML::Value << s.controller.imbalance_check_interval.to_sec();
  e << YAML::Key << "leader.imbalance.per.broker.percentage" << YAML::Value << s.controller.imbalance_per_broker_percent;
  e << YAML::EndMap;
  e << YAML::Key << "topics" << YAML::Value << YAML::BeginSeq;
  for (const auto& t : s.topics)
    e << YAML::BeginMap << YAML::Key << "name" << YAML::Value << t.name << YAML::Key << "partitions" << YAML::Value << t.partitions
      << YAML::Key << "replication.factor" << YAML::Value << t.replication_factor << YAML::EndMap;
  e << YAML::EndSeq;
  e << YAML::Key << "producers" << YAML::Value << YAML::BeginSeq;
  for (const auto& p : s.producers) {
    e << YAML::BeginMap << YAML::Key << "name" << YAML::Value << p.name;
    e << YAML::Key << "config" << YAML::Value;
    write_config(e, p.config);
    e << YAML::Key << "workload" << YAML::Value;
    write_workload(e, p.workload);
    e << YAML::EndMap;
  }
  e << YAML::EndSeq << YAML::EndMap;
  return std::string(e.c_str()) + "\n";
}

}  // namespace partsim::scenarios
