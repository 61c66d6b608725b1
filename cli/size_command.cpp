// partsim size: how many partitions a new topic wants, and why (model/placement/partition_count.hpp).
// The operator's rule of thumb (peak throughput over one partition's, x 1.5..2, ~2,000
// replicas per broker) with what it leaves out: the members, counts even over brokers and
// members, and what a later increase does to keyed records.

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/format.hpp"
#include "analysis/table.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output.hpp"
#include "model/cluster_simulation.hpp"
#include "model/placement/partition_count.hpp"
#include "scenarios/loader/scenario_loader.hpp"

namespace po = boost::program_options;

namespace partsim::cli {
namespace {

constexpr const char* kSizeUsage =
    "usage: partsim size --peak RATE (--per-partition RATE | --per-partition-from SCENARIO) --brokers N\n"
    "                    [--rf R] [--consumers M]\n"
    "                    [--peak-consume RATE --per-partition-consume RATE] [--headroom LO[:HI]]\n"
    "                    [--max-per-broker N] [--existing-per-broker N] [--grow-to P,...] [--format table|json]\n"
    "How many partitions a new topic wants: the peak over one partition's measured throughput, with\n"
    "headroom, at least one per consumer, even over the brokers and the members, within the per-broker\n"
    "limit; the counts to avoid, and what a later increase does to keyed records.\n";

std::string rate(double bytes_per_s) { return analysis::human_bytes(bytes_per_s) + "/s"; }

// --per-partition-from: one partition's produce throughput as a scenario measures it, each
// partition's acknowledged bytes over the time it took them (PartitionStats::existed_ms).
struct Measured {
  std::string scenario;
  std::int32_t partitions = 0;  // those that took records
  double mean = 0, low = 0, high = 0;
  bool offered = false;  // a producer sends at a set rate: the partitions carried what it offered
  bool shared = false;   // two of them share a leader: each carried its share of the broker
};

Measured measure_per_partition(const std::string& path) {
  const model::Scenario s = scenarios::load_scenario_file(path);
  Measured m;
  m.scenario = path;
  for (const auto& p : s.producers) {
    const auto kind = p.workload.arrivals.kind;
    m.offered = m.offered || (kind != model::Arrivals::Kind::kFlatOut && kind != model::Arrivals::Kind::kClosedLoop);
  }
  const model::RunResult r = model::run_scenario(s, s.run.seed, 0, {});
  double sum = 0;
  std::vector<std::int32_t> leaders;
  for (const auto& p : r.partitions) {
    if (p.records == 0 || p.existed_ms <= 0) continue;
    m.shared = m.shared || std::find(leaders.begin(), leaders.end(), p.leader) != leaders.end();
    leaders.push_back(p.leader);
    const double x = static_cast<double>(p.bytes) / p.existed_ms * 1000;
    m.low = m.partitions == 0 ? x : std::min(m.low, x);
    m.high = std::max(m.high, x);
    sum += x;
    ++m.partitions;
  }
  if (m.partitions == 0)
    throw UsageError("--per-partition-from: " + path + " acknowledged no records, so it measures no throughput");
  m.mean = sum / m.partitions;
  return m;
}
std::string yes_no(bool b) { return b ? "yes" : "no"; }

std::string divisor_list(std::int64_t n) {
  std::vector<std::int64_t> low, high;
  for (std::int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) {
      low.push_back(d);
      if (d * d != n) high.insert(high.begin(), n / d);
    }
  low.insert(low.end(), high.begin(), high.end());
  std::string out;
  for (const auto d : low) out += (out.empty() ? "" : ", ") + std::to_string(d);
  return out;
}

// Why a count in the range is worse than the recommended one.
std::string flaws(const model::PartitionCountInputs& in, const model::CountCandidate& c) {
  const auto one_more = [](std::int64_t k, const char* one, const char* many) {
    return std::to_string(k) + (k == 1 ? one : many) + " one more";
  };
  std::vector<std::string> out;
  if (c.prime) out.push_back("prime: growing it keeps few keys in place unless the count is multiplied");
  if (!c.even_brokers) out.push_back(one_more(c.partitions % in.brokers, " broker leads", " brokers lead"));
  if (!c.even_consumers) out.push_back(one_more(c.partitions % in.consumers, " member reads", " members read"));
  if (c.replicas_per_broker > in.max_per_broker) out.push_back("over the per-broker limit");
  std::string s;
  for (const auto& f : out) s += (s.empty() ? "" : "; ") + f;
  return s;
}

}  // namespace

int run_size_command(const Args& args) {
  std::string peak, per, per_from, peak_consume, per_consume, consumers = "0", brokers, rf = "3", headroom = "1.5:2",
                                                              max_per_broker = "2000", existing = "0", grow,
                                                              format_text = "table";
  po::options_description desc("size options");
  // clang-format off
  desc.add_options()
      ("help,h", "show this help")
      ("peak", po::value<std::string>(&peak)->required(), "the topic's peak produce throughput, e.g. 200MB/s")
      ("per-partition", po::value<std::string>(&per),
       "one partition's produce throughput measured on your brokers, e.g. 10MB/s")
      ("per-partition-from", po::value<std::string>(&per_from),
       "... or as a scenario measures it: its partitions' acknowledged bytes per second, the mean (a flat-out or "
       "closed-loop producer measures what a partition can take)")
      ("peak-consume", po::value<std::string>(&peak_consume),
       "the busiest group's read rate at peak, e.g. 300MB/s (each group reads every partition with members of its own)")
      ("per-partition-consume", po::value<std::string>(&per_consume), "one member's read rate of one partition")
      ("consumers", po::value<std::string>(&consumers), "the largest group's members (a partition feeds one of them)")
      ("brokers", po::value<std::string>(&brokers)->required(), "brokers in the cluster")
      ("rf", po::value<std::string>(&rf), "replication factor (default 3)")
      ("headroom", po::value<std::string>(&headroom), "LO:HI multiples of the need (default 1.5:2)")
      ("max-per-broker", po::value<std::string>(&max_per_broker), "partition replicas a broker should hold at most (default 2000)")
      ("existing-per-broker", po::value<std::string>(&existing), "replicas each broker already holds (default 0)")
      ("grow-to", po::value<std::string>(&grow), "later counts to show the keys kept for (default: P+1, the next even step, 1.5P, 2P)")
      ("format", po::value<std::string>(&format_text)->default_value("table"), "table or json");
  // clang-format on
  if (help_requested(args, kSizeUsage, desc)) return kExitOk;
  parse_command_line(args, desc);
  const auto format = parse_format(format_text, false);
  model::PartitionCountInputs in;
  in.peak_produce = static_cast<double>(parse_bytes(peak, "--peak", true));
  if (per.empty() == per_from.empty())
    throw UsageError("--per-partition, --per-partition-from: give exactly one (a measured rate, or a scenario that "
                     "measures it)");
  if (in.peak_produce <= 0) throw UsageError("--peak: must be above 0 bytes per second, got '" + peak + "'");
  if (per_from.empty()) {
    in.per_partition_produce = static_cast<double>(parse_bytes(per, "--per-partition", true));
    if (in.per_partition_produce <= 0)
      throw UsageError("--per-partition: must be above 0 bytes per second, got '" + per + "'");
  }
  if (peak_consume.empty() != per_consume.empty())
    throw UsageError(std::string(peak_consume.empty() ? "--per-partition-consume" : "--peak-consume") + ": needs " +
                     (peak_consume.empty() ? "--peak-consume" : "--per-partition-consume") + " too");
  if (!peak_consume.empty()) {
    in.peak_consume = static_cast<double>(parse_bytes(peak_consume, "--peak-consume", true));
    in.per_partition_consume = static_cast<double>(parse_bytes(per_consume, "--per-partition-consume", true));
    if (in.peak_consume <= 0 || in.per_partition_consume <= 0)
      throw UsageError("--peak-consume, --per-partition-consume: must be above 0 bytes per second");
  }
  in.consumers = static_cast<std::int32_t>(parse_int(consumers, "--consumers", 0, 1'000'000));
  in.brokers = static_cast<std::int32_t>(parse_int(brokers, "--brokers", 1, 1'000'000));
  in.replication_factor = static_cast<std::int32_t>(parse_int(rf, "--rf", 1, in.brokers));
  const auto colon = headroom.find(':');
  in.headroom_low = parse_number(headroom.substr(0, colon), "--headroom", 1, 100);
  in.headroom_high = colon == std::string::npos
                         ? in.headroom_low
                         : parse_number(headroom.substr(colon + 1), "--headroom", in.headroom_low, 100);
  in.max_per_broker = static_cast<std::int32_t>(parse_int(max_per_broker, "--max-per-broker", 1, 10'000'000));
  in.existing_per_broker = static_cast<std::int32_t>(parse_int(existing, "--existing-per-broker", 0, 10'000'000));
  if (!grow.empty()) in.growth = parse_partition_counts(grow, "--grow-to");
  // The scenario runs once every option has been checked.
  std::optional<Measured> measured;
  if (!per_from.empty()) {
    measured = measure_per_partition(per_from);
    in.per_partition_produce = measured->mean;
    if (measured->offered)
      std::fprintf(stderr,
                   "partsim size: warning: %s sends at a set rate: its partitions carried what it offered, not "
                   "what one can take (arrivals.kind flat-out or closed-loop measures that)\n",
                   per_from.c_str());
    else if (measured->shared)
      std::fprintf(stderr,
                   "partsim size: warning: %s writes partitions that share a leader: each carried its share of "
                   "the broker, less than one alone can take (a one-partition topic measures that)\n",
                   per_from.c_str());
  }
  model::PartitionCountPlan plan;
  try {
    plan = model::plan_partition_count(in);
  } catch (const std::invalid_argument& e) {
    const std::string why = e.what();
    throw UsageError((why.rfind("a later count", 0) == 0 ? "--grow-to: " : "--peak, --per-partition, --consumers: ") +
                     why);
  }
  const model::CountCandidate* best = nullptr;
  for (const auto& c : plan.candidates)
    if (c.partitions == plan.recommended) best = &c;

  if (format == OutputFormat::kJson) {
    nlohmann::ordered_json j;
    if (measured)
      j["per_partition_measured"] = {{"scenario", measured->scenario},
                                     {"partitions", measured->partitions},
                                     {"mean_bytes_per_s", analysis::round_to(measured->mean, 3)},
                                     {"min_bytes_per_s", analysis::round_to(measured->low, 3)},
                                     {"max_bytes_per_s", analysis::round_to(measured->high, 3)},
                                     {"offered_rate", measured->offered},
                                     {"shared_leaders", measured->shared}};
    j["for_produce"] = plan.for_produce;
    j["for_consume"] = plan.for_consume;
    j["for_consumers"] = plan.for_consumers;
    j["needed"] = plan.needed;
    j["range"] = {{"low", plan.low}, {"high", plan.high}};
    j["recommended"] = plan.recommended;
    j["brokers_needed"] = plan.brokers_needed;
    auto& cs = j["candidates"] = nlohmann::ordered_json::array();
    for (const auto& c : plan.candidates)
      cs.push_back({{"partitions", c.partitions},
                    {"even_over_brokers", c.even_brokers},
                    {"even_over_members", c.even_consumers},
                    {"prime", c.prime},
                    {"divisors", c.divisors},
                    {"replicas_per_broker", c.replicas_per_broker}});
    auto& gs = j["growth"] = nlohmann::ordered_json::array();
    for (const auto& g : plan.growth) gs.push_back({{"to", g.to}, {"keys_kept", g.keys_kept}});
    write_stdout(j.dump(2) + "\n");
    return kExitOk;
  }
  using analysis::fixed;
  std::string out;
  if (measured)
    out += "per partition, as " + measured->scenario + " measures it: " + rate(measured->mean) +
           (measured->partitions == 1 ? " (one partition)"
                                      : " (the mean of " + std::to_string(measured->partitions) + " partitions, " +
                                            rate(measured->low) + ".." + rate(measured->high) + ")") +
           "\n\n";
  out += "partitions for " + rate(in.peak_produce) + " at peak, " + rate(in.per_partition_produce) +
         " per partition, " + analysis::count_of(in.brokers, "broker") + ", RF " +
         std::to_string(in.replication_factor) + ":\n";
  out += "  produce:   " + rate(in.peak_produce) + " / " + rate(in.per_partition_produce) + " = " +
         std::to_string(plan.for_produce) + "\n";
  if (plan.for_consume > 0)
    out += "  consume:   " + rate(in.peak_consume) + " / " + rate(in.per_partition_consume) + " = " +
           std::to_string(plan.for_consume) + "\n";
  if (in.consumers > 0)
    out += "  consumers: " + analysis::count_of(in.consumers, "member") +
           ", a partition each at least = " + std::to_string(plan.for_consumers) + "\n";
  out += "  needed " + std::to_string(plan.needed) + "; with headroom x" + analysis::exact(in.headroom_low) + "..x" +
         analysis::exact(in.headroom_high) + ": " + std::to_string(plan.low) + ".." + std::to_string(plan.high) +
         "\n\n";
  out += "recommended: " + std::to_string(plan.recommended) + "\n";
  if (best->partitions > plan.high)
    out += "  - above the range: no count in it is even over both the brokers and the members\n";
  out += best->even_brokers ? "  - " + std::to_string(in.brokers) + " brokers divide it: each leads " +
                                  std::to_string(best->partitions / in.brokers) + "\n"
                            : "  - uneven over the brokers: " + flaws(in, *best) + "\n";
  if (in.consumers > 0)
    out += best->even_consumers ? "  - " + std::to_string(in.consumers) + " members divide it: each reads " +
                                      std::to_string(best->partitions / in.consumers) + "\n"
                                : "  - uneven over the members\n";
  out += "  - " + std::to_string(best->divisors) + " divisors (" + divisor_list(best->partitions) +
         "): as many group sizes read it evenly\n";
  out +=
      "  - " + std::to_string(best->replicas_per_broker) + " replicas per broker" +
      (in.existing_per_broker > 0 ? " with the " + std::to_string(in.existing_per_broker) + " there" : "") +
      (best->replicas_per_broker <= in.max_per_broker
           ? ", within " + std::to_string(in.max_per_broker) + "\n"
           : ", over " + std::to_string(in.max_per_broker) +
                 (plan.brokers_needed > 0
                      ? ": add brokers first, " + std::to_string(plan.brokers_needed) + " keep every broker within it\n"
                      : ": the brokers' existing replicas already reach the limit, so no number of brokers keeps "
                        "them within it\n"));
  analysis::Table t({{"partitions"},
                     {"brokers even"},
                     {"members even"},
                     {"divisors"},
                     {"replicas/broker"},
                     {"against it", analysis::Align::kLeft}});
  std::string avoid;
  // A wide range shows only the counts even over the brokers and the members, and the one recommended.
  const bool wide = plan.candidates.size() > 24;
  for (const auto& c : plan.candidates) {
    if (wide && !(c.even_brokers && c.even_consumers) && c.partitions != plan.recommended) continue;
    const auto against = flaws(in, c);
    t.add_row({std::to_string(c.partitions), yes_no(c.even_brokers), in.consumers > 0 ? yes_no(c.even_consumers) : "-",
               std::to_string(c.divisors), std::to_string(c.replicas_per_broker), against});
    if (c.prime || (!c.even_brokers && (in.consumers <= 0 || !c.even_consumers)))
      avoid += (avoid.empty() ? "" : ", ") + std::to_string(c.partitions);
  }
  out += "\n" + t.to_text();
  if (wide)
    out += "(" + std::to_string(plan.candidates.size()) +
           " counts in the range; shown: those even over the brokers and the members; --format json has all)\n";
  else if (!avoid.empty())
    out += "counts to avoid: " + avoid + " (prime, or even over neither the brokers nor the members)\n";
  out += "\nif it grows later, the keyed records that keep their partition (hash mod P unchanged: gcd/max, book T5):\n";
  analysis::Table g({{"from"}, {"to"}, {"keys kept"}});
  for (const auto& x : plan.growth)
    g.add_row({std::to_string(plan.recommended), std::to_string(x.to), fixed(100 * x.keys_kept, 1) + "%"});
  out += g.to_text();
  write_stdout(out);
  return kExitOk;
}

}  // namespace partsim::cli
