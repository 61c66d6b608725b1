#include "model/partitioners/builtin_partitioner.hpp"

#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <vector>

using partsim::model::BuiltInPartitioner;

namespace {
// Like Kafka's SequentialPartitioner test helper: draws 0, 1, 2, ...
struct Sequential {
  std::int32_t next = 0;
  std::int32_t operator()() { return next++; }
};
std::vector<std::int32_t> all(std::int32_t n) {
  std::vector<std::int32_t> v;
  for (std::int32_t i = 0; i < n; ++i) v.push_back(i);
  return v;
}
}  // namespace

TEST_CASE("the sticky partition switches once produced bytes reach batch.size with the switch enabled") {
  auto seq = std::make_shared<Sequential>();
  BuiltInPartitioner bip(3, [seq] { return (*seq)(); });
  const auto avail = all(3);
  CHECK(bip.current_partition(avail, 3) == 0);
  CHECK_FALSE(bip.update_partition_info(1, true, avail, 3));
  CHECK_FALSE(bip.update_partition_info(1, true, avail, 3));
  CHECK(bip.update_partition_info(1, true, avail, 3));  // third one-byte append switches
  CHECK(bip.current_partition(avail, 3) == 1);
}

TEST_CASE("a deferred switch waits for the batch boundary, but not beyond 2 x batch.size") {
  auto seq = std::make_shared<Sequential>();
  BuiltInPartitioner bip(100, [seq] { return (*seq)(); });
  const auto avail = all(4);
  bip.current_partition(avail, 4);
  CHECK_FALSE(bip.update_partition_info(150, false, avail, 4));  // >= batch.size, switch not enabled
  CHECK(bip.update_partition_info(0, true, avail, 4));           // completed at the next boundary
  CHECK(bip.current_partition(avail, 4) == 1);
  CHECK_FALSE(bip.update_partition_info(199, false, avail, 4));
  CHECK(bip.update_partition_info(1, false, avail, 4));  // 2 x batch.size forces it
}

TEST_CASE("uniform choice indexes the available list, which may skip partitions") {
  auto seq = std::make_shared<Sequential>();
  seq->next = 5;
  BuiltInPartitioner bip(10, [seq] { return (*seq)(); });
  const std::vector<std::int32_t> avail{3, 2, 1, 0, 5, 4};  // the client's HashMap order
  CHECK(bip.next_partition(avail, 6) == 4);                 // 5 % 6 = position 5
  const std::vector<std::int32_t> none;
  CHECK(bip.next_partition(none, 4) == 6 % 4);  // no leaders: r % partitions
}

TEST_CASE("adaptive frequencies follow the inverse queue sizes (Kafka's vectors)") {
  auto seq = std::make_shared<Sequential>();
  BuiltInPartitioner bip(10, [seq] { return (*seq)(); });
  const std::vector<std::int32_t> queues{5, 0, 3, 0, 1};
  const auto ids = all(5);
  bip.update_load_stats(queues, ids, 5);
  REQUIRE(bip.adaptive_active());
  std::map<std::int32_t, int> freq;
  for (int i = 0; i < 42; ++i) ++freq[bip.next_partition(ids, 5)];
  CHECK(freq == std::map<std::int32_t, int>{{0, 2}, {1, 12}, {2, 6}, {3, 12}, {4, 10}});

  auto seq2 = std::make_shared<Sequential>();
  BuiltInPartitioner three(10, [seq2] { return (*seq2)(); });
  const std::vector<std::int32_t> q3{1, 7, 2};
  three.update_load_stats(q3, all(3), 3);
  std::map<std::int32_t, int> f3;
  for (int i = 0; i < 28; ++i) ++f3[three.next_partition(all(3), 3)];
  CHECK(f3 == std::map<std::int32_t, int>{{0, 14}, {1, 2}, {2, 12}});
}

TEST_CASE("worked example: queues 0,3,1 give cumulative weights 4,5,8") {
  auto seq = std::make_shared<Sequential>();
  BuiltInPartitioner bip(10, [seq] { return (*seq)(); });
  const std::vector<std::int32_t> q{0, 3, 1};
  bip.update_load_stats(q, all(3), 3);
  std::vector<std::int32_t> picks;
  for (int i = 0; i < 8; ++i) picks.push_back(bip.next_partition(all(3), 3));
  CHECK(picks == std::vector<std::int32_t>{0, 0, 0, 0, 1, 2, 2, 2});
}

TEST_CASE("equal queues keep uniform mode unless partitions were excluded") {
  BuiltInPartitioner bip(10, [] { return 0; });
  const std::vector<std::int32_t> equal{2, 2, 2};
  bip.update_load_stats(equal, all(3), 3);
  CHECK_FALSE(bip.adaptive_active());
  bip.update_load_stats(equal, all(3), 2);  // one excluded: the table is built
  CHECK(bip.adaptive_active());
  const std::vector<std::int32_t> single{4};
  bip.update_load_stats(single, all(1), 1);  // fewer than 2 partitions
  CHECK_FALSE(bip.adaptive_active());
}

// ---- KIP-1123 (4.4): rack-aware choice (BuiltInPartitioner.nextPartition on 4.4) ----------------

TEST_CASE("rack-aware, uniform: only the available partitions led in the rack, all of them when none is") {
  auto seq = std::make_shared<Sequential>();
  BuiltInPartitioner bip(10, [seq] { return (*seq)(); });
  bip.set_rack({1, 0, 0, 1, 0, 0});  // p0 and p3 are led in the producer's rack
  const auto avail = all(6);
  std::vector<std::int32_t> picks;
  for (int i = 0; i < 4; ++i) picks.push_back(bip.next_partition(avail, 6));
  CHECK(picks == std::vector<std::int32_t>{0, 3, 0, 3});
  const std::vector<std::int32_t> without_rack{1, 2, 4, 5};  // p0, p3 unavailable: every available one
  CHECK(bip.next_partition(without_rack, 6) == 1);           // draw 4 % 4
  bip.set_rack({0, 0, 0, 0, 0, 0});
  CHECK(bip.next_partition(avail, 6) == 5);  // draw 5 % 6: nothing in the rack
}

TEST_CASE("rack-aware, adaptive: the in-rack table is weighted against the largest in-rack queue") {
  auto seq = std::make_shared<Sequential>();
  BuiltInPartitioner bip(10, [seq] { return (*seq)(); });
  bip.set_rack({1, 0, 1});
  // Queues 1, 9, 3: the in-rack ones (p0 1, p2 3) weigh 4 - 1 = 3 and 4 - 3 = 1 (cft 3, 4);
  // p1's queue of 9 plays no part in them.
  const std::vector<std::int32_t> q{1, 9, 3};
  bip.update_load_stats(q, all(3), 3);
  std::vector<std::int32_t> picks;
  for (int i = 0; i < 8; ++i) picks.push_back(bip.next_partition(all(3), 3));
  CHECK(picks == std::vector<std::int32_t>{0, 0, 0, 2, 0, 0, 0, 2});
  bip.set_rack({0, 1, 0});  // one in-rack partition: it always
  bip.update_load_stats(q, all(3), 3);
  CHECK(bip.next_partition(all(3), 3) == 1);
  bip.set_rack({0, 0, 0});  // none in the rack: the table over all (weights 9, 1, 7: cft 9, 10, 17)
  bip.update_load_stats(q, all(3), 3);
  CHECK(bip.next_partition(all(3), 3) == 1);  // draw 9 % 17 = 9: p1
}
