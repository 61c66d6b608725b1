#include "scenarios/loader/sweep_reader.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>

#include "model/partitioners/partitioner.hpp"
#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/key_reader.hpp"
#include "scenarios/loader/scenario_fields.hpp"
#include "scenarios/loader/set_override.hpp"
#include "scenarios/loader/yaml_reader.hpp"
#include "sim/random_streams.hpp"

namespace partsim::scenarios {
namespace {

constexpr std::size_t kMaxPoints = 1'000'000;  // workloads x arms; rows are this x replications

std::size_t line_of(const YAML::Node& n) { return static_cast<std::size_t>(n.Mark().line + 1); }
std::size_t column_of(const YAML::Node& n) { return static_cast<std::size_t>(n.Mark().column + 1); }

// A value as --set applies it: a number in one canonical form (1000 and 1e3 are one
// value), anything else as written.
std::string number_form(const std::string& value) {
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(v)) return value;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// One PATH: VALUE of a sweep file, its path checked against the scenario's field table
// (an unknown key is an error here, at the sweep file's line, not at the first run).
bool read_assignment(ReadContext& ctx, const YAML::Node& key, const YAML::Node& value, const std::string& where,
                     SweepAssignment& out) {
  const std::string path = key.IsScalar() ? key.Scalar() : "";
  if (path.empty()) {
    ctx.error(key, where,
              "a key must be a scenario path such as workload.arrivals.rate or linger.ms, got " + shown(key));
    return false;
  }
  if (!value.IsScalar() || value.Scalar().empty()) {
    ctx.error(value.IsDefined() && !value.IsNull() ? value : key, join_path(where, path),
              "must be one value (a number or a word), got " + shown(value));
    return false;
  }
  out.path = path;
  out.full_path = expand_sweep_path(path);
  out.value = value.Scalar();
  out.line = line_of(value);
  out.column = column_of(value);
  try {
    (void)parse_override(out.set(), scenario_table().schema());
  } catch (const InputError& e) {
    for (const auto& m : e.messages()) ctx.error(key, join_path(where, path), m);
    return false;
  }
  return true;
}

// A mapping of PATH: VALUE (set:, a variant, a point of points:).
std::vector<SweepAssignment> read_assignments(ReadContext& ctx, const YAML::Node& map, const std::string& where) {
  std::vector<SweepAssignment> out;
  if (!map.IsMap()) {
    ctx.error(map, where,
              "must be a mapping of scenario paths to values (workload.arrivals.rate: 1000), got " + shown(map));
    return out;
  }
  std::set<std::string> seen;
  for (const auto& kv : map) {
    SweepAssignment a;
    if (!read_assignment(ctx, kv.first, kv.second, where, a)) continue;
    if (!seen.insert(a.full_path).second) {
      ctx.error(kv.first, join_path(where, a.path), "is set twice in this mapping");
      continue;
    }
    out.push_back(std::move(a));
  }
  return out;
}

void read_arms(ReadContext& ctx, MapReader& top, SweepDefinition& d) {
  std::set<std::string> names;
  const auto& known = model::partitioner_names();
  const auto parts = top.sequence("partitioners");
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const YAML::Node& p = parts[i];
    const std::string where = "partitioners." + std::to_string(i);
    if (!p.IsScalar() || std::find(known.begin(), known.end(), p.Scalar()) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      ctx.error(p, where, "must be a partitioner (" + list + "), got " + shown(p));
      continue;
    }
    if (!names.insert(p.Scalar()).second) {
      ctx.error(p, where, "'" + p.Scalar() + "' is listed twice");
      continue;
    }
    SweepAssignment a{"partitioner", "producers.*.config.partitioner", p.Scalar(), line_of(p), column_of(p)};
    d.arms.push_back({p.Scalar(), {a}});
  }
  MapReader variants = top.map("variants");
  const YAML::Node vnode = variants.node();
  if (vnode.IsDefined() && !vnode.IsNull()) {
    if (!vnode.IsMap()) {
      ctx.error(
          vnode, "variants",
          "must be a mapping of names to settings (adaptive-off: {partitioner.adaptive.partitioning.enable: false}), got " +
              shown(vnode));
    } else {
      for (const auto& kv : vnode) {
        const std::string name = kv.first.IsScalar() ? kv.first.Scalar() : "";
        if (name.empty() || name.find_first_of(",/\n") != std::string::npos) {
          ctx.error(kv.first, "variants", "a variant's name must be a word without ',' or '/', got " + shown(kv.first));
          continue;
        }
        if (!names.insert(name).second) {
          ctx.error(kv.first, "variants." + name, "'" + name + "' is already the name of a partitioner or variant");
          continue;
        }
        auto sets = read_assignments(ctx, kv.second, "variants." + name);
        if (sets.empty() && kv.second.IsMap())
          ctx.error(kv.first, "variants." + name, "sets nothing; give at least one PATH: VALUE");
        d.arms.push_back({name, std::move(sets)});
      }
    }
  }
  if (d.arms.empty()) d.arms.push_back({"scenario", {}});
}

// grid: {PATH: [V1, V2, ...], ...}: every combination, the first key varying slowest.
void read_grid(ReadContext& ctx, const YAML::Node& grid, SweepDefinition& d) {
  if (!grid.IsMap() || grid.size() == 0) {
    ctx.error(grid, "grid",
              "must be a mapping of scenario paths to lists of values (workload.arrivals.rate: [100, 1000]), got " +
                  shown(grid));
    return;
  }
  std::vector<std::vector<SweepAssignment>> axes;
  std::set<std::string> seen;
  for (const auto& kv : grid) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
    if (!kv.second.IsSequence() || kv.second.size() == 0) {
      ctx.error(kv.second.IsDefined() && !kv.second.IsNull() ? kv.second : kv.first, join_path("grid", key),
                "must be a non-empty list of values ([100, 1000]), got " +
                    (kv.second.IsSequence() ? "an empty list" : shown(kv.second)));
      continue;
    }
    std::vector<SweepAssignment> axis;
    std::map<std::string, std::size_t> values;  // number_form(value) -> its index in axis
    for (const auto& v : kv.second) {
      SweepAssignment a;
      if (!read_assignment(ctx, kv.first, v, "grid", a)) continue;
      // A value given twice would run the same points twice (the same seed: the same rows).
      const auto [same, fresh] = values.emplace(number_form(a.value), axis.size());
      if (!fresh) {
        const SweepAssignment& first = axis[same->second];
        ctx.error(v, join_path("grid", key),
                  a.value + " is listed twice (first at " + std::to_string(first.line) + ":" +
                      std::to_string(first.column) + "): the same point would run twice");
        continue;
      }
      axis.push_back(std::move(a));
    }
    if (axis.empty()) continue;
    if (!seen.insert(axis.front().full_path).second) {
      ctx.error(kv.first, join_path("grid", key), "is swept twice");
      continue;
    }
    axes.push_back(std::move(axis));
  }
  if (!ctx.errors.empty()) return;
  std::size_t count = 1;
  for (const auto& axis : axes) {
    count *= axis.size();
    if (count * d.arms.size() > kMaxPoints) {
      ctx.error(grid, "grid", "makes more than " + std::to_string(kMaxPoints) + " points; split the sweep");
      return;
    }
  }
  for (std::size_t k = 0; k < count; ++k) {
    std::vector<SweepAssignment> w;
    std::size_t rest = k;
    std::vector<std::size_t> index(axes.size());
    for (std::size_t a = axes.size(); a-- > 0;) {
      index[a] = rest % axes[a].size();
      rest /= axes[a].size();
    }
    for (std::size_t a = 0; a < axes.size(); ++a) w.push_back(axes[a][index[a]]);
    d.workloads.push_back(std::move(w));
  }
}

