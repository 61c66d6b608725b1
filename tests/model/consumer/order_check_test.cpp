// The consumer's order check on hand-made logs: order is per key and producer (Kafka
// promises nothing across producers), and a record the log holds twice (a producer's retry
// of a batch the leader had appended) is a duplicate when it is processed again, not a
// violation.

#include "model/consumer/order_check.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace partsim::model;
using namespace partsim::model::consumer;

namespace {

/// One partition's log; `add` appends a record of (key, producer, send index, sent ms) and
/// `process` hands its offsets out in processing order, one per millisecond.
struct Log {
  BrokerLogs logs;
  Log() { logs.partitions.resize(1); }
  void add(const std::string& key, std::int32_t producer, std::int64_t send_index, double sent_ms) {
    LogRecord r;
    r.key = key.empty() ? LogRecord::kNullKey : logs.intern(key);
    r.producer = producer;
    r.send_index = send_index;
    r.sent = SimTime::from_ms(sent_ms);
    r.readable = r.sent;
    logs.partitions[0].records.push_back(r);
  }
  std::vector<Processed> process(const std::vector<std::int64_t>& offsets) const {
    std::vector<Processed> out;
    for (std::size_t i = 0; i < offsets.size(); ++i)
      out.push_back({SimTime::ms(static_cast<std::int64_t>(i) + 1), 0, offsets[i], 0, false});
    return out;
  }
};

}  // namespace

TEST_CASE("two records of one key logged in reverse order in one partition: one violation") {
  Log l;
  l.add("k", 0, 1, 1.0);  // offset 0: the later send
  l.add("k", 0, 0, 0.0);  // offset 1: the earlier one
  auto p = l.process({0, 1});
  const OrderSummary s = check_order(p, l.logs);
  CHECK(s.violations == 1);
  CHECK(s.keys_affected == 1);
  CHECK(s.written_twice == 0);
  // Logged in send order: none.
  Log ok;
  ok.add("k", 0, 0, 0.0);
  ok.add("k", 0, 1, 1.0);
  auto q = ok.process({0, 1});
  CHECK(check_order(q, ok.logs).violations == 0);
}

TEST_CASE("records of one key from two producers are not ordered against each other") {
  Log l;
  // Producer 1 sent k at 5 ms, producer 0 at 0 ms; the log holds producer 1's first.
  l.add("k", 1, 0, 5.0);
  l.add("k", 0, 0, 0.0);
  l.add("k", 0, 1, 6.0);
  l.add("k", 1, 1, 7.0);
  auto p = l.process({0, 1, 2, 3});
  const OrderSummary s = check_order(p, l.logs);
  CHECK(s.violations == 0);
  CHECK(s.keys_affected == 0);
  // Each producer's own order still counts: producer 0's send 1 before its send 0.
  Log bad;
  bad.add("k", 1, 0, 5.0);
  bad.add("k", 0, 1, 6.0);
  bad.add("k", 0, 0, 0.0);
  auto q = bad.process({0, 1, 2});
  const OrderSummary t = check_order(q, bad.logs);
  CHECK(t.violations == 1);
  CHECK(t.keys_affected == 1);
}

TEST_CASE("a record the log holds twice is a duplicate when processed again, not a violation") {
  Log l;
  l.add("k", 0, 0, 0.0);
  l.add("k", 0, 1, 1.0);
  l.add("k", 0, 0, 0.0);  // the retry of send 0, appended again behind send 1
  l.add("", 0, 2, 2.0);
  l.add("", 0, 2, 2.0);  // a null-key record written twice is a duplicate too
  auto p = l.process({0, 1, 2, 3, 4});
  const OrderSummary s = check_order(p, l.logs);
  CHECK(s.violations == 0);
  CHECK(s.keys_affected == 0);
  CHECK(s.written_twice == 2);
  // The copies are marked, so what counts first processings (latency) skips them.
  std::vector<bool> marked;
  for (const auto& x : p) marked.push_back(x.duplicate);
  CHECK(marked == std::vector<bool>{false, false, true, false, true});
}

TEST_CASE("an offset processed again is not counted again as written twice") {
  Log l;
  l.add("k", 0, 0, 0.0);
  l.add("k", 0, 1, 1.0);
  auto p = l.process({0, 1, 0, 1});
  p[2].duplicate = p[3].duplicate = true;  // reprocessed offsets (a crash before a commit)
  const OrderSummary s = check_order(p, l.logs);
  CHECK(s.violations == 0);
  CHECK(s.written_twice == 0);
}

TEST_CASE("the copy processed first is the original, whichever offset it has") {
  Log l;
  l.add("k", 0, 0, 0.0);
  l.add("k", 0, 1, 1.0);
  l.add("k", 0, 0, 0.0);  // the retry's copy at offset 2
  // A consumer that started at offset 1 (e.g. reset to latest past offset 0) sees send 1,
  // then send 0 for the first time: a violation, not a duplicate.
  auto p = l.process({1, 2});
  const OrderSummary s = check_order(p, l.logs);
  CHECK(s.violations == 1);
  CHECK(s.written_twice == 0);
}
