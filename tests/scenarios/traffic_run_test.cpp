// Traffic between racks through the whole engine (model/cluster/traffic.hpp): every kind's
// bytes equal the same bytes counted independently where they start (the producers' batches
// and responses from their metrics, the leaders' fetch answers, the partitions' logs); the
// produce requests cross racks as often as the partitions' leaders are elsewhere; with RF 3
// over three racks every follower copy crosses, twice the produced bytes; one rack: nothing.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/cluster_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"

using namespace partsim;

namespace {

std::string zones_yaml(const std::string& racks, const std::string& replication) {
  return R"(
run: {seed: 5, duration.ms: 3000, trace: 0}
cluster:
  replication: )" +
         replication + R"(
  brokers:
    - {id: 0, rack: )" +
         racks.substr(0, 1) + R"(}
    - {id: 1, rack: )" +
         racks.substr(1, 1) + R"(}
    - {id: 2, rack: )" +
         racks.substr(2, 1) + R"(}
topics: [{name: orders, partitions: 6, replication.factor: 3}]
producers:
  - name: pa
    rack: a
    config: {acks: all, linger.ms: 5}
    workload:
      topic: orders
      arrivals: {kind: poisson, rate: 2000}
      values: {kind: fixed, size: 300}
consumers:
  - group: g
    topics: [orders]
    members: 3
    rack: [a, b, c]
)";
}

const model::TrafficKind& kind_named(const model::RunResult& r, const std::string& name) {
  for (const auto& k : r.traffic.kinds)
    if (k.name == name) return k;
  FAIL("no traffic kind " << name);
  throw;
}

std::int64_t payload(const model::TrafficKind& k) { return k.bytes - k.framing_bytes; }

}  // namespace

TEST_CASE("every kind's bytes are the bytes counted where they start, each once") {
  const auto s = scenarios::load_scenario_text(zones_yaml("abc", "followers"), "inline");
  const auto r = model::run_scenario(s, 5, 0, {});
  REQUIRE(r.failed.total() == 0);
  REQUIRE(r.records_acked == r.records_sent);
  // The produce requests: the batches the producers' senders drained (their metrics).
  double drained = 0;
  std::int64_t responses = 0;
  for (const auto& pm : r.producer_metrics) {
    drained += static_cast<double>(pm.batches) * pm.batch_size_avg;
    responses += pm.responses;
  }
  CHECK(static_cast<double>(payload(kind_named(r, "produce_request"))) == doctest::Approx(drained).epsilon(1e-9));
  CHECK(kind_named(r, "produce_response").messages == responses);
  // The followers: each of the two copies every byte of the leaders' logs, no more.
  std::int64_t logs = 0;
  for (const auto& p : r.partitions) logs += p.bytes;
  // The consumers' fetches: the group read every record once (no duplicates), each sized as
  // its partition's mean so far, so the answers carried the logs' bytes (to 2%: the means
  // move as the batches grow).
  REQUIRE(r.consumer_groups.size() == 1);
  CHECK(r.consumer_groups[0].duplicates == 0);
  CHECK(r.consumer_groups[0].records_consumed == r.records_acked);
  CHECK(static_cast<double>(payload(kind_named(r, "consumer_fetch"))) ==
        doctest::Approx(static_cast<double>(logs)).epsilon(0.02));
  std::int64_t answers = 0;
  for (const auto& b : r.consumer_fetches) answers += b.fetches;
  CHECK(kind_named(r, "consumer_fetch").messages == answers);
  CHECK(payload(kind_named(r, "replication_fetch")) == 2 * logs);
  CHECK(kind_named(r, "migration_copy").bytes == 0);
}

