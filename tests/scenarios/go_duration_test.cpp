// Go's time.Duration text as the Go clients' config spells it (scenarios/loader/go_duration.hpp):
// time.ParseDuration's grammar and time.Duration.String's output, from Go's documentation and
// its own examples ("1h15m30.918273645s", "72h3m0.5s", "1.5µs").

#include "scenarios/loader/go_duration.hpp"

#include <doctest/doctest.h>

using partsim::scenarios::go_duration_text;
using partsim::scenarios::parse_go_duration_ms;

TEST_CASE("Go durations read as time.ParseDuration reads them") {
  CHECK(parse_go_duration_ms("0") == 0.0);
  CHECK(parse_go_duration_ms("10ms") == 10.0);
  CHECK(parse_go_duration_ms("1s") == 1000.0);
  CHECK(parse_go_duration_ms("1.5ms") == 1.5);
  CHECK(parse_go_duration_ms("1m30s") == 90'000.0);
  CHECK(parse_go_duration_ms("2h45m") == doctest::Approx(9'900'000.0));
  CHECK(parse_go_duration_ms("300us") == doctest::Approx(0.3));
  CHECK(parse_go_duration_ms("300µs") == doctest::Approx(0.3));
  CHECK(parse_go_duration_ms("1000ns") == doctest::Approx(0.001));
  // A sign is refused too: a negative duration is no setting.
  for (const char* bad : {"", "1", "1 s", "1sec", "-1s", "1e3ms", "ms", "1s1", ".s"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_go_duration_ms(bad).has_value());
  }
}

TEST_CASE("Go durations written as time.Duration.String writes them, and read back") {
  CHECK(go_duration_text(0) == "0s");
  CHECK(go_duration_text(999) == "999ns");
  CHECK(go_duration_text(1'500) == "1.5µs");
  CHECK(go_duration_text(1'500'000) == "1.5ms");
  CHECK(go_duration_text(10'000'000) == "10ms");
  CHECK(go_duration_text(1'000'000'000) == "1s");
  CHECK(go_duration_text(300'000'000'000) == "5m0s");
  CHECK(go_duration_text(3'600'000'000'000) == "1h0m0s");
  CHECK(go_duration_text(4'530'918'273'645) == "1h15m30.918273645s");
  CHECK(go_duration_text(259'380'500'000'000) == "72h3m0.5s");
  for (const std::int64_t ns : {std::int64_t{1'500}, std::int64_t{90'500'000'000}, std::int64_t{4'530'918'273'645}}) {
    CAPTURE(ns);
    CHECK(*parse_go_duration_ms(go_duration_text(ns)) * 1e6 == doctest::Approx(static_cast<double>(ns)));
  }
}
