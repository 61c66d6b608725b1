// The consumer model's cost: records consumed per wall-clock second by one group over
// brokers' logs built here (12 partitions on 3 brokers, 1 million records over 10 simulated
// seconds, 10,000 keys, 100-byte records), so the producer run is not in the figure. Args:
// members, processing.us, and whether a member joins halfway (an eager rebalance).
// Run with --benchmark_filter=Consumer; the records/s counter is the figure.
//
// BM_ConsumerInLoop: a whole run (producers, brokers, and the group in the same event loop,
// its fetches served by the brokers; arg 1) against the same run without the group (arg 0)
// and without it but keeping the logs a group reads (arg 2): the ratios are what reading
// the records in the loop costs. 3 brokers, 12 partitions, 20,000
// records/s for 10 simulated seconds, a group of 3 members.

#include <benchmark/benchmark.h>

#include <string>

#include "model/cluster/partition_log.hpp"
#include "model/cluster_simulation.hpp"
#include "model/consumer/consumer_simulation.hpp"
#include "scenarios/loader/scenario_loader.hpp"

namespace {

using namespace partsim::model;

const BrokerLogs& bench_logs() {
  static const BrokerLogs logs = [] {
    BrokerLogs l;
    constexpr int kPartitions = 12;
    constexpr std::int64_t kRecords = 1'000'000;
    l.partitions.resize(kPartitions);
    for (int k = 0; k < 10'000; ++k) l.intern("key-" + std::to_string(k));
    for (std::int64_t i = 0; i < kRecords; ++i) {
      const auto key = static_cast<std::int32_t>(i % 10'000);
      LogRecord r{key, 0, i, SimTime::ns(i * 10'000),
                  SimTime::ns(i * 10'000 + 2'000'000)};  // 100,000 records/s, 2 ms to readable
      l.partitions[static_cast<std::size_t>(key % kPartitions)].records.push_back(r);
    }
    return l;
  }();
  return logs;
}

void BM_ConsumerGroup(benchmark::State& state) {
  consumer::ConsumeInputs in;
  in.logs = &bench_logs();
  in.topics = {{"t", 12, {}, {}}};
  in.topic_first_log = {0};
  for (int p = 0; p < 12; ++p) in.leader.push_back(p % 3);
  in.record_bytes.assign(12, 100);
  in.broker_rtt.assign(3, SimTime::ms(1));
  ConsumerGroupSpec g;
  g.group = "bench";
  g.topics = {"t"};
  g.members = static_cast<std::int32_t>(state.range(0));
  g.processing = SimTime::us(state.range(1));
  g.config.auto_offset_reset = ConsumerConfig::OffsetReset::kEarliest;
  if (state.range(2) != 0) g.schedule.push_back({SimTime::ms(5000), MemberChange::Kind::kJoin, 1, ""});
  std::int64_t records = 0;
  for (auto _ : state) {
    const auto run = consumer::simulate_group(g, {}, in);
    records += run.result.records_consumed;
    benchmark::DoNotOptimize(run.result.order_violations);
  }
  state.counters["records/s"] = benchmark::Counter(static_cast<double>(records), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ConsumerGroup)
    ->Args({3, 0, 0})
    ->Args({3, 5, 0})
    ->Args({12, 5, 0})
    ->Args({3, 5, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

void BM_ConsumerInLoop(benchmark::State& state) {
  std::string yaml = "name: bench\nrun: {seed: 1, duration.ms: 10000}\n"
                     "cluster:\n  brokers: [{id: 0}, {id: 1}, {id: 2}]\n"
                     "topics:\n  - {name: t, partitions: 12}\n"
                     "producers:\n  - name: p\n    config: {linger.ms: 5}\n"
                     "    workload: {topic: t, arrivals: {kind: poisson, rate: 20000},"
                     " keys: {kind: template, template: \"k{i}\", cardinality: 10000}}\n";
  if (state.range(0) == 1)
    yaml += "consumers:\n  - {group: g, topics: [t], members: 3, config: {auto.offset.reset: earliest}}\n";
  const Scenario s = partsim::scenarios::load_scenario_text(yaml, "bench.yaml");
  std::int64_t records = 0;
  for (auto _ : state) {
    RunOptions options;
    options.keep_logs = state.range(0) == 2;
    const RunResult r = run_scenario(s, 1, 0, options);
    records += r.records_acked;
    benchmark::DoNotOptimize(r.consumer_groups.size());
  }
  state.counters["records/s"] = benchmark::Counter(static_cast<double>(records), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ConsumerInLoop)->Arg(0)->Arg(2)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
