// partsim run and compare with consumer groups, end to end: the JSON sections issue 13
// specifies, the CSV files of --out, and eager vs cooperative side by side.

#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::ScratchDir;
using partsim::testing::slurp;

namespace {

std::string example(const char* name) { return std::string(PARTSIM_SOURCE_DIR) + "/scenarios/examples/" + name; }

}  // namespace

TEST_CASE("partsim run reports each consumer group and the first records processed") {
  const auto r = run_cli("run '" + example("consumer-join-eager.yaml") + "' --format json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["consumer_groups"].size() == 1);
  const auto& g = j["consumer_groups"][0];
  for (const char* key :
       {"group", "protocol", "assignor", "members", "records_consumed", "duplicates", "order_violations",
        "keys_out_of_order", "lag_max", "e2e_latency_ms", "rebalances", "idle_members"})
    CHECK_MESSAGE(g.contains(key), key);
  CHECK(g["group"] == "billing");
  CHECK(g["protocol"] == "classic");
  CHECK(g["assignor"] == "range");
  CHECK(g["members"].size() == 4);
  CHECK(g["members"][3]["member"] == "c3");
  CHECK(g["members"][3]["partitions"].size() == 3);
  // Every acked record consumed once: range rebalances eagerly, committing first.
  CHECK(g["records_consumed"] == j["records_acked"]);
  CHECK(g["duplicates"] == 0);
  CHECK(g["order_violations"] == 0);
  REQUIRE(g["rebalances"].size() == 2);
  CHECK(g["rebalances"][1]["kind"] == "eager");
  CHECK(g["rebalances"][1]["at_ms"] == 10000.0);
  CHECK(g["rebalances"][1]["pause_max_ms"].get<double>() > 0);
  CHECK(g["e2e_latency_ms"]["p99"].get<double>() >= g["e2e_latency_ms"]["p50"].get<double>());
  // The trace: the first run.trace (40) records processed, each named by group, member,
  // partition, offset and key.
  REQUIRE(j["consume_trace"].size() == 40);
  CHECK(j["consume_trace"][0]["group"] == "billing");
  CHECK(j["consume_trace"][0]["key"].get<std::string>().rfind("order-", 0) == 0);
}

TEST_CASE("partsim run --out writes the groups' CSV, and their lag over time with --timeseries") {
  ScratchDir dir;
  const auto r = run_cli("run '" + example("consumer-join-cooperative.yaml") + "' --timeseries 1000 --out '" +
                         dir.path.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("consumer group billing (classic, cooperative-sticky)") != std::string::npos);
  const std::string groups = slurp(dir.path / "consumer_groups.csv");
  CHECK(groups.rfind("group,protocol,assignor,members,records_consumed,duplicates,order_violations", 0) == 0);
  CHECK(groups.find("\nbilling,classic,cooperative-sticky,4,") != std::string::npos);
  const std::string lag = slurp(dir.path / "consumer_lag.csv");
  CHECK(lag.rfind("group,time_ms,partition,lag\nbilling,0.000,orders-0,0\n", 0) == 0);
}

TEST_CASE("compare puts eager and cooperative rebalances on a member join side by side") {
  const auto r = run_cli(
      "compare '" + example("consumer-join-eager.yaml") +
      "' --variant eager:consumers.0.config.partition.assignment.strategy=[range]"
      " --variant cooperative:consumers.0.config.partition.assignment.strategy=[cooperative-sticky] --format json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  auto metric = [&](std::size_t run, const std::string& name) { return j["runs"][run]["metrics"][name].get<double>(); };
  CHECK(j["runs"][0]["name"] == "eager");
  CHECK(j["runs"][1]["name"] == "cooperative");
  // Eager stops every partition until the last member has rejoined; cooperative only the
  // three that move to the new member, over two rounds, and without a commit on revoke.
  CHECK(metric(0, "group.billing.pause_sum_ms") > metric(1, "group.billing.pause_sum_ms"));
  CHECK(metric(0, "group.billing.duplicates") == 0);
  CHECK(metric(1, "group.billing.duplicates") > 0);
  CHECK(metric(0, "group.billing.rebalances") == 1);
  const auto table =
      run_cli("compare '" + example("consumer-join-eager.yaml") +
              "' --variant eager:consumers.0.config.partition.assignment.strategy=[range]"
              " --variant cooperative:consumers.0.config.partition.assignment.strategy=[cooperative-sticky]");
  CHECK(table.out.find("group.billing.pause_max_ms") != std::string::npos);
}

TEST_CASE(
    "a key spread over partitions is seen out of order when they are consumed at different speeds; a hashed key is not") {
  const auto r =
      run_cli("compare '" + example("consumer-key-order.yaml") + "' --partitioners round-robin,builtin --format json");
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  auto metric = [&](std::size_t run, const std::string& name) { return j["runs"][run]["metrics"][name].get<double>(); };
  REQUIRE(j["runs"][0]["name"] == "round-robin");
  // Round robin ignores keys: all 20 keys span the 3 partitions, and c0 (two partitions)
  // lags behind c1 (one).
  CHECK(metric(0, "group.audit.order_violations") > 1000);
  CHECK(metric(0, "group.audit.keys_out_of_order") == 20);
  // The default partitioner hashes the key: one partition per key, order kept, no failures.
  CHECK(metric(1, "group.audit.order_violations") == 0);
  CHECK(metric(1, "group.audit.keys_out_of_order") == 0);
  CHECK(metric(1, "records_failed") == 0);
  CHECK(metric(0, "group.audit.duplicates") == 0);
}

TEST_CASE("a replicated run summarizes the group metrics beside the run-wide ones") {
  const auto r = run_cli("run '" + example("consumer-join-eager.yaml") + "' --replications 2 --threads 1");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("\ngroup.billing.pause_sum_ms ") != std::string::npos);
  CHECK(r.out.find("\ngroup.billing.order_violations ") != std::string::npos);
}
