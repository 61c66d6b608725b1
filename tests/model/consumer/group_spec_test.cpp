#include <doctest/doctest.h>

#include "model/consumer/group_spec.hpp"

using namespace partsim::model::consumer;

TEST_CASE("member ids are zero-padded to the width of the member count") {
  CHECK(member_id("c", 0, 5) == "c0");
  CHECK(member_id("c", 4, 5) == "c4");
  CHECK(member_id("c", 0, 12) == "c00");
  CHECK(member_id("c", 11, 12) == "c11");
  CHECK(member_id("worker-", 7, 100) == "worker-007");
}

TEST_CASE("striped replicas put partition p on brokers p, p+1, ... and take their racks") {
  const auto racks = striped_replica_racks(4, {"a", "b", "c"}, 2);
  REQUIRE(racks.size() == 4);
  CHECK(racks[0] == std::vector<std::string>{"a", "b"});
  CHECK(racks[2] == std::vector<std::string>{"c", "a"});
  CHECK(racks[3] == std::vector<std::string>{"a", "b"});
  CHECK(striped_replica_racks(2, {}, 3) == std::vector<std::vector<std::string>>{{}, {}});
}
