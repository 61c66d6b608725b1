// The sweep report's numbers, axis, lines and page, on hand-made data whose means and
// Student t intervals are computed by hand (t(0.975, 2) = 4.302652729749464).

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "analysis/sweep_report.hpp"

using partsim::analysis::SweepData;
using partsim::analysis::SweepPointData;
using partsim::analysis::SweepReport;
using partsim::analysis::SweepReportOptions;

namespace {

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Two arms (a, b) at rate 1000 and 10 (listed in that order), metrics m and z.
SweepData two_arms() {
  SweepData d;
  d.name = "t";
  d.replications = 3;
  d.rows_total = 12;
  d.rows_done = 12;
  d.metrics = {"m", "z"};
  d.points = {
      {0, "a", {{"rate", "1000"}}, {{kUnknown, 5, kUnknown}, {0, 0, 0}}},
      {1, "b", {{"rate", "1000"}}, {{kInf, 1, 2}, {0, 0, 0}}},
      {2, "a", {{"rate", "10"}}, {{1, 2, 3}, {0, 0, 0}}},
      {3, "b<i>", {{"rate", "10"}}, {{4, 4, 4}, {0, 0, 0}}},
  };
  return d;
}

}  // namespace

TEST_CASE("sweep report: mean and 95% Student t interval per point; undefined values left out, infinity kept") {
  const SweepReport r(two_arms(), {});
  const auto s = r.summary(2, 0);  // 1, 2, 3: mean 2, sd 1, half width 4.3027 / sqrt(3)
  CHECK(s.n == 3);
  CHECK(s.mean == doctest::Approx(2.0));
  CHECK(s.ci_low == doctest::Approx(2.0 - 4.302652729749464 / std::sqrt(3.0)).epsilon(1e-12));
  CHECK(s.ci_high == doctest::Approx(2.0 + 4.302652729749464 / std::sqrt(3.0)).epsilon(1e-12));
  const auto one = r.summary(0, 0);  // NaN, 5, NaN: one defined value, no interval
  CHECK(one.n == 1);
  CHECK(one.mean == 5.0);
  CHECK(one.ci_low == 5.0);
  CHECK(one.ci_high == 5.0);
  const auto inf = r.summary(1, 0);
  CHECK(inf.n == 3);
  CHECK(std::isinf(inf.mean));
  CHECK(inf.mean > 0);
  CHECK(inf.min == 1.0);
  CHECK(std::isinf(inf.max));
}

TEST_CASE("sweep report: the summary CSV, one row per point and metric, numbers that read back exactly") {
  const SweepReport r(two_arms(), {{}, {"m"}});
  const std::string csv = r.summary_csv();
  CHECK(csv.rfind("point,arm,rate,metric,n,mean,ci95_low,ci95_high,min,max\n", 0) == 0);
  CHECK(csv.find("0,a,1000,m,1,5,5,5,5,5\n") != std::string::npos);
  CHECK(csv.find("1,b,1000,m,3,inf,inf,inf,1,inf\n") != std::string::npos);
  CHECK(csv.find("2,a,10,m,3,2,") != std::string::npos);
  CHECK(csv.find("3,b<i>,10,m,3,4,4,4,4,4\n") != std::string::npos);
  CHECK(csv.find(",z,") == std::string::npos);  // only the metric asked for
  std::size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  CHECK(lines == 1 + 4);
}

TEST_CASE("sweep report: a numeric axis is sorted and logarithmic over a wide range; a line per arm") {
  const SweepReport r(two_arms(), {});
  CHECK(r.axis().name == "rate");
  CHECK(r.axis().numeric);
  CHECK(r.axis().log);  // 1000 / 10 >= 50
  REQUIRE(r.axis().values.size() == 2);
  CHECK(r.axis().values[0] == "10");
  CHECK(r.axis().values[1] == "1000");
  REQUIRE(r.series().size() == 3);  // a, b, b<i>
  CHECK(r.series()[0].label == "a");
  // The chart's data: per line, x mean low high; infinite means are not drawn, and a line
  // with nothing to draw gets no block (b's one point is infinite).
  const std::string data = r.chart_data(0);
  CHECK(data.find("# a\n10 2 ") != std::string::npos);
  CHECK(data.find("\n1000 5 5 5\n") != std::string::npos);
  CHECK(data.find("# b\n") == std::string::npos);
  CHECK(data.find("# b<i>\n10 4 4 4\n") != std::string::npos);
  const std::string script = r.chart_script(0);
  CHECK(script.find("set logscale x") != std::string::npos);
  CHECK(script.find("datafile index 1 ") != std::string::npos);
  CHECK(script.find("datafile index 2 ") == std::string::npos);
  CHECK(r.has_chart(0));
  CHECK(r.has_chart(1));
}

