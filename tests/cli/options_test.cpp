// Every command's options are validated: a bad value exits 2 with one line naming it.

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "cli/options.hpp"

using partsim::testing::run_cli;
using partsim::testing::slurp;

TEST_CASE("bad option values exit 2 with one line naming the option") {
  const std::string s = std::string("'") + PARTSIM_SOURCE_DIR + "/scenarios/book/keyed.yaml'";
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"run " + s + " --replications 0", "partsim run: --replications: must be an integer in [1, 100000], got 0\n"},
      {"run " + s + " --threads -1", "partsim run: --threads: must be an integer in [0, 1024], got -1\n"},
      {"run " + s + " --timeseries abc", "partsim run: --timeseries: must be a number in [0.001, 1e+09], got 'abc'\n"},
      {"run " + s + " --seed x", "partsim run: --seed: must be an integer in [0, 9223372036854775807], got 'x'\n"},
      {"run " + s + " --format xml", "partsim run: --format: must be table, csv or json, got 'xml'\n"},
      {"run " + s + " --out /proc/nope",
       "partsim run: --out: cannot create directory '/proc/nope': No such file or directory\n"},
      {"run " + s + " --set run.records=-3",
       "partsim run: --set run.records=-3: run.records: must be an integer in [1, 1125899906842624], got -3\n"},
      {"compare " + s + " --partitioners builtin --sweep x",
       "partsim compare: --sweep: must be KEY=V1,V2,..., got 'x'\n"},
      {"compare " + s + " --partitioners builtin --replications 1e3",
       "partsim compare: --replications: must be an integer in [1, 100000], got '1e3'\n"},
      {"book --replications 1", "partsim book: --replications: must be an integer in [2, 100000], got 1\n"},
      {"book --format csv", "partsim book: --format: must be table or json, got 'csv'\n"},
      {"keys --template 'k{i}' --count 5 --change 4:8 --flow=yes",
       "partsim keys: option '--flow' does not take any arguments\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = run_cli(c.args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == c.message);
    CHECK(r.out.empty());
  }
}

TEST_CASE("byte sizes, rates and broker id ranges") {
  using partsim::cli::parse_bytes;
  using partsim::cli::parse_id_ranges;
  CHECK(parse_bytes("1073741824", "--x") == 1073741824);
  CHECK(parse_bytes("1.5GB", "--x") == 1'500'000'000);
  CHECK(parse_bytes("500 MiB", "--x") == 500LL * 1024 * 1024);
  CHECK(parse_bytes("50MB/s", "--x", true) == 50'000'000);
  CHECK_THROWS_WITH(parse_bytes("50MB/s", "--x"), "--x: must be bytes, e.g. 500000000, 500MB, 1.5GiB, got '50MB/s'");
  CHECK_THROWS(parse_bytes("1e30", "--x"));
  CHECK_THROWS(parse_bytes("", "--x"));
  CHECK(parse_id_ranges("0-3,7", "--t") == std::vector<std::int32_t>{0, 1, 2, 3, 7});
  CHECK_THROWS_WITH(parse_id_ranges("0-3,2", "--t"), "--t: broker 2 is listed twice");
  CHECK_THROWS(parse_id_ranges("0-", "--t"));
  CHECK_THROWS(parse_id_ranges("-1", "--t"));
}

TEST_CASE("an interrupted run exits 1 with its partial results") {
  // SIGINT to a long run two seconds in: it stops and reports what it has, "partial". (Half a
  // second was too short for a sanitized build on a busy machine: the signal came before the
  // program had set its handler, and the shell's default killed it, exit 130.)
  partsim::testing::ScratchDir dir;
  const std::string out = (dir.path / "out").string(), err = (dir.path / "err").string(),
                    rc = (dir.path / "rc").string();
  const std::string cmd =
      "'" + std::string(PARTSIM_BINARY) + "' run '" + PARTSIM_SOURCE_DIR +
      "/scenarios/slow-broker.yaml' --set run.duration.ms=100000000 --allow-large --format json >'" + out + "' 2>'" +
      err + "' & pid=$!; sleep 2; kill -INT $pid; wait $pid; echo $? >'" + rc + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  CHECK(slurp(rc) == "1\n");
  CHECK(slurp(out).find("\"partial\": true") != std::string::npos);
  CHECK(slurp(err).find("interrupted") != std::string::npos);
}

TEST_CASE("runs whose time series, replications or batch rows would not fit are refused with the estimate") {
  const std::string s = std::string("'") + PARTSIM_SOURCE_DIR + "/scenarios/";
  struct Case {
    std::string args, part;
  };
  const Case cases[] = {
      {"run " + s + "slow-broker.yaml' --set run.duration.ms=60000 --timeseries 0.001",
       "of it for --timeseries: 6e+07 samples; raise --timeseries MS or shorten the run, or pass --allow-large\n"},
      {"run " + s + "book/keyed.yaml' --set topics.0.partitions=100000 --replications 10000",
       "of it for replication summaries: 3e+09 metric values; lower --replications or the partitions, or pass --allow-large\n"},
      {"run " + s + "book/keyed.yaml' --set run.records=100000000 --out /tmp/partsim-never-written",
       "of it for batches.csv: up to 1e+08 rows; lower run.records or run.duration.ms, or drop --out, or pass --allow-large\n"},
      {"run " + s + "book/keyed.yaml' --set topics.0.partitions=1000000 --replications 32 --threads 32",
       "of it for simulation state of 1e+06 partitions x 32 runs at once; lower the partitions, or lower --threads, or pass --allow-large\n"},
      {"compare " + s +
           "book/keyed.yaml' --partitioners builtin,legacy --set topics.0.partitions=100000 --replications 10000",
       "of it for replication summaries: 6e+09 metric values; lower --replications or the partitions, or pass --allow-large\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = run_cli(c.args);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(": refused: estimated ") != std::string::npos);
    CHECK(r.err.find(c.part) != std::string::npos);
    CHECK(r.out.empty());
  }
  CHECK_FALSE(std::filesystem::exists("/tmp/partsim-never-written"));
}
