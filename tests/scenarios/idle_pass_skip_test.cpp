// The producers leave out idle sender passes (KafkaProducer::wake_for_new_batch): a new
// batch that is not full wakes the sender in Kafka, and partsim skips the pass when it can
// tell that it would do nothing but set the next wake-up. The skip must not change a run:
// with RunOptions::skip_idle_passes off every pass runs, and each one the skip would have
// left out checks that it sent nothing and set the wake-up the skip sets (an internal error
// stops the run otherwise). Both ways must give the same results, batch by batch (created,
// sent and done times) and record by record in the logs; only the event count differs.

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>

#include "analysis/run_report.hpp"
#include "model/cluster_simulation.hpp"
#include "run_helpers.hpp"
#include "scenarios/loader/scenario_loader.hpp"

namespace {

using namespace partsim;

// Everything a run reports but its event count, and every batch and logged record.
std::string fingerprint(model::RunResult r) {
  r.events = 0;
  std::ostringstream out;
  out.precision(17);
  out << analysis::dump_json(analysis::run_to_json(r));
  for (const auto& b : r.batches)
    out << b.topic << ' ' << b.partition << ' ' << b.broker << ' ' << b.records << ' ' << b.bytes << ' ' << b.created_ms
        << ' ' << b.sent_ms << ' ' << b.done_ms << ' ' << b.acked << '\n';
  if (r.logs)
    for (const auto& log : r.logs->partitions)
      for (const auto& rec : log.records)
        out << rec.key << ' ' << rec.producer << ' ' << rec.send_index << ' ' << rec.readable.count_ns() << '\n';
  return out.str();
}

struct Both {
  std::string checked, skipped;
  std::uint64_t events_checked = 0, events_skipped = 0;
};

Both run_both(const model::Scenario& s, bool keep_logs, bool timeseries = false) {
  model::RunOptions every;
  every.batches = true;
  every.keep_logs = keep_logs;
  if (timeseries) every.timeseries = sim::SimTime::ms(7);  // samples the deques between events
  every.skip_idle_passes = false;
  model::RunOptions skip = every;
  skip.skip_idle_passes = true;
  const auto a = model::run_scenario(s, s.run.seed, 0, every);
  const auto b = model::run_scenario(s, s.run.seed, 0, skip);
  return Both{fingerprint(a), fingerprint(b), a.events, b.events};
}

// A random scenario over what bears on the sender's passes: linger, sizes, arrivals on a
// millisecond grid or Poisson (times that tie, and times that do not), closed loop and
// bursts, application threads, keys or none, the partitioners, acks and idempotence,
// in-flight limits, compression, errors and retries, request and delivery timeouts, slow
// and failing brokers, brokers with threads on shared hosts, followers, a topic that
// grows, a small buffer.memory, the sender's CPU time.
std::string random_scenario(std::mt19937_64& rng, int i) {
  auto pick = [&](std::initializer_list<const char*> xs) { return std::string(*(xs.begin() + rng() % xs.size())); };
  auto num = [&](int lo, int hi) {
    return std::to_string(lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1)));
  };
  const bool followers = rng() % 6 == 0;
  const bool hosts = rng() % 6 == 0;
  const int brokers = (followers ? 2 : 1) + static_cast<int>(rng() % 3);
  std::ostringstream y;
  y << "name: random-" << i << "\nrun: {seed: " << i + 1 << ", duration.ms: " << num(200, 1500) << "}\ncluster:\n";
  if (followers) y << "  replication: followers\n  replica.fetch.wait.max.ms: " << pick({"5", "100"}) << "\n";
  if (hosts) y << "  hosts: [{name: h, cores: " << pick({"1", "2"}) << "}]\n";
  y << "  brokers:\n";
  for (int b = 0; b < brokers; ++b) {
    y << "    - {id: " << b << ", rtt.ms: " << pick({"0", "1", "2", "5", "20"})
      << ", request.ms: " << pick({"0.1", "1", "3"});
    if (!followers && rng() % 4 == 0) y << ", error.rate: " << pick({"0.02", "0.1"});
    if (rng() % 4 == 0) y << ", jitter: {kind: exponential, mean.ms: 1}";
    if (rng() % 5 == 0) y << ", num.io.threads: " << pick({"1", "2"}) << ", num.network.threads: " << pick({"1", "3"});
    if (hosts && rng() % 2 == 0) y << ", host: h";
    if (rng() % 3 == 0)
      y << ", schedule: [{at.ms: " << num(50, 300) << ", "
        << pick({"set.request.ms: 20", "set.rtt.ms: 60", "fail: true"}) << "}, {at.ms: " << num(400, 700) << ", "
        << pick({"set.request.ms: 0.1", "recover: true"}) << "}]";
    y << "}\n";
  }
  y << "topics: [{name: t, partitions: " << pick({"1", "3", "12", "50", "200"});
  if (followers) y << ", replication.factor: 2";
  else if (rng() % 5 == 0) y << ", schedule: [{at.ms: " << num(100, 600) << ", set.partitions: 300}]";
  y << "}]\nproducers:\n";
  const int producers = 1 + static_cast<int>(rng() % 4);
  for (int p = 0; p < producers; ++p) {
    const std::string acks = pick({"0", "1", "all"});
    const std::string partitioner = pick({"builtin", "builtin", "round-robin", "sticky-kip480"});
    y << "  - name: p" << p << "\n    config: {linger.ms: " << pick({"0", "1", "5", "20"})
      << ", batch.size: " << pick({"200", "1000", "16384"}) << ", acks: " << acks
      << ", enable.idempotence: " << (acks == "all" ? pick({"true", "false"}) : "false")
      << ", max.in.flight.requests.per.connection: " << pick({"1", "2", "5"}) << ", partitioner: " << partitioner
      << ", partitioner.adaptive.partitioning.enable: " << pick({"true", "false"});
    if (rng() % 3 == 0)
      y << ", request.timeout.ms: " << pick({"5", "30"}) << ", delivery.timeout.ms: " << pick({"60", "200"});
    if (rng() % 4 == 0) y << ", retry.backoff.ms: " << pick({"1", "10"});
    if (rng() % 5 == 0)
      y << ", buffer.memory: " << pick({"20000", "100000"}) << ", max.block.ms: " << pick({"0", "10"});
    if (rng() % 5 == 0) y << ", compression.type: lz4";
    if (rng() % 5 == 0) y << ", metadata.max.age.ms: " << pick({"50", "200"});
    y << "}\n";
    if (rng() % 4 == 0) y << "    cpu: {sender.request.us: " << pick({"10", "200"}) << ", sender.batch.us: 5}\n";
    if (hosts && rng() % 2 == 0) y << "    host: h\n";
    const std::string arrivals = pick({"constant", "poisson", "poisson", "on-off", "closed-loop"});
    y << "    workload:\n      arrivals: {kind: " << arrivals;
    if (arrivals == "closed-loop")
      y << ", concurrency: " << pick({"1", "20"})
        << ", send.cost.us: " << pick({"1", "5"});  // the loader refuses 0 with acks 0 or max.block.ms 0
    else y << ", rate: " << pick({"500", "2000", "10000", "50000"});
    if (arrivals == "on-off") y << ", on.ms: 30, off.ms: 50";
    if (partitioner != "builtin" && rng() % 3 == 0) y << ", threads: 3, partition.gap.us: " << pick({"0", "50"});
    y << "}\n";
    if (rng() % 4 != 0)
      y << "      keys: {kind: template, template: \"k{i}\", cardinality: " << pick({"10", "1000", "100000"}) << "}\n";
    y << "      values: {kind: fixed, size: " << pick({"10", "100", "900"}) << "}\n";
  }
  return y.str();
}

}  // namespace

