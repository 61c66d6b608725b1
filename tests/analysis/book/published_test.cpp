// The book's published figures and their replacement (partsim book --published).

#include <doctest/doctest.h>

#include <numeric>
#include <stdexcept>
#include <string>

#include "analysis/book/published.hpp"

using partsim::analysis::book::PublishedFigures;

TEST_CASE("the published figures are the book's") {
  const PublishedFigures p;
  CHECK(p.value("R1.run-length") == 14);
  const auto& r1 = p.values("R1.counts");
  CHECK(std::accumulate(r1.begin(), r1.end(), 0.0) == 300);
  CHECK(r1[2] == 93);  // p2=93
  CHECK(p.values("R3.counts")[5] == 251);
  CHECK_FALSE(p.replaced("R1.run-length"));
}

TEST_CASE("a published figure is replaced by KEY=VALUE with as many numbers as the book's") {
  PublishedFigures p;
  p.set("R1.run-length=15");
  CHECK(p.value("R1.run-length") == 15);
  CHECK(p.replaced("R1.run-length"));
  p.set("R2.counts=50,50,50,50,50,50");
  CHECK(p.values("R2.counts")[1] == 50);
  auto message = [&](const std::string& text) {
    try {
      p.set(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(message("R1.counts=1,2,3") == "R1.counts: needs 6 numbers (one per partition, p0 first), got 3");
  CHECK(message("R1.run-length=abc") == "R1.run-length: 'abc' is not a finite number");
  CHECK(message("R1.run-length=inf") == "R1.run-length: 'inf' is not a finite number");
  CHECK(message("R1.run-length=") == "R1.run-length: '' is not a finite number");
  CHECK(message("R9.x=1").rfind("unknown figure 'R9.x' (keys: R1.run-length, R1.same-partition, R1.counts,", 0) == 0);
  CHECK(message("R1.run-length").rfind("must be KEY=VALUE, got 'R1.run-length'", 0) == 0);
}
