// WorkloadGenerator: arrivals, keys and value sizes, each from its own named stream. Every
// distribution is checked over a large sample with a fixed seed: its median and a tail
// quantile against the closed form (Boost.Math), within 5 standard errors of the
// empirical quantile for that sample size (tests/model/sample_quantiles.hpp). The exact
// rules (constant arrivals, templates, lists) are checked exactly, and the first draws of
// each stream are pinned.

#include "model/producer/workload.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <boost/math/distributions/exponential.hpp>
#include <boost/math/distributions/lognormal.hpp>

#include "model/sample_quantiles.hpp"
#include "sim/random_streams.hpp"

using namespace partsim::model;
using namespace partsim::model::test;
using partsim::sim::RandomStreams;
using partsim::sim::SimTime;

namespace {

constexpr std::size_t kSamples = 200000;
const RandomStreams kStreams(1);

Workload base() {
  Workload w;
  w.topic = "t";
  return w;
}

std::vector<double> sorted(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Values of records 0..n-1.
std::vector<double> value_sizes(const Workload& w, std::size_t n) {
  WorkloadGenerator g(w, kStreams, "p");
  std::vector<double> v;
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) v.push_back(g.next_record(static_cast<std::int64_t>(i)).shape.value_bytes);
  return v;
}

std::vector<std::string> keys(const Workload& w, std::size_t n) {
  WorkloadGenerator g(w, kStreams, "p");
  std::vector<std::string> k;
  for (std::size_t i = 0; i < n; ++i) {
    const GeneratedRecord r = g.next_record(static_cast<std::int64_t>(i));
    REQUIRE(r.has_key);
    k.emplace_back(r.key);
  }
  return k;
}

}  // namespace

// ---- arrivals --------------------------------------------------------------------------------

TEST_CASE("constant arrivals: the k-th send at k / rate, rounded to the nanosecond, without drift") {
  Workload w = base();
  w.arrivals.kind = Arrivals::Kind::kConstant;
  w.arrivals.records_per_second = 3;
  WorkloadGenerator g(w, kStreams, "p");
  CHECK(g.open_loop());
  SimTime t = SimTime::zero();
  std::vector<std::int64_t> got;
  for (int k = 0; k < 4; ++k) got.push_back((t = g.next_arrival(t)).count_ns());
  CHECK(got == std::vector<std::int64_t>{0, 333333333, 666666667, 1000000000});
  for (int k = 4; k <= 3000; ++k) t = g.next_arrival(t);
  CHECK(t == SimTime::sec(1000));  // send 3000 at exactly 1000 s, not 3000 rounding errors later
}

TEST_CASE("Poisson arrivals: gaps are exponential, median ln2 / rate and 0.9-quantile ln10 / rate") {
  Workload w = base();
  w.arrivals.kind = Arrivals::Kind::kPoisson;
  w.arrivals.records_per_second = 1000;  // mean gap 1 ms
  WorkloadGenerator g(w, kStreams, "p");
  std::vector<double> gaps_ms;
  SimTime prev = g.next_arrival(SimTime::zero());
  for (std::size_t i = 0; i < kSamples; ++i) {
    const SimTime next = g.next_arrival(prev);
    REQUIRE(next >= prev);
    gaps_ms.push_back((next - prev).to_ms());
    prev = next;
  }
  const auto s = sorted(std::move(gaps_ms));
  const boost::math::exponential_distribution<> gap(1.0);  // per ms
  check_median_and_q90(s, gap);
  CHECK(quantile(gap, 0.5) == doctest::Approx(std::log(2.0)));
}