TEST_CASE(
    "every shipped scenario gives the same results with idle sender passes left out as with every pass run and checked") {
  std::uint64_t checked = 0, skipped = 0;
  for (const auto& f : testing::shipped_scenarios()) {
    CAPTURE(f.string());
    const auto s = scenarios::load_scenario_file(f.string());
    for (const bool logs : {false, true}) {
      CAPTURE(logs);
      const Both both = run_both(s, logs);
      CHECK(both.skipped == both.checked);
      CHECK(both.events_skipped <= both.events_checked);
      checked += both.events_checked;
      skipped += both.events_skipped;
    }
  }
  CHECK(skipped < checked);  // some scenario has passes to leave out
}

TEST_CASE(
    "random scenarios give the same results with idle sender passes left out as with every pass run and checked") {
  // The release suite runs 150; under the sanitizers (several times slower) the first 50 of
  // the same sequence (the rarest options the generator draws come one time in six).
  const int scenarios = PARTSIM_SANITIZED ? 50 : 150;
  std::mt19937_64 rng(2026);
  std::uint64_t checked = 0, skipped = 0;
  for (int i = 0; i < scenarios; ++i) {
    const std::string text = random_scenario(rng, i);
    CAPTURE(text);
    const auto s = scenarios::load_scenario_text(text, "random");
    const Both both = run_both(s, i % 2 == 0, i % 3 == 0);
    REQUIRE(both.skipped == both.checked);
    checked += both.events_checked;
    skipped += both.events_skipped;
  }
  CHECK(skipped < checked);
}
