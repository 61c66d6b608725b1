#include "model/client_profiles.hpp"

#include <algorithm>

#include "model/partitioners/client_partitioner.hpp"
#include "sim/check.hpp"

namespace partsim::model {
namespace {

// No bound on buffered bytes: the Java model's buffer.memory at its largest. The Java
// model charges a whole batch.size buffer per batch, which none of these clients does
// (librdkafka and franz-go count the messages' bytes or records), so no profile takes the
// Java bound: their buffers are unbounded here (docs/clients.md).
constexpr std::int64_t kNoBufferLimit = std::int64_t{1} << 40;

}  // namespace

std::unique_ptr<Partitioner> make_profile_partitioner(const ProducerConfig& c, PartitionDraw draw) {
  const ClientPartitionerRule* rule = find_client_partitioner(c.client.family, c.profile.partitioner);
  PARTSIM_CHECK(rule != nullptr, "a profile's partitioner the loader did not check");
  ClientPartitionerSettings settings;
  settings.sticky_linger = c.profile.sticky_linger.value_or(default_sticky_linger(c.linger));
  settings.sticky_bytes = c.profile.sticky_bytes;
  settings.adaptive = c.profile.sticky_adaptive;
  settings.keys = c.profile.sticky_keys;
  return std::make_unique<ClientPartitioner>(*rule, settings, std::move(draw));
}

bool uses_buffered_records(const ProducerConfig& c) {
  const ClientPartitionerRule* rule = find_client_partitioner(c.client.family, c.profile.partitioner);
  return rule != nullptr && c.profile.sticky_adaptive &&
         (rule->null_key == Unkeyed::kStickyByBytes || rule->keyed == Unkeyed::kStickyByBytes);
}

SimTime no_limit_bound(const ProducerConfig& c) {
  return std::max(kNoDeliveryTimeoutBound, c.linger + c.request_timeout);
}

SimTime retry_budget(const ProducerConfig& c) {
  if (c.retries >= 2147483647) return no_limit_bound(c);  // retries without end
  const SimTime backoff = c.profile.flat_backoff ? c.retry_backoff : std::max(c.retry_backoff, c.retry_backoff_max);
  const double attempts = static_cast<double>(c.retries) + 1;
  return SimTime::from_ms(std::min(c.linger.to_ms() + attempts * (c.request_timeout + backoff).to_ms(), 1e12));
}

SimTime default_sticky_linger(SimTime linger) { return std::min(linger + linger, SimTime::ms(900000)); }

void apply_profile_defaults(ProducerConfig& c) {
  ClientProfileConfig& p = c.profile;
  switch (c.client.family) {
    case ClientFamily::kJava: return;
    case ClientFamily::kLibrdkafka:  // src/rdkafka_conf.c (kafka-clients.md §11)
      p.partitioner = "consistent_random";
      c.linger = SimTime::ms(5);
      c.batch_size_bytes = 1'000'000;
      p.batch_records = 10'000;
      c.buffer_memory_bytes = kNoBufferLimit;
      c.max_request_size_bytes = 1'000'000;  // message.max.bytes
      c.max_in_flight = 1'000'000;
      c.acks = Acks::kAll;
      c.idempotence = false;
      c.delivery_timeout = SimTime::ms(300'000);  // message.timeout.ms
      c.request_timeout = SimTime::ms(30'000);
      c.retries = 2147483647;  // message.send.max.retries
      c.retry_backoff = SimTime::ms(100);
      c.retry_backoff_max = SimTime::ms(1000);
      p.one_partition_per_request = true;
      return;
    case ClientFamily::kFranzGo:  // pkg/kgo/config.go L640-686
      p.partitioner = "UniformBytesPartitioner";
      c.linger = SimTime::ms(10);
      c.batch_size_bytes = 1'000'012;            // ProducerBatchMaxBytes
      c.max_request_size_bytes = 100 * 1048576;  // BrokerMaxWriteBytes
      c.buffer_memory_bytes = kNoBufferLimit;
      c.acks = Acks::kAll;
      c.idempotence = true;
      c.max_in_flight = 4;  // once the broker answered (sink.go firstRespCheck)
      p.first_request_alone = true;
      c.compression = Compression::kSnappy;
      c.delivery_timeout = SimTime::zero();  // RecordDeliveryTimeout 0: none (bounded by the loader)
      return;
    case ClientFamily::kSarama:  // config.go L540-566
      p.partitioner = "NewHashPartitioner";
      c.linger = SimTime::zero();                 // Producer.Flush.Frequency 0
      c.batch_size_bytes = 1'000'000;             // Producer.MaxMessageBytes
      c.max_request_size_bytes = 100 * 1048576;   // MaxRequestSize
      c.max_in_flight = 5;                        // Net.MaxOpenRequests
      c.metadata_max_age = SimTime::ms(600'000);  // Metadata.RefreshFrequency: 10 min
      c.buffer_memory_bytes = kNoBufferLimit;
      c.acks = Acks::kLeader;  // WaitForLocal
      c.idempotence = false;
      c.retries = 3;                       // Producer.Retry.Max
      c.retry_backoff = SimTime::ms(100);  // Producer.Retry.Backoff
      p.flat_backoff = true;
      return;
    case ClientFamily::kKafkajs:  // src/producer: one batch per send(), retry 5 x from 300 ms
      p.partitioner = "DefaultPartitioner";
      c.linger = SimTime::zero();
      c.batch_size_bytes = 1'048'576;
      p.batch_records = 1;
      p.one_partition_per_request = true;
      c.buffer_memory_bytes = kNoBufferLimit;
      c.max_in_flight = 1'000'000;  // maxInFlightRequests: unlimited
      c.acks = Acks::kAll;
      c.idempotence = false;
      c.retries = 5;
      c.retry_backoff = SimTime::ms(300);
      c.retry_backoff_max = SimTime::ms(30'000);
      return;
    case ClientFamily::kKafkaGo:  // writer.go L96-151, L786-830
      p.partitioner = "RoundRobin";
      c.linger = SimTime::ms(1000);    // BatchTimeout
      c.batch_size_bytes = 1'048'576;  // BatchBytes
      p.batch_records = 100;           // BatchSize
      p.one_partition_per_request = true;
      c.buffer_memory_bytes = kNoBufferLimit;
      c.max_in_flight = 1'000'000;  // a goroutine per partition writes its batches
      c.acks = Acks::kNone;         // RequiredAcks: RequireNone for a Writer{} literal
      c.idempotence = false;
      c.retries = 9;  // MaxAttempts 10
      c.retry_backoff = SimTime::ms(100);
      c.retry_backoff_max = SimTime::ms(1000);
      c.request_timeout = SimTime::ms(10'000);  // WriteTimeout
      return;
  }
}

}  // namespace partsim::model
