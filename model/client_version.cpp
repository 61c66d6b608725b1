#include "model/client_version.hpp"

#include <charconv>
#include <iterator>

namespace partsim::model {
namespace {

/// Each line's newest patch release, read from the release branches' version bumps
/// ("Bump version to 3.9.2") as of August 2026; 4.4 is a branch, not released.
struct Line {
  std::int32_t major, minor, newest_patch;
};
constexpr Line kLines[] = {
    {2, 4, 1}, {2, 5, 1}, {2, 6, 3}, {2, 7, 2}, {2, 8, 2}, {3, 0, 2}, {3, 1, 2}, {3, 2, 3}, {3, 3, 2}, {3, 4, 1},
    {3, 5, 2}, {3, 6, 2}, {3, 7, 2}, {3, 8, 1}, {3, 9, 2}, {4, 0, 2}, {4, 1, 2}, {4, 2, 1}, {4, 3, 1}, {4, 4, 0},
};

const Line* find_line(std::int32_t major, std::int32_t minor) {
  for (const Line& l : kLines)
    if (l.major == major && l.minor == minor) return &l;
  return nullptr;
}

/// Reads a non-negative number of at most 3 digits from the front of `s`.
std::optional<std::int32_t> number(std::string_view& s) {
  std::int32_t n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  const auto used = static_cast<std::size_t>(end - s.data());
  if (ec != std::errc() || used == 0 || used > 3 || n < 0) return std::nullopt;
  s.remove_prefix(used);
  return n;
}

}  // namespace

std::string ClientVersion::line() const { return std::to_string(major_no) + "." + std::to_string(minor_no); }

namespace {
constexpr const char* kProfileNames[] = {"librdkafka-2.x", "franz-go", "sarama", "kafkajs", "kafka-go"};
}  // namespace

std::string ClientVersion::name() const {
  if (!java()) return kProfileNames[static_cast<int>(family) - 1];
  return "kafka-" + line() + (patch_named ? "." + std::to_string(patch_no) : std::string());
}

bool ClientVersion::unreleased() const { return major_no == 4 && minor_no == 4; }

ClientVersion default_client() { return ClientVersion{}; }

const std::vector<std::string>& client_lines() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Line& l : kLines) out.push_back("kafka-" + std::to_string(l.major) + "." + std::to_string(l.minor));
    return out;
  }();
  return names;
}

const std::vector<std::string>& client_profile_names() {
  static const std::vector<std::string> names(std::begin(kProfileNames), std::end(kProfileNames));
  return names;
}

std::optional<ClientVersion> parse_client(std::string_view text, std::string& why) {
  if (text == "librdkafka") text = "librdkafka-2.x";  // the only librdkafka line partsim models
  for (std::size_t i = 0; i < std::size(kProfileNames); ++i)
    if (text == kProfileNames[i]) {
      ClientVersion v;  // the Java model's send path as kafka-4.3 has it
      v.family = static_cast<ClientFamily>(i + 1);
      return v;
    }
  if (text == "kafka-4.x") return ClientVersion{4, 3, find_line(4, 3)->newest_patch};
  if (text == "kafka-3.x") return ClientVersion{3, 9, find_line(3, 9)->newest_patch};
  const auto bad = [&](std::string reason) -> std::optional<ClientVersion> {
    why = std::move(reason);
    return std::nullopt;
  };
  if (text.substr(0, 6) != "kafka-")
    return bad("must be kafka-<major>.<minor> (kafka-2.4 ... kafka-4.4), kafka-<major>.<minor>.<patch>, or another "
               "client's profile: librdkafka-2.x, franz-go, sarama, kafkajs, kafka-go");
  text.remove_prefix(6);
  const auto major = number(text);
  if (!major || text.empty() || text.front() != '.')
    return bad("must be kafka-<major>.<minor> (kafka-2.4 ... kafka-4.4) or kafka-<major>.<minor>.<patch>");
  text.remove_prefix(1);
  const auto minor = number(text);
  if (!minor) return bad("must be kafka-<major>.<minor> (kafka-2.4 ... kafka-4.4) or kafka-<major>.<minor>.<patch>");
  const Line* line = find_line(*major, *minor);
  if (line == nullptr)
    return bad("names no Java client line partsim models: kafka-2.4 ... kafka-3.9 and kafka-4.0 ... kafka-4.4");
  ClientVersion v{*major, *minor, line->newest_patch};
  if (text.empty()) return v;
  if (text.front() != '.') return bad("must be kafka-<major>.<minor> or kafka-<major>.<minor>.<patch>");
  text.remove_prefix(1);
  const auto patch = number(text);
  if (!patch || !text.empty()) return bad("must be kafka-<major>.<minor> or kafka-<major>.<minor>.<patch>");
  if (*patch > line->newest_patch)
    return bad("names a release that does not exist: the newest " + v.line() + " release is " + v.line() + "." +
               std::to_string(line->newest_patch));
  v.patch_no = *patch;
  v.patch_named = true;
  return v;
}

