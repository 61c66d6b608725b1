#include "scenarios/loader/scenario_loader.hpp"

#include <limits>
#include <regex>
#include <set>

#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/key_reader.hpp"
#include "scenarios/loader/yaml_reader.hpp"

namespace partsim::scenarios {
namespace {

using namespace partsim::model;

constexpr double kMaxMs = 1e12;  // ~31 years: far inside int64 nanoseconds
constexpr std::int64_t kMaxInt = std::numeric_limits<std::int32_t>::max();

SimTime ms(double v) { return SimTime::from_ms(v); }

// A duration given in milliseconds (or microseconds) under `key`, kept as SimTime.
void read_ms(MapReader& m, const std::string& key, SimTime& out, double lo, double hi) {
  double v = out.to_ms();
  const std::size_t before = m.context()->errors.size();
  m.read(key, v, lo, hi);
  if (m.has(key) && m.context()->errors.size() == before) out = ms(v);
}
void read_us(MapReader& m, const std::string& key, SimTime& out, double lo, double hi) {
  double v = out.to_ms() * 1000.0;
  const std::size_t before = m.context()->errors.size();
  m.read(key, v, lo, hi);
  if (m.has(key) && m.context()->errors.size() == before) out = ms(v / 1000.0);
}

void read_jitter(MapReader m, Jitter& j) {
  std::size_t kind = 0;
  m.read_choice("kind", kind, {"none", "exponential", "uniform", "lognormal"});
  j.kind = static_cast<Jitter::Kind>(kind);
  m.read("mean.ms", j.mean_ms, 0, kMaxMs);
  m.read("max.ms", j.max_ms, 0, kMaxMs);
  m.read("sigma", j.sigma, 0, 10);
  if (j.kind == Jitter::Kind::kExponential && j.mean_ms <= 0) m.error("mean.ms", "must be > 0 for exponential jitter");
  if (j.kind == Jitter::Kind::kLognormal && j.mean_ms <= 0) m.error("mean.ms", "must be > 0 (the median) for lognormal jitter");
  m.finish();
}

void read_broker(ReadContext& ctx, const YAML::Node& node, const std::string& path, BrokerConfig& b) {
  MapReader m(ctx, node, path);
  if (!m.has("id")) m.error("id", "is required (a broker id >= 0)");
  m.read("id", b.id, 0, static_cast<std::int32_t>(kMaxInt));
  m.read("rack", b.rack, 255);
  read_ms(m, "rtt.ms", b.rtt, 0, kMaxMs);
  read_ms(m, "request.ms", b.request_time, 0, kMaxMs);
  read_ms(m, "batch.ms", b.batch_time, 0, kMaxMs);
  m.read("byte.rate", b.bytes_per_second, 0, 1e15);
  read_ms(m, "replication.ms", b.replication, 0, kMaxMs);
  read_jitter(m.map("jitter"), b.jitter);
  const auto steps = m.sequence("schedule");
  for (std::size_t i = 0; i < steps.size(); ++i) {
    MapReader s(ctx, steps[i], join_path(m.path(), "schedule." + std::to_string(i)));
    BrokerChange c;
    double at = 0;
    if (!s.has("at.ms")) s.error("at.ms", "is required (when the change happens, in ms of simulated time)");
    s.read("at.ms", at, 0, kMaxMs);
    c.at = ms(at);
    int actions = 0;
    if (s.has("set.rtt.ms")) { c.kind = BrokerChange::Kind::kSetRtt; read_ms(s, "set.rtt.ms", c.duration, 0, kMaxMs); ++actions; }
    if (s.has("set.request.ms")) { c.kind = BrokerChange::Kind::kSetRequestTime; read_ms(s, "set.request.ms", c.duration, 0, kMaxMs); ++actions; }
    if (s.has("set.byte.rate")) { c.kind = BrokerChange::Kind::kSetByteRate; s.read("set.byte.rate", c.bytes_per_second, 0, 1e15); ++actions; }
    bool flag = false;
    if (s.has("fail")) { s.read("fail", flag); c.kind = BrokerChange::Kind::kFail; ++actions; }
    if (s.has("recover")) { s.read("recover", flag); c.kind = BrokerChange::Kind::kRecover; ++actions; }
    if (actions != 1)
      s.error("at.ms", "a schedule step needs exactly one of set.rtt.ms, set.request.ms, set.byte.rate, fail, recover");
    s.finish();
    b.schedule.push_back(c);
  }
  m.finish();
}

void read_config(MapReader m, ProducerConfig& c) {
  m.read("batch.size", c.batch_size_bytes, 1, static_cast<std::int32_t>(kMaxInt));
  read_ms(m, "linger.ms", c.linger, 0, kMaxMs);
  m.read("buffer.memory", c.buffer_memory_bytes, 1, std::int64_t{1} << 40);
  read_ms(m, "max.block.ms", c.max_block, 0, kMaxMs);
  m.read("max.request.size", c.max_request_size_bytes, 1, static_cast<std::int32_t>(kMaxInt));
  m.read("max.in.flight.requests.per.connection", c.max_in_flight, 1, 1000);
  read_ms(m, "request.timeout.ms", c.request_timeout, 0, kMaxMs);
  const bool delivery_set = m.has("delivery.timeout.ms");
  read_ms(m, "delivery.timeout.ms", c.delivery_timeout, 0, kMaxMs);
  m.read("retries", c.retries, 0, kMaxInt);
  read_ms(m, "retry.backoff.ms", c.retry_backoff, 0, kMaxMs);
  read_ms(m, "retry.backoff.max.ms", c.retry_backoff_max, 0, kMaxMs);
  std::size_t acks = 2;
  if (m.has("acks")) {
    m.read_choice("acks", acks, {"0", "1", "all", "-1"});
    if (acks == 3) acks = 2;
  }
  c.acks = acks == 0 ? Acks::kNone : acks == 1 ? Acks::kLeader : Acks::kAll;
  std::size_t compression = 0;
  m.read_choice("compression.type", compression, {"none", "gzip", "snappy", "lz4", "zstd"});
  c.compression = static_cast<Compression>(compression);
  m.read("partsim.compression.ratio", c.compression_ratio, 0.01, 10);
  m.read("partitioner.ignore.keys", c.ignore_keys);
  m.read("partitioner.adaptive.partitioning.enable", c.adaptive);
  read_ms(m, "partitioner.availability.timeout.ms", c.availability_timeout, 0, kMaxMs);
  std::size_t part = 0;
  m.read_choice("partitioner", part, partitioner_names());
  c.partitioner.kind = static_cast<PartitionerKind>(part);
  m.read("partsim.sticky.align-batches", c.align_batches);
  const auto rules = m.sequence("partsim.partitioner.rules");
  for (std::size_t i = 0; i < rules.size(); ++i) {
    MapReader r(*m.context(), rules[i], join_path(m.path(), "partsim.partitioner.rules." + std::to_string(i)));
    PartitionRule rule;
    int forms = 0;
    if (r.has("prefix")) { rule.match = PartitionRule::Match::kPrefix; r.read("prefix", rule.text, 10000); ++forms; }
    if (r.has("key")) { rule.match = PartitionRule::Match::kExact; r.read("key", rule.text, 10000); ++forms; }
    if (r.has("regex")) {
      rule.match = PartitionRule::Match::kRegex;
      r.read("regex", rule.text, 10000);
      ++forms;
      try {
        std::regex check(rule.text, std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        r.error("regex", std::string("is not a valid ECMAScript regular expression: ") + e.what());
      }
    }
    if (forms != 1) r.error("partition", "a rule needs exactly one of prefix, key, regex");
    if (!r.has("partition")) r.error("partition", "is required (the partition this rule sends to)");
    r.read("partition", rule.partition, 0, static_cast<std::int32_t>(kMaxInt));
    r.finish();
    c.partitioner.rules.push_back(rule);
  }
  {
    MapReader f = m.map("partsim.partitioner.fallback");
    std::size_t hash = 0;
    f.read_choice("hash", hash, {"murmur2", "java-string"});
    c.partitioner.fallback.hash = static_cast<RuleFallback::Hash>(hash);
    f.read("from", c.partitioner.fallback.first, 0, static_cast<std::int32_t>(kMaxInt));
    f.read("count", c.partitioner.fallback.count, 0, static_cast<std::int32_t>(kMaxInt));
    f.finish();
  }
  if (c.partitioner.kind != PartitionerKind::kRules && !rules.empty())
    m.error("partsim.partitioner.rules", "only applies with partitioner: rules");
  bool idempotence = true;
  const bool idem_set = m.has("enable.idempotence");
  m.read("enable.idempotence", idempotence);
  if (idem_set && idempotence && c.max_in_flight > 5)
    m.error("max.in.flight.requests.per.connection", "must be <= 5 with enable.idempotence=true, got " + std::to_string(c.max_in_flight));
  if (idem_set && idempotence && c.acks != Acks::kAll) m.error("acks", "must be all with enable.idempotence=true");
  // delivery.timeout.ms >= linger.ms + request.timeout.ms (spec §1.1): an error when set,
  // silently raised when defaulted.
  if (c.delivery_timeout < c.linger + c.request_timeout) {
    if (delivery_set)
      m.error("delivery.timeout.ms", "must be >= linger.ms + request.timeout.ms (" +
                                         std::to_string(static_cast<std::int64_t>((c.linger + c.request_timeout).to_ms())) + ")");
    else
      c.delivery_timeout = c.linger + c.request_timeout;
  }
  m.finish();
}

void read_workload(MapReader m, Workload& w) {
  m.read("topic", w.topic, 249);
  {
    MapReader a = m.map("arrivals");
    std::size_t kind = 0;
    a.read_choice("kind", kind, {"constant", "poisson", "on-off", "closed-loop", "flat-out"});
    w.arrivals.kind = static_cast<Arrivals::Kind>(kind);
    a.read("rate", w.arrivals.records_per_second, 1e-6, 1e10);
    read_ms(a, "on.ms", w.arrivals.on, 1e-3, kMaxMs);
    read_ms(a, "off.ms", w.arrivals.off, 0, kMaxMs);
    a.read("concurrency", w.arrivals.concurrency, 1, 1'000'000);
    read_us(a, "send.cost.us", w.arrivals.send_cost, 0, 1e9);
    a.read("threads", w.arrivals.threads, 1, 10000);
    read_us(a, "partition.gap.us", w.arrivals.partition_gap, 0, 1e9);
    if (w.arrivals.kind == Arrivals::Kind::kFlatOut && w.arrivals.send_cost <= SimTime::zero())
      a.error("send.cost.us", "must be > 0 for flat-out arrivals (the application time one send() takes)");
    a.finish();
  }
  {
    MapReader k = m.map("keys");
    std::size_t kind = 0;
    k.read_choice("kind", kind, {"none", "template", "zipf", "hot", "list"});
    w.keys.kind = static_cast<KeySpec::Kind>(kind);
    k.read("template", w.keys.key_template, 10000);
    k.read_strings("templates", w.keys.templates);
    k.read("cardinality", w.keys.cardinality, 0, 100'000'000);
    k.read("s", w.keys.zipf_s, 0, 100);
    k.read("hot.key", w.keys.hot_key, 10000);
    k.read("hot.share", w.keys.hot_share, 0, 1);
    k.read_strings("list", w.keys.list);
    if (w.keys.kind == KeySpec::Kind::kZipf && w.keys.cardinality < 1) k.error("cardinality", "must be >= 1 for zipf keys");
    if (w.keys.kind == KeySpec::Kind::kList && w.keys.list.empty()) k.error("list", "must hold at least one key");
    if (w.keys.kind == KeySpec::Kind::kHot && !k.has("hot.key")) k.error("hot.key", "is required for hot keys");
    k.finish();
  }
  {
    MapReader v = m.map("values");
    std::size_t kind = 0;
    v.read_choice("kind", kind, {"fixed", "template", "uniform", "lognormal", "null"});
    w.values.null_value = kind == 4;
    w.values.kind = kind == 4 ? ValueSpec::Kind::kFixed : static_cast<ValueSpec::Kind>(kind);
    v.read("size", w.values.size_bytes, 0, 100'000'000);
    v.read("template", w.values.value_template, 100'000);
    v.read("min", w.values.min_bytes, 0, 100'000'000);
    v.read("max", w.values.max_bytes, 0, 100'000'000);
    v.read("median", w.values.median_bytes, 0, 1e8);
    v.read("sigma", w.values.sigma, 0, 10);
    if (w.values.kind == ValueSpec::Kind::kUniform && w.values.max_bytes < w.values.min_bytes) v.error("max", "must be >= min");
    if (w.values.kind == ValueSpec::Kind::kTemplate && !v.has("template")) v.error("template", "is required for template values");
    v.finish();
  }
  m.read_optional("partition", w.partition, 0, static_cast<std::int32_t>(kMaxInt));
  {
    MapReader h = m.map("headers");
    h.read("count", w.header_count, 0, 10000);
    h.read("key.bytes", w.header_key_bytes, 0, 1'000'000);
    h.read("value.bytes", w.header_value_bytes, 0, 1'000'000);
    h.finish();
  }
  m.read_optional("records", w.records, 1, std::int64_t{1} << 50);
  m.finish();
}

Scenario read_scenario(ReadContext& ctx, const YAML::Node& root) {
  Scenario s;
  MapReader top(ctx, root, "");
  if (!root.IsMap()) return s;  // reported by the reader; nothing else can be read
  top.read("name", s.name, 200);
  std::size_t client = 0;
  top.read_choice("client", client, {"kafka-4.x", "kafka-3.x"});
  {
    MapReader r = top.map("run");
    std::int64_t seed = 1;
    r.read("seed", seed, 0, std::numeric_limits<std::int64_t>::max());
    s.run.seed = static_cast<std::uint64_t>(seed);
    r.read_optional("records", s.run.records, 1, std::int64_t{1} << 50);
    if (r.has("duration.ms")) {
      double d = 0;
      r.read("duration.ms", d, 1e-6, kMaxMs);
      s.run.duration = ms(d);
    }
    double warm = 0;
    r.read("warmup.ms", warm, 0, kMaxMs);
    s.run.warmup = ms(warm);
    r.read("trace", s.run.trace, 0, 1'000'000);
    double window = 0;
    r.read("window.ms", window, 0, kMaxMs);
    s.run.window = ms(window);
    std::size_t check = 0;
    r.read_choice("check", check, {"none", "poisson-batching"});
    s.run.check = static_cast<RunSpec::Check>(check);
    std::size_t order = 0;
    r.read_choice("partition.order", order, {"hashmap", "sorted"});
    s.run.sorted_partition_order = order == 1;
    r.finish();
  }
  {
    MapReader c = top.map("cluster");
    const auto brokers = c.sequence("brokers");
    for (std::size_t i = 0; i < brokers.size(); ++i) {
      BrokerConfig b;
      b.id = static_cast<std::int32_t>(i);
      read_broker(ctx, brokers[i], join_path(c.path(), "brokers." + std::to_string(i)), b);
      s.brokers.push_back(std::move(b));
    }
    if (brokers.empty()) c.error("brokers", "must list at least one broker");
    c.read("auto.leader.rebalance.enable", s.controller.auto_leader_rebalance);
    double interval_s = s.controller.imbalance_check_interval.to_sec();
    c.read("leader.imbalance.check.interval.seconds", interval_s, 0.001, 1e9);
    s.controller.imbalance_check_interval = ms(interval_s * 1000);
    c.read("leader.imbalance.per.broker.percentage", s.controller.imbalance_per_broker_percent, 0, 100);
    if (brokers.size() > 10000) c.error("brokers", "must list at most 10000 brokers");
    std::set<std::int32_t> ids;
    for (std::size_t i = 0; i < s.brokers.size(); ++i)
      if (!ids.insert(s.brokers[i].id).second)
        ctx.error(brokers[i], join_path(c.path(), "brokers." + std::to_string(i) + ".id"),
                  "duplicate broker id " + std::to_string(s.brokers[i].id));
    c.finish();
  }
  const auto topics = top.sequence("topics");
  std::set<std::string> topic_names;
  for (std::size_t i = 0; i < topics.size(); ++i) {
    MapReader t(ctx, topics[i], "topics." + std::to_string(i));
    TopicConfig tc;
    if (!t.has("name")) t.error("name", "is required");
    t.read("name", tc.name, 249);
    t.read("partitions", tc.partitions, 1, 1'000'000);
    t.read("replication.factor", tc.replication_factor, 1, 1000);
    if (!s.brokers.empty() && tc.replication_factor > static_cast<std::int32_t>(s.brokers.size()))
      t.error("replication.factor", "must be <= the number of brokers (" + std::to_string(s.brokers.size()) + "), got " +
                                        std::to_string(tc.replication_factor));
    if (!topic_names.insert(tc.name).second) t.error("name", "duplicate topic '" + tc.name + "'");
    t.finish();
    s.topics.push_back(tc);
  }
  if (topics.empty()) top.error("topics", "must list at least one topic");
  const auto producers = top.sequence("producers");
  std::set<std::string> producer_names;
  for (std::size_t i = 0; i < producers.size(); ++i) {
    MapReader p(ctx, producers[i], "producers." + std::to_string(i));
    ProducerSpec ps;
    ps.name = "p" + std::to_string(i);
    p.read("name", ps.name, 200);
    if (client == 1) ps.config.linger = SimTime::zero();  // kafka-3.x default (spec §6)
    read_config(p.map("config"), ps.config);
    read_workload(p.map("workload"), ps.workload);
    if (ps.workload.topic.empty() && s.topics.size() == 1) ps.workload.topic = s.topics[0].name;
    const TopicConfig* topic = nullptr;
    for (const auto& tc : s.topics)
      if (tc.name == ps.workload.topic) topic = &tc;
    if (s.topics.empty()) {
      // reported once, at topics
    } else if (!topic && ps.workload.topic.empty()) {
      std::string names;
      for (const auto& tc : s.topics) names += (names.empty() ? "" : ", ") + tc.name;
      p.map("workload").error("topic", "is required when the scenario has several topics (" + names + ")");
    } else if (!topic) {
      std::string names;
      for (const auto& tc : s.topics) names += (names.empty() ? "" : ", ") + tc.name;
      p.map("workload").error("topic", "names no topic of this scenario ('" + ps.workload.topic + "'; topics: " + names + ")");
    } else {
      if (ps.workload.partition && *ps.workload.partition >= topic->partitions)
        p.map("workload").error("partition", "must be < the topic's " + std::to_string(topic->partitions) +
                                                 " partitions, got " + std::to_string(*ps.workload.partition));
      // A rule's partition is known here: out of range is a scenario error, not a run failure.
      MapReader cfg = p.map("config");
      const auto& spec = ps.config.partitioner;
      for (std::size_t r = 0; r < spec.rules.size(); ++r)
        if (spec.rules[r].partition >= topic->partitions)
          cfg.error("partsim.partitioner.rules." + std::to_string(r) + ".partition",
                    "must be < the topic's " + std::to_string(topic->partitions) + " partitions, got " +
                        std::to_string(spec.rules[r].partition));
      if (spec.kind == PartitionerKind::kRules) {
        const std::int64_t last = std::int64_t{spec.fallback.first} + (spec.fallback.count > 0 ? spec.fallback.count : 1) - 1;
        if (last >= topic->partitions)
          cfg.error("partsim.partitioner.fallback", "the range from " + std::to_string(spec.fallback.first) + " (" +
                                                        std::to_string(spec.fallback.count) + " partitions) must end below the topic's " +
                                                        std::to_string(topic->partitions) + " partitions");
      }
    }
    if (!producer_names.insert(ps.name).second) p.error("name", "duplicate producer name '" + ps.name + "'");
    p.finish();
    s.producers.push_back(std::move(ps));
  }
  if (producers.empty()) top.error("producers", "must list at least one producer");
  const bool stop_rule_given = top.map("run").has("records") || top.map("run").has("duration.ms");
  if (!s.run.records && !s.run.duration && !stop_rule_given) {
    bool all_bounded = !s.producers.empty();
    for (const auto& p : s.producers) all_bounded = all_bounded && p.workload.records.has_value();
    if (!all_bounded) top.map("run").error("records", "the run needs a stop rule: run.records, run.duration.ms, or records on every producer");
  }
  if (s.run.check == RunSpec::Check::kPoissonBatching) {
    // The closed form holds for one producer sending Poisson arrivals of one size with null
    // keys into one partition, batches drained when linger expires (deltas stay 1 byte).
    MapReader r = top.map("run");
    const bool shape = s.producers.size() == 1 && s.topics.size() == 1 && s.topics[0].partitions == 1 &&
                       s.producers[0].workload.arrivals.kind == Arrivals::Kind::kPoisson &&
                       s.producers[0].workload.keys.kind == KeySpec::Kind::kNone &&
                       s.producers[0].workload.values.kind == ValueSpec::Kind::kFixed &&
                       s.producers[0].config.partitioner.kind == PartitionerKind::kBuiltin &&
                       s.producers[0].config.compression == Compression::kNone && s.producers[0].config.linger < SimTime::ms(64);
    if (!shape)
      r.error("check", "poisson-batching needs one producer, one topic with one partition, Poisson arrivals, null keys, "
                       "fixed-size values, no compression, the built-in partitioner and linger.ms < 64");
  }
  top.finish();
  return s;
}

// --set PATH=VALUE on the YAML tree. At a mapping, the longest run of path segments that
// is a known key wins, so Kafka keys with dots work: producers.0.config.linger.ms. A "*"
// at a list sets the field in every item: producers.*.config.linger.ms=0.
void assign_path(ReadContext& ctx, YAML::Node node, const std::vector<std::string>& segs, std::size_t i, const std::string& path,
                 const YAML::Node& value, const std::string& assignment) {
  const InputLocation where{"--set " + assignment};
  if (i == segs.size()) {
    node = value;
    ctx.overrides[path] = "--set " + assignment;
    return;
  }
  if (node.IsSequence()) {
    if (segs[i] == "*") {
      for (std::size_t k = 0; k < node.size(); ++k)
        assign_path(ctx, node[k], segs, i + 1, join_path(path, std::to_string(k)), value, assignment);
      return;
    }
    std::size_t idx = 0;
    try {
      idx = static_cast<std::size_t>(std::stoul(segs[i]));
    } catch (const std::exception&) {
      throw InputError(where, path + ": is a list; '" + segs[i] + "' is not an index (or *)");
    }
    if (idx >= node.size())
      throw InputError(where, path + ": has " + std::to_string(node.size()) + " items, no index " + segs[i]);
    assign_path(ctx, node[idx], segs, i + 1, join_path(path, segs[i]), value, assignment);
    return;
  }
  std::set<std::string> known = ctx.known_keys[path];
  if (node.IsMap())
    for (const auto& kv : node) known.insert(kv.first.Scalar());
  for (std::size_t k = segs.size(); k > i; --k) {
    std::string candidate;
    for (std::size_t j = i; j < k; ++j) candidate += (j > i ? "." : "") + segs[j];
    if (!known.count(candidate)) continue;
    if (!node.IsMap() && !node.IsNull() && node.IsDefined()) throw InputError(where, path + ": is not a mapping");
    assign_path(ctx, node[candidate], segs, k, join_path(path, candidate), value, assignment);
    return;
  }
  std::string rest;
  for (std::size_t j = i; j < segs.size(); ++j) rest += (j > i ? "." : "") + segs[j];
  std::string msg = "unknown key '" + rest + "'" + (path.empty() ? "" : " under " + path);
  auto guess = did_you_mean(rest, known);
  if (!guess) guess = did_you_mean(segs[i], known);
  if (guess) msg += " (did you mean '" + *guess + "'?)";
  throw InputError(where, msg);
}

void apply_set(ReadContext& ctx, YAML::Node& root, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError({"--set"}, "must be PATH=VALUE (e.g. producers.0.config.linger.ms=0), got '" + assignment + "'");
  const std::string path_text = assignment.substr(0, eq);
  std::vector<std::string> segs;
  for (std::size_t pos = 0;;) {
    const auto dot = path_text.find('.', pos);
    segs.push_back(path_text.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos));
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  YAML::Node value;
  try {
    value = YAML::Load(assignment.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw InputError({"--set " + assignment}, "the value is not valid YAML: " + e.msg);
  }
  assign_path(ctx, root, segs, 0, "", value, assignment);
}

}  // namespace

Scenario load_scenario_text(std::string_view text, const std::string& source, const std::vector<std::string>& sets) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    throw InputError({source, static_cast<std::size_t>(e.mark.line + 1), static_cast<std::size_t>(e.mark.column + 1)},
                     "invalid YAML: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw InputError({source}, std::string("invalid YAML: ") + e.what());
  }
  if (!root.IsDefined() || root.IsNull()) throw InputError({source}, "is empty; a scenario needs cluster, topics and producers");
  ReadContext ctx;
  ctx.file = source;
  if (!sets.empty()) {
    // A first pass learns which keys each mapping knows; then the overrides apply.
    ReadContext probe;
    probe.file = source;
    read_scenario(probe, root);
    ctx.known_keys = probe.known_keys;
    for (const auto& s : sets) apply_set(ctx, root, s);
  }
  Scenario s = read_scenario(ctx, root);
  if (!ctx.errors.empty()) throw InputError(ctx.errors);
  return s;
}

Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& sets) {
  const std::string text = read_input_file(path);
  Scenario s = load_scenario_text(text, path, sets);
  if (s.name.empty()) {
    const auto slash = path.find_last_of('/');
    s.name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  }
  return s;
}

}  // namespace partsim::scenarios
