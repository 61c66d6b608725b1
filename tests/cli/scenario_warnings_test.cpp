// Scenario warnings (settings Kafka accepts that make sends fail) reach the user on stderr
// as "partsim COMMAND: warning: file:line:col: ...", and the run goes on.

#include <doctest/doctest.h>

#include <string>

#include "cli/cli_runner.hpp"

using partsim::testing::run_cli;
using partsim::testing::ScratchDir;

namespace {
constexpr const char* kSmallBuffer = R"(run: {records: 20}
cluster: {brokers: [{id: 0}]}
topics: [{name: t, partitions: 3}]
producers:
  - config: {batch.size: 65536, buffer.memory: 32768, max.block.ms: 1}
)";
}  // namespace

TEST_CASE("run and compare print load warnings once on stderr, located, and still run") {
  ScratchDir dir;
  const auto f = dir.write("small-buffer.yaml", kSmallBuffer).string();
  const std::string warning =
      "warning: " + f +
      ":5:26: producers.0.config.batch.size: 65536 is larger than buffer.memory 32768: every send that needs "
      "a new batch will fail (BufferPool's hard limit)\n";
  auto r = run_cli("run '" + f + "' --format json");
  CHECK(r.exit_code == 0);
  // The load warning first; then the run's own: every record failed, none measured.
  CHECK(r.err.rfind("partsim run: " + warning, 0) == 0);
  CHECK(r.out.find("\"records_sent\": 20") != std::string::npos);
  CHECK(r.out.find("\"buffer_limit\": 20") != std::string::npos);  // at once, not after max.block.ms
  r = run_cli("compare '" + f + "' --partitioners builtin,legacy,round-robin --format csv");
  CHECK(r.exit_code == 0);
  CHECK(r.err.rfind("partsim compare: " + warning, 0) == 0);
  CHECK(r.err.find(warning, r.err.find(warning) + 1) == std::string::npos);  // once, not once per run
  r = run_cli("run '" + f + "' --set producers.0.config.buffer.memory=65536");
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
}
