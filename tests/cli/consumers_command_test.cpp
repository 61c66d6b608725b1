#include <doctest/doctest.h>

#include <string>

#include "cli/cli_runner.hpp"
#include "cli/json_output.hpp"

using partsim::testing::compact_json;
using partsim::testing::run_cli;
using partsim::testing::ScratchDir;

namespace {

// Two members own everything; a third joins. Six partitions, three members: two each. In
// HashMap order c0, c1, c2: c0 keeps orders-0 and payments-0 (partition order first), c1
// payments-1 and orders-2; orders-1 and orders-3 go to c2, once their owners have revoked them.
const char* kTwoOwners = R"({"members": [
  {"member": "c0", "rack": "a", "owned": ["orders-0", "orders-1", "payments-0"], "generation": 2},
  {"member": "c1", "rack": "b", "owned": ["orders-2", "orders-3", "payments-1"], "generation": 2}]})";

}  // namespace

TEST_CASE("partsim consumers prints its table and JSON exactly") {
  ScratchDir dir;
  const auto file = dir.write("members.json", kTwoOwners);
  const std::string args = "consumers --topics orders:4,payments:2 --members 3 --members-file '" + file.string() +
                           "' --assignor cooperative-sticky";
  const auto table = run_cli(args);
  CHECK(table.exit_code == 0);
  CHECK(table.err.empty());
  CHECK(table.out == R"(cooperative-sticky: 6 partitions of 2 topics to 3 members, 2 rebalances

member  rack  partitions  assigned
c0      a              2  orders[0] payments[0]
c1      b              2  orders[2] payments[1]
c2      -              2  orders[1,3]

spread: every member has 2 partitions
idle: none
moved: 2 partitions change owner

partition  from  to
orders-1   c0    c2
orders-3   c1    c2

withheld by the first rebalance until revoked (KIP-429): orders-1 (c0 -> c2), orders-3 (c1 -> c2)
)");
  const auto json = run_cli(args + " --format json");
  CHECK(json.exit_code == 0);
  CHECK(
      compact_json(json.out) ==
      R"({"assignor":"cooperative-sticky","members":[{"member":"c0","partitions":["orders-0","payments-0"]},)"
      R"({"member":"c1","partitions":["orders-2","payments-1"]},{"member":"c2","partitions":["orders-1","orders-3"]}],"idle":[],"left":[],)"
      R"("moved":[{"partition":"orders-1","from":"c0","to":"c2"},{"partition":"orders-3","from":"c1","to":"c2"}],)"
      R"("spread":{"min":2,"max":2},"rebalances":2,"withheld":[{"partition":"orders-1","from":["c0"],"to":"c2"},)"
      R"({"partition":"orders-3","from":["c1"],"to":"c2"}],"warnings":[]})");
}

TEST_CASE("partsim consumers without a file: ids c0..c4 (c00..c11 for 12), range by subscriber order, idle members") {
  const auto five = run_cli("consumers --topics orders:12,payments:6 --members 5 --assignor range --format json");
  CHECK(five.exit_code == 0);
  CHECK(compact_json(five.out).find(R"({"member":"c4","partitions":["orders-10","orders-11","payments-5"]})") !=
        std::string::npos);
  const auto twelve = run_cli("consumers --topics orders:3 --members 12 --assignor roundrobin");
  CHECK(twelve.exit_code == 0);
  CHECK(twelve.out.find("c00              1  orders[0]\n") != std::string::npos);
  CHECK(twelve.out.find("idle: c03, c04, c05, c06, c07, c08, c09, c10, c11 (no partition for them)\n") !=
        std::string::npos);
}

TEST_CASE(
    "partsim consumers: fewer --members than the file keeps the first; --member-racks and --brokers make range rack-aware") {
  ScratchDir dir;
  const auto file = dir.write("members.json", kTwoOwners);
  const auto shrink = run_cli("consumers --topics orders:4,payments:2 --members 1 --members-file '" + file.string() +
                              "' --assignor sticky --format json");
  CHECK(shrink.exit_code == 0);
  CHECK(compact_json(shrink.out).find(R"("left":["c1"],"moved":[{"partition":"orders-2","from":"c1","to":"c0"},)") !=
        std::string::npos);
  // Brokers on racks a, b, c, one replica each: partition p lives on rack p mod 3. With members
  // on those racks, range gives each member the partitions of its own rack.
  const auto racks =
      run_cli("consumers --topics t:6 --members 3 --member-racks c,a,b --brokers 0:a,1:b,2:c --rf 1 --assignor range");
  CHECK(racks.exit_code == 0);
  CHECK(racks.out.find("c0      c              2  t[2,5]\n") != std::string::npos);
  CHECK(racks.out.find("c1      a              2  t[0,3]\n") != std::string::npos);
  CHECK(racks.out.find("c2      b              2  t[1,4]\n") != std::string::npos);
}

