// partsim against Kafka's own assignor classes: kafka_diff/cases.txt holds 300 random groups
// (kafka_diff/gen.py) with the assignment Kafka's code gave each (kafka_diff/Diff.java, run by
// kafka_diff/regenerate.sh against apache/kafka 1eb7644, 4.0.0-SNAPSHOT): member orders through
// Java's HashMap, racks, generations, double claims, deleted topics, static members, topic ids.
// partsim must give every member the same partitions in the same order, and must say Kafka
// fails where Kafka's code threw.

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "model/consumer/kafka_fixtures.hpp"
#include "model/consumer/topic_id.hpp"

using namespace partsim::testing::kafka;
using partsim::model::consumer::parse_assignor;
using partsim::model::consumer::TopicId;

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::size_t pos = 0;
  for (;;) {
    const auto at = s.find(sep, pos);
    out.push_back(s.substr(pos, at == std::string::npos ? std::string::npos : at - pos));
    if (at == std::string::npos) return out;
    pos = at + 1;
  }
}

struct Case {
  std::string id, kind;
  GroupSpec spec;
  std::vector<std::string> kafka;  // "member: p,p" lines, or one "exception ..." line
};

std::vector<Case> load() {
  std::ifstream in(std::string(PARTSIM_SOURCE_DIR) + "/tests/model/consumer/kafka_diff/cases.txt");
  REQUIRE(in.good());
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    const auto f = split(line, ' ');
    if (line.empty() || line[0] == '#') continue;
    if (f[0] == "case") {
      cases.push_back({f[1], f[2], {}, {}});
      cases.back().spec.prefer_rack_aware = f[3] == "1";
    } else if (f[0] == "topic") {
      TopicMetadata t{f[1], std::stoi(f[2]), {}, TopicId::parse(f[3])};
      REQUIRE(t.id.has_value());
      if (f[4] != "-")
        for (const auto& p : split(f[4], '|')) t.replica_racks.push_back(split(p, ','));
      cases.back().spec.topics.push_back(std::move(t));
    } else if (f[0] == "member") {
      GroupMember m{f[1], {}, split(f[5], ','), f[3] == "-" ? "" : f[3], {}, {}};
      for (const auto& p : split(f.size() > 6 ? f[6] : "", ','))
        m.owned.push_back({p.substr(0, p.rfind('-')), std::stoi(p.substr(p.rfind('-') + 1))});
      if (f[2] != "-") m.instance_id = f[2];
      if (f[4] != "-") m.generation = std::stoi(f[4]);
      cases.back().spec.members.push_back(std::move(m));
    } else if (f[0] == "=") {
      cases.back().kafka.push_back(line.substr(2));
    }
  }
  return cases;
}

}  // namespace

TEST_CASE("partsim gives the assignments Kafka's own assignor classes give, on 300 random groups") {
  const auto cases = load();
  REQUIRE(cases.size() == 300);
  int failures_seen = 0;
  for (const auto& c : cases) {
    CAPTURE(c.id);
    CAPTURE(c.kind);
    const auto kind = parse_assignor(c.kind);
    REQUIRE(kind.has_value());
    const auto r = partsim::model::consumer::assign(*kind, c.spec);
    if (!c.kafka.empty() && c.kafka.front().rfind("exception ", 0) == 0) {
      CHECK_MESSAGE(r.kafka_failure.has_value(), "Kafka throws: " << c.kafka.front());
      ++failures_seen;
      continue;
    }
    CHECK_FALSE(r.kafka_failure.has_value());
    REQUIRE(c.kafka.size() == c.spec.members.size());
    for (std::size_t m = 0; m < c.spec.members.size(); ++m) {
      std::string ours = c.spec.members[m].id + ": ";
      for (std::size_t i = 0; i < r.partitions[m].size(); ++i) ours += (i ? "," : "") + r.partitions[m][i].name();
      CHECK(ours == c.kafka[m]);
    }
  }
  CHECK(failures_seen == 2);  // the file holds two groups Kafka's sticky assignors fail on
}
