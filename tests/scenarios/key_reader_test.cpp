#include "scenarios/loader/key_reader.hpp"

#include <doctest/doctest.h>

#include "scenarios/loader/input_error.hpp"

using namespace partsim::scenarios;

TEST_CASE("keys are read one per line; an empty line is the empty key") {
  CHECK(parse_keys("a\n\nb\n", KeyEncoding::kUtf8, "f") == std::vector<std::string>{"a", "", "b"});
  CHECK(parse_keys("a\r\nb", KeyEncoding::kUtf8, "f") == std::vector<std::string>{"a", "b"});
  CHECK(parse_keys("", KeyEncoding::kUtf8, "f").empty());
  CHECK(parse_keys("\n", KeyEncoding::kUtf8, "f") == std::vector<std::string>{""});
}

TEST_CASE("hex keys decode to bytes") {
  CHECK(parse_keys("00ff\n\nA0\n", KeyEncoding::kHex, "f") ==
        std::vector<std::string>{std::string("\x00\xff", 2), "", "\xa0"});
}

TEST_CASE("malformed hex names file, line and column") {
  try {
    parse_keys("00\n0g\n", KeyEncoding::kHex, "keys.txt");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          "keys.txt:2:2: invalid hex digit 'g' (a hex key uses 0-9, a-f, A-F, two digits per byte)");
  }
  CHECK_THROWS_WITH_AS(parse_keys("abc", KeyEncoding::kHex, "k"),
                       "k:1:3: odd number of hex digits (3); a hex key has two digits per byte", InputError);
}

TEST_CASE("a missing file is an input error naming it") {
  CHECK_THROWS_WITH_AS(read_input_file("/no/such/file"), "/no/such/file: cannot open file: No such file or directory",
                       InputError);
}
