// partsim book: the verdict table, its criteria, and tests in which the book must fail —
// a wrong published figure, and a model knob that breaks the rule behind an entry.
// Few replications and only the entries involved (--only), so each case runs in a second.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;

namespace {

// The verdict of one random row ("pass"/"fail") in a `--format json` output.
std::string verdict(const nlohmann::json& j, const std::string& key) {
  for (const auto& e : j.at("random"))
    if (e.at("key") == key) return e.at("verdict");
  return "absent";
}

nlohmann::json book_json(const std::string& args, int expected_exit) {
  const auto r = run_cli("book --replications 20 --format json " + args);
  CAPTURE(args);
  CAPTURE(r.err);
  CHECK(r.exit_code == expected_exit);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("the whole book at its defaults: every exact entry matches, one random entry does not") {
  // The one: the book's R2 counts (largest 61 of 300 over 6, max / mean 1.22) lie below
  // all 800 of partsim's outcome replications, p = 2 / 801 = 0.0025 < 0.05 / 10; with
  // 100,000 replications its p-value is 0.0078 (README, partsim book). Every other row,
  // outcome rows at the Bonferroni threshold included, passes.
  const auto r = run_cli("book --format json");
  CHECK(r.exit_code == 1);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("exact").size() == 21);
  for (const auto& e : j.at("exact")) {
    CAPTURE(e.dump());
    CHECK(e.at("verdict") == "exact");
  }
  CHECK(j.at("replications") == 100);
  CHECK(j.at("outcome_replications") == 800);
  CHECK(j.at("outcome_rows") == 10);
  CHECK(j.at("outcome_threshold") == 0.005);
  CHECK(j.at("random").size() == 28);
  std::size_t outcome = 0;
  for (const auto& e : j.at("random")) {
    CAPTURE(e.dump());
    CHECK(e.at("partsim").at("undefined") == 0);
    CHECK(e.at("verdict") == (e.at("key") == "R2.max-over-mean" ? "fail" : "pass"));
    const bool against_published = e.at("test") == "published_not_in_tails" || e.at("test") == "published_in_mean_ci99";
    CHECK(e.contains("bounds") != against_published);
    CHECK(e.contains("published_value") == against_published);
    if (e.at("test") != "published_not_in_tails") {
      CHECK(e.at("partsim").at("replications") == 100);
      continue;
    }
    ++outcome;
    CHECK(e.at("partsim").at("replications") == 800);
    CHECK(e.at("threshold") == 0.005);
    CHECK((e.at("partsim").at("p_value") >= 0.005) == (e.at("verdict") == "pass"));
  }
  CHECK(outcome == 10);
  const auto& r2 = j.at("random")[5];
  REQUIRE(r2.at("key") == "R2.max-over-mean");
  CHECK(r2.at("partsim").at("p_value") == doctest::Approx(2.0 / 801).epsilon(1e-5));
  CHECK(r2.at("partsim").at("at_or_below") == 0);
  CHECK(j.at("all_reproduced") == false);
}

TEST_CASE("the verdict table prints each random entry's statistic, criterion and reason") {
  const auto r = run_cli("book --replications 20 --outcome-replications 200 --only R1,R4.far-below-3000");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("statistic") != std::string::npos);
  CHECK(r.out.find("\nR1.run-length ") != std::string::npos);  // rows under the keys --only and --published take
  CHECK(r.out.find("criterion") != std::string::npos);
  CHECK(r.out.find("every replication in [1.000, 1.000]") != std::string::npos);
  CHECK(r.out.find("published 0.167 inside the 99% CI of partsim's mean") != std::string::npos);
  CHECK(r.out.find("p of published 1.86 >= 0.0167 (0.05 / 3)") != std::string::npos);
  CHECK(r.out.find("20 replications, 200 for one run's outcomes.") != std::string::npos);
  CHECK(r.out.find("it fails below 0.05 / 3 = 0.0167 (Bonferroni over the 3 outcome rows run") != std::string::npos);
  CHECK(r.out.find("median in [0.000, 0.500)") != std::string::npos);
  CHECK(r.out.find("'far below': less than half of KIP-480's excess") != std::string::npos);
  CHECK(r.out.find("'about x' reads as x ± 10% in every claim") != std::string::npos);
  CHECK(r.out.find("6 of 6 entries reproduced.") != std::string::npos);
  CHECK(r.out.find("T1 ") == std::string::npos);  // --only left the exact entries out
}