TEST_CASE("sweep report: values that are not numbers give a categorical axis in sweep order") {
  SweepData d = two_arms();
  d.points[0].params = {{"mode", "flat-out"}};
  d.points[1].params = {{"mode", "flat-out"}};
  d.points[2].params = {{"mode", "300/s"}};
  d.points[3].params = {{"mode", "300/s"}};
  const SweepReport r(d, {});
  CHECK_FALSE(r.axis().numeric);
  CHECK_FALSE(r.axis().log);
  CHECK(r.axis().values == std::vector<std::string>{"flat-out", "300/s"});
  CHECK(r.chart_data(0).find("# a\n0 5 5 5\n1 2 ") != std::string::npos);
  CHECK(r.chart_script(0).find("set xtics ('flat-out' 0, '300/s' 1)") != std::string::npos);
}

TEST_CASE("sweep report: too many settings of the other parameters pool the lines by arm (a sample)") {
  SweepData d;
  d.replications = 1;
  d.metrics = {"m"};
  for (int i = 0; i < 12; ++i)
    for (const char* arm : {"a", "b"})
      d.points.push_back({static_cast<std::int64_t>(d.points.size()),
                          arm,
                          {{"x", std::to_string(i)}, {"y", std::to_string(100 - i)}},
                          {{double(i)}}});
  const SweepReport pooled(d, {});
  CHECK(pooled.pooled());
  CHECK(pooled.series().size() == 2);
  // Five settings of y or fewer: a line per arm and y.
  d.points.resize(8);
  const SweepReport lines(d, {});
  CHECK_FALSE(lines.pooled());
  CHECK(lines.series().size() == 8);
  CHECK(lines.series()[1].label == "b, y=100");
}

TEST_CASE("sweep report: a grid with many lines keeps them: settings at one x are never averaged together") {
  // x in {1, 2} x y in {0..5} x 2 arms: 12 lines; pooled by arm, each x would hold six
  // settings of y.
  SweepData d;
  d.replications = 1;
  d.metrics = {"m"};
  for (int x = 1; x <= 2; ++x)
    for (int y = 0; y < 6; ++y)
      for (const char* arm : {"a", "b"})
        d.points.push_back({static_cast<std::int64_t>(d.points.size()),
                            arm,
                            {{"x", std::to_string(x)}, {"y", std::to_string(y)}},
                            {{double(y)}}});
  const SweepReport r(d, {});
  CHECK_FALSE(r.pooled());
  CHECK(r.series().size() == 12);
  CHECK(r.chart_data(0).find("# a, y=5\n1 5 5 5\n2 5 5 5\n") != std::string::npos);
}

TEST_CASE("sweep report: the axis and the metrics must exist; the message lists what does") {
  try {
    SweepReport r(two_arms(), {"rat", {}});
    FAIL("no error");
  } catch (const partsim::analysis::SweepReportInputError& e) {
    CHECK(e.option() == "x");
    CHECK(std::string(e.what()) == "'rat' is not swept in this store; the axis can be: arm, rate");
  }
  try {
    SweepReport r(two_arms(), {{}, {"m", "q"}});
    FAIL("no error");
  } catch (const partsim::analysis::SweepReportInputError& e) {
    CHECK(e.option() == "metrics");
    CHECK(std::string(e.what()) == "the store has no metric 'q'; it has: m, z");
  }
  // A metric asked for twice is reported once.
  const SweepReport twice(two_arms(), {{}, {"z", "m", "z"}});
  CHECK(twice.metrics() == std::vector<std::size_t>{1, 0});
  // The arm as the axis.
  const SweepReport by_arm(two_arms(), {"arm", {}});
  CHECK(by_arm.axis().values == std::vector<std::string>{"a", "b", "b<i>"});
  REQUIRE(by_arm.series().size() == 2);  // a line per rate
  CHECK(by_arm.series()[0].label == "rate=1000");
  CHECK(by_arm.series()[1].label == "rate=10");
}

TEST_CASE(
    "sweep report: the page escapes names, inlines each chart without its XML prolog and says when rows are missing") {
  SweepData d = two_arms();
  d.rows_done = 10;
  const SweepReport r(d, {});
  const std::string page =
      r.html({{0, "<?xml version=\"1.0\"?>\n<svg id=\"gnuplot_canvas\"><title>Gnuplot</title><g id='gpPt0'/>"
                  "<use xlink:href='#gpPt0'/><g><title>a</title></g></svg>\n"}});
  // Each chart's ids get its own prefix (gnuplot repeats them in every chart), the first
  // title is the metric's.
  CHECK(
      page.find(
          "<svg id=\"c0-gnuplot_canvas\"><title>m</title><g id='c0-gpPt0'/><use xlink:href='#c0-gpPt0'/><g><title>a</title></g></svg>") !=
      std::string::npos);
  CHECK(page.find("<?xml") == std::string::npos);
  CHECK(page.find("b<i>") == std::string::npos);
  CHECK(page.find("<th>b&lt;i&gt;</th>") != std::string::npos);
  CHECK(page.find("10 of 12") != std::string::npos);
  CHECK(page.find("incomplete") != std::string::npos);
  // z has no chart here: its section says so.
  CHECK(page.find("No run measured this metric") > page.find("id=\"m-z\""));
  CHECK(page.find("2.000 <span class=\"ci\">[") != std::string::npos);  // a at 10: mean 2 with its interval
  CHECK(page.find("href=\"#m-z\"") != std::string::npos);
  CHECK(page.find("http") == std::string::npos);  // the page itself links nothing: self-contained
}