TEST_CASE(
    "on/off arrivals: none inside an off period; Poisson at the rate while on, plus the one moved to the on start") {
  Workload w = base();
  w.arrivals.kind = Arrivals::Kind::kOnOff;
  w.arrivals.records_per_second = 1000;
  w.arrivals.on = SimTime::ms(100);
  w.arrivals.off = SimTime::ms(150);
  const std::int64_t cycle = SimTime::ms(250).count_ns(), on = SimTime::ms(100).count_ns();
  constexpr std::int64_t kCycles = 1000;
  WorkloadGenerator g(w, kStreams, "p");
  std::vector<std::int64_t> per_cycle(kCycles, 0);
  std::vector<char> starts_cycle(kCycles, 0);
  for (SimTime t = g.next_arrival(SimTime::zero()); t.count_ns() < kCycles * cycle; t = g.next_arrival(t)) {
    const std::int64_t phase = t.count_ns() % cycle;
    REQUIRE(phase < on);  // never in an off period
    const auto c = static_cast<std::size_t>(t.count_ns() / cycle);
    ++per_cycle[c];
    if (phase == 0) starts_cycle[c] = 1;
  }
  // An arrival that falls into an off period moves to the next on start: every cycle
  // after the first begins with one (a gap longer than the 150 ms off period has
  // probability e^-150).
  for (std::int64_t c = 1; c < kCycles; ++c) CHECK(starts_cycle[static_cast<std::size_t>(c)]);
  // The others are a Poisson process at the rate while on: 100 per on period (variance
  // 100), so the mean over 999 cycles lies within 5 x sqrt(100 / 999).
  double others = 0;
  for (std::int64_t c = 1; c < kCycles; ++c) others += static_cast<double>(per_cycle[static_cast<std::size_t>(c)] - 1);
  const double mean = others / (kCycles - 1);
  CHECK(std::abs(mean - 100.0) <= 5.0 * std::sqrt(100.0 / (kCycles - 1)));
}

// ---- value sizes -----------------------------------------------------------------------------

TEST_CASE("uniform value sizes: every size in [min, max], median and 0.9-quantile of the discrete uniform") {
  Workload w = base();
  w.values.kind = ValueSpec::Kind::kUniform;
  w.values.min_bytes = 100;
  w.values.max_bytes = 1000;
  const auto s = sorted(value_sizes(w, kSamples));
  CHECK(s.front() == 100);  // both ends are reached
  CHECK(s.back() == 1000);
  // The p-quantile of the uniform law on the 901 integers 100..1000: 100 + ceil(901 p) - 1;
  // density 1/901 per byte.
  const double n = 901;
  for (const double p : {0.5, 0.9}) check_quantile(s, p, 100 + std::ceil(n * p) - 1, 1.0 / n, 1.0);
}

TEST_CASE("lognormal value sizes: median = median.bytes, 0.9-quantile = median x e^(z0.9 sigma)") {
  for (const double sigma : {0.5, 1.0}) {
    CAPTURE(sigma);
    Workload w = base();
    w.values.kind = ValueSpec::Kind::kLognormal;
    w.values.median_bytes = 1000;
    w.values.sigma = sigma;
    const auto s = sorted(value_sizes(w, kSamples));
    const boost::math::lognormal_distribution<> law(std::log(1000.0), sigma);
    CHECK(quantile(law, 0.5) == doctest::Approx(1000.0));
    check_median_and_q90(s, law, 0.5);  // values are whole bytes (rounded): half a byte more
  }
}

TEST_CASE("fixed, null and template values, and the headers, reach the record's shape") {
  Workload w = base();
  w.values.size_bytes = 321;
  w.header_count = 2;
  w.header_key_bytes = 3;
  w.header_value_bytes = 4;
  WorkloadGenerator g(w, kStreams, "p");
  const GeneratedRecord r = g.next_record(0);
  CHECK_FALSE(r.has_key);
  CHECK(r.shape.key_bytes == -1);
  CHECK(r.shape.value_bytes == 321);
  CHECK(r.shape.header_count == 2);
  CHECK(r.shape.header_key_bytes == 3);
  CHECK(r.shape.header_value_bytes == 4);
  w.values.null_value = true;
  WorkloadGenerator n(w, kStreams, "p");
  CHECK(n.next_record(0).shape.value_bytes == -1);
}

TEST_CASE("template values are as long as the template with {i} replaced by the record index") {
  Workload w = base();
  w.values.kind = ValueSpec::Kind::kTemplate;
  w.values.value_template = "v-{i}-{i}.";
  WorkloadGenerator g(w, kStreams, "p");
  for (const std::int64_t i : {0LL, 9LL, 10LL, 99LL, 100LL, 12345LL, 1000000LL, 9876543210LL}) {
    CAPTURE(i);
    const std::string text = "v-" + std::to_string(i) + "-" + std::to_string(i) + ".";
    CHECK(g.next_record(i).shape.value_bytes == static_cast<std::int32_t>(text.size()));
  }
}

// ---- keys ------------------------------------------------------------------------------------