TEST_CASE("the json holds the criterion and the statistic of every random entry") {
  const auto j = book_json("--outcome-replications 200 --only R3,R4.even-100", 0);
  REQUIRE(j.at("random").size() == 4);
  const auto& hot = j.at("random")[0];
  CHECK(hot.at("key") == "R3.hot");
  CHECK(hot.at("test") == "published_not_in_tails");
  CHECK(hot.at("published_value") == 251.0);
  CHECK(hot.at("threshold") == doctest::Approx(0.05 / 3).epsilon(1e-5));
  CHECK(hot.at("criterion") == "p of published 251 >= 0.0167 (0.05 / 3)");
  CHECK(hot.at("partsim").at("replications") == 200);
  CHECK(hot.at("partsim").at("undefined") == 0);
  // p from the counts it prints: 2 min(1 + below, 1 + above) / (R + 1), at most 1.
  const double below = hot.at("partsim").at("at_or_below"), above = hot.at("partsim").at("at_or_above");
  CHECK(hot.at("partsim").at("p_value") == doctest::Approx(std::min(1.0, 2 * (1 + std::min(below, above)) / 201)).epsilon(1e-5));
  CHECK(hot.at("partsim").at("p_value") > 0.1);
  CHECK_FALSE(hot.contains("bounds"));
  const auto& even = j.at("random")[3];
  CHECK(even.at("test") == "median_in");
  CHECK(even.at("criterion") == "median in [0.300, 0.367]");
  CHECK(even.at("bounds").at("lo") == doctest::Approx(0.3));
  CHECK(even.at("reason") == "'about a third': 1/3 ± 10%");
  CHECK(even.at("partsim").at("replications") == 20);
  CHECK_FALSE(even.at("partsim").contains("p_value"));
  CHECK(j.at("about_tolerance") == 0.1);
  CHECK(j.at("family_alpha") == 0.05);
  CHECK(j.at("outcome_rows") == 3);
  CHECK(j.at("all_reproduced") == true);
}

TEST_CASE("the Bonferroni threshold is 0.05 over the outcome rows run, and decides the same p-value both ways") {
  // A hot partition of 233: 3 of 400 replications at or below it, p = 2 (1 + 3) / 401
  // = 0.020. Alone (0.05 / 1) that is in the tail; among R3's three outcome rows
  // (0.05 / 3 = 0.0167) it is not.
  const std::string hot_233 = "--outcome-replications 400 --published R3.counts=11,13,9,11,5,233 ";
  auto j = book_json(hot_233 + "--only R3.hot", 1);
  CHECK(j.at("outcome_rows") == 1);
  CHECK(j.at("outcome_threshold") == 0.05);
  CHECK(j.at("random")[0].at("partsim").at("p_value") == doctest::Approx(8.0 / 401).epsilon(1e-5));
  CHECK(verdict(j, "R3.hot") == "fail");
  j = book_json(hot_233 + "--only R3", 0);
  CHECK(j.at("outcome_rows") == 3);
  CHECK(j.at("random")[0].at("partsim").at("p_value") == doctest::Approx(8.0 / 401).epsilon(1e-5));
  CHECK(verdict(j, "R3.hot") == "pass");
  // Claims are not in the family: R4.even-100 adds no outcome row.
  j = book_json("--outcome-replications 200 --only R3,R1.cv,R4.even-100", 0);
  CHECK(j.at("outcome_rows") == 4);
  CHECK(j.at("outcome_threshold") == 0.0125);
  j = book_json("--only R4.even-100 --outcome-replications 2", 0);  // no outcome row: nothing to resolve
  CHECK(j.at("outcome_rows") == 0);
}

TEST_CASE("too few outcome replications to resolve the threshold are refused, naming the option and the minimum") {
  auto r = run_cli("book --only R3 --outcome-replications 119");
  CHECK(r.exit_code == 2);
  CHECK(r.err ==
        "partsim book: --outcome-replications: 119 cannot resolve the threshold 0.05 / 3 outcome rows = 0.0167: the smallest "
        "p-value of R replications is 2 / (R + 1), so at least 120 are needed\n");
  CHECK(r.out.empty());
  CHECK(run_cli("book --only R3 --replications 20 --outcome-replications 120").exit_code == 0);
  r = run_cli("book --outcome-replications 399");  // the whole book: 10 outcome rows, refused before any run
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("399 cannot resolve the threshold 0.05 / 10 outcome rows = 0.0050") != std::string::npos);
  CHECK(r.err.find("at least 400 are needed") != std::string::npos);
  r = run_cli("book --outcome-replications 1");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--outcome-replications") != std::string::npos);
}

TEST_CASE("a wrong published figure turns its verdict to failing and the exit code to 1") {
  const auto right = book_json("--outcome-replications 240 --only R1,R3", 0);
  CHECK(verdict(right, "R1.run-length") == "pass");
  CHECK(verdict(right, "R3.hot") == "pass");
  // Runs of 15: no complete run is a multiple of 15 long.
  auto j = book_json("--only R1 --published R1.run-length=15", 1);
  CHECK(verdict(j, "R1.run-length") == "fail");
  CHECK(verdict(j, "R1.cv") == "pass");
  CHECK(j.at("published_replaced") == nlohmann::json::array({"R1.run-length"}));
  // 300 records on the hot partition: beyond every replication, the smallest p, 2 / 201.
  j = book_json("--outcome-replications 200 --only R3 --published R3.counts=11,13,9,11,5,300", 1);
  CHECK(verdict(j, "R3.hot") == "fail");
  CHECK(j.at("random")[0].at("partsim").at("p_value") == doctest::Approx(2.0 / 201).epsilon(1e-5));
  CHECK(verdict(j, "R3.largest-other") == "pass");
  // An even split of KAFKA-9965's 48 partitions is not what partsim's round robin gives.
  // R6's run costs 24 ms, so its rows run alone with the fewest replications that
  // resolve 0.05 / 1.
  const auto r6 = book_json("--outcome-replications 40 --only R6", 0);
  CHECK(verdict(r6, "R6.lower-half") == "pass");
  j = book_json("--outcome-replications 40 --only R6 --published R6.lower-half=2050", 1);
  CHECK(verdict(j, "R6.lower-half") == "fail");
  CHECK(j.at("random")[0].at("partsim").at("p_value") == doctest::Approx(2.0 / 41).epsilon(1e-5));
  CHECK(verdict(j, "R6.split") == "pass");
}

