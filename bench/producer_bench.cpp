// End-to-end throughput: simulated records per wall-clock second for the reference
// workload: 3 brokers, 12 partitions, one producer, Poisson 1 million records/s, 100-byte
// values, linger.ms 5, 10 simulated seconds; with null keys and with 1 million distinct keys.
// Run with --benchmark_filter=Producer; the records/s counter is the figure.

#include <algorithm>

#include <benchmark/benchmark.h>

#include "model/cluster_simulation.hpp"

namespace {

using namespace partsim::model;

Scenario reference_scenario(bool keyed, double seconds) {
  Scenario s;
  s.name = "bench";
  for (int i = 0; i < 3; ++i) {
    BrokerConfig b;
    b.id = i;
    s.brokers.push_back(b);
  }
  s.topics.push_back(TopicConfig{"t", 12, 1, {}});
  ProducerSpec p;
  p.name = "p0";
  p.config.linger = SimTime::ms(5);
  p.workload.topic = "t";
  p.workload.arrivals.kind = Arrivals::Kind::kPoisson;
  p.workload.arrivals.records_per_second = 1e6;
  p.workload.values.size_bytes = 100;
  if (keyed) {
    p.workload.keys.kind = KeySpec::Kind::kTemplate;
    p.workload.keys.key_template = "key-{i}";
    p.workload.keys.cardinality = 1'000'000;
  }
  s.producers.push_back(p);
  s.run.duration = SimTime::from_ms(seconds * 1000);
  s.run.trace = 0;
  return s;
}

void BM_ProducerEndToEnd(benchmark::State& state) {
  const bool keyed = state.range(0) != 0;
  const auto s = reference_scenario(keyed, static_cast<double>(state.range(1)));
  std::int64_t records = 0;
  for (auto _ : state) {
    const auto r = run_scenario(s, 1);
    records += r.records_acked;
    benchmark::DoNotOptimize(r.records_acked);
  }
  state.counters["records/s"] = benchmark::Counter(static_cast<double>(records), benchmark::Counter::kIsRate);
  state.SetLabel(keyed ? "1M distinct keys" : "null keys");
}
BENCHMARK(BM_ProducerEndToEnd)->Args({0, 10})->Args({1, 10})->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

namespace {

// The fleet of the house issue: 200 producers, each Poisson 5,000 records/s with keys
// k{i} over 100,000 keys and 200-byte values, linger.ms 5, one topic of 1,000 partitions
// on 10 default brokers, 2 s of simulated time. Every sender pass of the old engine scanned
// all 1,000 partitions; this measures what a pass costs when it only touches what it sends.
Scenario fleet_scenario() {
  Scenario s;
  s.name = "fleet";
  for (int i = 0; i < 10; ++i) {
    BrokerConfig b;
    b.id = i;
    s.brokers.push_back(b);
  }
  s.topics.push_back(TopicConfig{"t", 1000, 1, {}});
  for (int i = 0; i < 200; ++i) {
    ProducerSpec p;
    p.name = "p" + std::to_string(i);
    p.config.linger = SimTime::ms(5);
    p.workload.topic = "t";
    p.workload.arrivals.kind = Arrivals::Kind::kPoisson;
    p.workload.arrivals.records_per_second = 5000;
    p.workload.values.size_bytes = 200;
    p.workload.keys.kind = KeySpec::Kind::kTemplate;
    p.workload.keys.key_template = "k{i}";
    p.workload.keys.cardinality = 100'000;
    s.producers.push_back(p);
  }
  s.run.duration = SimTime::sec(2);
  s.run.trace = 0;
  return s;
}

void BM_ProducerFleet(benchmark::State& state) {
  const auto s = fleet_scenario();
  std::int64_t records = 0, events = 0;
  for (auto _ : state) {
    const auto r = run_scenario(s, 1);
    records += r.records_acked;
    events += r.events;
    benchmark::DoNotOptimize(r.records_acked);
  }
  state.counters["records/s"] = benchmark::Counter(static_cast<double>(records), benchmark::Counter::kIsRate);
  state.counters["events/record"] =
      static_cast<double>(events) / static_cast<double>(std::max<std::int64_t>(records, 1));
  state.SetLabel("200 producers, 1000 partitions, keyed");
}
BENCHMARK(BM_ProducerFleet)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
