// Other clients' producer profiles through the loader and a run (model/client_profiles.hpp,
// kafka-clients.md): their defaults, their own config names with their rules, and what their
// send paths do to batches and requests.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/client_profiles.hpp"
#include "model/cluster_simulation.hpp"
#include "model/partitioners/client_keys.hpp"
#include "scenarios/loader/scenario_loader.hpp"
#include "scenarios/loader/scenario_writer.hpp"

using namespace partsim;
using partsim::sim::SimTime;

namespace {

constexpr const char* kThreeBrokers = R"(name: profiles
run: {seed: 1, duration.ms: 4000}
cluster:
  brokers: [{id: 0, rtt.ms: 1}, {id: 1, rtt.ms: 1}, {id: 2, rtt.ms: 1}]
topics: [{name: t, partitions: 6}]
producers:
  - name: app
    workload:
      arrivals: {kind: constant, rate: 3000}
      keys: {kind: template, template: "user-{i}", cardinality: 5000}
      values: {kind: fixed, size: 100}
consumers:
  - group: g
    topics: [t]
)";

model::Scenario load_profile(const std::string& client, std::vector<std::string> sets = {}) {
  sets.insert(sets.begin(), "client=" + client);
  return scenarios::load_scenario_text(kThreeBrokers, "profiles.yaml", sets);
}