TEST_CASE("the batch-boundary rule off fails the fragmentation entry") {
  const auto with_rule = book_json("--only R5", 0);
  CHECK(verdict(with_rule, "R5.batch-kb") == "pass");
  const auto j = book_json("--only R5 --set 'producers.*.config.partsim.sticky.align-batches=false'", 1);
  CHECK(verdict(j, "R5.batch-kb") == "fail");         // 4 KB fragments among the batches
  CHECK(verdict(j, "R5.builtin-windows") == "fail");  // a stick of 16384 B, not two windows
  CHECK(verdict(j, "R5.kip480-windows") == "pass");   // KIP-480 has no such rule
  CHECK(verdict(j, "R5.fragment-kb") == "pass");
  CHECK(j.at("sets") == nlohmann::json::array({"producers.*.config.partsim.sticky.align-batches=false"}));
}

TEST_CASE("KIP-480 or no adaptive weights in place of the built-in partitioner fail R4") {
  const auto rows = std::string("--only R4.above-3000,R4.far-below-3000,R4.adaptive-3000");
  const auto builtin = book_json(rows, 0);
  CHECK(verdict(builtin, "R4.far-below-3000") == "pass");
  CHECK(verdict(builtin, "R4.adaptive-3000") == "pass");
  auto j = book_json(rows + " --set 'producers.*.config.partitioner=sticky-kip480'", 1);
  CHECK(verdict(j, "R4.far-below-3000") == "fail");  // the "builtin" now is KIP-480
  j = book_json(rows + " --set 'producers.*.config.partitioner.adaptive.partitioning.enable=false'", 1);
  CHECK(verdict(j, "R4.adaptive-3000") == "fail");   // on / off = 1: adaptive lowers nothing
  CHECK(verdict(j, "R4.far-below-3000") == "pass");
}

TEST_CASE("keys hashed despite ignore.keys, or a larger batch.size, fail R2 and R1") {
  // Hashed keys give the same counts in every replication, none equal to the book's.
  auto j = book_json("--outcome-replications 200 --only R2 --set 'producers.*.config.partitioner.ignore.keys=false'", 1);
  CHECK(verdict(j, "R2.min-over-mean") == "fail");
  CHECK(j.at("random")[1].at("partsim").at("p_value") == doctest::Approx(2.0 / 201).epsilon(1e-5));
  j = book_json("--only R1.run-length --set 'producers.*.config.batch.size=2048'", 1);
  CHECK(verdict(j, "R1.run-length") == "fail");  // runs of 27 records
}

TEST_CASE("the book's output does not depend on the thread count") {
  // Rows with different replication counts share R1's setup (R1.run-length reads the first
  // 20 of the 200 runs R1's outcome rows read), so this also pins which runs each row reads.
  const std::string args = "book --replications 20 --outcome-replications 200 --only R1,R3.hot --format json";
  const auto one = run_cli(args + " --threads 1");
  CHECK(one.exit_code == 0);
  CHECK(run_cli(args + " --threads 3").out == one.out);
  CHECK(run_cli(args + " --threads 2").out == one.out);
}

TEST_CASE("a --set an entry's scenario refuses marks that entry not run") {
  const auto r = run_cli("book --only T2,T4 --set 'producers.*.config.partitioner=sticky-kip480'");
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("not run: T4: book/hot-key-partitioner.yaml: ") != std::string::npos);
  CHECK(r.out.find("1 of 2 entries reproduced.") != std::string::npos);
}

TEST_CASE("bad book options exit 2 naming the option") {
  auto r = run_cli("book --only R9");
  CHECK(r.exit_code == 2);
  CHECK(r.err.rfind("partsim book: --only: unknown entry 'R9' (known: T1, T2, T3, T4, T5, T6, T7, T8, R1, R1.run-length,", 0) == 0);
  r = run_cli("book --published R1.counts=1,2");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "partsim book: --published: R1.counts: needs 6 numbers (one per partition, p0 first), got 2\n");
  r = run_cli("book --only R1 --set producers.0.config.lingr.ms=1");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown key 'lingr.ms'") != std::string::npos);
  CHECK(r.out.empty());
}
