// BrokerService: one FIFO queue and one server per broker, a request's cost from its
// request, batch and byte terms plus a jitter, and fail/recover with epochs. A manual clock
// throughout; the jitter laws are checked over many draws against Boost.Math's closed
// forms (median and 0.9-quantile within 5 standard errors, tests/model/sample_quantiles.hpp)
// and their first draws pinned.

#include "model/cluster/broker_service.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <boost/math/distributions/exponential.hpp>
#include <boost/math/distributions/lognormal.hpp>
#include <boost/math/distributions/uniform.hpp>

#include "model/sample_quantiles.hpp"
#include "sim/random_streams.hpp"

using namespace partsim::model;
using namespace partsim::model::test;
using partsim::sim::RandomStreams;
using partsim::sim::SimTime;

namespace {

// The service keeps a reference to `c`: c must outlive it.
BrokerService make(const BrokerConfig& c, std::uint64_t seed = 1) {
  return BrokerService(c, RandomStreams(seed).stream("broker/0/jitter"));
}

bool all_live(std::uint64_t) { return true; }

// n draws of jitter `j` (ms), sorted.
std::vector<double> jitter_ms(const Jitter& j, std::size_t n) {
  BrokerConfig c;
  c.jitter = j;
  BrokerService b = make(c);
  std::vector<double> v;
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) v.push_back(b.draw_jitter().to_ms());
  std::sort(v.begin(), v.end());
  return v;
}

constexpr std::size_t kDraws = 200000;

}  // namespace

TEST_CASE("service time is request.ms + batch.ms x batches + bytes / byte.rate") {
  BrokerConfig c;
  c.request_time = SimTime::us(100);
  c.batch_time = SimTime::us(500);
  c.bytes_per_second = 1e6;  // 1 MB/s: 1 ms per 1000 bytes
  BrokerService b = make(c);
  // 0.1 + 3 x 0.5 + 5000 / 1e6 s = 0.1 + 1.5 + 5 = 6.6 ms.
  CHECK(b.service_time(5000, 3) == SimTime::us(6600));
  CHECK(b.service_time(0, 1) == SimTime::us(600));
  b.set_bytes_per_second(0);  // unlimited: no byte term
  CHECK(b.service_time(5000, 3) == SimTime::us(1600));
  b.set_request_time(SimTime::ms(2));
  CHECK(b.service_time(5000, 3) == SimTime::us(3500));
}

TEST_CASE("an idle broker starts a request at once; requests arriving while busy wait in FIFO order") {
  BrokerConfig c;
  c.request_time = SimTime::ms(1);
  BrokerService b = make(c);
  const auto first = b.arrive(1, 100, 1, SimTime::ms(10));
  REQUIRE(first);
  CHECK(first->request == 1);
  CHECK(first->done_at == SimTime::ms(11));
  CHECK(first->waited == SimTime::zero());
  CHECK(b.busy());
  CHECK_FALSE(b.arrive(2, 100, 1, SimTime::us(10200)));
  CHECK_FALSE(b.arrive(3, 100, 1, SimTime::us(10700)));
  CHECK(b.queued() == 2);

  const auto second = b.finish(SimTime::ms(11), all_live);
  REQUIRE(second);
  CHECK(second->request == 2);
  CHECK(second->waited == SimTime::us(800));  // arrived at 10.2 ms, started at 11
  CHECK(second->done_at == SimTime::ms(12));
  const auto third = b.finish(SimTime::ms(12), all_live);
  REQUIRE(third);
  CHECK(third->request == 3);
  CHECK(third->waited == SimTime::us(1300));
  CHECK_FALSE(b.finish(SimTime::ms(13), all_live));
  CHECK_FALSE(b.busy());
  CHECK(b.queued() == 0);
}

TEST_CASE("finish() skips queued requests that are no longer live") {
  const BrokerConfig c;  // outlives b, which keeps a reference to it
  BrokerService b = make(c);
  b.arrive(1, 10, 1, SimTime::zero());
  b.arrive(2, 10, 1, SimTime::zero());
  b.arrive(3, 10, 1, SimTime::zero());
  const auto next = b.finish(SimTime::ms(1), [](std::uint64_t id) { return id != 2; });
  REQUIRE(next);
  CHECK(next->request == 3);
  CHECK(b.queued() == 0);
}

