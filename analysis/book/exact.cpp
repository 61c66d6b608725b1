// The book's deterministic entries (book-tables.md T1-T10): partsim must print exactly the
// published figure. Each row is the published string and how partsim's is made.

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "analysis/book/rows.hpp"
#include "analysis/book/statistics.hpp"
#include "analysis/format.hpp"
#include "model/partitioners/key_hash.hpp"
#include "model/partitioners/key_movement.hpp"
#include "model/placement/replica_placement.hpp"

namespace partsim::analysis::book {
namespace {

std::string join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

std::string first_choices(const model::RunResult& r, std::size_t n) {
  const auto t = std::span(r.trace).first(std::min(n, r.trace.size()));
  return join(std::vector<std::int64_t>(t.begin(), t.end()));
}

std::string join_assignment(const model::Assignment& a) {
  std::string s;
  for (std::size_t p = 0; p < a.size(); ++p) {
    s += (p ? " " : "") + std::string("p") + std::to_string(p) + "[";
    for (std::size_t j = 0; j < a[p].size(); ++j) s += (j ? "," : "") + std::to_string(a[p][j]);
    s += "]";
  }
  return s;
}

const std::vector<std::int32_t>& book_b_hashes() {
  static const std::vector<std::int32_t> hashes = [] {
    std::vector<std::int32_t> h;
    for (int i = 0; i < 20000; ++i) h.push_back(model::to_positive(model::murmur2("book-B" + std::to_string(i))));
    return h;
  }();
  return hashes;
}

std::string movement(std::span<const std::int32_t> hashes, std::int32_t from, std::int32_t to, bool with_example) {
  const auto m = model::measure_key_movement(hashes, {from, to}, false);
  std::string s = std::to_string(m.changed) + " " + exact_ratio(m.changed, m.keys, 4);
  if (with_example)
    s += " " + std::to_string(m.modulo_stable) + " book-B" + std::to_string(*m.example_index) + ":" +
         std::to_string(m.example_old) + "->" + std::to_string(m.example_new);
  return s;
}

Setup scenario(std::string path) { return Setup{std::move(path), {}}; }

// T9: what group `group` processed, as runs of one partition each: "p1: book-0@0 book-4@1;
// p2: ...". The order of the runs (which fetch response came first) is not defined, so they
// are listed by their first key; a partition read in two runs is not grouped at all.
std::string consumed_by_partition(const model::RunResult& r, const std::string& group) {
  std::vector<std::pair<std::string, std::string>> runs;  // (partition, "key@offset ...")
  for (const auto& row : r.consume_trace) {
    if (row.group != group) continue;
    const std::string p = "p" + row.partition.substr(row.partition.rfind('-') + 1);
    const std::string item = (row.null_key ? std::string("null") : row.key) + "@" + std::to_string(row.offset);
    if (!runs.empty() && runs.back().first == p) {
      runs.back().second += " " + item;
      continue;
    }
    for (const auto& [seen, items] : runs)
      if (seen == p) return "not grouped: " + p + " read in two runs";
    runs.emplace_back(p, item);
  }
  std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  std::string s;
  for (const auto& [p, items] : runs) s += (s.empty() ? "" : "; ") + p + ": " + items;
  return s;
}

}  // namespace

std::vector<ExactRow> exact_rows() {
  std::vector<ExactRow> rows;
  // T1: murmur2, toPositive and the partition of 3 (spec §9).
  const std::map<std::string, std::string> t1{{"book-0", "-2108685004 38798644 1"},
                                              {"book-1", "-928100454 1219383194 2"},
                                              {"book-2", "-1365223455 782260193 2"},
                                              {"book-3", "1793899242 1793899242 0"},
                                              {"book-4", "-1799749327 347734321 1"}};
  for (const auto& [key, published] : t1)
    rows.push_back({"T1", "murmur2, toPositive, partition of 3: " + key, published, {}, [key](const model::RunResult*) {
                      const auto h = model::murmur2(key);
                      return std::to_string(h) + " " + std::to_string(model::to_positive(h)) + " " +
                             std::to_string(model::to_positive(h) % 3);
                    }});
  // T2, T3, T4: keyed, low-cardinality and user-partitioner distributions.
  rows.push_back({"T2", "keys book-0..299 over 6 partitions", "56,63,45,52,43,41", scenario("book/keyed.yaml"),
                  [](const model::RunResult* r) { return join(partition_records(*r)); }});
  rows.push_back({"T3", "5 keys cycling, partition sequence", "4,2,5,0,1", scenario("book/low-cardinality.yaml"),
                  [](const model::RunResult* r) { return first_choices(*r, 5); }});
  rows.push_back({"T3", "5 keys cycling, records per partition", "60,60,60,0,60,60",
                  scenario("book/low-cardinality.yaml"),
                  [](const model::RunResult* r) { return join(partition_records(*r)); }});
  rows.push_back({"T4", "hot-key partitioner, records per partition", "150,30,30,30,30,30",
                  scenario("book/hot-key-partitioner.yaml"),
                  [](const model::RunResult* r) { return join(partition_records(*r)); }});
  // T5: key movement on repartitioning.
  struct Move {
    std::int32_t from, to;
    const char* published;
  };
  for (const Move& m : {Move{4, 8, "9837 0.4919 20000 book-B1:0->4"}, Move{4, 5, "16034 0.8017 5001 book-B0:0->2"},
                        Move{8, 16, "10044 0.5022 20000 book-B3:5->13"}, Move{8, 12, "13309 0.6655 10062 book-B0:0->8"},
                        Move{12, 6, "9990 0.4995 10010 book-B0:8->2"}})
    rows.push_back({"T5",
                    "book-B0..19999, " + std::to_string(m.from) + " -> " + std::to_string(m.to) +
                        ": changed ratio moduloStable example",
                    m.published,
                    {},
                    [m](const model::RunResult*) { return movement(book_b_hashes(), m.from, m.to, true); }});
  rows.push_back({"T5", "book-B0..2999, 4 -> 8: changed ratio", "1479 0.4930", {}, [](const model::RunResult*) {
                    return movement(std::span(book_b_hashes()).first(3000), 4, 8, false);
                  }});
  // T6: replica placement (spec §11.1).
  const std::vector<std::int32_t> brokers{0, 1, 2, 3};
  rows.push_back({"T6",
                  "4 brokers, 6 partitions, rf 2, as published (round-robin)",
                  "p0[0,1] p1[1,2] p2[2,3] p3[3,0] p4[0,1] p5[1,2]",
                  {},
                  [brokers](const model::RunResult*) {
                    return join_assignment(model::round_robin_assignment(brokers, 6, 2));
                  }});
  rows.push_back({"T6",
                  "Kafka's rack-unaware placer, start index 0 (shift after each round)",
                  "p0[0,1] p1[1,2] p2[2,3] p3[3,0] p4[0,2] p5[1,3]",
                  {},
                  [brokers](const model::RunResult*) {
                    return join_assignment(model::admin_rack_unaware(brokers, 6, 2, 0, 0));
                  }});
  // T7: partition cost on disk.
  rows.push_back({"T7", "files in a new partition directory", "5", {}, [](const model::RunResult*) {
                    return std::to_string(model::partition_cost(1, 1).files);
                  }});
  rows.push_back({"T7", "30 partitions: directories, files", "30 150", {}, [](const model::RunResult*) {
                    const auto c = model::partition_cost(30, 1);
                    return std::to_string(c.directories) + " " + std::to_string(c.files);
                  }});
  rows.push_back(
      {"T7", "30 partitions x 3 replicas: logs, segment files (at least)", "90 270", {}, [](const model::RunResult*) {
         const auto c = model::partition_cost(30, 3);
         return std::to_string(c.logs) + " " + std::to_string(c.min_segment_files);
       }});
  // T8: round-robin with a new batch per record (KAFKA-9965, spec §7.3).
  rows.push_back({"T8", "round-robin, a new batch per record, topic t6, kafka-3.6: partitions", "2,0,4,2,0,4",
                  scenario("round-robin/new-batch-per-record.yaml"),
                  [](const model::RunResult* r) { return first_choices(*r, 6); }});
  // The same under kafka-4.3: no second partition() call, a plain counter (kafka-versions.md
  // "4.0"), so the published figure is the source's consequence, not the book's.
  rows.push_back({"T8", "the same under kafka-4.3 (a plain counter since 4.0): records per partition",
                  "100,100,100,100,100,100", Setup{"round-robin/new-batch-per-record.yaml", {"client=kafka-4.3"}},
                  [](const model::RunResult* r) { return join(partition_records(*r)); }});
  // T9: consumption order (the consumer side, model/consumer/).
  rows.push_back({"T9", "one consumer from the earliest offsets, book-0..4: grouped by partition, offset order within",
                  "p1: book-0@0 book-4@1; p2: book-1@0 book-2@1; p0: book-3@0",
                  Setup{"book/consume-order.yaml", {"run.records=5"}},
                  [](const model::RunResult* r) { return consumed_by_partition(*r, "reader"); }});
  rows.push_back({"T9", "three more records of book-0: their offsets on p1, in the order read", "2,3,4",
                  scenario("book/consume-order.yaml"), [](const model::RunResult* r) {
                    std::vector<std::int64_t> offsets;
                    for (const auto& row : r->consume_trace)
                      if (row.group == "reader" && row.key == "book-0" && row.offset > 0) offsets.push_back(row.offset);
                    return join(offsets);
                  }});
  rows.push_back({"T9", "4 consumers on 3 partitions: consumers left idle", "1", scenario("book/consume-order.yaml"),
                  [](const model::RunResult* r) {
                    for (const auto& g : r->consumer_groups)
                      if (g.group == "four") return std::to_string(g.idle_members.size());
                    return std::string("no group 'four'");
                  }});
  // T10: migrations (book ch. 10.3, model/migration/), the bridge's and the dual write's figures.
  const auto migration = [](const model::RunResult* r, auto figure) {
    return r->migration ? figure(*r->migration) : std::string("no migration in this run");
  };
  using Migration = model::migration::MigrationResult;
  const auto n = [](std::int64_t v) { return std::to_string(v); };
  rows.push_back({"T10", "bridge 4 -> 8, book-B0..2999 x 2 events: MIGRATED records keys", "6000 3000",
                  scenario("migration/bridge-book.yaml"), [=](const model::RunResult* r) {
                    return migration(r, [&](const Migration& m) { return n(m.records_migrated) + " " + n(m.keys); });
                  }});
  rows.push_back({"T10", "bridge: VERIFY newRecords keys changedPartition ratio", "6000 3000 1479 0.4930",
                  scenario("migration/bridge-book.yaml"), [=](const model::RunResult* r) {
                    return migration(r, [&](const Migration& m) {
                      return n(m.new_records) + " " + n(m.keys) + " " + n(m.keys_changed_partition) + " " +
                             exact_ratio(static_cast<std::uint64_t>(m.keys_changed_partition),
                                         static_cast<std::uint64_t>(m.keys), 4);
                    });
                  }});
  rows.push_back({"T10", "bridge: VERIFY orderViolations keysWithBothEvents", "0 3000",
                  scenario("migration/bridge-book.yaml"), [=](const model::RunResult* r) {
                    return migration(r, [&](const Migration& m) {
                      return n(m.order_violations) + " " + n(m.keys_with_all_events);
                    });
                  }});
  rows.push_back({"T10", "bridge: SAMPLE key old new", "book-B0 old=p0 new=p0", scenario("migration/bridge-book.yaml"),
                  [=](const model::RunResult* r) {
                    return migration(r, [&](const Migration& m) {
                      return m.sample_key + " old=p" + std::to_string(m.sample_old) + " new=p" +
                             std::to_string(m.sample_new);
                    });
                  }});
  rows.push_back({"T10", "bridge: STABLE sameKeyAlwaysSameNewPartition", "true", scenario("migration/bridge-book.yaml"),
                  [=](const model::RunResult* r) {
                    return migration(r, [](const Migration& m) { return std::string(m.stable ? "true" : "false"); });
                  }});
  rows.push_back({"T10", "dual write, book-B0..1499 x 2 events: DUALWRITE keys oldRecords newRecords", "1500 3000 3000",
                  scenario("migration/dual-write-book.yaml"), [=](const model::RunResult* r) {
                    return migration(r, [&](const Migration& m) {
                      return n(m.keys) + " " + n(m.old_records) + " " + n(m.new_records);
                    });
                  }});
  rows.push_back({"T10", "dual write: DUALWRITE orderViolationsOld orderViolationsNew", "0 0",
                  scenario("migration/dual-write-book.yaml"), [=](const model::RunResult* r) {
                    return migration(r, [&](const Migration& m) {
                      return n(m.order_violations_old) + " " + n(m.order_violations);
                    });
                  }});
  return rows;
}

}  // namespace partsim::analysis::book