// points: [{PATH: VALUE, ...}, ...]: each item one point, as written.
void read_points(ReadContext& ctx, const YAML::Node& points, SweepDefinition& d) {
  if (!points.IsSequence() || points.size() == 0) {
    ctx.error(points, "points",
              "must be a non-empty list of mappings ({workload.arrivals.kind: flat-out}), got " + shown(points));
    return;
  }
  if (points.size() * d.arms.size() > kMaxPoints) {
    ctx.error(points, "points", "makes more than " + std::to_string(kMaxPoints) + " points; split the sweep");
    return;
  }
  std::map<std::string, std::size_t> seen;  // a point's assignments, in path order -> its index
  for (std::size_t i = 0; i < points.size(); ++i) {
    auto w = read_assignments(ctx, points[i], "points." + std::to_string(i));
    std::vector<SweepAssignment> sorted = w;
    std::sort(sorted.begin(), sorted.end(),
              [](const SweepAssignment& a, const SweepAssignment& b) { return a.full_path < b.full_path; });
    std::string key;
    for (const auto& a : sorted) key += a.full_path + "=" + number_form(a.value) + "\n";
    const auto [it, fresh] = seen.emplace(key, i);
    if (!fresh && !w.empty()) {
      ctx.error(points[i], "points." + std::to_string(i),
                "is the same point as points." + std::to_string(it->second) + " (" +
                    std::to_string(line_of(points[it->second])) + ":" + std::to_string(column_of(points[it->second])) +
                    "): it would run twice");
      continue;
    }
    d.workloads.push_back(std::move(w));
  }
}

