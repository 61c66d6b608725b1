// The traffic meter (model/cluster/traffic.hpp): each message's framing as Kafka's schemas
// size it, its place in the rack x rack matrix, endpoints without a rack never crossing, and
// consumer members placed by their group's rack list.

#include "model/cluster/traffic.hpp"

#include <doctest/doctest.h>

#include <numeric>

using namespace partsim::model;

namespace {

BrokerConfig broker(std::int32_t id, std::string rack) {
  BrokerConfig b;
  b.id = id;
  b.rack = std::move(rack);
  return b;
}

Scenario three_racks() {
  Scenario s;
  s.brokers = {broker(0, "a"), broker(1, "b"), broker(2, "c")};
  ConsumerGroupSpec g;
  g.racks = {"b", "c"};
  s.consumers.push_back(g);
  return s;
}

const TrafficKind& kind(const TrafficResult& r, Traffic k) { return r.kinds[static_cast<std::size_t>(k)]; }

}  // namespace

TEST_CASE("framing: the size prefix, header and fields of each message, as the schemas give them") {
  CHECK(wire::varint_bytes(0) == 1);
  CHECK(wire::varint_bytes(126) == 1);  // length + 1 = 127: one byte
  CHECK(wire::varint_bytes(127) == 2);
  CHECK(wire::varint_bytes(16383) == 3);
  CHECK(wire::kProduceRequest == 34);
  CHECK(wire::produce_topic(6) == 9);          // "orders"
  CHECK(wire::produce_partition(16384) == 8);  // index 4, a 3-byte length, tags 1
  CHECK(wire::kProduceResponse + wire::kProduceResponsePartition == 48);
  CHECK(wire::fetch_partition(1000) == 39);  // a 2-byte length
}

TEST_CASE("every message lands in its (from rack, to rack) cell; an endpoint without a rack never crosses") {
  const Scenario s = three_racks();
  const SimTime clock = SimTime::ms(2000);      // every message at 2 s: the rates are over 2 s
  TrafficMeter meter(s, {"a", ""}, -1, clock);  // producer 0 in rack a, producer 1 nowhere
  meter.produce_request(0, 1, 1000, 2, "t");    // a -> b
  meter.produce_request(1, 1, 1000, 2, "t");    // - -> b
  meter.produce_response(0, 0, 2, "t");         // a -> a
  meter.replication_fetch(0, 2, 500, 1, 1);     // a -> c
  meter.consumer_fetch(0, 3, 0, 700, 1, 1);     // member 3: racks[3 mod 2] = c; a -> c
  const TrafficResult r = meter.finish(false);
  CHECK(r.seconds == 2.0);
  REQUIRE(r.racks == std::vector<std::string>{"a", "b", "c", ""});
  CHECK(r.racked);
  const auto cell = [&](Traffic k, std::size_t from, std::size_t to) { return kind(r, k).matrix[from * 4 + to]; };
  const std::int64_t request = 1000 + 34 + 4 + 2 * wire::produce_partition(500);
  CHECK(cell(Traffic::kProduceRequest, 0, 1) == request);
  CHECK(cell(Traffic::kProduceRequest, 3, 1) == request);
  CHECK(kind(r, Traffic::kProduceRequest).bytes == 2 * request);
  CHECK(kind(r, Traffic::kProduceRequest).framing_bytes == 2 * (request - 1000));
  CHECK(kind(r, Traffic::kProduceRequest).cross_rack_bytes == request);  // not the rackless producer's
  CHECK(cell(Traffic::kProduceResponse, 0, 0) == 15 + 4 + 2 * 33);
  CHECK(kind(r, Traffic::kProduceResponse).cross_rack_bytes == 0);
  CHECK(cell(Traffic::kReplicationFetch, 0, 2) == 500 + 21 + 18 + wire::fetch_partition(500));
  CHECK(cell(Traffic::kConsumerFetch, 0, 2) == 700 + 21 + 18 + wire::fetch_partition(700));
  for (const auto& k : r.kinds) CHECK(std::accumulate(k.matrix.begin(), k.matrix.end(), std::int64_t{0}) == k.bytes);
  CHECK(r.cross_rack_bytes() ==
        request + kind(r, Traffic::kReplicationFetch).bytes + kind(r, Traffic::kConsumerFetch).bytes);
  CHECK(r.cross_rack_bytes_per_s() == doctest::Approx(static_cast<double>(r.cross_rack_bytes()) / 2.0));
}

TEST_CASE("the bridge's requests and responses are the migration's copy; a price turns bytes into money") {
  Scenario s = three_racks();
  s.cost_cross_rack_per_gb = 0.02;
  SimTime clock = SimTime::zero();
  TrafficMeter meter(s, {"a", "b"}, 1, clock);
  clock = SimTime::sec(1800);
  meter.migration_read(2, 500'000'000);  // the bridge reads half a GB in rack c: c -> b
  clock = SimTime::sec(3600);
  meter.produce_request(1, 0, 500'000'000, 1, "t");  // and writes it to a leader in rack a: b -> a, and framing
  meter.produce_response(1, 0, 1, "t");
  const TrafficResult r = meter.finish(false);
  CHECK(r.seconds == 3600);  // up to the last message
  CHECK(kind(r, Traffic::kProduceRequest).messages == 0);
  CHECK(kind(r, Traffic::kMigrationCopy).messages == 3);
  CHECK(kind(r, Traffic::kMigrationCopy).matrix[2 * 3 + 1] == 500'000'000);
  const double gb = static_cast<double>(r.cross_rack_bytes()) / 1e9;
  CHECK(gb == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(r.cost_per_hour() == doctest::Approx(0.02 * gb));  // a GB in the hour at 0.02 per GB
  CHECK(r.cost_per_month() == doctest::Approx(0.02 * gb * 720));
}

TEST_CASE("one rack: nothing crosses") {
  Scenario s;
  s.brokers = {broker(0, "z"), broker(1, "z")};
  const SimTime clock = SimTime::sec(1);
  TrafficMeter meter(s, {"z"}, -1, clock);
  meter.produce_request(0, 1, 100, 1, "t");
  meter.replication_fetch(1, 0, 100, 1, 1);
  const TrafficResult r = meter.finish(false);
  CHECK(r.racks == std::vector<std::string>{"z"});
  CHECK(r.cross_rack_bytes() == 0);
  CHECK(r.bytes() > 200);
}
