// Each shipped partitioner pinned with scripted random draws.

#include <doctest/doctest.h>

#include <deque>
#include <map>
#include <memory>
#include <vector>

#include "model/partitioners/key_hash.hpp"
#include "model/partitioners/legacy_partitioner.hpp"
#include "model/partitioners/partitioner.hpp"
#include "model/partitioners/round_robin_partitioner.hpp"
#include "model/partitioners/rule_partitioner.hpp"
#include "model/partitioners/sticky_kip480_partitioner.hpp"
#include "scripted_draws.hpp"

using namespace partsim::model;

using partsim::model::test::scripted;

namespace {
std::vector<std::int32_t> iota(std::int32_t n) {
  std::vector<std::int32_t> v;
  for (std::int32_t i = 0; i < n; ++i) v.push_back(i);
  return v;
}
}  // namespace

TEST_CASE("round-robin: a record that needs a new batch costs two counter steps (KAFKA-9965)") {
  RoundRobinPartitioner rr(false);
  const auto avail = iota(6);
  const PartitionerView v{avail, 6};
  std::vector<std::int32_t> landed;
  for (int k = 0; k < 6; ++k) {
    const auto first = rr.partition(std::nullopt, v);
    rr.on_new_batch(first, v);  // every record opens a batch
    landed.push_back(rr.partition(std::nullopt, v));
  }
  CHECK(landed == std::vector<std::int32_t>{1, 3, 5, 1, 3, 5});  // (2k+1) mod 6
}

TEST_CASE("round-robin over the client's HashMap order gives 2,0,4 for topic t6 (book T8)") {
  RoundRobinPartitioner rr(false);
  const std::vector<std::int32_t> avail{3, 2, 1, 0, 5, 4};
  const PartitionerView v{avail, 6};
  std::vector<std::int32_t> landed;
  for (int k = 0; k < 3; ++k) {
    rr.on_new_batch(rr.partition(std::nullopt, v), v);
    landed.push_back(rr.partition(std::nullopt, v));
  }
  CHECK(landed == std::vector<std::int32_t>{2, 0, 4});
}

TEST_CASE("round-robin-fixed steps once per record even when it needs a new batch") {
  RoundRobinPartitioner rr(true);
  const auto avail = iota(3);
  const PartitionerView v{avail, 3};
  std::vector<std::int32_t> landed;
  for (int k = 0; k < 6; ++k) {
    const auto first = rr.partition(std::nullopt, v);
    rr.on_new_batch(first, v);
    landed.push_back(rr.partition(std::nullopt, v));
  }
  CHECK(landed == std::vector<std::int32_t>{0, 1, 2, 0, 1, 2});
}

TEST_CASE("KIP-480 sticky: a switch always moves to a different partition") {
  // Draws 2 -> avail[2]; on a new batch, 2 and 8 map to avail[2] again and are redrawn,
  // 4 maps to avail[4].
  StickyKip480Partitioner p(false, scripted({2, 2, 8, 4}));
  const auto avail = iota(6);
  const PartitionerView v{avail, 6};
  CHECK(p.partition(std::nullopt, v) == 2);
  CHECK(p.partition(std::nullopt, v) == 2);  // sticky: no draw
  p.on_new_batch(2, v);
  CHECK(p.partition(std::nullopt, v) == 4);
  p.on_new_batch(2, v);  // a stale previous: someone already switched, nothing drawn
  CHECK(p.partition(std::nullopt, v) == 4);
}

TEST_CASE("KIP-480 DefaultPartitioner hashes keys; a keyed new batch on the sticky partition switches it") {
  StickyKip480Partitioner p(false, scripted({4, 1}));
  const auto avail = iota(6);
  const PartitionerView v{avail, 6};
  CHECK(p.partition(std::nullopt, v) == 4);
  const auto k = partition_for_key("book-0", 6);  // 4
  REQUIRE(k == 4);
  CHECK(p.partition(std::string_view("book-0"), v) == 4);
  p.on_new_batch(k, v);  // the keyed record opened a batch in the sticky partition
  CHECK(p.partition(std::nullopt, v) == 1);
  StickyKip480Partitioner uniform(true, scripted({3}));
  CHECK(uniform.partition(std::string_view("book-0"), v) == 3);  // UniformStickyPartitioner ignores keys
}

