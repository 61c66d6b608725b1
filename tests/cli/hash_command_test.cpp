#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::ScratchDir;

TEST_CASE("partsim hash prints table T1") {
  const auto r = run_cli("hash book-0 book-1 book-2 book-3 book-4 --partitions 3");
  CHECK(r.exit_code == 0);
  CHECK(r.out == "key         murmur2  to_positive  p3\n"
                 "book-0  -2108685004     38798644   1\n"
                 "book-1   -928100454   1219383194   2\n"
                 "book-2  -1365223455    782260193   2\n"
                 "book-3   1793899242   1793899242   0\n"
                 "book-4  -1799749327    347734321   1\n");
  CHECK(r.err.empty());
}

TEST_CASE("partsim hash csv has one p<N> column per count") {
  const auto r = run_cli("hash --partitions 3,6 --format csv book-0 'a,b'");
  CHECK(r.exit_code == 0);
  CHECK(r.out == "key,murmur2,to_positive,p3,p6\nbook-0,-2108685004,38798644,1,4\n\"a,b\",-630504229,1516979419,1,1\n");
}

TEST_CASE("partsim hash reads keys from a file or stdin, utf8 or hex, empty line = empty key") {
  ScratchDir dir;
  const auto file = dir.write("keys.txt", "book-0\n\nbook-3\n");
  const auto r = run_cli("hash --keys-file '" + file.string() + "' -p 3 --format csv");
  CHECK(r.exit_code == 0);
  CHECK(
      r.out ==
      "key,murmur2,to_positive,p3\nbook-0,-2108685004,38798644,1\n,275646681,275646681,0\nbook-3,1793899242,1793899242,0\n");
  const auto hex = run_cli("hash --keys-file - --key-encoding hex -p 3 --format csv", "626f6f6b2d30\n80\n");
  CHECK(hex.exit_code == 0);
  CHECK(hex.out == "key,murmur2,to_positive,p3\n626f6f6b2d30,-2108685004,38798644,1\n80,857690492,857690492,2\n");
}

TEST_CASE("partsim hash json lists every key") {
  const auto r = run_cli("hash book-1 -p 3,6 --format json");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("\"key\": \"book-1\"") != std::string::npos);
  CHECK(r.out.find("\"murmur2\": -928100454") != std::string::npos);
  CHECK(r.out.find("\"p3\": 2") != std::string::npos);
}

TEST_CASE("bad hash input exits 2 with one line naming the option or file") {
  struct Case {
    const char* args;
    const char* stdin_text;
    const char* message;
  };
  const Case cases[] = {
      {"hash x --partitions 0", "", "partsim hash: --partitions: must be an integer in [1, 2147483647], got 0\n"},
      {"hash x --partitions -3", "", "partsim hash: --partitions: must be an integer in [1, 2147483647], got -3\n"},
      {"hash x --partitions 3,abc", "",
       "partsim hash: --partitions: must be an integer in [1, 2147483647], got 'abc'\n"},
      {"hash x --bogus -p 3", "", "partsim hash: unrecognised option '--bogus'\n"},
      {"hash x", "", "partsim hash: the option '--partitions' is required but missing\n"},
      {"hash --key-encoding hex zz -p 3", "",
       "partsim hash: argument 1: invalid hex digit 'z' (a hex key uses 0-9, a-f, A-F, two digits per byte)\n"},
      {"hash --keys-file - --key-encoding hex -p 3", "00\nabc\n",
       "partsim hash: <stdin>:2:3: odd number of hex digits (3); a hex key has two digits per byte\n"},
      {"hash --keys-file /no/such/file -p 3", "",
       "partsim hash: /no/such/file: cannot open file: No such file or directory\n"},
      {"hash x -p 3 --format xml", "", "partsim hash: --format: must be table, csv or json, got 'xml'\n"},
      {"hash x -p 3 --key-encoding base64", "", "partsim hash: --key-encoding: must be utf8 or hex, got 'base64'\n"},
      {"hash -p 3", "",
       "partsim hash: no keys: give keys as arguments, --keys-file FILE (or - for stdin), or --template with --count\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = run_cli(c.args, c.stdin_text);
    CHECK(r.exit_code == 2);
    CHECK(r.err == c.message);
    CHECK(r.out.empty());
  }
}

TEST_CASE("an unknown command exits 2 and lists the commands") {
  const auto r = run_cli("frobnicate");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown command 'frobnicate'") != std::string::npos);
}

TEST_CASE("partsim hash streams its keys: two million keys from stdin fit in 100 MB of address space" *
          doctest::skip(partsim::testing::kSanitized)) {
  // Held whole, the keys, their hashes and the output would need about 150 MB.
  const std::string cmd = "ulimit -v 100000; seq -f 'k%.0f' 1 2000000 | '" + std::string(PARTSIM_BINARY) +
                          "' hash --keys-file - -p 3 --format csv | tail -1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char line[128] = {};
  const bool got = std::fgets(line, sizeof line, pipe) != nullptr;
  CHECK(::pclose(pipe) == 0);
  CHECK(got);
  CHECK(std::string(line) == "k2000000,-662037487,1485446161,1\n");
}

TEST_CASE("partsim hash sizes the table's columns over every key of a file, and over the first 65,536 from stdin") {
  ScratchDir dir;
  std::string keys;
  for (int i = 0; i < 70000; ++i) keys += "k" + std::to_string(i) + "\n";
  keys += "a-much-longer-last-key\n";
  const auto file = dir.write("keys.txt", keys);
  const auto r = run_cli("hash --keys-file '" + file.string() + "' -p 3");
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("key                         murmur2  to_positive  p3\nk0  ", 0) == 0);  // width of the last key
  CHECK(r.out.find("\na-much-longer-last-key  ") != std::string::npos);
  const auto in = run_cli("hash --keys-file - -p 3", keys);
  CHECK(in.exit_code == 0);
  CHECK(in.out.rfind("key         murmur2  to_positive  p3\nk0  ", 0) == 0);  // "k65535" is the first block's widest
  CHECK(in.out.find("\na-much-longer-last-key  ") != std::string::npos);
  std::size_t lines = 0;
  for (char c : in.out) lines += c == '\n';
  CHECK(lines == 70002);
}
