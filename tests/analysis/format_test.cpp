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
