#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::ScratchDir;

TEST_CASE("partsim keys reproduces table T5 as CSV") {
  const auto r = run_cli("keys --template 'book-B{i}' --count 20000 --change 4:8 --change 4:5 --change 8:16 "
                         "--change 8:12 --change 12:6 --format csv");
  CHECK(r.exit_code == 0);
  CHECK(r.out == "from,to,keys,changed,ratio,modulo_stable,predicted_unchanged,example_key,example_old,example_new\n"
                 "4,8,20000,9837,0.4919,20000,0.5000,book-B1,0,4\n"
                 "4,5,20000,16034,0.8017,5001,0.2000,book-B0,0,2\n"
                 "8,16,20000,10044,0.5022,20000,0.5000,book-B3,5,13\n"
                 "8,12,20000,13309,0.6655,10062,0.3333,book-B0,0,8\n"
                 "12,6,20000,9990,0.4995,10010,0.5000,book-B0,8,2\n");
}

TEST_CASE("partsim keys: the first 3000 keys, 4 -> 8, and the flow keeps each key on one target") {
  const auto r = run_cli("keys --template 'book-B{i}' --count 3000 --change 4:8");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("   4   8  3000     1479  0.4930") != std::string::npos);
  const auto flow = run_cli("keys --template 'book-B{i}' --count 3000 --change 4:8 --flow --format csv");
  CHECK(flow.exit_code == 0);
  CHECK(flow.out.rfind("from,to,old_partition,new_partition,keys\n", 0) == 0);
  // The flow, read cell by cell: 4 x 8 cells holding all 3000 keys; a key of old partition
  // o lands on o or o + 4 (murmur2 % 8 % 4 == murmur2 % 4), and the keys that stay are the
  // 3000 - 1479 the summary counts, from another tally.
  std::istringstream rows(flow.out.substr(flow.out.find('\n') + 1));
  std::string row;
  int cells = 0;
  long keys = 0, stayed = 0;
  while (std::getline(rows, row)) {
    int from = 0, to = 0, old_p = 0, new_p = 0;
    long n = 0;
    REQUIRE(std::sscanf(row.c_str(), "%d,%d,%d,%d,%ld", &from, &to, &old_p, &new_p, &n) == 5);
    CAPTURE(row);
    ++cells;
    keys += n;
    if (old_p == new_p) stayed += n;
    if (n > 0) CHECK(new_p % 4 == old_p);
  }
  CHECK(cells == 32);
  CHECK(keys == 3000);
  CHECK(stayed == 3000 - 1479);
}

TEST_CASE("partsim keys reads keys from stdin and prints json") {
  const auto r = run_cli("keys --keys-file - --change 3:6 --format json", "book-0\nbook-1\n");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("\"keys\": 2") != std::string::npos);
  CHECK(r.out.find("\"predicted_unchanged\": 0.5") != std::string::npos);
}