std::string load_error(const std::string& client, std::vector<std::string> sets) {
  try {
    load_profile(client, std::move(sets));
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("each profile's defaults, read from its client's source") {
  const auto rd = load_profile("librdkafka-2.x").producers[0].config;
  CHECK(rd.client.name() == "librdkafka-2.x");
  CHECK(load_profile("librdkafka").producers[0].config.client.name() == "librdkafka-2.x");  // the short name
  CHECK(rd.profile.partitioner == "consistent_random");
  CHECK(rd.linger == SimTime::ms(5));
  CHECK(rd.batch_size_bytes == 1'000'000);
  CHECK(rd.profile.batch_records == 10'000);
  CHECK(rd.profile.one_partition_per_request);
  CHECK_FALSE(rd.idempotence);
  CHECK(rd.delivery_timeout == SimTime::ms(300'000));

  const auto fg = load_profile("franz-go").producers[0].config;
  CHECK(fg.profile.partitioner == "UniformBytesPartitioner");
  CHECK(fg.linger == SimTime::ms(10));
  CHECK(fg.compression == model::Compression::kSnappy);
  CHECK(fg.idempotence);
  CHECK(fg.max_in_flight == 4);
  CHECK(fg.profile.first_request_alone);

  const auto sa = load_profile("sarama").producers[0].config;
  CHECK(sa.profile.partitioner == "NewHashPartitioner");
  CHECK(sa.linger == SimTime::zero());
  CHECK(sa.acks == model::Acks::kLeader);
  CHECK(sa.retries == 3);
  CHECK(sa.profile.flat_backoff);

  const auto js = load_profile("kafkajs").producers[0].config;
  CHECK(js.profile.partitioner == "DefaultPartitioner");
  CHECK(js.profile.batch_records == 1);
  CHECK(js.retries == 5);

  const auto go = load_profile("kafka-go").producers[0].config;
  CHECK(go.profile.partitioner == "RoundRobin");
  CHECK(go.acks == model::Acks::kNone);
  CHECK(go.linger == SimTime::ms(1000));
  CHECK(go.profile.batch_records == 100);
  CHECK(go.retries == 9);

  // The consumer group under a profile at the top runs the default Java consumer.
  CHECK(load_profile("sarama").consumers[0].config.client.name() == "kafka-4.3");
}

TEST_CASE("a profile's own config names, its aliases and Go durations; others refused with a did-you-mean") {
  const auto rd = load_profile("librdkafka-2.x", {"producers.0.config.queue.buffering.max.ms=20"});
  CHECK(rd.producers[0].config.linger == SimTime::ms(20));
  CHECK_FALSE(rd.producers[0].config.profile.sticky_linger);  // 2 x linger.ms at run time
  CHECK(load_error("librdkafka-2.x", {"producers.0.config.linger.ms=1", "producers.0.config.queue.buffering.max.ms=2"})
            .find("is another name for linger.ms, which is given too") != std::string::npos);
  const auto go =
      load_profile("kafka-go", {"producers.0.config.BatchTimeout=1m30s", "producers.0.config.MaxAttempts=1"});
  CHECK(go.producers[0].config.linger == SimTime::ms(90'000));
  CHECK(go.producers[0].config.retries == 0);
  CHECK(load_error("kafka-go", {"producers.0.config.BatchTimeout=\"1 sec\""}).find("must be a Go duration") !=
        std::string::npos);
  // Java's names are not a kafka-go writer's.
  const std::string unknown = load_error("kafka-go", {"producers.0.config.batch.size=10"});
  CHECK(unknown.find("unknown key") != std::string::npos);
  CHECK(unknown.find("did you mean 'BatchSize'") != std::string::npos);
  // The clients' own rules between keys.
  CHECK(load_error("sarama", {"producers.0.config.Producer.Idempotent=true"}).find("must be WaitForAll") !=
        std::string::npos);
  CHECK(load_error("franz-go", {"producers.0.config.RequiredAcks=LeaderAck"}).find("must be AllISRAcks") !=
        std::string::npos);
  const auto fg = load_profile("franz-go", {"producers.0.config.DisableIdempotentWrite=true"});
  CHECK(fg.producers[0].config.max_in_flight == 1);
  CHECK_FALSE(fg.producers[0].config.profile.first_request_alone);
  // A consumer group runs Java's consumer only.
  CHECK(load_error("kafka-4.3", {"consumers.0.client=sarama"}).find("is a producer profile") != std::string::npos);
}

TEST_CASE("a resolved scenario of each profile reads back the same") {
  for (const char* client : {"librdkafka-2.x", "franz-go", "sarama", "kafkajs", "kafka-go"}) {
    CAPTURE(client);
    const model::Scenario s = load_profile(client);
    const std::string written = scenarios::write_scenario_yaml(s);
    const model::Scenario again = scenarios::load_scenario_text(written, "resolved.yaml");
    CHECK(scenarios::write_scenario_yaml(again) == written);
    CHECK(again.producers[0].config.profile.partitioner == s.producers[0].config.profile.partitioner);
    CHECK(again.producers[0].config.linger == s.producers[0].config.linger);
  }
}

TEST_CASE("runs: keys land by each client's hash; batches and requests as each client builds them") {
  // kafka-go: round robin ignoring keys, batches of 100 records, one partition per request.
  const auto go = model::run_scenario(load_profile("kafka-go"), 1);
  CHECK(go.records_acked == go.records_sent);
  std::int64_t batches = 0, records = 0;
  for (const auto& p : go.partitions) {
    batches += p.batches;
    records += p.records;
    CHECK(p.records == go.partitions[0].records);  // round robin: even
  }
  CHECK(records == go.records_acked);
  CHECK(static_cast<double>(records) / static_cast<double>(batches) == doctest::Approx(100).epsilon(0.02));
  REQUIRE(go.producer_metrics.size() == 1);
  CHECK(go.producer_metrics[0].records_per_request_avg == doctest::Approx(100).epsilon(0.05));

  // librdkafka: consistent_random puts each key where CRC-32 mod 6 says; one batch per request.
  const auto rd = model::run_scenario(load_profile("librdkafka-2.x"), 1);
  std::vector<std::int64_t> expected(6, 0);
  for (std::int64_t i = 0; i < rd.records_acked; ++i)
    ++expected[static_cast<std::size_t>(model::crc32_ieee("user-" + std::to_string(i % 5000)) % 6)];
  for (std::size_t p = 0; p < 6; ++p) CHECK(rd.partitions[p].records == expected[p]);
  const double per_batch =
      static_cast<double>(rd.records_acked) /
      static_cast<double>(rd.partitions[0].batches + rd.partitions[1].batches + rd.partitions[2].batches +
                          rd.partitions[3].batches + rd.partitions[4].batches + rd.partitions[5].batches);
  CHECK(rd.producer_metrics[0].records_per_request_avg == doctest::Approx(per_batch).epsilon(0.05));

  // kafkajs: every send() its own batch of one record.
  const auto js = model::run_scenario(load_profile("kafkajs"), 1);
  for (const auto& p : js.partitions) CHECK(p.batches == p.records);
}

TEST_CASE("Go zeros mean what the client makes of them; keys partsim does not model are refused, saying why") {
  const auto go = load_profile("kafka-go", {"producers.0.config.BatchTimeout=0", "producers.0.config.BatchSize=0",
                                            "producers.0.config.MaxAttempts=0"});
  CHECK(go.producers[0].config.linger == SimTime::ms(1000));  // writer.go: zero takes the default
  CHECK(go.producers[0].config.profile.batch_records == 100);
  CHECK(go.producers[0].config.retries == 9);
  CHECK(load_error("sarama", {"producers.0.config.Net.ReadTimeout=0"}).find("Net.ReadTimeout: must be > 0") !=
        std::string::npos);
  const auto fg = load_profile("franz-go", {"producers.0.config.RecordDeliveryTimeout=0"});
  CHECK(fg.producers[0].config.delivery_timeout == model::kNoDeliveryTimeoutBound);
  CHECK(load_error("librdkafka-2.x", {"producers.0.config.queue.buffering.max.kbytes=100"}).find("is not modelled") !=
        std::string::npos);
  // librdkafka: linger.ms must stay below message.timeout.ms: given, an error; left at its
  // default, lowered to message.timeout.ms - 0.1 ms.
  CHECK(load_error("librdkafka-2.x", {"producers.0.config.message.timeout.ms=5", "producers.0.config.linger.ms=5"})
            .find("must be greater than linger.ms") != std::string::npos);
  CHECK(load_profile("librdkafka-2.x", {"producers.0.config.message.timeout.ms=5"}).producers[0].config.linger ==
        SimTime::from_ms(4.9));
  // Durations are written as Go writes them, and read back.
  const auto minute = load_profile("sarama", {"producers.0.config.Producer.Flush.Frequency=1m30.5s"});
  const std::string written = scenarios::write_scenario_yaml(minute);
  CHECK(written.find("Producer.Flush.Frequency: 1m30.5s") != std::string::npos);
  CHECK(written.find("Metadata.RefreshFrequency: 10m0s") != std::string::npos);
  CHECK(scenarios::load_scenario_text(written, "resolved.yaml").producers[0].config.linger == SimTime::ms(90'500));
}

TEST_CASE("a --set of a key one producer's client does not have is refused, whichever producer comes first") {
  const std::string two = R"(name: two-clients
run: {records: 100}
cluster: {brokers: [{id: 0, rtt.ms: 1}]}
topics: [{name: t, partitions: 2}]
producers:
  - name: java
  - name: go
    client: kafka-go
)";
  CHECK(scenarios::load_scenario_text(two, "two.yaml").producers.size() == 2);
  for (const char* set : {"producers.*.config.linger.ms=7", "producers.*.config.BatchSize=7",
                          "producers.*.config.compression.type=gzip"}) {
    CAPTURE(set);
    std::string error;
    try {
      scenarios::load_scenario_text(two, "two.yaml", {set});
    } catch (const std::exception& e) {
      error = e.what();
    }
    CHECK(error.find(std::string("--set ") + set + ": unknown key") != std::string::npos);
  }
  // A Java key below a profile's key of the same name is still unknown there.
  CHECK(load_error("librdkafka-2.x", {"producers.*.config.partitioner.ignore.keys=true"}).find("unknown key") !=
        std::string::npos);
  // Removing a key an item's client lacks leaves the item as it is.
  CHECK(scenarios::load_scenario_text(two, "two.yaml", {"producers.*.config.linger.ms=~"}).producers.size() == 2);
}

TEST_CASE("a partition that never gets a leader back: each client gives up in bounded time, as its retries do") {
  // RF 1, broker 1 fails for good at 1 s: a third of the partitions have no leader from then on.
  const std::string failing = R"(name: lost-leader
run: {seed: 1, duration.ms: 3000}
cluster:
  brokers: [{id: 0, rtt.ms: 1}, {id: 1, rtt.ms: 1, schedule: [{at.ms: 1000, fail: true}]}, {id: 2, rtt.ms: 1}]
topics: [{name: t, partitions: 6}]
producers:
  - name: app
    workload: {arrivals: {kind: constant, rate: 1000}, keys: {kind: template, template: "k-{i}", cardinality: 100}}
)";
  const std::vector<std::vector<std::string>> clients{
      {"client=sarama"},   {"client=kafkajs"},  {"client=kafkajs", "producers.0.config.idempotent=true"},
      {"client=kafka-go"}, {"client=franz-go"}, {"client=librdkafka-2.x"}};
  for (const auto& sets : clients) {
    CAPTURE(sets.back());
    const model::Scenario s = scenarios::load_scenario_text(failing, "lost.yaml", sets);
    const auto r = model::run_scenario(s, 1);
    CHECK(r.records_acked + r.failed.total() == r.records_sent);
    CHECK(r.failed.total() > 0);
    CHECK(r.simulated_ms < 1000 + 400'000);  // the longest bound: kafkajs' 6 x (30 s + 30 s)
  }
}

TEST_CASE("a linger longer than the retries take: the batch is sent after it, not failed while it waits") {
  const std::string slow = R"(name: slow-sends
run: {seed: 1, duration.ms: 40000}
cluster: {brokers: [{id: 0, rtt.ms: 1}]}
topics: [{name: t, partitions: 1}]
producers:
  - name: app
    workload: {arrivals: {kind: constant, rate: 1}}
)";
  const std::vector<std::vector<std::string>> linger{{"client=kafka-go", "producers.0.config.BatchTimeout=30s",
                                                      "producers.0.config.MaxAttempts=1"},
                                                     {"client=sarama",
                                                      "producers.0.config.Producer.Flush.Frequency=3m"},
                                                     {"client=franz-go", "producers.0.config.ProducerLinger=3m"}};
  for (const auto& sets : linger) {
    CAPTURE(sets[1]);
    const auto r = model::run_scenario(scenarios::load_scenario_text(slow, "slow.yaml", sets), 1);
    CHECK(r.records_sent == 40);
    CHECK(r.records_acked == 40);
  }
}