TEST_CASE("produce requests cross racks as the partitions' leaders lie outside the producer's rack") {
  const auto s = scenarios::load_scenario_text(zones_yaml("abc", "followers"), "inline");
  const auto r = model::run_scenario(s, 5, 0, {});
  std::int64_t all = 0, elsewhere = 0;
  for (const auto& p : r.partitions) {
    all += p.bytes;
    elsewhere += s.brokers[static_cast<std::size_t>(p.leader)].rack != "a" ? p.bytes : 0;
  }
  const auto& produce = kind_named(r, "produce_request");
  const double expected = static_cast<double>(elsewhere) / static_cast<double>(all);
  const double measured = static_cast<double>(produce.cross_rack_bytes) / static_cast<double>(produce.bytes);
  CHECK(expected > 0.3);
  CHECK(measured == doctest::Approx(expected).epsilon(0.005));  // the requests' framing: ~1% of the bytes
  // RF 3 over three racks: every follower is in another rack than its leader.
  const auto& replication = kind_named(r, "replication_fetch");
  CHECK(replication.cross_rack_bytes == replication.bytes);
  CHECK(r.traffic.cross_rack_bytes() > replication.bytes);
}

TEST_CASE("one rack: nothing crosses; fixed replication: the followers' copies are not simulated") {
  const auto one = model::run_scenario(scenarios::load_scenario_text(
                                           [] {
                                             std::string y = zones_yaml("aaa", "followers");
                                             for (const char* from : {"rack: [a, b, c]"})
                                               y.replace(y.find(from), 15, "rack: [a]");
                                             return y;
                                           }(),
                                           "inline"),
                                       5, 0, {});
  CHECK(one.traffic.racks == std::vector<std::string>{"a"});
  CHECK(one.traffic.bytes() > 0);
  CHECK(one.traffic.cross_rack_bytes() == 0);
  const auto fixed = model::run_scenario(scenarios::load_scenario_text(zones_yaml("abc", "fixed"), "inline"), 5, 0, {});
  CHECK_FALSE(fixed.traffic.replication_simulated);
  CHECK(kind_named(fixed, "replication_fetch").bytes == 0);
  CHECK(kind_named(fixed, "produce_request").cross_rack_bytes > 0);
}

TEST_CASE(
    "KIP-392: members read their zone's replica; no record crosses, and the followers' high watermark costs latency") {
  const std::string base = zones_yaml("abc", "followers");
  const auto leaders_only = model::run_scenario(scenarios::load_scenario_text(base, "inline"), 5, 0, {});
  std::string yaml = base;
  yaml.replace(yaml.find("  brokers:"), 0, "  replica.selector.class: rack-aware\n");
  const auto s = scenarios::load_scenario_text(yaml, "inline");
  const auto r = model::run_scenario(s, 5, 0, {});
  REQUIRE(r.consumer_groups.size() == 1);
  const auto& g = r.consumer_groups[0];
  CHECK(g.records_consumed == r.records_acked);
  CHECK(g.duplicates == 0);
  CHECK(g.order_violations == 0);
  // Every record is read in its member's own rack: only the leaders' empty answers naming the
  // read replica cross (framing), against two thirds of the bytes when members read the leaders.
  const auto& fetch = kind_named(r, "consumer_fetch");
  std::int64_t logs = 0;
  for (const auto& p : r.partitions) logs += p.bytes;
  CHECK(static_cast<double>(payload(fetch)) == doctest::Approx(static_cast<double>(logs)).epsilon(0.02));
  CHECK(fetch.cross_rack_bytes > 0);
  CHECK(fetch.cross_rack_bytes < 1000);
  CHECK(kind_named(leaders_only, "consumer_fetch").cross_rack_bytes > logs / 2);
  // A leader named a read replica once for each partition whose owner is in another rack (the
  // naming lasts metadata.max.age.ms, longer than the run), counted from the assignment and
  // the leaders.
  const std::vector<std::string> member_rack{"a", "b", "c"};
  std::int64_t apart = 0;
  for (std::size_t m = 0; m < g.members.size(); ++m)
    for (const auto& name : g.members[m].partitions) {
      const auto p = static_cast<std::size_t>(std::stoi(name.substr(name.rfind('-') + 1)));
      apart += s.brokers[static_cast<std::size_t>(r.partitions[p].leader)].rack != member_rack[m] ? 1 : 0;
    }
  std::int64_t redirected = 0, as_follower = 0, follower_records = 0;
  for (const auto& b : r.consumer_fetches) {
    redirected += b.redirected;
    as_follower += b.as_follower;
    follower_records += b.as_follower > 0 ? b.records : 0;
  }
  CHECK(apart >= 3);
  CHECK(redirected == apart);
  CHECK(as_follower > 0);
  // The followers serve up to the high watermark their leader last told them, which lags the
  // leader's: a follower learns it from the answer to its next fetch, which waits for new data
  // at the leader (a sticky producer leaves a leader quiet for tens of ms). Not only the tail:
  // a tenth of the records wait 20 ms more (a follower serving up to the leader's high
  // watermark would match the leaders, except for the members' first redirect).
  const auto ms = [](const model::GroupResult& group, double q) {
    return static_cast<double>(group.e2e_latency.quantile(q)) / 1e6;
  };
  CHECK(ms(g, 0.9) > ms(leaders_only.consumer_groups[0], 0.9) + 20);
  CHECK(ms(g, 0.5) > ms(leaders_only.consumer_groups[0], 0.5) + 2);
  // acks=1: the producers are done before the followers' fetches have told them the last high
  // watermark; those fetches still wait out replica.fetch.wait.max.ms and answer with it, so
  // the members read every record (they stalled, 8 records short, before).
  std::string acks1 = yaml;
  acks1.replace(acks1.find("acks: all"), 9, "acks: 1");
  const auto r1 = model::run_scenario(scenarios::load_scenario_text(acks1, "inline"), 5, 0, {});
  REQUIRE(r1.consumer_groups.size() == 1);
  CHECK_FALSE(r1.consumer_groups[0].stalled);
  CHECK(r1.consumer_groups[0].records_unconsumed == 0);
  CHECK(r1.consumer_groups[0].records_consumed == r1.records_acked);
  // Fixed replication has no followers to read from: refused at load.
  std::string fixed = zones_yaml("abc", "fixed");
  fixed.replace(fixed.find("  brokers:"), 0, "  replica.selector.class: rack-aware\n");
  CHECK_THROWS_WITH(scenarios::load_scenario_text(fixed, "inline"),
                    doctest::Contains("replica.selector.class: rack-aware needs cluster.replication: followers"));
}

