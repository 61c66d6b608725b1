#include <doctest/doctest.h>

#include "model/consumer/fetch_answer.hpp"

using namespace partsim::model;
using namespace partsim::model::consumer;

namespace {

// Two partitions; readable[p] lists the readable times (ms) of its records.
BrokerLogs logs_of(const std::vector<std::vector<double>>& readable) {
  BrokerLogs logs;
  for (const auto& times : readable) {
    PartitionLog& log = logs.partitions.emplace_back();
    for (const double t : times)
      log.records.push_back(LogRecord{LogRecord::kNullKey, 0, 0, SimTime::zero(), SimTime::from_ms(t)});
  }
  return logs;
}

const std::vector<double> kBytes{100, 100};

}  // namespace

TEST_CASE("the leader answers at once when fetch.min.bytes are readable on arrival") {
  const auto logs = logs_of({{1, 2}, {3}});
  ConsumerConfig c;  // fetch.min.bytes 1
  const auto a = answer_fetch(logs, kBytes, {{0, 0}, {1, 0}}, SimTime::ms(5), c);
  CHECK(a.at == SimTime::ms(5));
  CHECK(a.counts == std::vector<std::int64_t>{2, 1});
}

TEST_CASE("the leader parks the fetch until fetch.min.bytes become readable, at most fetch.max.wait.ms") {
  const auto logs = logs_of({{10, 20, 30}, {25}});
  ConsumerConfig c;
  c.fetch_min_bytes = 300;  // three records of 100 bytes: readable at 10, 20, 25 (merged over both)
  auto a = answer_fetch(logs, kBytes, {{0, 0}, {1, 0}}, SimTime::ms(1), c);
  CHECK(a.at == SimTime::ms(25));
  CHECK(a.counts == std::vector<std::int64_t>{2, 1});
  c.fetch_min_bytes = 1000;  // never: answered after fetch.max.wait.ms (500) with what there is
  a = answer_fetch(logs, kBytes, {{0, 0}, {1, 0}}, SimTime::ms(1), c);
  CHECK(a.at == SimTime::ms(501));
  CHECK(a.counts == std::vector<std::int64_t>{3, 1});
  a = answer_fetch(logs, kBytes, {{0, 3}, {1, 1}}, SimTime::ms(1), c);  // nothing left: empty at the deadline
  CHECK(a.at == SimTime::ms(501));
  CHECK(a.counts == std::vector<std::int64_t>{0, 0});
}

TEST_CASE("max.partition.fetch.bytes and fetch.max.bytes cap the response, softly for the first partition with data") {
  const auto logs = logs_of({{0, 0, 0, 0}, {0, 0, 0, 0}});
  ConsumerConfig c;
  c.max_partition_fetch_bytes = 250;
  CHECK(answer_fetch(logs, kBytes, {{0, 0}, {1, 0}}, SimTime::zero(), c).counts == std::vector<std::int64_t>{2, 2});
  c.fetch_max_bytes = 300;
  CHECK(answer_fetch(logs, kBytes, {{0, 0}, {1, 0}}, SimTime::zero(), c).counts == std::vector<std::int64_t>{2, 1});
  c.max_partition_fetch_bytes = 50;  // less than a record: the first partition with data still gets one
  CHECK(answer_fetch(logs, kBytes, {{0, 4}, {1, 0}}, SimTime::zero(), c).counts == std::vector<std::int64_t>{0, 1});
  c.max_partition_fetch_bytes = 1048576;
  c.fetch_max_bytes = 50;  // the first record overdraws the response: nothing more comes
  CHECK(answer_fetch(logs, kBytes, {{0, 0}, {1, 0}}, SimTime::zero(), c).counts == std::vector<std::int64_t>{1, 0});
}

TEST_CASE("the high watermark counts the records readable by a time") {
  const auto logs = logs_of({{1, 2, 2, 5}});
  CHECK(high_watermark(logs.partitions[0], SimTime::ms(0)) == 0);
  CHECK(high_watermark(logs.partitions[0], SimTime::ms(2)) == 3);
  CHECK(high_watermark(logs.partitions[0], SimTime::ms(9)) == 4);
}
