#pragma once
// Reading YAML into typed values with collected, located errors. A MapReader reads one
// mapping: each field it is asked for is marked known; at the end, unknown keys are errors
// with a "did you mean". Every message reads "file:line:col: path.key: rule, got X"
// (yaml-cpp marks are 0-based; we add 1).

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace partsim::scenarios {

/// Shared by all readers of one document: the file name, the errors found so far, the
/// keys each mapping path knows (for --set), and which paths --set overrode.
struct ReadContext {
  std::string file;
  std::vector<std::string> errors;
  std::map<std::string, std::set<std::string>> known_keys;  // mapping path -> keys
  std::map<std::string, std::string> overrides;              // path -> "--set path=value"

  void error(const YAML::Node& at, const std::string& path, const std::string& message);
};

/// Joins a path and a key: ("producers.0", "linger.ms") -> "producers.0.linger.ms".
std::string join_path(const std::string& path, const std::string& key);

/// The closest of `candidates` to `word` when it is close enough to be a likely typo.
std::optional<std::string> did_you_mean(const std::string& word, const std::set<std::string>& candidates);

class MapReader {
public:
  /// `node` may be null/undefined (an absent optional section reads as empty); errors in
  /// an absent section point at `parent` (the mapping that lacks it).
  MapReader(ReadContext& ctx, YAML::Node node, std::string path, YAML::Node parent = YAML::Node());

  const std::string& path() const { return path_; }
  bool has(const std::string& key);

  void read(const std::string& key, std::int64_t& out, std::int64_t lo, std::int64_t hi);
  void read(const std::string& key, std::int32_t& out, std::int32_t lo, std::int32_t hi);
  /// Finite numbers in [lo, hi]; NaN and infinities are errors.
  void read(const std::string& key, double& out, double lo, double hi);
  void read(const std::string& key, bool& out);
  void read(const std::string& key, std::string& out, std::size_t max_length = 1000);
  void read_optional(const std::string& key, std::optional<std::int64_t>& out, std::int64_t lo, std::int64_t hi);
  void read_optional(const std::string& key, std::optional<std::int32_t>& out, std::int32_t lo, std::int32_t hi);
  /// One of `choices`; returns the index chosen (or leaves `out` alone).
  void read_choice(const std::string& key, std::size_t& out, const std::vector<std::string>& choices);
  void read_strings(const std::string& key, std::vector<std::string>& out);

  /// A sub-mapping (empty when absent); marks the key known.
  MapReader map(const std::string& key);
  /// A sequence's items (empty when absent); marks the key known.
  std::vector<YAML::Node> sequence(const std::string& key);
  YAML::Node node() const { return node_; }
  ReadContext* context() const { return &ctx_; }

  void error(const std::string& key, const std::string& message);
  /// Reports keys that no read asked for.
  void finish();

private:
  YAML::Node get(const std::string& key);
  template <class T>
  bool scalar(const std::string& key, T& out, const char* what);

  ReadContext& ctx_;
  YAML::Node node_;
  YAML::Node parent_;
  std::string path_;
  std::set<std::string> asked_;
};

}  // namespace partsim::scenarios