TEST_CASE("the rates are over run.duration.ms, or up to the last message when producers stop by a record count") {
  const auto timed =
      model::run_scenario(scenarios::load_scenario_text(zones_yaml("abc", "followers"), "inline"), 5, 0, {});
  CHECK(timed.traffic.seconds == doctest::Approx(3.0));
  std::string yaml = zones_yaml("abc", "followers");
  yaml.replace(yaml.find("      topic: orders"), 0, "      records: 500\n");
  const auto counted = model::run_scenario(scenarios::load_scenario_text(yaml, "inline"), 5, 0, {});
  REQUIRE(counted.records_acked == 500);
  CHECK(counted.traffic.seconds < 0.5);  // 500 records at 2,000/s: about a quarter of a second
  CHECK(counted.traffic.seconds > 0.2);
}

TEST_CASE("the loader warns of a client rack no broker is in, and of a producer placed apart from its client.rack") {
  std::vector<std::string> w;
  std::string yaml = zones_yaml("abc", "followers");
  yaml.replace(yaml.find("rack: a\n"), 8, "rack: d\n");
  yaml.replace(yaml.find("rack: [a, b, c]"), 15, "rack: [a, b, e]");
  scenarios::load_scenario_text(yaml, "inline", {}, &w);
  REQUIRE(w.size() == 2);
  CHECK(w[0].find("producers.0.rack: rack 'd' is no broker's (the brokers' racks: a, b, c)") != std::string::npos);
  CHECK(w[1].find("consumers.0.rack: rack 'e' is no broker's") != std::string::npos);
  w.clear();
  yaml = zones_yaml("abc", "followers");
  yaml.replace(yaml.find("config: {acks: all"), 18, "config: {client.rack: b, acks: all");
  yaml = "client: kafka-4.4\n" + yaml;
  scenarios::load_scenario_text(yaml, "inline", {}, &w);
  CHECK(std::any_of(w.begin(), w.end(), [](const std::string& m) {
    return m.find("'a' is not its config's client.rack 'b'") != std::string::npos;
  }));
}
