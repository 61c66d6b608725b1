// The tables of `producers:`: the producer config under Kafka's names (with the partitioner
// rules and fallback), the workload (arrivals, keys, values, headers) and the client's CPU.
#include <regex>

#include "model/client_profiles.hpp"
#include "model/partitioners/partitioner.hpp"
#include "scenarios/loader/scenario_checks.hpp"
#include "scenarios/loader/scenario_fields_parts.hpp"

namespace partsim::scenarios {

Field<model::ProducerConfig> acks_choice(std::string key, std::vector<std::string> names, std::string doc) {
  using model::Acks;
  return Fields<model::ProducerConfig>::choice(
      std::move(key), std::move(names),
      [](const model::ProducerConfig& c) -> std::size_t {
        return c.acks == Acks::kNone ? 0 : c.acks == Acks::kLeader ? 1 : 2;
      },
      [](model::ProducerConfig& c, std::size_t i) {
        c.acks = i == 0 ? Acks::kNone : i == 1 ? Acks::kLeader : Acks::kAll;
      },
      std::move(doc));
}

Field<model::ProducerConfig> compression_ratio() {
  return Fields<model::ProducerConfig>::number("partsim.compression.ratio", &model::ProducerConfig::compression_ratio,
                                               0.01, 10, "",
                                               "partsim: compressed / uncompressed bytes when compressed");
}
namespace {

using namespace partsim::model;

// ---- producer config --------------------------------------------------------------------

std::string regex_problem(std::string_view text) {
  try {
    std::regex check{std::string(text), std::regex::ECMAScript};
  } catch (const std::regex_error& e) {
    return std::string("is not a valid ECMAScript regular expression: ") + e.what();
  }
  return "";
}

const Table<PartitionRule>& rule_table() {
  using F = Fields<PartitionRule>;
  using M = PartitionRule::Match;
  const auto match = &PartitionRule::match;
  static const Table<PartitionRule> table(
      "partitioner rule",
      {
          F::selects(F::text("prefix", &PartitionRule::text, 10000, "match: keys that start with this text"), match,
                     M::kPrefix)
              .example("\"vip-\""),
          F::selects(F::text("key", &PartitionRule::text, 10000, "match: exactly this key"), match, M::kExact)
              .example("\"checkout\""),
          F::selects(F::text("regex", &PartitionRule::text, 10000,
                             "match: keys an ECMAScript regular expression matches in full", regex_problem),
                     match, M::kRegex)
              .example("\"user-[0-9]+\""),
          F::integer("partition", &PartitionRule::partition, 0, kInt32Max, "",
                     "where matching keys go (< the topic's partitions)")
              .required("(the partition this rule sends to)")
              .example("0"),
      },
      check_rule);
  return table;
}

const Table<RuleFallback>& fallback_table() {
  using F = Fields<RuleFallback>;
  static const Table<RuleFallback> table(
      "partitioner fallback",
      {
          F::choice("hash", &RuleFallback::hash, {"murmur2", "java-string"},
                    "keys no rule matches: Kafka's murmur2 or Java's String.hashCode over the range"),
          F::integer("from", &RuleFallback::first, 0, kInt32Max, "", "first partition of the fallback range"),
          F::integer("count", &RuleFallback::count, 0, kInt32Max, "",
                     "partitions in the range (0 = all from `from` on)"),
      });
  return table;
}

const Table<ProducerConfig>& config_table() {
  using F = Fields<ProducerConfig>;
  const std::vector<std::string> partitioners = partitioner_names();
  FieldInfo idempotence = field_info(
      FieldInfo::Shape::kValue, "enable.idempotence", "bool", "", "true | false",
      "the idempotent producer: sequence numbers per partition, the broker refusing out-of-sequence batches, so "
      "retries keep order; requires acks=all, retries > 0 and max.in.flight.requests.per.connection <= 5 (an error "
      "when set true; left at its default, quietly off, except that kafka-4.0 and later refuse an in-flight limit "
      "above 5)");
  idempotence.default_text = "true";
  idempotence.client_text = "false before kafka-3.0.1, kafka-3.1.1 and kafka-3.2";
  static const Table<ProducerConfig> table(
      "producer config",
      {
          F::integer("batch.size", &ProducerConfig::batch_size_bytes, 1, kInt32Max, "bytes",
                     "upper bound of one batch; the sticky partitioner switches after about this many bytes"),
          F::duration("linger.ms", &ProducerConfig::linger, kMs, 0, kMaxMs,
                      "how long a batch waits for more records (KIP-1030: 5 since 4.0)")
              .client_default([](ProducerConfig& c, const ClientVersion& v) { c.linger = java::default_linger(v); },
                              "0 before kafka-4.0"),
          F::integer("buffer.memory", &ProducerConfig::buffer_memory_bytes, 1, std::int64_t{1} << 40, "bytes",
                     "memory for batches; send() blocks when it is used up"),
          F::duration("max.block.ms", &ProducerConfig::max_block, kMs, 0, kMaxMs,
                      "how long send() may block for buffer.memory before it fails"),
          F::integer("max.request.size", &ProducerConfig::max_request_size_bytes, 1, kInt32Max, "bytes",
                     "upper bound of one produce request (and of one record)"),
          F::integer("max.in.flight.requests.per.connection", &ProducerConfig::max_in_flight, 1, 1000, "",
                     "unacknowledged requests per broker"),
          F::duration("request.timeout.ms", &ProducerConfig::request_timeout, kMs, 0, kMaxMs,
                      "how long the producer waits for a response"),
          F::duration(
              "delivery.timeout.ms", &ProducerConfig::delivery_timeout, kMs, 0, kMaxMs,
              "upper bound from send() to success or failure; >= linger.ms + request.timeout.ms (raised to that when not set)"),
          F::integer("retries", &ProducerConfig::retries, 0, kInt32Max, "", "how often a failed batch is retried"),
          F::duration("retry.backoff.ms", &ProducerConfig::retry_backoff, kMs, 0, kMaxMs,
                      "first backoff before a retry (exponential, jittered; before kafka-3.7 every retry waits this)"),
          F::duration("retry.backoff.max.ms", &ProducerConfig::retry_backoff_max, kMs, 0, kMaxMs,
                      "upper bound of the retry backoff (kafka-3.7 and later, KIP-580)"),
          F::duration(
              "metadata.max.age.ms", &ProducerConfig::metadata_max_age, kMs, 0, kMaxMs,
              "the producer refreshes its metadata this long after its last refresh (it sees added partitions then)"),
          acks_choice("acks", {"0", "1", "all", "-1"}, "acknowledgement the producer waits for (-1 = all)")
              .client_default(
                  [](ProducerConfig& c, const ClientVersion& v) {
                    c.acks = java::default_acks_all(v) ? Acks::kAll : Acks::kLeader;
                  },
                  "1 before kafka-3.0"),
          F::custom(
              idempotence, [](MapReader& m, ProducerConfig& c) { m.read("enable.idempotence", c.idempotence); },
              // Always written: its default depends on the client (false before 3.0.1).
              [](const ProducerConfig& c) { return YAML::Node(c.idempotence ? "true" : "false"); }),
          F::choice("compression.type", &ProducerConfig::compression, {"none", "gzip", "snappy", "lz4", "zstd"},
                    "batch compression"),
          compression_ratio(),
          F::flag("partitioner.ignore.keys", &ProducerConfig::ignore_keys,
                  "the built-in partitioner ignores keys (KIP-794, kafka-3.3 and later)"),
          F::flag("partitioner.adaptive.partitioning.enable", &ProducerConfig::adaptive,
                  "sticky partitions drawn by inverse queue size (KIP-794, kafka-3.3 and later)"),
          F::duration(
              "partitioner.availability.timeout.ms", &ProducerConfig::availability_timeout, kMs, 0, kMaxMs,
              "a partition whose broker has not drained it this long is avoided (0 = off; kafka-3.3 and later)"),
          F::flag("partitioner.rack.aware", &ProducerConfig::rack_aware,
                  "the built-in partitioner prefers partitions led in client.rack (KIP-1123, kafka-4.4)"),
          written_when_set(
              F::text("client.rack", &ProducerConfig::client_rack, 255,
                      "the producer's rack, matched against the brokers' rack (kafka-4.4); the report then "
                      "says how many records went to leaders in it"))
              .example("r1"),
          F::choice(
              "partitioner", partitioners,
              [](const ProducerConfig& c) { return static_cast<std::size_t>(c.partitioner.kind); },
              [](ProducerConfig& c, std::size_t i) { c.partitioner.kind = static_cast<PartitionerKind>(i); },
              "partitioner.class: builtin (none set: KIP-794 uniform sticky and adaptive from kafka-3.3, KIP-480's "
              "DefaultPartitioner before), round-robin as the client has it, one of Kafka's earlier ones (run as the "
              "line they came from), or rules"),
          F::flag("partsim.sticky.align-batches", &ProducerConfig::align_batches,
                  "partsim: the sticky partitioner switches only at a batch boundary (KAFKA-14156)"),
          F::list(
              "partsim.partitioner.rules", [](auto& c) -> auto& { return c.partitioner.rules; }, rule_table(),
              ListRules<PartitionRule>("rule"),
              "partitioner: rules: ordered rules, the first that matches the key decides"),
          F::section(
              "partsim.partitioner.fallback", [](auto& c) -> auto& { return c.partitioner.fallback; }, fallback_table(),
              "partitioner: rules: where keys no rule matches go"),
      },
      check_config);
  return table;
}

// ---- workload ---------------------------------------------------------------------------

const Table<Arrivals>& arrivals_table() {
  using F = Fields<Arrivals>;
  static const Table<Arrivals> table(
      "arrivals",
      {
          F::choice("kind", &Arrivals::kind, {"constant", "poisson", "on-off", "closed-loop", "flat-out"},
                    "when the application calls send()"),
          F::number("rate", &Arrivals::records_per_second, 1e-6, 1e10, "records/s",
                    "constant, poisson, and on-off while on"),
          F::duration("on.ms", &Arrivals::on, kMs, 1e-3, kMaxMs, "on-off: Poisson bursts this long ..."),
          F::duration("off.ms", &Arrivals::off, kMs, 0, kMaxMs, "... then this long of silence"),
          F::integer("concurrency", &Arrivals::concurrency, 1, 1'000'000, "",
                     "closed-loop: sends outstanding (1 = send().get())"),
          F::duration(
              "send.cost.us", &Arrivals::send_cost, kUs, 0, 1e9,
              "application time per send() (> 0 for flat-out, and for closed-loop with acks 0 or max.block.ms 0)"),
          F::integer("threads", &Arrivals::threads, 1, 10000, "",
                     "application threads sharing the producer (and its partitioner)"),
          F::duration("partition.gap.us", &Arrivals::partition_gap, kUs, 0, 1e9,
                      "with a partitioner object: time between a send's first and second partition() call"),
      },
      check_arrivals);
  return table;
}

const Table<KeySpec>& keys_table() {
  using F = Fields<KeySpec>;
  static const Table<KeySpec> table(
      "keys",
      {
          F::choice("kind", &KeySpec::kind, {"none", "template", "zipf", "hot", "list"}, "none = null keys"),
          F::text("template", &KeySpec::key_template, 10000,
                  "{i} = record index (or index mod cardinality; zipf: the drawn rank - 1)"),
          F::strings("templates", &KeySpec::templates, "template: several templates, record i uses templates[i mod n]"),
          F::integer("cardinality", &KeySpec::cardinality, 0, 100'000'000, "keys",
                     "0 = unbounded; zipf: the number of keys"),
          F::number("s", &KeySpec::zipf_s, 0, 100, "", "zipf exponent"),
          F::text("hot.key", &KeySpec::hot_key, 10000, "hot: this key with probability hot.share, else the template"),
          F::number("hot.share", &KeySpec::hot_share, 0, 1, "", "hot: the hot key's share of records"),
          F::strings("list", &KeySpec::list, "list: keys cycled in order"),
      },
      check_keys);
  return table;
}

const Table<ValueSpec>& values_table() {
  using F = Fields<ValueSpec>;
  static const Table<ValueSpec> table(
      "values",
      {
          F::choice(
              "kind", {"fixed", "template", "uniform", "lognormal", "null"},
              [](const ValueSpec& v) { return v.null_value ? std::size_t{4} : static_cast<std::size_t>(v.kind); },
              [](ValueSpec& v, std::size_t i) {
                v.null_value = i == 4;
                v.kind = i == 4 ? ValueSpec::Kind::kFixed : static_cast<ValueSpec::Kind>(i);
              },
              "record values (null = a null value)"),
          F::integer("size", &ValueSpec::size_bytes, 0, 100'000'000, "bytes", "fixed: the value size"),
          F::text("template", &ValueSpec::value_template, 100'000,
                  "template: the exact text, {i} = record index, e.g. \"value-{i}\""),
          F::integer("min", &ValueSpec::min_bytes, 0, 100'000'000, "bytes", "uniform: sizes in [min, max]"),
          F::integer("max", &ValueSpec::max_bytes, 0, 100'000'000, "bytes", "uniform: the largest size"),
          F::number("median", &ValueSpec::median_bytes, 0, 1e8, "bytes", "lognormal: the median size (> 0)"),
          F::number("sigma", &ValueSpec::sigma, 0, 10, "", "lognormal: sigma of the underlying normal"),
      },
      check_values);
  return table;
}

const Table<Workload>& headers_table() {
  using F = Fields<Workload>;
  static const Table<Workload> table(
      "headers",
      {
          F::integer("count", &Workload::header_count, 0, 10000, "", "headers per record"),
          F::integer("key.bytes", &Workload::header_key_bytes, 0, 1'000'000, "bytes", "each header's key size"),
          F::integer("value.bytes", &Workload::header_value_bytes, 0, 1'000'000, "bytes", "each header's value size"),
      });
  return table;
}

const Table<Workload>& workload_table() {
  using F = Fields<Workload>;
  static const Table<Workload> table(
      "workload",
      {
          F::text("topic", &Workload::topic, 249, "the topic this producer sends to (default: the only topic)")
              .no_default(),
          F::section("arrivals", &Workload::arrivals, arrivals_table(), "when send() is called"),
          F::section("keys", &Workload::keys, keys_table(), "record keys"),
          F::section("values", &Workload::values, values_table(), "record values"),
          F::integer("partition", &Workload::partition, 0, kInt32Max, "",
                     "an explicit partition for every record (< the topic's partitions)")
              .example("0"),
          F::section(
              "headers", [](auto& w) -> auto& { return w; }, headers_table(), "record headers"),
          F::integer("records", &Workload::records, 1, kMaxRecords, "", "stop this producer after this many records")
              .example("1000"),
      });
  return table;
}

const Table<SenderCpu>& cpu_table() {
  using F = Fields<SenderCpu>;
  static const Table<SenderCpu> table(
      "producer cpu",
      {
          F::duration("sender.request.us", &SenderCpu::per_request, kUs, 0, 1e9,
                      "the sender thread's time per produce request it sends (0 = free); its next pass waits for it"),
          F::duration("sender.batch.us", &SenderCpu::per_batch, kUs, 0, 1e9,
                      "the sender thread's time per batch in a request (0 = free)"),
          F::number(
              "sender.byte.ns", &SenderCpu::per_byte_ns, 0, 1e6, "ns",
              "the sender thread's time per byte of the requests it sends, as sent (compressed when compressed; 0 = free)"),
      });
  return table;
}

// `config:` under the names of the producer's client: Kafka's for a Java release, the
// client's own under another client's profile (whose defaults come first).
Field<ProducerSpec> profile_config_field() {
  FieldInfo info = field_info(FieldInfo::Shape::kMapping, "config", "mapping", "", "",
                              "the producer config under its client's names: Kafka's for a Java release (defaults "
                              "are the release's), the client's own for another client's profile");
  info.sub = &config_table().schema();
  for (const std::string& name : client_profile_names()) {
    std::string why;
    info.variants.emplace_back(name, &profile_config_table(parse_client(name, why)->family).schema());
  }
  return Fields<ProducerSpec>::custom(
      info,
      [](MapReader& m, ProducerSpec& p) {
        MapReader sub = m.map("config");
        if (p.config.client.java()) {
          config_table().read(sub, p.config);
          return;
        }
        apply_profile_defaults(p.config);
        profile_config_table(p.config.client.family).read(sub, p.config);
      },
      [](const ProducerSpec& p) {
        return p.config.client.java() ? config_table().write(p.config)
                                      : profile_config_table(p.config.client.family).write(p.config);
      });
}

}  // namespace

const Table<ProducerSpec>& producer_table() {
  using F = Fields<ProducerSpec>;
  static const Table<ProducerSpec> table(
      "producer",
      {
          F::text("name", &ProducerSpec::name, 200, "unique (default p0, p1, ...); names the producer's random streams")
              .no_default(),
          client_field<ProducerSpec>(
              [](auto& p) -> auto& { return p.config.client; }, false),
          profile_config_field(),
          F::section("workload", &ProducerSpec::workload, workload_table(), "what the application sends"),
          F::section("cpu", &ProducerSpec::cpu, cpu_table(),
                     "the client's own CPU time (send.cost.us is the application thread's)"),
          written_when_set(F::text("host", &ProducerSpec::host, 200,
                                   "the host (cluster.hosts) whose cores its application and sender "
                                   "threads share (absent: cores of its own)"))
              .example("h1"),
          written_when_set(F::text("rack", &ProducerSpec::rack, 255,
                                   "the rack (zone) the producer runs in, where its requests start and its responses "
                                   "end (traffic); absent: its client.rack, if any"))
              .example("zone-a"),
      });
  return table;
}

}  // namespace partsim::scenarios
