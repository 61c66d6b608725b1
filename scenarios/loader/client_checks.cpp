// The producer checks that depend on its Java client (`client:`, model/client_version.hpp;
// kafka-versions.md): keys the client does not know, KIP-1123's client.rack, and the
// idempotence rules, whose defaults and refusals changed in 3.0 and 4.0.
#include <string>

#include "scenarios/loader/scenario_checks.hpp"

namespace partsim::scenarios {

using namespace partsim::model;

namespace {

// Keys the producer's client does not know yet (kafka-versions.md): Kafka would warn and go
// on without them, so a run that set them would not be the run asked for. An error when the
// value differs from the default (a resolved scenario writes every key).
void check_client_keys(MapReader& m, const ProducerConfig& c, const ClientVersion& v) {
  const ProducerConfig defaults;
  const auto unknown = [&](const char* key, bool differs, const std::string& added) {
    if (m.has(key) && differs)
      m.error(key, std::string("is unknown to ") + v.name() + ": it came with " + added +
                       "; remove it or choose a later client");
  };
  if (!java::builtin_partitioner(v)) {
    const std::string kip794 = "kafka-3.3 (KIP-794's built-in partitioner)";
    unknown("partitioner.ignore.keys", c.ignore_keys != defaults.ignore_keys, kip794);
    unknown("partitioner.adaptive.partitioning.enable", c.adaptive != defaults.adaptive, kip794);
    unknown("partitioner.availability.timeout.ms", c.availability_timeout != defaults.availability_timeout, kip794);
  }
  if (!v.at_least(4, 4)) {
    const std::string kip1123 = "kafka-4.4 (KIP-1123's rack-aware partitioning)";
    unknown("partitioner.rack.aware", c.rack_aware != defaults.rack_aware, kip1123);
    unknown("client.rack", c.client_rack != defaults.client_rack, kip1123);
  }
  if (!java::exponential_backoff(v))
    unknown("retry.backoff.max.ms", c.retry_backoff_max != defaults.retry_backoff_max,
            "kafka-3.7 (KIP-580's exponential backoff)");
}

}  // namespace

void check_client_rules(MapReader& m, ProducerConfig& c) {
  const ClientVersion& v = m.context()->version();
  check_client_keys(m, c, v);
  // RecordAccumulator.PartitionerConfig on 4.4 refuses this with these words (kafka-versions.md
  // says a blank rack falls back to every partition; the branch's code throws).
  if (c.rack_aware && v.at_least(4, 4) && c.client_rack.find_first_not_of(" \t\n\r\f\v") == std::string::npos)
    m.error("partitioner.rack.aware", "client.rack must be provided if partitioner.rack.aware is enabled");
  // enable.idempotence=true given explicitly with settings it forbids is a ConfigException
  // in Kafka; left at its default, Kafka quietly turns idempotence off instead (spec §6),
  // except for an in-flight limit above 5 from 4.0 (kafka-versions.md, ProducerConfig.
  // postProcessAndValidateIdempotenceConfigs: that check runs before the quiet disable).
  const bool idempotence_set = m.has("enable.idempotence");
  if (idempotence_set && c.idempotence) {
    if (c.max_in_flight > 5)
      m.error("max.in.flight.requests.per.connection",
              "must be <= 5 with enable.idempotence=true, got " + std::to_string(c.max_in_flight));
    // Left unset, acks becomes all for an idempotent producer (before 3.0, whose default is 1).
    if (!m.has("acks")) c.acks = Acks::kAll;
    if (c.acks != Acks::kAll) m.error("acks", "must be all with enable.idempotence=true");
    if (c.retries == 0) m.error("retries", "must be > 0 with enable.idempotence=true");
  } else if (!idempotence_set) {
    const bool by_default = java::default_idempotence(v);
    if (by_default && c.max_in_flight > 5) {
      const std::string value = std::to_string(c.max_in_flight);
      if (java::refuses_in_flight_over_5(v))
        m.error("max.in.flight.requests.per.connection",
                "must be at most 5 while enable.idempotence is left at its default (true): " + v.name() + " refuses " +
                    value +
                    " (kafka-4.0 and later; 3.x turned idempotence off instead); set enable.idempotence: false to "
                    "allow it");
      else
        m.warn("max.in.flight.requests.per.connection",
               value + " turns idempotence off (" + v.name() +
                   " disables it quietly with a warning; kafka-4.0 and later refuse the configuration)");
    }
    c.idempotence = by_default && c.max_in_flight <= 5 && c.acks == Acks::kAll && c.retries > 0;
  }
}

}  // namespace partsim::scenarios