TEST_CASE("template keys: {i} is the record index, or the index mod the cardinality") {
  Workload w = base();
  w.keys.kind = KeySpec::Kind::kTemplate;
  w.keys.key_template = "user-{i}/{i}";
  CHECK(keys(w, 3) == std::vector<std::string>{"user-0/0", "user-1/1", "user-2/2"});
  w.keys.cardinality = 3;
  const auto k = keys(w, 7);
  CHECK(k ==
        std::vector<std::string>{"user-0/0", "user-1/1", "user-2/2", "user-0/0", "user-1/1", "user-2/2", "user-0/0"});
  WorkloadGenerator g(w, kStreams, "p");
  CHECK(g.next_record(5).shape.key_bytes == 8);  // "user-2/2"
}

TEST_CASE("several key templates: record i uses template i mod n") {
  Workload w = base();
  w.keys.kind = KeySpec::Kind::kTemplate;
  w.keys.templates = {"a-{i}", "b-{i}-x"};
  CHECK(keys(w, 4) == std::vector<std::string>{"a-0", "b-1-x", "a-2", "b-3-x"});
}

TEST_CASE("list keys cycle in order") {
  Workload w = base();
  w.keys.kind = KeySpec::Kind::kList;
  w.keys.list = {"x", "yy", "z"};
  CHECK(keys(w, 7) == std::vector<std::string>{"x", "yy", "z", "x", "yy", "z", "x"});
}

TEST_CASE("zipf keys: rank k has share k^-s / H(N, s); the median and 0.9-quantile ranks match") {
  Workload w = base();
  w.keys.kind = KeySpec::Kind::kZipf;
  w.keys.key_template = "k{i}";
  w.keys.cardinality = 10;
  w.keys.zipf_s = 1.3;
  std::map<std::string, std::int64_t> count;
  std::vector<double> ranks;
  for (const std::string& k : keys(w, kSamples)) {
    ++count[k];
    ranks.push_back(std::stod(k.substr(1)) + 1);  // "k0" is rank 1
  }
  CHECK(count.size() == 10);  // ranks 1..10 only
  CHECK(count.count("k10") == 0);
  double h = 0;
  for (int k = 1; k <= 10; ++k) h += std::pow(k, -1.3);
  for (const int rank : {1, 2, 10}) {
    CAPTURE(rank);
    const double share = std::pow(rank, -1.3) / h;
    const double got = static_cast<double>(count["k" + std::to_string(rank - 1)]) / kSamples;
    CHECK(std::abs(got - share) <= share_tolerance(share, kSamples));
  }
  // The closed-form p-quantile rank: the least k with CDF(k) >= p. Its CDF is far enough
  // from p on both sides (more than 5 standard errors of a share) for the empirical rank
  // to equal it.
  const auto s = sorted(std::move(ranks));
  for (const double p : {0.5, 0.9}) {
    CAPTURE(p);
    double cdf = 0;
    int q = 0;
    double below = 0;
    while (cdf < p) {
      below = cdf;
      cdf += std::pow(++q, -1.3) / h;
    }
    REQUIRE(p - below > share_tolerance(p, kSamples));
    REQUIRE(cdf - p > share_tolerance(p, kSamples));
    CHECK(empirical_quantile(s, p) == q);
  }
}

TEST_CASE("hot keys: the hot key takes its share, the others follow the template") {
  Workload w = base();
  w.keys.kind = KeySpec::Kind::kHot;
  w.keys.hot_key = "HOT";
  w.keys.hot_share = 0.3;
  w.keys.key_template = "cold-{i}";
  const auto k = keys(w, kSamples);
  std::size_t hot = 0;
  for (std::size_t i = 0; i < k.size(); ++i) {
    if (k[i] == "HOT") {
      ++hot;
    } else {
      REQUIRE(k[i] == "cold-" + std::to_string(i));
    }
  }
  CHECK(std::abs(static_cast<double>(hot) / kSamples - 0.3) <= share_tolerance(0.3, kSamples));
}

// ---- streams ---------------------------------------------------------------------------------

