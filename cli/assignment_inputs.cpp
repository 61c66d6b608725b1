#include "cli/assignment_inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <set>

#include "cli/cli_error.hpp"
#include "cli/options.hpp"
#include "scenarios/loader/key_reader.hpp"

namespace partsim::cli {

std::vector<scenarios::PartitionReplicas> load_current_assignment(const std::string& current_file,
                                                                  const std::string& describe_file) {
  if (current_file.empty() == describe_file.empty())
    throw UsageError("give the current assignment with exactly one of --current or --describe");
  if (!describe_file.empty())  // refuses a text without partition lines itself
    return scenarios::parse_topics_describe(scenarios::read_input_file(describe_file), describe_file);
  auto current = scenarios::parse_reassignment_json(scenarios::read_input_file(current_file), current_file);
  if (current.empty())
    throw UsageError(current_file +
                     ": \"partitions\" is empty: list at least one {\"topic\",\"partition\",\"replicas\"} to plan");
  return current;
}

std::vector<scenarios::BrokerEntry> load_brokers(const std::string& text) {
  // A list too long for a file name makes exists() fail (ENAMETOOLONG): then it is a list.
  std::error_code ec;
  return std::filesystem::exists(text, ec) ? scenarios::parse_brokers_json(scenarios::read_input_file(text), text)
                                           : scenarios::parse_brokers_list(text, "--brokers");
}

std::vector<std::size_t> without_live_replica(const std::vector<scenarios::PartitionReplicas>& current,
                                              const std::vector<model::RackedBroker>& live) {
  std::set<std::int32_t> alive;
  for (const auto& b : live) alive.insert(b.id);
  std::vector<std::size_t> rows;
  for (std::size_t p = 0; p < current.size(); ++p)
    if (std::none_of(current[p].replicas.begin(), current[p].replicas.end(),
                     [&](std::int32_t b) { return alive.count(b) > 0; }))
      rows.push_back(p);
  return rows;
}

std::vector<model::RackedBroker> live_brokers(const std::vector<scenarios::BrokerEntry>& brokers) {
  std::vector<model::RackedBroker> out;
  for (const auto& b : brokers)
    if (b.alive) out.push_back({b.id, b.rack});
  return out;
}

model::LeaderBounds per_broker_bounds(const std::string& explicit_text, const std::string& option,
                                      const std::string& balance, std::int64_t total, std::int32_t brokers) {
  const auto max = std::min<std::int64_t>(total, std::numeric_limits<std::int32_t>::max());
  if (!explicit_text.empty()) {
    const auto colon = explicit_text.find(':');
    if (colon == std::string::npos) throw UsageError(option + ": must be LO:HI, got '" + explicit_text + "'");
    model::LeaderBounds b;
    b.lo =
        static_cast<std::int32_t>(parse_int(std::string_view(explicit_text).substr(0, colon), option + " LO", 0, max));
    b.hi = static_cast<std::int32_t>(parse_int(std::string_view(explicit_text).substr(colon + 1), option + " HI", b.lo,
                                               max));
    return b;
  }
  const auto n = static_cast<std::int32_t>(max);
  if (balance == "exact") return model::leader_bounds_exact(n, brokers);
  if (balance.rfind("band:", 0) == 0)
    return model::leader_bounds_band(n, brokers, parse_number(balance.substr(5), "--balance band", 1.0, 10.0));
  throw UsageError("--balance: must be exact or band:T (T >= 1, e.g. band:1.10), got '" + balance + "'");
}

}  // namespace partsim::cli