TEST_CASE("bad keys input exits 2 with one line naming the option") {
  struct Case {
    const char* args;
    const char* message;
  };
  const Case cases[] = {
      {"keys --template 'k{i}' --count 10 --change 4",
       "partsim keys: --change: must be FROM:TO with partition counts >= 1, e.g. 4:8, got '4'\n"},
      {"keys --template 'k{i}' --count 10 --change 0:4",
       "partsim keys: --change FROM: must be an integer in [1, 1000000], got 0\n"},
      {"keys --template 'k{i}' --count 10 --change 4:x",
       "partsim keys: --change TO: must be an integer in [1, 1000000], got 'x'\n"},
      {"keys --template 'k' --count 10 --change 4:8",
       "partsim keys: --template: must contain {i} (the key's index), got 'k'\n"},
      {"keys --template 'k{i}' --change 4:8", "partsim keys: --template: needs --count N (how many keys)\n"},
      {"keys --template 'k{i}' --count 0 --change 4:8",
       "partsim keys: --count: must be an integer in [1, 1000000000], got 0\n"},
      {"keys --template 'k{i}' --count 10", "partsim keys: give --change FROM:TO (repeatable) or --plan FROM:TO\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = run_cli(c.args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == c.message);
  }
}

TEST_CASE("partsim keys streams a template: five million keys fit in 100 MB of address space" *
          doctest::skip(partsim::testing::kSanitized)) {
  // Held as strings, five million keys alone would need 160 MB.
  ScratchDir dir;
  const auto out = dir.path / "out.csv";
  const std::string cmd = "ulimit -v 100000; '" + std::string(PARTSIM_BINARY) +
                          "' keys --template 'k{i}' --count 5000000 --change 4:8 --format csv >'" + out.string() + "'";
  CHECK(std::system(cmd.c_str()) == 0);
  CHECK(partsim::testing::slurp(out).find("\n4,8,5000000,") != std::string::npos);
}

TEST_CASE("partsim keys refuses a --flow matrix past the memory limit unless --allow-large") {
  const auto r = run_cli("keys --template 'k{i}' --count 10 --change 1000000:1000000 --flow");
  CHECK(r.exit_code == 2);
  CHECK(
      r.err ==
      "partsim keys: --flow: refused: 1e+12 cells of FROM x TO counts need 7450.6 GiB (limit 8 GiB); drop --flow or use "
      "smaller partition counts, or pass --allow-large\n");
  CHECK(r.out.empty());
  // Without --flow nothing is held: the same change counts fine.
  CHECK(run_cli("keys --template 'k{i}' --count 10 --change 1000000:1000000").exit_code == 0);
}

TEST_CASE("partsim keys --plan: the book's key counts (T5, T10), the two-rule window and every candidate count") {
  // T10: 3,000 keys book-B0..book-B2999 from 4 to 8 partitions: 1,479 change (0.4930).
  const auto t10 = run_cli("keys --template 'book-B{i}' --count 3000 --plan 4:8");
  REQUIRE(t10.exit_code == 0);
  CHECK(t10.out.find("keys moved: 1479 of 3000 (0.4930); predicted for uniform hashes 0.5000") != std::string::npos);
  // Kafka's default metadata.max.age.ms 300000 and 1000 records/s: 150 s expected, 300 s at
  // most; 150,000 records by the old rule, 0.4930 of them misrouted.
  CHECK(t10.out.find("one producer: 150000 ms expected, 300000 ms at most") != std::string::npos);
  CHECK(t10.out.find("150000 records routed by the old rule expected (300000 at most), 73950 of them") !=
        std::string::npos);
  CHECK(t10.out.find("\n 8  3000     1479  0.4930           0.5000         *       <-\n") != std::string::npos);

  // T5's 20,000 keys: the candidates 5 and 8 give its rows 4 -> 5 and 4 -> 8.
  const auto csv = run_cli("keys --template 'book-B{i}' --count 20000 --plan 4:12 --format csv");
  REQUIRE(csv.exit_code == 0);
  CHECK(
      csv.out.rfind("to,keys,changed,ratio,predicted_ratio,multiple,planned\n5,20000,16034,0.8017,0.8000,false,false\n",
                    0) == 0);
  CHECK(csv.out.find("\n8,20000,9837,0.4919,0.5000,true,false\n") != std::string::npos);
  CHECK(csv.out.find("\n12,20000,") != std::string::npos);
  CHECK(csv.out.find(",true,true\n") != std::string::npos);
  std::size_t rows = 0;
  for (char c : csv.out) rows += c == '\n';
  CHECK(rows == 1 + 12);  // 5 .. 16

  // Three producers at 1 s and 600 records/s: the last sees the change after 750 ms expected.
  const auto json = run_cli(
      "keys --template 'k{i}' --count 1000 --plan 3:6 --rate 600 --metadata-max-age 1000 --producers 3 --format json");
  REQUIRE(json.exit_code == 0);
  CHECK(json.out.find("\"all_producers_expected_ms\": 750.0") != std::string::npos);
  CHECK(json.out.find("\"producer_expected_ms\": 500.0") != std::string::npos);
  CHECK(json.out.find("\"records_old_rule_expected\": 300.0") != std::string::npos);
  CHECK(json.out.find("\"records_old_rule_max\": 600.0") != std::string::npos);
  CHECK(json.out.find("\"candidates\": [") != std::string::npos);
}

TEST_CASE("partsim keys --plan refuses what Kafka refuses, and options that need it") {
  const auto decrease = run_cli("keys --template 'k{i}' --count 10 --plan 8:4");
  CHECK(decrease.exit_code == 2);
  CHECK(decrease.err.find("\"The topic currently has 8 partition(s); 4 would not be an increase.\"") !=
        std::string::npos);
  const auto same = run_cli("keys --template 'k{i}' --count 10 --plan 8:8");
  CHECK(same.exit_code == 2);
  CHECK(same.err.find("\"Topic already has 8 partition(s).\"") != std::string::npos);
  const auto both = run_cli("keys --template 'k{i}' --count 10 --plan 4:8 --change 4:8");
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--plan: not with --change") != std::string::npos);
  const auto rate = run_cli("keys --template 'k{i}' --count 10 --change 4:8 --rate 5");
  CHECK(rate.exit_code == 2);
  CHECK(rate.err.find("--rate: only with --plan") != std::string::npos);
  const auto negative = run_cli("keys --template 'k{i}' --count 10 --plan 4:8 --rate -1");
  CHECK(negative.exit_code == 2);
  CHECK(negative.err.find("--rate") != std::string::npos);
  const auto bad_to = run_cli("keys --template 'k{i}' --count 10 --plan 4:x");
  CHECK(bad_to.err == "partsim keys: --plan TO: must be an integer in [1, 1000000], got 'x'\n");
  // 10^8 keys x 3,000 candidates: refused before counting, with the way out.
  const auto slow = run_cli("keys --template 'k{i}' --count 100000000 --plan 1000:2000");
  CHECK(slow.exit_code == 2);
  CHECK(slow.err.find("--plan: refused: 100000000 keys x 3000 candidate counts") != std::string::npos);
  const auto neither = run_cli("keys --template 'k{i}' --count 10");
  CHECK(neither.exit_code == 2);
  CHECK(neither.err.find("give --change FROM:TO (repeatable) or --plan FROM:TO") != std::string::npos);
}