TEST_CASE("keys, values and arrivals draw from separate streams: changing one leaves the others alone") {
  Workload a = base();
  a.values.kind = ValueSpec::Kind::kLognormal;
  a.arrivals.kind = Arrivals::Kind::kPoisson;
  Workload b = a;
  b.keys.kind = KeySpec::Kind::kZipf;
  b.keys.cardinality = 10;
  WorkloadGenerator ga(a, kStreams, "p"), gb(b, kStreams, "p");
  SimTime ta, tb;
  for (std::int64_t i = 0; i < 100; ++i) {
    CHECK(ga.next_record(i).shape.value_bytes == gb.next_record(i).shape.value_bytes);
    ta = ga.next_arrival(ta);
    tb = gb.next_arrival(tb);
    CHECK(ta == tb);
  }
  // Another producer name is another set of streams.
  WorkloadGenerator gc(a, kStreams, "q");
  bool differs = false;
  WorkloadGenerator gd(a, kStreams, "p");
  for (std::int64_t i = 0; i < 10; ++i)
    differs = differs || gc.next_record(i).shape.value_bytes != gd.next_record(i).shape.value_bytes;
  CHECK(differs);
}

TEST_CASE("the first draws of each workload stream of seed 1 are pinned") {
  // A change here changes every run of these workloads: make it on purpose.
  Workload w = base();
  w.arrivals.kind = Arrivals::Kind::kPoisson;
  w.values.kind = ValueSpec::Kind::kLognormal;
  w.keys.kind = KeySpec::Kind::kZipf;
  w.keys.cardinality = 1000;
  WorkloadGenerator g(w, kStreams, "p");
  std::vector<std::int64_t> arrivals_ns;
  SimTime t;
  for (int i = 0; i < 3; ++i) arrivals_ns.push_back((t = g.next_arrival(t)).count_ns());
  std::vector<std::string> key_list;
  std::vector<std::int32_t> values;
  for (std::int64_t i = 0; i < 3; ++i) {
    const GeneratedRecord r = g.next_record(i);
    key_list.emplace_back(r.key);
    values.push_back(r.shape.value_bytes);
  }
  std::string got;
  for (const auto a : arrivals_ns) got += std::to_string(a) + " ";
  for (const auto& k : key_list) got += k + " ";
  for (const auto v : values) got += std::to_string(v) + " ";
  // Poisson at 1000/s (gaps 0.146, 1.556, 6.117 ms), zipf(1000, 1) ranks 613, 1, 785,
  // lognormal(median 100, sigma 0.5) sizes.
  CHECK(got == "145845 1701893 7818721 key-612 key-0 key-784 111 79 90 ");
}

TEST_CASE("a peek makes the record next_record then returns, with the same draws as without peeks") {
  // Drawn keys (zipf, hot) and drawn sizes (uniform, lognormal): a peek must take the
  // streams' next draws, not extra ones, and the record must not change when it is taken.
  std::vector<Workload> kinds;
  Workload zipf = base();
  zipf.keys.kind = KeySpec::Kind::kZipf;
  zipf.keys.cardinality = 1000;
  zipf.values.kind = ValueSpec::Kind::kUniform;
  zipf.values.min_bytes = 1;
  zipf.values.max_bytes = 5000;
  kinds.push_back(zipf);
  Workload hot = base();
  hot.keys.kind = KeySpec::Kind::kHot;
  hot.keys.hot_key = "hot";
  hot.keys.hot_share = 0.3;
  hot.values.kind = ValueSpec::Kind::kLognormal;
  kinds.push_back(hot);
  Workload templ = base();
  templ.keys.kind = KeySpec::Kind::kTemplate;
  templ.keys.key_template = "k{i}";
  templ.keys.cardinality = 100;
  kinds.push_back(templ);
  for (const Workload& w : kinds) {
    WorkloadGenerator plain(w, kStreams, "p"), peeked(w, kStreams, "p");
    for (std::int64_t i = 0; i < 5000; ++i) {
      const bool peek = i % 3 != 0;  // peek most records, some twice, some not at all
      std::string seen;
      if (peek) {
        seen = std::string(peeked.peek(i).key);
        if (i % 5 == 0) CHECK(std::string(peeked.peek(i).key) == seen);
      }
      const GeneratedRecord a = plain.next_record(i);
      const GeneratedRecord b = peeked.next_record(i);
      REQUIRE(a.has_key == b.has_key);
      REQUIRE(std::string(a.key) == std::string(b.key));
      REQUIRE(a.shape.value_bytes == b.shape.value_bytes);
      REQUIRE(a.shape.key_bytes == b.shape.key_bytes);
      if (peek) REQUIRE(std::string(b.key) == seen);
    }
  }
}