std::string format_sample(double v, bool integer) {
  if (integer) return std::to_string(std::llround(v));
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// sample: {n, seed, ranges: {PATH: {min, max, scale: linear|log, integer}}}: a Latin
// hypercube: each range cut into n equal strata (in log space for scale: log), each
// stratum used once per range, the strata of different ranges paired by independent
// random permutations, a uniform point within each stratum. Boost.Random's mt19937_64 and
// its distributions give the same numbers on every platform.
void read_sample(ReadContext& ctx, MapReader& sample, SweepDefinition& d) {
  std::int64_t n = 0;
  std::int64_t seed = static_cast<std::int64_t>(d.seed);
  if (!sample.has("n")) sample.error("n", "is required: how many points to sample");
  sample.read("n", n, 1, static_cast<std::int64_t>(kMaxPoints / d.arms.size()));
  sample.read("seed", seed, 0, std::numeric_limits<std::int64_t>::max());
  MapReader ranges = sample.map("ranges");
  const YAML::Node rnode = ranges.node();
  sample.finish();
  if (!rnode.IsMap() || rnode.size() == 0) {
    if (rnode.IsDefined() && !rnode.IsNull() && !rnode.IsMap()) return;  // reported by the reader
    ctx.error(
        rnode.IsDefined() ? rnode : sample.node(), "sample.ranges",
        "must be a mapping of scenario paths to ranges (workload.arrivals.rate: {min: 100, max: 30000, scale: log}), got " +
            shown(rnode));
    return;
  }
  struct Range {
    SweepAssignment where;
    double min = 0, max = 0;
    bool log = false, integer = false;
  };
  std::vector<Range> rs;
  std::set<std::string> seen;
  for (const auto& kv : rnode) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
    const std::string path = join_path("sample.ranges", key);
    Range r;
    if (!kv.second.IsMap()) {
      ctx.error(kv.second.IsDefined() && !kv.second.IsNull() ? kv.second : kv.first, path,
                "must be a range {min: 100, max: 30000, scale: linear|log, integer: false}, got " + shown(kv.second));
      continue;
    }
    MapReader m(ctx, kv.second, path, rnode);
    if (!m.has("min")) m.error("min", "is required");
    if (!m.has("max")) m.error("max", "is required");
    m.read("min", r.min, -1e300, 1e300);
    m.read("max", r.max, -1e300, 1e300);
    std::size_t scale = 0;
    m.read_choice("scale", scale, {"linear", "log"});
    r.log = scale == 1;
    m.read("integer", r.integer);
    m.finish();
    if (!(r.min < r.max)) ctx.error(kv.second, path, "min must be below max");
    if (r.log && !(r.min > 0)) ctx.error(kv.second, path, "scale: log needs min > 0");
    // The path is checked with a number of the range's kind.
    if (!read_assignment(ctx, kv.first, YAML::Node(format_sample(r.min, r.integer)), "sample.ranges", r.where))
      continue;
    r.where.line = line_of(kv.first);
    r.where.column = column_of(kv.first);
    if (!seen.insert(r.where.full_path).second) {
      ctx.error(kv.first, path, "is sampled twice");
      continue;
    }
    rs.push_back(r);
  }
  if (!ctx.errors.empty()) return;
  const auto count = static_cast<std::size_t>(n);
  boost::random::mt19937_64 rng(static_cast<std::uint64_t>(seed));
  std::vector<std::vector<SweepAssignment>> points(count);
  for (const auto& r : rs) {
    std::vector<std::size_t> perm(count);
    for (std::size_t i = 0; i < count; ++i) perm[i] = i;
    for (std::size_t i = count; i-- > 1;) {
      boost::random::uniform_int_distribution<std::size_t> pick(0, i);
      std::swap(perm[i], perm[pick(rng)]);
    }
    boost::random::uniform_real_distribution<double> u(0.0, 1.0);
    for (std::size_t i = 0; i < count; ++i) {
      const double x = (static_cast<double>(perm[i]) + u(rng)) / static_cast<double>(count);
      const double v = r.log ? std::exp(std::log(r.min) + x * (std::log(r.max) - std::log(r.min)))
                             : r.min + x * (r.max - r.min);
      SweepAssignment a = r.where;
      a.value = format_sample(std::clamp(v, r.min, r.max), r.integer);
      points[i].push_back(std::move(a));
    }
  }
  d.workloads = std::move(points);
}

}  // namespace