TEST_CASE("fail() drops the queue and the request in service and bumps the epoch; recover() starts afresh") {
  const BrokerConfig c;  // outlives b, which keeps a reference to it
  BrokerService b = make(c);
  CHECK(b.up());
  CHECK(b.epoch() == 0);
  b.arrive(1, 10, 1, SimTime::zero());
  b.arrive(2, 10, 1, SimTime::zero());
  b.fail();
  CHECK_FALSE(b.up());
  CHECK(b.epoch() == 1);  // the completion of request 1 (epoch 0) is stale now
  CHECK(b.queued() == 0);
  CHECK_FALSE(b.busy());
  b.recover();
  CHECK(b.up());
  CHECK(b.epoch() == 2);
  const auto s = b.arrive(3, 10, 1, SimTime::ms(5));
  REQUIRE(s);  // idle again: starts at once
  CHECK(s->request == 3);
  CHECK(s->waited == SimTime::zero());
}

TEST_CASE("one_way() is half the round trip, rounded half up to the nanosecond") {
  BrokerConfig c;
  c.rtt = SimTime::ms(1);
  c.replication = SimTime::ms(3);
  BrokerService b = make(c);
  CHECK(b.one_way() == SimTime::us(500));
  b.set_rtt(SimTime::ns(3));
  CHECK(b.one_way() == SimTime::ns(2));
  b.set_rtt(SimTime::ns(2));
  CHECK(b.one_way() == SimTime::ns(1));
  b.set_rtt(SimTime::ns(1));
  CHECK(b.one_way() == SimTime::ns(1));
  CHECK(b.rtt() == SimTime::ns(1));
  CHECK(b.replication() == SimTime::ms(3));
}

TEST_CASE("without jitter a request takes exactly its service time; with jitter, at least that") {
  BrokerConfig c;
  c.request_time = SimTime::ms(2);
  BrokerService none = make(c);
  CHECK(none.draw_jitter() == SimTime::zero());
  CHECK(none.arrive(1, 0, 1, SimTime::zero())->done_at == SimTime::ms(2));
  c.jitter.kind = Jitter::Kind::kExponential;
  c.jitter.mean_ms = 1;
  BrokerService with = make(c);
  BrokerService draws = make(c);  // the same stream: its first draw is the request's jitter
  CHECK(with.arrive(1, 0, 1, SimTime::zero())->done_at == SimTime::ms(2) + draws.draw_jitter());
}

TEST_CASE("exponential jitter: median mean x ln2, 0.9-quantile mean x ln10") {
  Jitter j;
  j.kind = Jitter::Kind::kExponential;
  j.mean_ms = 2;
  const boost::math::exponential_distribution<> law(1.0 / 2.0);
  CHECK(quantile(law, 0.5) == doctest::Approx(2 * std::log(2.0)));
  check_median_and_q90(jitter_ms(j, kDraws), law);
}

TEST_CASE("uniform jitter: in [0, max], median max / 2, 0.9-quantile 0.9 max") {
  Jitter j;
  j.kind = Jitter::Kind::kUniform;
  j.max_ms = 4;
  const auto s = jitter_ms(j, kDraws);
  CHECK(s.front() >= 0);
  CHECK(s.back() <= 4);
  check_median_and_q90(s, boost::math::uniform_distribution<>(0, 4));
}

TEST_CASE("lognormal jitter: median = mean.ms (the median), 0.9-quantile median x e^(z0.9 sigma)") {
  Jitter j;
  j.kind = Jitter::Kind::kLognormal;
  j.mean_ms = 3;
  j.sigma = 0.8;
  check_median_and_q90(jitter_ms(j, kDraws), boost::math::lognormal_distribution<>(std::log(3.0), 0.8));
}

TEST_CASE("the first jitter draws of seed 1 are pinned") {
  // Stream "broker/0/jitter" of seed 1. A change here changes every run with jitter.
  std::string got;
  for (const auto kind : {Jitter::Kind::kExponential, Jitter::Kind::kUniform, Jitter::Kind::kLognormal}) {
    BrokerConfig c;
    c.jitter.kind = kind;
    c.jitter.mean_ms = 2;
    c.jitter.max_ms = 4;
    BrokerService b = make(c);
    for (int i = 0; i < 3; ++i) got += std::to_string(b.draw_jitter().count_ns()) + " ";
  }
  // Nanoseconds: exponential (mean 2 ms), uniform [0, 4 ms], lognormal (median 2 ms, sigma 0.5).
  CHECK(got == "616387 258390 8559610 854632 193727 3387068 2325588 2100501 587270 ");
}
