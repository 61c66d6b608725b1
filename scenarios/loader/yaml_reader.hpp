#pragma once
// Reading YAML into typed values with collected, located errors. A MapReader reads one
// mapping: each field it is asked for is marked known; at the end, unknown keys are errors
// with a "did you mean". Every message reads "file:line:col: path.key: rule, got X"
// (yaml-cpp marks are 0-based; we add 1). --set overrides are applied as fields are looked
// up, so the file's tree is never changed (an alias or merge key shares nodes between
// places, and a --set on one must not change the other).

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/client_version.hpp"

namespace partsim::scenarios {

/// One --set PATH=VALUE, its path checked against the field table: `pattern` is the
/// canonical key path with "*" for "every item" ("producers.*.config.linger.ms").
struct Override {
  std::string pattern;
  YAML::Node value;        ///< null: remove the field (its default applies)
  std::string assignment;  ///< "--set PATH=VALUE", names the override in errors
  bool used = false;       ///< some field or list item took its value
};

/// Shared by all readers of one document: the file name, the errors and warnings found so
/// far, the --set overrides, and the client profile whose defaults apply.
struct ReadContext {
  std::string file;
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  std::vector<Override> overrides;
  std::map<std::string, std::string> overridden;    ///< concrete path -> "--set ..." that set it
  std::map<std::string, std::size_t> list_sizes;    ///< concrete path of each list read -> items
  model::ClientVersion client;                      ///< `client:` at the top (kafka-4.3 by default)
  std::optional<model::ClientVersion> item_client;  ///< the `client:` of the producer or group being read

  /// The client whose defaults apply to what is read now.
  const model::ClientVersion& version() const { return item_client ? *item_client : client; }

  void error(const YAML::Node& at, const std::string& path, const std::string& message);
  void warn(const YAML::Node& at, const std::string& path, const std::string& message);
  /// The value of the last override matching `path`, if any (marks it used).
  std::optional<YAML::Node> override_for(const std::string& path);

private:
  std::string locate(const YAML::Node& at, const std::string& path, const std::string& message) const;
};

/// Parses the one YAML document of `text` (a file of one document: a second one is an
/// error); YAML syntax errors are thrown as InputError at `source`:line:col.
YAML::Node parse_yaml_document(std::string_view text, const std::string& source);

/// Joins a path and a key: ("producers.0", "linger.ms") -> "producers.0.linger.ms".
std::string join_path(const std::string& path, const std::string& key);

/// The closest of `candidates` to `word` when it is close enough to be a likely typo.
std::optional<std::string> did_you_mean(const std::string& word, const std::set<std::string>& candidates);

/// A value for a message: 'text' (cut, bad bytes as \xNN), "a list", "a mapping".
std::string shown(const YAML::Node& n);

/// Expands YAML merge keys in `map` (YAML 1.1's `<<: *base` or `<<: [*a, *b]`, as
/// docker-compose and GitLab CI use them): every key of the merged mappings that `map` does
/// not set itself is added, the first mapping of a list winning, then `<<` is removed. A
/// quoted "<<" is an ordinary key. Idempotent; errors (a merge of a non-mapping) go to `ctx`.
void expand_merge_keys(ReadContext& ctx, YAML::Node map, const std::string& path);

class MapReader {
public:
  /// `node` may be null/undefined (an absent optional section reads as empty); errors in
  /// an absent section point at `parent` (the mapping that lacks it).
  MapReader(ReadContext& ctx, YAML::Node node, std::string path, YAML::Node parent = YAML::Node());

  const std::string& path() const { return path_; }
  bool has(const std::string& key);

  void read(const std::string& key, std::int64_t& out, std::int64_t lo, std::int64_t hi);
  /// Finite numbers in [lo, hi]; NaN and infinities are errors.
  void read(const std::string& key, double& out, double lo, double hi);
  void read(const std::string& key, bool& out);
  /// Valid UTF-8 text of at most `max_length` bytes.
  void read(const std::string& key, std::string& out, std::size_t max_length = 1000);
  /// One of `choices`; returns the index chosen (or leaves `out` alone).
  void read_choice(const std::string& key, std::size_t& out, const std::vector<std::string>& choices);
  /// A list of valid UTF-8 strings of at most `max_length` bytes each.
  void read_strings(const std::string& key, std::vector<std::string>& out, std::size_t max_length = 10000);
  /// A list of lists of integers in [lo, hi], each inner list non-empty (a replica assignment).
  void read_int_lists(const std::string& key, std::vector<std::vector<std::int32_t>>& out, std::int32_t lo,
                      std::int32_t hi);

  /// A sub-mapping (empty when absent); marks the key known.
  MapReader map(const std::string& key);
  /// A sequence's items (empty when absent), item overrides applied; marks the key known.
  std::vector<YAML::Node> sequence(const std::string& key);
  YAML::Node node() const { return node_; }
  ReadContext* context() const { return &ctx_; }

  void error(const std::string& key, const std::string& message);
  void warn(const std::string& key, const std::string& message);
  /// Reports keys that no read asked for.
  void finish();

private:
  YAML::Node get(const std::string& key);
  YAML::Node where(const std::string& key);
  YAML::Node locate(const std::string& key);
  template <class T>
  bool scalar(const std::string& key, T& out, const char* what);

  ReadContext& ctx_;
  YAML::Node node_;
  YAML::Node parent_;
  std::string path_;
  std::set<std::string> asked_;
  std::set<std::string> containers_;  // the keys read as a mapping or a list
};

}  // namespace partsim::scenarios
