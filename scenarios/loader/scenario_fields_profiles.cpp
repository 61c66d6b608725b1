// The config of a producer whose `client:` is another client's profile (model/
// client_profiles.hpp): that client's own names for what it shares with the Java producer
// and for what it adds (librdkafka's batch.num.messages and sticky.partitioning.linger.ms,
// kafka-go's BatchSize, franz-go's UniformBytesPartitioner settings), its defaults (shown in
// the reference) and its own rules between keys. Go durations are written as Go writes them
// ("10ms", "1s", "1m30s"). Sources: ../shared/kafka-clients.md §3-§7, §11.
#include <cmath>
#include <string>

#include "model/client_profiles.hpp"
#include "model/partitioners/client_partitioner.hpp"
#include "scenarios/loader/go_duration.hpp"
#include "scenarios/loader/scenario_fields_parts.hpp"

namespace partsim::scenarios {
namespace {

using namespace partsim::model;
using F = Fields<ProducerConfig>;

// ---- value kinds the Java table does not have ----------------------------------------------------

/// A Go time.Duration ("10ms", "1s") read into a SimTime member, in [0, hi_ms] ms.
template <class Acc>
Field<ProducerConfig> go_duration(std::string key, Acc acc, double hi_ms, std::string doc) {
  Field<ProducerConfig> f;
  f.info = field_info(FieldInfo::Shape::kValue, key, "Go duration", "",
                      "a Go time.Duration, e.g. 10ms, 1s, 1m30s (at most " + number_text(hi_ms) + " ms)",
                      std::move(doc));
  f.read = [key, acc, hi_ms](MapReader& m, ProducerConfig& c) {
    if (!m.has(key)) return;
    std::string text;
    const std::size_t before = m.context()->errors.size();
    m.read(key, text, 100);
    if (m.context()->errors.size() != before) return;
    const std::optional<double> ms = parse_go_duration_ms(text);
    if (!ms) {
      m.error(key,
              "must be a Go duration (a number and a unit: ns, us, ms, s, m, h; e.g. 10ms, 1s), got '" + text + "'");
      return;
    }
    if (*ms > hi_ms) {
      m.error(key, "must be at most " + number_text(hi_ms) + " ms, got " + text);
      return;
    }
    std::invoke(acc, c) = time_from(*ms, TimeUnit::kMillis);
  };
  f.write = [acc](const ProducerConfig& c) { return YAML::Node(go_duration_text(std::invoke(acc, c).count_ns())); };
  return f;
}

/// `row`, read under another name of the key `original` (librdkafka's aliases): an error
/// when both are given; never written (the original is).
Field<ProducerConfig> alias(Field<ProducerConfig> row, std::string original) {
  const std::string key = row.info.key;
  row.info.doc = "another name for " + original;
  row.read = [key, original, read = row.read](MapReader& m, ProducerConfig& c) {
    if (m.has(key) && m.has(original)) {
      m.error(key, "is another name for " + original + ", which is given too: give one");
      return;
    }
    read(m, c);
  };
  row.write = [](const ProducerConfig&) { return YAML::Node(YAML::NodeType::Undefined); };
  row.has_default = false;
  return row;
}

/// A key of the client that partsim does not model: an error naming why, never written.
Field<ProducerConfig> not_modelled(std::string key, std::string why) {
  Field<ProducerConfig> f;
  f.info = field_info(FieldInfo::Shape::kValue, key, "not modelled", "", "", "not modelled: " + why);
  f.read = [key, why](MapReader& m, ProducerConfig&) {
    if (m.has(key)) m.error(key, "is not modelled: " + why);
  };
  f.write = [](const ProducerConfig&) { return YAML::Node(YAML::NodeType::Undefined); };
  f.has_default = false;
  return f;
}

/// A row that only applies without idempotence: not written for an idempotent producer.
Field<ProducerConfig> written_when_not_idempotent(Field<ProducerConfig> row) {
  row.write = [write = row.write](const ProducerConfig& c) {
    return c.idempotence ? YAML::Node(YAML::NodeType::Undefined) : write(c);
  };
  return row;
}

/// The profile's partitioner by its own names (client_partitioner.hpp), the default first.
Field<ProducerConfig> partitioner_choice(std::string key, ClientFamily family, std::string doc) {
  std::vector<std::string> names;
  for (const ClientPartitionerRule* r : client_partitioner_rules(family)) names.emplace_back(r->name);
  return F::choice(
      std::move(key), names,
      [names](const ProducerConfig& c) {
        return static_cast<std::size_t>(std::find(names.begin(), names.end(), c.profile.partitioner) - names.begin());
      },
      [names](ProducerConfig& c, std::size_t i) { c.profile.partitioner = names[i]; }, std::move(doc));
}

Field<ProducerConfig> compression_choice(std::string key, std::vector<std::string> names, std::string doc) {
  return F::choice(std::move(key), &ProducerConfig::compression, std::move(names), std::move(doc));
}

ProducerConfig defaults_of(ClientFamily family) {
  ProducerConfig c;
  c.client.family = family;
  apply_profile_defaults(c);
  return c;
}

// ---- the rules between keys, as each client's own validation has them -----------------------------

void check_librdkafka(MapReader& m, ProducerConfig& c) {
  // rdkafka_conf.c: enable.idempotence=true requires (and otherwise sets) acks=all,
  // max.in.flight <= 5 and retries > 0; message.timeout.ms must exceed linger.ms.
  if (c.idempotence) {
    if (m.has("acks") && c.acks != Acks::kAll) m.error("acks", "must be all (-1) with enable.idempotence=true");
    c.acks = Acks::kAll;
    if (m.has("max.in.flight.requests.per.connection") && c.max_in_flight > 5)
      m.error("max.in.flight.requests.per.connection", "must be <= 5 with enable.idempotence=true");
    c.max_in_flight = std::min(c.max_in_flight, 5);
    if (c.retries == 0) m.error("message.send.max.retries", "must be > 0 with enable.idempotence=true");
  }
  if (c.delivery_timeout == SimTime::zero()) c.delivery_timeout = no_limit_bound(c);  // 0: no timeout
  // rdkafka_conf.c: linger.ms must stay below message.timeout.ms; set, that is an error; left
  // at its default, librdkafka lowers it to message.timeout.ms - 0.1 ms.
  if (c.delivery_timeout <= c.linger) {
    if (m.has("linger.ms") || m.has("queue.buffering.max.ms"))
      m.error("message.timeout.ms", "must be greater than linger.ms (" + number_text(c.linger.to_ms()) + ")");
    else c.linger = c.delivery_timeout - SimTime::from_ms(0.1);
  }
}

void check_franz_go(MapReader& m, ProducerConfig& c) {
  if (c.idempotence) {
    // kgo: idempotent writes require acks from all in-sync replicas; the in-flight limit
    // option has no effect on an idempotent producer (1 until the first response, then 4).
    if (c.acks != Acks::kAll)
      m.error("RequiredAcks", "must be AllISRAcks unless DisableIdempotentWrite is true (franz-go refuses it)");
    if (m.has("MaxProduceRequestsInflightPerBroker")) {
      m.warn("MaxProduceRequestsInflightPerBroker",
             "has no effect on an idempotent producer (franz-go: 1 request until the first response, then 4)");
      c.max_in_flight = 4;
    }
  } else {
    // Not idempotent: MaxProduceRequestsInflightPerBroker requests (default 1) from the first.
    if (!m.has("MaxProduceRequestsInflightPerBroker")) c.max_in_flight = 1;
    c.profile.first_request_alone = false;
  }
  if (c.delivery_timeout == SimTime::zero()) c.delivery_timeout = no_limit_bound(c);
}

void check_sarama(MapReader& m, ProducerConfig& c) {
  // config.go Validate: the idempotent producer's requirements, and a read timeout > 0.
  if (c.idempotence) {
    if (c.acks != Acks::kAll) m.error("Producer.RequiredAcks", "must be WaitForAll with Producer.Idempotent: true");
    if (c.max_in_flight != 1) m.error("Net.MaxOpenRequests", "must be 1 with Producer.Idempotent: true");
    if (c.retries < 1) m.error("Producer.Retry.Max", "must be >= 1 with Producer.Idempotent: true");
  }
  if (c.request_timeout == SimTime::zero()) m.error("Net.ReadTimeout", "must be > 0");
  if (c.metadata_max_age == SimTime::zero()) c.metadata_max_age = SimTime::from_ms(kMaxMs);  // 0: never refreshed
  c.delivery_timeout = retry_budget(c);
}

void check_kafkajs(MapReader& m, ProducerConfig& c) {
  if (c.idempotence) {
    // An idempotent kafkajs producer needs acks -1 and retries, which default to
    // Number.MAX_SAFE_INTEGER (here the largest count partsim keeps).
    if (m.has("acks") && c.acks != Acks::kAll) m.error("acks", "must be -1 with idempotent: true");
    c.acks = Acks::kAll;
    // `retry` given at all, kafkajs takes its own defaults for what it leaves out (5 retries).
    if (!m.has("retry.retries") && !m.has("retry.initialRetryTime") && !m.has("retry.maxRetryTime"))
      c.retries = 2147483647;
    if (c.retries == 0) m.error("retry.retries", "must be > 0 with idempotent: true");
  }
  if (c.max_in_flight == 0) c.max_in_flight = 1'000'000;  // falsy: no limit
  c.delivery_timeout = retry_budget(c);
}

void check_kafka_go(MapReader&, ProducerConfig& c) {
  // writer.go's accessors: a zero field takes the default.
  if (c.profile.batch_records == 0) c.profile.batch_records = 100;
  if (c.batch_size_bytes == 0) c.batch_size_bytes = 1'048'576;
  if (c.linger == SimTime::zero()) c.linger = SimTime::ms(1000);
  if (c.request_timeout == SimTime::zero()) c.request_timeout = SimTime::ms(10'000);
  if (c.retry_backoff == SimTime::zero()) c.retry_backoff = SimTime::ms(100);
  if (c.retry_backoff_max == SimTime::zero()) c.retry_backoff_max = SimTime::ms(1000);
  c.delivery_timeout = retry_budget(c);
}

// ---- the tables ------------------------------------------------------------------------------------

const Table<ProducerConfig>& librdkafka_table() {
  const auto linger = [](std::string key) {
    return F::duration(std::move(key), &ProducerConfig::linger, kMs, 0, 900000,
                       "how long messages wait for more before a batch is sent");
  };
  const auto retries = [](std::string key) {
    return F::integer(std::move(key), &ProducerConfig::retries, 0, kInt32Max, "", "retries of a failed batch");
  };
  const auto compression = [](std::string key) {
    return compression_choice(std::move(key), {"none", "gzip", "snappy", "lz4", "zstd"}, "batch compression");
  };
  static const Table<ProducerConfig> table(
      "librdkafka producer config",
      {
          partitioner_choice(
              "partitioner", ClientFamily::kLibrdkafka,
              "consistent_random: CRC-32, NULL and empty keys sticky; murmur2_random: Java's keyed "
              "rule; consistent, murmur2, fnv1a: NULL keys to one fixed partition; random: keys ignored"),
          linger("linger.ms"),
          alias(linger("queue.buffering.max.ms"), "linger.ms"),
          F::duration(
              "sticky.partitioning.linger.ms", [](auto& c) -> auto& { return c.profile.sticky_linger; }, kMs, 0, 900000,
              "how long NULL keys stay on one partition (0: a random partition per message); default 2 x linger.ms"),
          F::integer("batch.size", &ProducerConfig::batch_size_bytes, 1, kInt32Max, "bytes",
                     "upper bound of one batch"),
          F::integer(
              "batch.num.messages", [](auto& c) -> auto& { return c.profile.batch_records; }, 1, 1'000'000, "",
              "upper bound of the messages in one batch"),
          not_modelled("queue.buffering.max.kbytes",
                       "librdkafka counts its queue in message bytes and partsim's buffer in batch.size buffers "
                       "per batch; the profile's queue is unbounded (docs/clients.md)"),
          not_modelled("queue.buffering.max.messages", "the profile's queue is unbounded (docs/clients.md)"),
          F::integer("message.max.bytes", &ProducerConfig::max_request_size_bytes, 1000, 1'000'000'000, "bytes",
                     "upper bound of one produce request"),
          F::integer("max.in.flight.requests.per.connection", &ProducerConfig::max_in_flight, 1, 1'000'000, "",
                     "requests in flight per broker"),
          acks_choice("acks", {"0", "1", "all", "-1"}, "acknowledgement the producer waits for (-1 = all)"),
          F::flag("enable.idempotence", &ProducerConfig::idempotence,
                  "the idempotent producer (sets acks=all and max.in.flight <= 5)"),
          F::duration("message.timeout.ms", &ProducerConfig::delivery_timeout, kMs, 0, kMaxMs,
                      "upper bound from produce() to delivery or failure (0: none, which partsim bounds at 2 "
                      "minutes)"),
          F::duration("request.timeout.ms", &ProducerConfig::request_timeout, kMs, 1, 900000,
                      "how long the producer waits for a response"),
          retries("message.send.max.retries"),
          alias(retries("retries"), "message.send.max.retries"),
          F::duration("retry.backoff.ms", &ProducerConfig::retry_backoff, kMs, 1, 300000,
                      "first backoff before a retry"),
          F::duration("retry.backoff.max.ms", &ProducerConfig::retry_backoff_max, kMs, 1, 300000,
                      "upper bound of the exponential retry backoff"),
          F::duration("topic.metadata.refresh.interval.ms", &ProducerConfig::metadata_max_age, kMs, 0, 3600000,
                      "the producer refreshes its metadata this often (it sees added partitions then)"),
          compression("compression.codec"),
          alias(compression("compression.type"), "compression.codec"),
          compression_ratio(),
      },
      check_librdkafka, defaults_of(ClientFamily::kLibrdkafka));
  return table;
}

const Table<ProducerConfig>& franz_go_table() {
  static const Table<ProducerConfig> table(
      "franz-go producer config",
      {
          partitioner_choice("RecordPartitioner", ClientFamily::kFranzGo,
                             "UniformBytesPartitioner: keys by murmur2 as Java, the others sticky by bytes; "
                             "RoundRobinPartitioner: keys ignored"),
          F::integer(
              "UniformBytesPartitioner.bytes", [](auto& c) -> auto& { return c.profile.sticky_bytes; }, 1, kInt32Max,
              "bytes", "estimated record bytes before the sticky partition changes"),
          F::flag(
              "UniformBytesPartitioner.adaptive", [](auto& c) -> auto& { return c.profile.sticky_adaptive; },
              "the next sticky partition weighed by 1 / (buffered records + 1)"),
          F::flag(
              "UniformBytesPartitioner.keys", [](auto& c) -> auto& { return c.profile.sticky_keys; },
              "keyed records hashed (false: they go sticky too)"),
          go_duration("ProducerLinger", &ProducerConfig::linger, 900000, "how long a batch waits for more records"),
          F::integer("ProducerBatchMaxBytes", &ProducerConfig::batch_size_bytes, 1, kInt32Max, "bytes",
                     "upper bound of one batch"),
          not_modelled("MaxBufferedBytes", "the profile's buffer is unbounded (docs/clients.md)"),
          not_modelled("MaxBufferedRecords", "the profile's buffer is unbounded (docs/clients.md)"),
          acks_choice("RequiredAcks", {"NoAck", "LeaderAck", "AllISRAcks"}, "acknowledgement the producer waits for"),
          F::custom(
              field_info(FieldInfo::Shape::kValue, "DisableIdempotentWrite", "bool", "", "true | false",
                         "no idempotence (then MaxProduceRequestsInflightPerBroker requests from the first)"),
              [](MapReader& m, ProducerConfig& c) {
                bool disabled = !c.idempotence;
                m.read("DisableIdempotentWrite", disabled);
                c.idempotence = !disabled;
              },
              [](const ProducerConfig& c) { return YAML::Node(c.idempotence ? "false" : "true"); }),
          written_when_not_idempotent(
              F::integer("MaxProduceRequestsInflightPerBroker", &ProducerConfig::max_in_flight, 1, 1000, "",
                         "requests in flight per broker without idempotence (idempotent: 1 until the first response, "
                         "then 4)")),
          compression_choice("ProducerBatchCompression", {"none", "gzip", "snappy", "lz4", "zstd"},
                             "batch compression"),
          F::integer("RecordRetries", &ProducerConfig::retries, 0, kInt32Max, "", "retries of a failed batch"),
          go_duration("RecordDeliveryTimeout", &ProducerConfig::delivery_timeout, kMaxMs,
                      "upper bound from a batch's creation to success or failure; 0 (the default): none, which "
                      "partsim bounds at 2 minutes (and at least the linger and a request's timeout) so that a "
                      "partition that never gets a leader back does not hold the run"),
          go_duration("MetadataMaxAge", &ProducerConfig::metadata_max_age, kMaxMs,
                      "the client refreshes its metadata this long after the last refresh"),
          compression_ratio(),
      },
      check_franz_go, defaults_of(ClientFamily::kFranzGo));
  return table;
}

const Table<ProducerConfig>& sarama_table() {
  static const Table<ProducerConfig> table(
      "sarama producer config",
      {
          partitioner_choice("Producer.Partitioner", ClientFamily::kSarama,
                             "NewHashPartitioner: FNV-1a, |int32| mod n, nil keys random; NewMurmur2Partitioner: "
                             "Java's keyed rule (sarama 1.50+)"),
          acks_choice("Producer.RequiredAcks", {"NoResponse", "WaitForLocal", "WaitForAll"},
                      "acknowledgement the producer waits for"),
          go_duration("Producer.Flush.Frequency", &ProducerConfig::linger, 900000,
                      "how long a batch waits for more messages (0: sent as soon as it can be)"),
          not_modelled("Producer.Flush.MaxMessages",
                       "it bounds the messages of one broker request, which partsim's requests do not count"),
          F::integer("Producer.MaxMessageBytes", &ProducerConfig::batch_size_bytes, 1, kInt32Max, "bytes",
                     "upper bound of one batch"),
          F::integer("Producer.Retry.Max", &ProducerConfig::retries, 0, kInt32Max, "", "retries of a failed batch"),
          go_duration("Producer.Retry.Backoff", &ProducerConfig::retry_backoff, 300000, "the wait before every retry"),
          F::integer("Net.MaxOpenRequests", &ProducerConfig::max_in_flight, 1, 1000, "",
                     "requests in flight per broker"),
          go_duration("Net.ReadTimeout", &ProducerConfig::request_timeout, 900000,
                      "how long a response may take (> 0)"),
          F::flag("Producer.Idempotent", &ProducerConfig::idempotence,
                  "the idempotent producer (requires WaitForAll, Net.MaxOpenRequests 1, Producer.Retry.Max >= 1)"),
          compression_choice("Producer.Compression", {"none", "gzip", "snappy", "lz4", "zstd"}, "batch compression"),
          go_duration("Metadata.RefreshFrequency", &ProducerConfig::metadata_max_age, kMaxMs,
                      "the client refreshes its metadata this often (0: never)"),
          compression_ratio(),
      },
      check_sarama, defaults_of(ClientFamily::kSarama));
  return table;
}

const Table<ProducerConfig>& kafkajs_table() {
  static const Table<ProducerConfig> table(
      "kafkajs producer config",
      {
          partitioner_choice("createPartitioner", ClientFamily::kKafkajs,
                             "DefaultPartitioner: murmur2 as Java (kafkajs 2.0+); LegacyPartitioner: the 1.x default"),
          acks_choice("acks", {"0", "1", "-1"}, "acknowledgement send() waits for"),
          F::flag("idempotent", &ProducerConfig::idempotence, "the idempotent producer (acks -1)"),
          F::integer("maxInFlightRequests", &ProducerConfig::max_in_flight, 0, 1'000'000, "",
                     "requests in flight per broker (0: no limit)"),
          F::duration("requestTimeout", &ProducerConfig::request_timeout, kMs, 1, kMaxMs,
                      "how long a response may take (ms)"),
          F::integer("retry.retries", &ProducerConfig::retries, 0, kInt32Max, "", "retries of a failed request"),
          F::duration("retry.initialRetryTime", &ProducerConfig::retry_backoff, kMs, 1, 300000,
                      "first backoff before a retry (ms)"),
          F::duration("retry.maxRetryTime", &ProducerConfig::retry_backoff_max, kMs, 1, kMaxMs,
                      "upper bound of the retry backoff (ms)"),
          compression_choice("compression", {"None", "GZIP", "Snappy", "LZ4", "ZSTD"}, "batch compression"),
          F::duration("metadataMaxAge", &ProducerConfig::metadata_max_age, kMs, 0, kMaxMs,
                      "the client refreshes its metadata this long after the last refresh (ms)"),
          compression_ratio(),
      },
      check_kafkajs, defaults_of(ClientFamily::kKafkajs));
  return table;
}

const Table<ProducerConfig>& kafka_go_table() {
  static const Table<ProducerConfig> table(
      "kafka-go writer config",
      {
          partitioner_choice("Balancer", ClientFamily::kKafkaGo,
                             "RoundRobin: keys ignored; Hash: FNV-1a as sarama; Murmur2Balancer: Java's keyed rule"),
          F::integer(
              "BatchSize", [](auto& c) -> auto& { return c.profile.batch_records; }, 0, 1'000'000, "",
              "messages in a batch before it is sent"),
          F::integer("BatchBytes", &ProducerConfig::batch_size_bytes, 0, kInt32Max, "bytes",
                     "upper bound of one batch (0: the default)"),
          go_duration("BatchTimeout", &ProducerConfig::linger, 900000,
                      "how long an incomplete batch waits before it is sent (0: the default)"),
          acks_choice("RequiredAcks", {"RequireNone", "RequireOne", "RequireAll"},
                      "acknowledgement the writer waits for (RequireNone for a Writer{} literal)"),
          F::custom(
              field_info(FieldInfo::Shape::kValue, "MaxAttempts", "integer", "", "[0, 2147483647]",
                         "attempts to deliver a batch (0: the default)"),
              [](MapReader& m, ProducerConfig& c) {
                if (!m.has("MaxAttempts")) return;
                std::int64_t attempts = 0;
                const std::size_t before = m.context()->errors.size();
                m.read("MaxAttempts", attempts, 0, kInt32Max);
                if (m.context()->errors.size() == before) c.retries = attempts == 0 ? 9 : attempts - 1;
              },
              [](const ProducerConfig& c) { return YAML::Node(std::to_string(c.retries + 1)); }),
          go_duration("WriteBackoffMin", &ProducerConfig::retry_backoff, 300000, "first backoff before a retry"),
          go_duration("WriteBackoffMax", &ProducerConfig::retry_backoff_max, 300000, "upper bound of the backoff"),
          go_duration("WriteTimeout", &ProducerConfig::request_timeout, 900000, "how long a write may take"),
          compression_choice("Compression", {"none", "Gzip", "Snappy", "Lz4", "Zstd"}, "batch compression"),
          compression_ratio(),
      },
      check_kafka_go, defaults_of(ClientFamily::kKafkaGo));
  return table;
}

}  // namespace

const Table<ProducerConfig>& profile_config_table(ClientFamily family) {
  switch (family) {
    case ClientFamily::kLibrdkafka: return librdkafka_table();
    case ClientFamily::kFranzGo: return franz_go_table();
    case ClientFamily::kSarama: return sarama_table();
    case ClientFamily::kKafkajs: return kafkajs_table();
    case ClientFamily::kKafkaGo:
    case ClientFamily::kJava: break;
  }
  return kafka_go_table();
}

}  // namespace partsim::scenarios
