#include "scenarios/loader/scenario_fields.hpp"

#include <limits>

#include "scenarios/loader/consumer_fields.hpp"
#include "scenarios/loader/scenario_checks.hpp"
#include "scenarios/loader/scenario_fields_parts.hpp"

namespace partsim::scenarios {
namespace {

using namespace partsim::model;

// ---- run and the whole file -------------------------------------------------------------

const Table<RunSpec>& run_table() {
  using F = Fields<RunSpec>;
  static const Table<RunSpec> table(
      "run", {
                 F::integer("seed", &RunSpec::seed, 0, std::numeric_limits<std::int64_t>::max(), "",
                            "master seed; --seed overrides it"),
                 F::integer("records", &RunSpec::records, 1, kMaxRecords, "",
                            "stop after this many send() calls over all producers ...")
                     .example("10000"),
                 F::duration("duration.ms", &RunSpec::duration, kMs, 1e-6, kMaxMs,
                             "... and/or stop sending after this simulated time")
                     .example("10000"),
                 F::duration("warmup.ms", &RunSpec::warmup, kMs, 0, kMaxMs,
                             "records sent before this are left out of the statistics"),
                 F::integer("trace", &RunSpec::trace, 0, 1'000'000, "", "how many first partition choices to keep"),
                 F::duration("window.ms", &RunSpec::window, kMs, 0, kMaxMs,
                             "records per broker per window of send time (0 = off)"),
                 F::choice("check", &RunSpec::check, {"none", "poisson-batching", "broker-queue"},
                           "a closed-form check printed beside the results"),
                 F::choice(
                     "partition.order", {"hashmap", "sorted"},
                     [](const RunSpec& r) { return std::size_t{r.sorted_partition_order ? 1u : 0u}; },
                     [](RunSpec& r, std::size_t i) { r.sorted_partition_order = i == 1; },
                     "the client's partition list: Java HashMap order (book T8) or sorted"),
             });
  return table;
}

// ---- migration (book ch. 10.3, book-tables T10) ------------------------------------------

const Table<BridgeSpec>& bridge_table() {
  using F = Fields<BridgeSpec>;
  static const Table<BridgeSpec> table(
      "bridge",
      {
          F::integer("threads", &BridgeSpec::threads, 1, 1000, "",
                     "writer threads; each sends a record and waits for its acknowledgement"),
          F::choice(
              "route", &BridgeSpec::route, {"by-key", "round-robin"},
              "which thread writes a record: by-key keeps a key's records on one thread (order kept), round-robin does not"),
          F::number("rate", &BridgeSpec::records_per_second, 0, 1e10, "records/s",
                    "the bridge's records per second over all threads: 0 = unlimited, else at least " +
                        number_text(kMinBridgeRate) +
                        " (and slow enough only "
                        "that the run's records, when bounded, fit in simulated time)"),
          written_when_set(F::text("rack", &BridgeSpec::rack, 255,
                                   "the rack (zone) the bridge runs in, where its reads of the old topic end and its "
                                   "writes to the new one start (traffic); absent: none"))
              .example("zone-a"),
      });
  return table;
}

const Table<MigrationSpec>& dual_write_table() {
  using F = Fields<MigrationSpec>;
  static const Table<MigrationSpec> table(
      "dual write", {
                        F::number("failure.rate", &MigrationSpec::dual_write_failure_rate, 0, 1, "share",
                                  "share of the second sends (to the new topic) that fail; nothing repairs them"),
                    });
  return table;
}

const Table<MigrationSpec>& migration_table() {
  using F = Fields<MigrationSpec>;
  static const Table<MigrationSpec> table(
      "migration",
      {
          F::choice(
              "strategy", &MigrationSpec::strategy, {"stop-replay", "dual-write", "bridge"},
              "stop-replay: the producers of from stop at at.ms, the bridge replays, then verify; dual-write: from at.ms every record goes to "
              "both topics; bridge: producers go on while the bridge copies, then switch"),
          F::text("from", &MigrationSpec::from, 249, "the old topic (declared under topics:, a producer sends to it)")
              .required()
              .example("events"),
          F::text("to", &MigrationSpec::to, 249, "the new topic (declared under topics:, no producer sends to it)")
              .required()
              .example("events-v2"),
          F::duration("at.ms", &MigrationSpec::at, kMs, 0, kMaxMs,
                      "when the producers of from stop, the dual writes begin or the bridge starts"),
          F::section("bridge", &MigrationSpec::bridge, bridge_table(),
                     "stop-replay and bridge: the copier of the old topic"),
          F::section(
              "dual.write", [](auto& m) -> auto& { return m; }, dual_write_table(), "dual-write: the second send"),
          F::duration("verify.ms", &MigrationSpec::verify, kMs, 0, kMaxMs,
                      "verification before the switch-over (stop-replay: part of the downtime)"),
      });
  return table;
}

/// `migration:` is optional: absent, the scenario has none (and writes none).
Field<Scenario> migration_field() {
  FieldInfo info =
      field_info(FieldInfo::Shape::kMapping, "migration", "mapping", "", "",
                 "a migration of the producers' topic to a new one, run in the same simulation (none by default)");
  info.sub = &migration_table().schema();
  return Fields<Scenario>::custom(
      info,
      [](MapReader& m, Scenario& s) {
        if (!m.has("migration")) return;
        MigrationSpec spec;
        MapReader sub = m.map("migration");
        migration_table().read(sub, spec);
        s.migration = std::move(spec);
      },
      [](const Scenario& s) {
        return s.migration ? migration_table().write(*s.migration) : YAML::Node(YAML::NodeType::Undefined);
      });
}

}  // namespace

std::optional<ClientVersion> read_client(MapReader& m) {
  if (!m.has("client")) return std::nullopt;
  std::string text;
  m.read("client", text, 100);
  std::string why;
  const std::optional<ClientVersion> v = parse_client(text, why);
  if (!v) {
    m.error("client", why + ", got '" + text + "'");
    return std::nullopt;
  }
  if (text == "kafka-4.x" || text == "kafka-3.x")
    m.warn("client", text + " is kept as another name for " + v->name() + " (" + v->line() + "." +
                         std::to_string(v->patch_no) + "); name the line to say which client you mean");
  if (v->unreleased())
    m.warn("client", v->name() + " is not released: partsim follows its branch as read in August 2026");
  return v;
}

const Table<Scenario>& scenario_table() {
  using F = Fields<Scenario>;
  // cluster: has no default (it lists the brokers): a file without it gets one error for
  // it, not one for each list it would hold.
  const auto cluster_section = [] {
    Field<Scenario> f = F::section(
        "cluster", [](auto& s) -> auto& { return s; }, cluster_table(), "brokers and the controller");
    f.read = [read = f.read](MapReader& m, Scenario& s) {
      if (!m.has("cluster")) {
        m.error("cluster", "is required (at least one broker)");
        return;
      }
      read(m, s);
    };
    return f;
  };
  static const Table<Scenario> table(
      "scenario",
      {
          F::text("name", &Scenario::name, 200, "shown in results (default: the file name)").no_default(),
          client_field<Scenario>(&Scenario::client, true),
          F::section("run", &Scenario::run, run_table(), "the run: seed, stop rule, statistics"),
          cluster_section(),
          F::list("topics", &Scenario::topics, topic_table(),
                  ListRules<TopicConfig>("topic").at_least(1).unique("name", "topic"), "the topics, at least one"),
          F::list("producers", &Scenario::producers, producer_table(),
                  ListRules<ProducerSpec>("producer")
                      .at_least(1)
                      .unique("name", "producer name")
                      .defaults([](ProducerSpec& p, std::size_t i) { p.name = "p" + std::to_string(i); }),
                  "the producers, at least one"),
          F::list("consumers", &Scenario::consumers, consumer_group_table(),
                  ListRules<ConsumerGroupSpec>("consumer group").unique("group", "group"),
                  "consumer groups reading the topics while the producers write (none by default)"),
          migration_field(),
      },
      [](MapReader& top, Scenario& s) {
        check_scenario(top, s);
        check_consumers(top, s);
        check_migration(top, s);
      });
  return table;
}

}  // namespace partsim::scenarios