TEST_CASE("partsim consumers reports a group Kafka's sticky assignor fails on") {
  ScratchDir dir;
  const auto file =
      dir.write("members.json",
                R"({"members": [{"member": "c46", "topics": ["t0"], "owned": ["t0-0", "t0-1"], "generation": 3},
    {"member": "c33", "topics": ["t0"], "generation": 2}, {"member": "c48", "topics": ["t1"], "owned": ["t0-0"]}]})");
  const auto r = run_cli("consumers --topics t0:2,t1:1 --members-file '" + file.string() + "' --assignor sticky");
  CHECK(r.exit_code == 0);
  CHECK(
      r.out.find(
          "\nwarning: Kafka's sticky assignor throws a NullPointerException here (AbstractStickyAssignor.java:1412), so the rebalance fails: "
          "t0-0's owner of an older generation, c48,") != std::string::npos);
}

TEST_CASE("partsim consumers refuses bad input with the option or the file and JSON path, exit 2") {
  ScratchDir dir;
  const auto expect = [](const std::string& args, const std::string& message) {
    const auto r = run_cli("consumers " + args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "partsim consumers: " + message + "\n");
  };
  expect(
      "--topics orders:12 --members 3 --assignor rnge",
      "--assignor: must be range, roundrobin, sticky, cooperative-sticky, consumer-uniform or consumer-range, got 'rnge'");
  expect("--topics orders --members 3 --assignor range",
         "--topics: must be TOPIC:PARTITIONS,... such as orders:12,payments:6, got 'orders'");
  expect("--topics orders:0 --members 3 --assignor range",
         "--topics: orders: the partition count must be an integer in [1, 100000], got '0'");
  expect("--topics a:60000,b:50000 --members 3 --assignor range",
         "--topics: 110000 partitions in all; partsim consumers takes at most 100000");
  expect("--topics orders:12 --assignor range", "give --members N, --members-file FILE, or both");
  expect("--topics orders:12 --members 3 --assignor range --rf 2",
         "--rf: needs --brokers (the brokers that hold the replicas)");
  const auto unknown = dir.write("unknown.json", R"({"members": [{"member": "c0", "topics": ["orders", "refunds"]}]})");
  expect("--topics orders:12 --members-file '" + unknown.string() + "' --assignor range",
         unknown.string() + ": members[0].topics[1]: unknown topic 'refunds'; --topics has orders");
  const auto twice = dir.write("twice.json", R"({"members": [{"member": "c0"}, {"member": "c0"}]})");
  expect("--topics orders:12 --members-file '" + twice.string() + "' --assignor range",
         twice.string() + ": members[1].member: 'c0' is listed twice (also members[0])");
  const auto broken = dir.write("broken.json", "{\"members\": [\n  {\"member\": \"c0\"\n]}");
  const auto r = run_cli("consumers --topics orders:12 --members-file '" + broken.string() + "' --assignor range");
  CHECK(r.exit_code == 2);
  CHECK(r.err.rfind("partsim consumers: " + broken.string() + ":3:1: invalid JSON", 0) == 0);
  const auto none = dir.write("none.json", R"({"members": [{"member": "c0", "topics": []}]})");
  expect("--topics orders:12 --members-file '" + none.string() + "' --assignor sticky",
         none.string() +
             ": member c0 subscribes to no topic: a classic consumer without a subscription does not join the group "
             "(consumer-uniform and consumer-range take it)");
  const auto shared =
      dir.write("shared.json",
                R"({"members": [{"member": "c0", "owned": ["orders-1"]}, {"member": "c1", "owned": ["orders-1"]}]})");
  expect("--topics orders:12 --members-file '" + shared.string() + "' --assignor consumer-uniform",
         shared.string() +
             ": orders-1 is owned by c0 and c1: a KIP-848 target assignment gives each partition to one member");
}