std::string expand_sweep_path(const std::string& path) {
  if (path == "client") return path;  // the scenario's client: every producer and group without one of its own
  for (const char* section : {"producers.", "cluster.", "topics.", "run.", "consumers."})
    if (path.rfind(section, 0) == 0) return path;
  if (path.rfind("workload.", 0) == 0 || path.rfind("config.", 0) == 0) return "producers.*." + path;
  return "producers.*.config." + path;
}

SweepDefinition load_sweep_file(const std::string& path) {
  SweepDefinition d;
  d.file = path;
  d.text = read_input_file(path);
  const YAML::Node root = parse_yaml_document(d.text, path);
  if (!root.IsDefined() || root.IsNull() || !root.IsMap())
    throw InputError({path}, "must be a mapping with scenario, replications, seed and one of grid, points or sample");
  ReadContext ctx;
  ctx.file = path;
  MapReader top(ctx, root, "");
  std::string scenario;
  if (!top.has("scenario")) top.error("scenario", "is required: the base scenario file, relative to the sweep file");
  top.read("scenario", scenario);
  top.read("name", d.name, 200);
  std::int64_t seed = 1, replications = 1;
  top.read("seed", seed, 0, std::numeric_limits<std::int64_t>::max());
  top.read("replications", replications, 1, 1'000'000);
  d.seed = static_cast<std::uint64_t>(seed);
  d.replications = static_cast<std::size_t>(replications);
  {
    MapReader set = top.map("set");
    if (set.node().IsDefined() && !set.node().IsNull()) d.sets = read_assignments(ctx, set.node(), "set");
  }
  read_arms(ctx, top, d);
  const bool grid = top.has("grid"), points = top.has("points"), sample = top.has("sample");
  if (grid + points + sample != 1)
    top.error(grid ? "points" : "grid",
              "a sweep needs exactly one of grid, points or sample, got " + std::to_string(grid + points + sample));
  else if (grid) read_grid(ctx, root["grid"], d);
  else if (points) read_points(ctx, root["points"], d);
  else if (MapReader s(ctx, root["sample"], "sample", root); s.node().IsMap()) read_sample(ctx, s, d);
  d.source = grid ? "grid" : points ? "points" : "sample";
  top.finish();
  if (!ctx.errors.empty()) throw InputError(ctx.errors);

  const std::filesystem::path base = std::filesystem::path(path).parent_path() / scenario;
  d.scenario_path = base.lexically_normal().string();
  try {
    d.scenario_text = read_input_file(d.scenario_path);
  } catch (const InputError& e) {
    const YAML::Node at = root["scenario"];
    throw InputError({path, line_of(at), column_of(at)},
                     "scenario: cannot read the base scenario '" + d.scenario_path +
                         "' (a path relative to the sweep file): " + e.messages().front());
  }
  if (d.name.empty()) d.name = std::filesystem::path(path).stem().string();
  return d;
}

