#include "analysis/format.hpp"
#include "analysis/table.hpp"

#include <doctest/doctest.h>

using namespace partsim::analysis;

TEST_CASE("exact ratios round half up on the exact fraction") {
  CHECK(exact_ratio(13309, 20000, 4) == "0.6655");
  CHECK(exact_ratio(9837, 20000, 4) == "0.4919");
  CHECK(exact_ratio(1, 3, 4) == "0.3333");
  CHECK(exact_ratio(2, 3, 2) == "0.67");
  CHECK(exact_ratio(5, 5, 4) == "1.0000");
  CHECK(exact_ratio(7, 2, 0) == "4");
}

TEST_CASE("csv cells are quoted only when needed") {
  CHECK(csv_escape("plain") == "plain");
  CHECK(csv_escape("a,b") == "\"a,b\"");
  CHECK(csv_escape("say \"hi\"") == "\"say \"\"hi\"\"\"");
}

TEST_CASE("text tables align columns by display width") {
  Table t({{"key", Align::kLeft}, {"n"}});
  t.add_row({"\xc3\xa9", "10"});
  t.add_row({"abc", "2"});
  CHECK(t.to_text() == "key   n\n\xc3\xa9    10\nabc   2\n");
  CHECK(t.to_csv() == "key,n\n\xc3\xa9,10\nabc,2\n");
}

TEST_CASE("bytes and durations for people") {
  using partsim::analysis::human_bytes;
  using partsim::analysis::human_duration;
  CHECK(human_bytes(950) == "950 B");
  CHECK(human_bytes(999.4) == "999 B");
  CHECK(human_bytes(1500) == "1.50 KB");
  CHECK(human_bytes(20e9) == "20.0 GB");
  CHECK(human_bytes(123.4e12) == "123 TB");
  CHECK(human_duration(45) == "45 s");
  CHECK(human_duration(400) == "6 min 40 s");
  CHECK(human_duration(3 * 3600 + 5 * 60 + 20) == "3 h 05 min");
  CHECK(human_duration(2 * 86400 + 4 * 3600) == "2 d 04 h");
}

TEST_CASE("ordinals") {
  CHECK(ordinal(1) == "1st");
  CHECK(ordinal(2) == "2nd");
  CHECK(ordinal(3) == "3rd");
  CHECK(ordinal(4) == "4th");
  CHECK(ordinal(11) == "11th");
  CHECK(ordinal(12) == "12th");
  CHECK(ordinal(13) == "13th");
  CHECK(ordinal(22) == "22nd");
  CHECK(ordinal(101) == "101st");
  CHECK(ordinal(113) == "113th");
}
