// The consumer groups' report: a big group's text is capped like the partition table, and
// consumer_groups.csv counts what compare counts (rebalances after the start, idle members).

#include "analysis/consumer_groups_report.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "analysis/run_metrics.hpp"
#include "analysis/run_report.hpp"

using namespace partsim::analysis;
using partsim::model::GroupMemberResult;
using partsim::model::GroupResult;
using partsim::model::RebalanceRecord;
using partsim::model::RunResult;

namespace {

std::string member_id(int i) {
  std::string n = std::to_string(i);
  return "c" + std::string(5 - n.size(), '0') + n;
}

/// A group of `members` members (c00000...), member i processed i records and owns one
/// partition while i < `owners` (the rest idle), with a start and `joins` join rebalances,
/// the join of member i pausing i partitions for i ms.
RunResult group_run(int members, int owners, int joins) {
  RunResult r;
  GroupResult g;
  g.group = "readers";
  g.protocol = "classic";
  g.assignor = "range";
  for (int i = 0; i < members; ++i) {
    GroupMemberResult m;
    m.member = member_id(i);
    m.records = i;
    if (i < owners) m.partitions = {"t-" + std::to_string(i)};
    else g.idle_members.push_back(m.member);
    g.members.push_back(m);
  }
  g.rebalances.push_back({0, 0, "eager", "start", 1, 0, 0, 0});
  for (int i = 1; i <= joins; ++i)
    g.rebalances.push_back({i * 10.0, i * 10.0 + 1, "eager", "join " + member_id(i), 1, i, static_cast<double>(i),
                            static_cast<double>(i)});
  g.records_consumed = 100;
  r.consumer_groups.push_back(g);
  return r;
}

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

/// The CSV's cell `column` of the first row.
std::string csv_cell(const std::string& csv, const std::string& column) {
  std::istringstream in(csv);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  auto split = [](const std::string& s) {
    std::vector<std::string> out(1);
    for (const char c : s) {
      if (c == ',') out.emplace_back();
      else out.back() += c;
    }
    return out;
  };
  const auto names = split(header), cells = split(row);
  REQUIRE(names.size() == cells.size());
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == column) return cells[i];
  FAIL("no column " << column);
  return {};
}

double metric(const RunResult& r, const std::string& name) {
  const MetricRegistry reg(r);
  const std::size_t i = reg.find(name);
  REQUIRE(i < reg.size());
  return reg.values(r)[i];
}

}  // namespace

TEST_CASE("a small group prints every member and every rebalance") {
  const auto r = group_run(3, 2, 2);
  const std::string text = consumer_groups_to_text(r);
  for (int i = 0; i < 3; ++i) CHECK(text.find(member_id(i)) != std::string::npos);
  CHECK(text.find("join " + member_id(2)) != std::string::npos);
  CHECK(text.find("busiest") == std::string::npos);
  CHECK(text.find("idle members: c00002\n") != std::string::npos);
}

TEST_CASE("a group of 10,000 members prints a capped table, like the partition table") {
  const auto r = group_run(10'000, 9'000, 10'000);
  const std::string text = consumer_groups_to_text(r);
  CAPTURE(text.substr(0, 4000));
  CHECK(lines(text) < 3 * kTablePartitionsShown + 20);
  // The busiest members (most records: the last ones) and how many there are.
  CHECK(text.find(member_id(9'999) + " ") != std::string::npos);
  CHECK(text.find(member_id(0) + " ") == std::string::npos);
  CHECK(text.find("(the 20 busiest of 10000 members; 1 processed no records; every member: --format json)") !=
        std::string::npos);
  // Idle members: how many, the first few named.
  CHECK(text.find("idle members (1000): " + member_id(9'000) + " ") != std::string::npos);
  CHECK(text.find(member_id(9'500)) == std::string::npos);
  // Rebalances: the longest pauses, in time order, and how many there were.
  CHECK(text.find("join " + member_id(10'000)) != std::string::npos);
  CHECK(text.find("join " + member_id(10) + " ") == std::string::npos);
  CHECK(text.find("(the 20 of 10001 rebalances with the longest pause sum; every rebalance: --format json)") !=
        std::string::npos);
}

TEST_CASE("consumer_groups.csv counts rebalances and idle members as compare does") {
  for (const int idle : {0, 2}) {
    const auto r = group_run(5, 5 - idle, 3);
    const std::string csv = consumer_groups_to_csv(r);
    CAPTURE(csv);
    CHECK(csv_cell(csv, "rebalances") == "3");
    CHECK(metric(r, "group.readers.rebalances") == 3);
    CHECK(csv_cell(csv, "idle_members") == std::to_string(idle));
    CHECK(metric(r, "group.readers.idle_members") == idle);
  }
  // A group without any rebalance (no member ever joined): 0 in both.
  RunResult none = group_run(0, 0, 0);
  none.consumer_groups[0].rebalances.clear();
  CHECK(csv_cell(consumer_groups_to_csv(none), "rebalances") == "0");
  CHECK(metric(none, "group.readers.rebalances") == 0);
}

TEST_CASE("the brokers' side of consumer fetches: means per fetch answered, in the table, JSON and the metrics") {
  RunResult r = group_run(1, 1, 0);
  r.consumer_fetches.push_back({.broker = 7,
                                .fetches = 4,
                                .records = 10,
                                .empty = 1,
                                .failed = 2,
                                .queue_wait_ms_sum = 2.0,
                                .parked_ms_sum = 100.0});
  r.consumer_fetches.push_back({.broker = 8});  // served none: no mean
  const auto j = consumer_fetches_to_json(r);
  REQUIRE(j.size() == 2);
  CHECK(j[0]["broker"] == 7);
  CHECK(j[0]["queue_wait_ms_mean"] == 0.5);
  CHECK(j[0]["parked_ms_mean"] == 25.0);
  CHECK(j[1]["parked_ms_mean"].is_null());
  const std::string text = consumer_groups_to_text(r);
  CHECK(text.find("consumer fetches per broker") != std::string::npos);
  CHECK(text.find("     7        4       10      1       2          0.500     25.000") != std::string::npos);
  const MetricRegistry reg(r);
  const std::vector<double> v = reg.values(r);
  CHECK(v[reg.find("fetch.broker.7.parked_ms")] == 25.0);
  CHECK(v[reg.find("fetch.broker.7.failed")] == 2.0);
  CHECK(std::isnan(v[reg.find("fetch.broker.8.queue_wait_ms")]));
  CHECK(consumer_fetches_to_json(group_run(1, 1, 0)).is_null());
}