namespace java {

// kafka-versions.md, row "since 3.3" (KIP-794).
bool builtin_partitioner(const ClientVersion& v) { return v.at_least(3, 3); }

// Row "3.3/3.4": KAFKA-14156 (BuiltInPartitioner.updatePartitionInfo's enableSwitch) was
// cherry-picked to 3.3 before 3.3.0, so every built-in partitioner has it; KAFKA-14303 (3.3.2)
// only guards batch.size 0, which the loader refuses.
bool batch_boundary_switch(const ClientVersion& v) { return v.at_least(3, 3); }

// Rows "2.4" (onNewBatch added) and "4.0" (onNewBatch and the abort path removed).
bool new_batch_second_call(const ClientVersion& v) { return !v.at_least(4, 0); }

// Rows "3.x" (KAFKA-9965), "3.9.1" (KAFKA-17632) and "4.0" (plain counter). The table says
// 3.9.1, but the fix was committed to the 3.9 branch after the 3.9.1 release (2025-08-19):
// the first release with it is 3.9.2.
RoundRobinRule round_robin_rule(const ClientVersion& v) {
  if (v.at_least(4, 0)) return RoundRobinRule::kCounter;
  if (v.at_least(3, 9, 2)) return RoundRobinRule::kRemembers;
  return RoundRobinRule::kSkipping;
}

// Row "4.0": linger.ms 0 -> 5 (KIP-1030).
sim::SimTime default_linger(const ClientVersion& v) {
  return v.at_least(4, 0) ? sim::SimTime::ms(5) : sim::SimTime::zero();
}

// Row "3.0": acks 1 -> all.
bool default_acks_all(const ClientVersion& v) { return v.at_least(3, 0); }

// Row "3.0": enable.idempotence default true, in effect from 3.0.1, 3.1.1, 3.2.0 (KAFKA-13598).
bool default_idempotence(const ClientVersion& v) {
  if (v.major_no == 3 && v.minor_no == 0) return v.patch_no >= 1;
  if (v.major_no == 3 && v.minor_no == 1) return v.patch_no >= 1;
  return v.at_least(3, 2);
}

// Row "3.7": exponential backoff (KIP-580).
bool exponential_backoff(const ClientVersion& v) { return v.at_least(3, 7); }

// Rows "3.x" and "4.0" on max.in.flight.requests.per.connection > 5.
bool refuses_in_flight_over_5(const ClientVersion& v) { return v.at_least(4, 0); }

// Row "4.2 (backported to 3.9.2, 4.0.2, 4.1.2)": KAFKA-19012.
bool expired_batch_keeps_memory(const ClientVersion& v) {
  if (v.major_no == 3 && v.minor_no == 9) return v.patch_no >= 2;
  if (v.major_no == 4 && v.minor_no == 0) return v.patch_no >= 2;
  if (v.major_no == 4 && v.minor_no == 1) return v.patch_no >= 2;
  return v.at_least(4, 2);
}

// Row "3.0": session.timeout.ms 10000 -> 45000 (KIP-735).
sim::SimTime default_session_timeout(const ClientVersion& v) {
  return v.at_least(3, 0) ? sim::SimTime::ms(45000) : sim::SimTime::ms(10000);
}

// Row "3.0": partition.assignment.strategy [range] -> [range, cooperative-sticky].
std::vector<std::string> default_assignors(const ClientVersion& v) {
  if (v.at_least(3, 0)) return {"range", "cooperative-sticky"};
  return {"range"};
}

// Row "3.5": KIP-881.
bool rack_aware_assignors(const ClientVersion& v) { return v.at_least(3, 5); }

// Row "4.0": KIP-848 generally available; ConsumerConfig accepts group.protocol=consumer
// from 3.7 (early access in 3.7's notes), absent on 3.6.
bool consumer_protocol(const ClientVersion& v) { return v.at_least(3, 7); }

// Row "4.0": by_duration (KIP-1106).
bool offset_reset_by_duration(const ClientVersion& v) { return v.at_least(4, 0); }

}  // namespace java
}  // namespace partsim::model