std::string indexed_job_manifest(const IndexedJob& job) {
  YAML::Emitter e;
  e << YAML::Comment(job.comment);
  e << YAML::BeginMap;
  e << YAML::Key << "apiVersion" << YAML::Value << "batch/v1";
  e << YAML::Key << "kind" << YAML::Value << "Job";
  e << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value << job.name
    << YAML::EndMap;
  e << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "completionMode" << YAML::Value << "Indexed";
  e << YAML::Key << "completions" << YAML::Value << job.completions;
  e << YAML::Key << "parallelism" << YAML::Value << job.completions;
  e << YAML::Key << "backoffLimit" << YAML::Value << 3 * job.completions;
  e << YAML::Key << "template" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "restartPolicy" << YAML::Value << "OnFailure";
  e << YAML::Key << "containers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  e << YAML::Key << "name" << YAML::Value << "partsim";
  // Strings the user gives are double-quoted: plain, `4` or `on` would be an integer or (in
  // the YAML 1.1 that Kubernetes reads) a boolean, and the API server refuses a command
  // whose items are not strings.
  e << YAML::Key << "image" << YAML::Value << YAML::DoubleQuoted << job.image;
  e << YAML::Key << "command" << YAML::Value << YAML::BeginSeq;
  for (const auto& w : job.command) e << YAML::DoubleQuoted << w;
  e << YAML::EndSeq;
  e << YAML::Key << "volumeMounts" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name"
    << YAML::Value << "stores" << YAML::Key << "mountPath" << YAML::Value << YAML::DoubleQuoted << job.mount
    << YAML::EndMap << YAML::EndSeq;
  e << YAML::EndMap << YAML::EndSeq;
  e << YAML::Key << "volumes" << YAML::Value << YAML::BeginSeq << YAML::BeginMap << YAML::Key << "name" << YAML::Value
    << "stores" << YAML::Key << "persistentVolumeClaim" << YAML::Value << YAML::BeginMap << YAML::Key << "claimName"
    << YAML::Value << YAML::DoubleQuoted << job.claim << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  e << YAML::EndMap << YAML::EndMap << YAML::EndMap << YAML::EndMap;
  if (!e.good()) throw std::runtime_error("Kubernetes manifest: " + e.GetLastError());
  return std::string(e.c_str()) + "\n";
}

std::string workload_key(const std::vector<SweepAssignment>& workload) {
  std::string key;
  for (const auto& a : workload) key += a.set() + "\n";
  return key;
}

std::string canonical_sweep_text(const SweepDefinition& d) {
  std::string out = "partsim sweep v1\nseed " + std::to_string(d.seed) + "\nreplications " +
                    std::to_string(d.replications) + "\nscenario " + std::to_string(d.scenario_text.size()) + "\n" +
                    d.scenario_text + "\nset\n" + workload_key(d.sets);
  for (const auto& arm : d.arms) out += "arm " + arm.name + "\n" + workload_key(arm.sets);
  for (const auto& w : d.workloads) out += "point\n" + workload_key(w);
  return out;
}

std::string sweep_hash(const SweepDefinition& d) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, sim::stable_name_hash(canonical_sweep_text(d)));
  return buf;
}

}  // namespace partsim::scenarios
