#include "model/client_profiles.hpp"

#include <algorithm>
#include <array>

#include "model/partitioners/client_partitioner.hpp"
#include "sim/check.hpp"

namespace partsim::model {
namespace {

// No delivery timeout (sarama, franz-go, kafka-go, kafkajs give up by attempts, not by
// time): a bound no run reaches.
constexpr SimTime kNoDeliveryTimeout = SimTime::ms(1'000'000'000'000);
// No bound on buffered bytes (kafkajs, sarama, kafka-go; franz-go's MaxBufferedBytes 0): the
// Java model's buffer.memory at its largest.
constexpr std::int64_t kNoBufferLimit = std::int64_t{1} << 40;

constexpr std::array<ClientProfile, 5> kProfiles{{
    {ClientFamily::kLibrdkafka, "librdkafka-2.x",
     "librdkafka 2.0.2 and 2.15.0, src/rdkafka_conf.c, src/rdkafka_msg.c (kafka-clients.md §3, §11)",
     "its partitioners (consistent_random by default; NULL keys sticky for sticky.partitioning.linger.ms = 2 x "
     "linger.ms), batch.num.messages, one partition per ProduceRequest, its defaults (linger 5 ms, batch.size "
     "1,000,000, message.timeout.ms 300,000, no idempotence, max.in.flight 1,000,000)",
     "the accumulator's batching per partition, the Java Sender's readiness, in-flight and retry rules, "
     "buffer.memory in bytes for queue.buffering.max.kbytes (queue.buffering.max.messages is not modelled)"},
    {ClientFamily::kFranzGo, "franz-go",
     "franz-go v1.21, pkg/kgo/config.go, partitioner.go, sink.go (kafka-clients.md §7, §11)",
     "UniformBytesPartitioner (sticky by 64 KiB of estimated record bytes, adaptive by buffered records), "
     "linger 10 ms, ProducerBatchMaxBytes 1,000,012, snappy, idempotence with one request in flight per broker "
     "until its first response, then four",
     "the accumulator's batching per partition, requests per broker with every ready partition, the Java "
     "Sender's retry backoff and request timeout; MaxBufferedRecords is not modelled (buffer.memory bounds bytes)"},
    {ClientFamily::kSarama, "sarama",
     "sarama 1.22.1 and IBM/sarama v1.60, config.go, partitioner.go, async_producer.go (kafka-clients.md §6, §11)",
     "its partitioners (NewHashPartitioner by default: FNV-1a, |int32| mod n, nil keys random per record), Flush "
     "settings 0 (a batch goes as soon as it can), acks 1 (WaitForLocal), 3 retries with a flat 100 ms backoff, "
     "Net.MaxOpenRequests 5, no idempotence",
     "the accumulator's batching per partition while requests are in flight, requests per broker, the Java "
     "Sender's in-flight rule"},
    {ClientFamily::kKafkajs, "kafkajs", "kafkajs 2.2.4, src/producer (kafka-clients.md §5, §11)",
     "DefaultPartitioner (murmur2 as Java; null keys round robin over partitions with a leader from a random "
     "counter), no linger: each send() of one record is its own batch and its own request, acks all, 5 retries, "
     "no idempotence",
     "the Java Sender's request and retry handling (backoff from 300 ms up to 30 s); an application sending "
     "arrays of records per send() is not modelled"},
    {ClientFamily::kKafkaGo, "kafka-go", "segmentio/kafka-go v0.4.50, writer.go, balancer.go (kafka-clients.md §11)",
     "its balancers (RoundRobin by default, which ignores keys), batches of at most BatchSize 100 records and "
     "BatchBytes 1 MiB sent when full or after BatchTimeout 1 s, one partition per produce request, RequiredAcks "
     "0 (a Writer{} literal), MaxAttempts 10",
     "the accumulator's batching per partition and the Java Sender's requests; WriteMessages' blocking (a "
     "synchronous writer waits for its batch) is the workload's: use arrivals closed-loop"},
}};

}  // namespace

std::span<const ClientProfile> client_profiles() { return kProfiles; }

const ClientProfile& client_profile(ClientFamily family) { return kProfiles[static_cast<std::size_t>(family) - 1]; }

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
      c.buffer_memory_bytes = std::int64_t{1'048'576} * 1024;  // queue.buffering.max.kbytes
      c.max_request_size_bytes = 1'000'000;                    // message.max.bytes
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
      c.delivery_timeout = kNoDeliveryTimeout;  // RecordDeliveryTimeout 0: none
      return;
    case ClientFamily::kSarama:  // config.go L540-566
      p.partitioner = "NewHashPartitioner";
      c.linger = SimTime::zero();                // Producer.Flush.Frequency 0
      c.batch_size_bytes = 1'000'000;            // Producer.MaxMessageBytes
      c.max_request_size_bytes = 100 * 1048576;  // MaxRequestSize
      c.max_in_flight = 5;                       // Net.MaxOpenRequests
      c.buffer_memory_bytes = kNoBufferLimit;
      c.acks = Acks::kLeader;  // WaitForLocal
      c.idempotence = false;
      c.retries = 3;                       // Producer.Retry.Max
      c.retry_backoff = SimTime::ms(100);  // Producer.Retry.Backoff
      p.flat_backoff = true;
      c.delivery_timeout = kNoDeliveryTimeout;
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
      c.delivery_timeout = kNoDeliveryTimeout;
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
      c.delivery_timeout = kNoDeliveryTimeout;
      return;
  }
}

}  // namespace partsim::model