TEST_CASE("KIP-480 with one or no available partition") {
  StickyKip480Partitioner one(false, scripted({}));
  const std::vector<std::int32_t> single{5};
  CHECK(one.partition(std::nullopt, PartitionerView{single, 6}) == 5);
  StickyKip480Partitioner none(false, scripted({13}));
  CHECK(none.partition(std::nullopt, PartitionerView{{}, 6}) == 13 % 6);
}

TEST_CASE("legacy: null keys round-robin per record from a random start, keys hashed") {
  LegacyPartitioner p(scripted({7}));
  const auto avail = iota(4);
  const PartitionerView v{avail, 4};
  std::vector<std::int32_t> landed;
  for (int k = 0; k < 5; ++k) landed.push_back(p.partition(std::nullopt, v));
  CHECK(landed == std::vector<std::int32_t>{3, 0, 1, 2, 3});
  CHECK(p.partition(std::string_view("book-3"), v) == partition_for_key("book-3", 4));
  CHECK_FALSE(p.abort_on_new_batch());
  LegacyPartitioner wrap(scripted({0x7fffffff}));  // toPositive wraps to 0 after 2^31 - 1
  CHECK(wrap.partition(std::nullopt, v) == 0x7fffffff % 4);
  CHECK(wrap.partition(std::nullopt, v) == 0);
}

TEST_CASE("rules: the book's hot-key partitioner gives p0=150 and 30 on each other partition (T4)") {
  RulePartitioner p({{PartitionRule::Match::kPrefix, "hot-", 0}}, {RuleFallback::Hash::kJavaString, 1, 5});
  const auto avail = iota(6);
  const PartitionerView v{avail, 6};
  std::map<std::int32_t, int> counts;
  for (int i = 0; i < 300; ++i) {
    const std::string key = (i % 2 == 0 ? "hot-" : "book-") + std::to_string(i);
    ++counts[p.partition(std::string_view(key), v)];
  }
  CHECK(counts == std::map<std::int32_t, int>{{0, 150}, {1, 30}, {2, 30}, {3, 30}, {4, 30}, {5, 30}});
}

TEST_CASE("rules: exact keys, regexes, the murmur2 fallback and null keys") {
  RulePartitioner p({{PartitionRule::Match::kExact, "vip", 5}, {PartitionRule::Match::kRegex, "^eu-[0-9]+$", 4}},
                    {RuleFallback::Hash::kMurmur2, 0, 4});
  const auto avail = iota(6);
  const PartitionerView v{avail, 6};
  CHECK(p.partition(std::string_view("vip"), v) == 5);
  CHECK(p.partition(std::string_view("vipx"), v) == to_positive(murmur2("vipx")) % 4);
  CHECK(p.partition(std::string_view("eu-12"), v) == 4);
  CHECK(p.partition(std::string_view("eu-x"), v) == to_positive(murmur2("eu-x")) % 4);
  std::vector<std::int32_t> nulls;
  for (int i = 0; i < 5; ++i) nulls.push_back(p.partition(std::nullopt, v));
  CHECK(nulls == std::vector<std::int32_t>{0, 1, 2, 3, 0});
}

TEST_CASE("the factory makes each kind, and nothing for the built-in") {
  PartitionerSpec spec;
  CHECK(make_partitioner(spec, partitioner_run(spec.kind, ClientVersion{}), scripted({})) == nullptr);
  spec.kind = PartitionerKind::kRoundRobin;
  CHECK(make_partitioner(spec, partitioner_run(spec.kind, ClientVersion{}), scripted({})) != nullptr);
  CHECK(partitioner_names().size() == 7);
}
