#pragma once
// Sweep files (partsim sweep): a base scenario, a seed, replications, what is compared at
// every point (partitioners and named variants) and the points themselves, from a grid,
// an explicit list or a Latin hypercube sample. Read here, like scenario files, with every
// error located: "sweep.yaml:line:col: path: rule, got X".

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace partsim::scenarios {

/// One --set assignment of a sweep, as written and as applied.
struct SweepAssignment {
  std::string path;                  ///< as written: "workload.arrivals.rate"
  std::string full_path;             ///< as --set takes it: "producers.*.workload.arrivals.rate"
  std::string value;                 ///< the YAML scalar as written: "100", "flat-out"
  std::size_t line = 0, column = 0;  ///< where the value is in the sweep file (1-based)

  std::string set() const { return full_path + "=" + value; }
};

/// What is compared at every point: a partitioner (its name, setting
/// producers.*.config.partitioner) or a named variant (its own assignments).
struct SweepArm {
  std::string name;
  std::vector<SweepAssignment> sets;
};

struct SweepDefinition {
  std::string file;           ///< the sweep file as given
  std::string text;           ///< its content
  std::string name;           ///< `name:`, else the file's stem
  std::string scenario_path;  ///< the base scenario, resolved against the sweep file's folder
  std::string scenario_text;  ///< its content (part of the sweep's hash)
  std::uint64_t seed = 1;
  std::size_t replications = 1;
  std::vector<SweepAssignment> sets;  ///< `set:`, applied to every run first
  std::vector<SweepArm> arms;         ///< partitioners, then variants; one unnamed arm without either
  std::string source;                 ///< "grid", "points" or "sample"
  /// The points' workloads: each a list of assignments (grid order: the first key varies
  /// slowest). A point of the sweep is a workload with an arm.
  std::vector<std::vector<SweepAssignment>> workloads;
};

/// Reads and checks a sweep file (and reads its base scenario's text); throws InputError
/// with every problem found, each at file:line:col.
SweepDefinition load_sweep_file(const std::string& path);

/// "linger.ms" -> "producers.*.config.linger.ms", "workload.X" -> "producers.*.workload.X";
/// paths that start with a section (producers., cluster., topics., run., consumers.) stay.
std::string expand_sweep_path(const std::string& path);

/// The definition in one canonical text (seed, replications, the base scenario's content,
/// every assignment of every arm and point, by full path): the same sweep gives the same
/// text whatever the file's layout or comments.
std::string canonical_sweep_text(const SweepDefinition& d);

/// The sweep's identity: FNV-1a 64 of the canonical text, 16 hex digits.
std::string sweep_hash(const SweepDefinition& d);

/// A Kubernetes Indexed Job (batch/v1) running one container per completion index, with
/// a PersistentVolumeClaim mounted for the stores.
struct IndexedJob {
  std::string name, comment, image, claim, mount;
  std::size_t completions = 1;
  std::vector<std::string> command;
};
/// The Job's manifest as YAML (written by yaml-cpp's emitter: quoting is YAML's):
/// completionMode Indexed, completions = parallelism, restartPolicy OnFailure.
std::string indexed_job_manifest(const IndexedJob& job);

/// The workload's identity for seeding: its assignments, by full path, one a line.
std::string workload_key(const std::vector<SweepAssignment>& workload);

}  // namespace partsim::scenarios
