#include "scenarios/loader/yaml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "scenarios/loader/utf8.hpp"

namespace partsim::scenarios {

std::string join_path(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string shown(const YAML::Node& n) {
  if (n.IsScalar()) return "'" + printable(n.Scalar()) + "'";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  return "nothing";
}

std::optional<std::string> did_you_mean(const std::string& word, const std::set<std::string>& candidates) {
  // "rtt" for "rtt.ms": a key given without its unit.
  for (const auto& c : candidates)
    if (c.size() > word.size() && c.compare(0, word.size(), word) == 0 && c[word.size()] == '.') return c;
  std::optional<std::string> best;
  std::size_t best_d = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string ReadContext::locate(const YAML::Node& at, const std::string& path, const std::string& message) const {
  // An error inside a field that --set gave names the --set, not the file: the one that
  // gave the deepest part of the path (a --set inside a section another --set replaced).
  const std::string* by = nullptr;
  std::size_t depth = 0;
  for (const auto& [p, text] : overridden)
    if ((path == p || path.rfind(p + ".", 0) == 0) && (by == nullptr || p.size() > depth)) {
      by = &text;
      depth = p.size();
    }
  if (by) return *by + ": " + path + ": " + message;
  std::string where = file;
  if (at.IsDefined()) {
    const YAML::Mark m = at.Mark();
    if (m.line >= 0) where += ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }
  return where + ": " + (path.empty() ? "" : path + ": ") + message;
}

void ReadContext::error(const YAML::Node& at, const std::string& path, const std::string& message) {
  // A section read twice (to place a cross-check's error) must not report twice.
  std::string line = locate(at, path, message);
  if (std::find(errors.begin(), errors.end(), line) == errors.end()) errors.push_back(std::move(line));
}

void ReadContext::warn(const YAML::Node& at, const std::string& path, const std::string& message) {
  std::string line = locate(at, path, message);
  if (std::find(warnings.begin(), warnings.end(), line) == warnings.end()) warnings.push_back(std::move(line));
}

namespace {
// "producers.*.config.linger.ms" matches "producers.3.config.linger.ms": a "*" segment
// stands for one list index.
bool path_matches(const std::string& pattern, const std::string& path) {
  std::size_t i = 0, j = 0;
  while (i < pattern.size() && j < path.size()) {
    if (pattern[i] == '*' && (i == 0 || pattern[i - 1] == '.') && (i + 1 == pattern.size() || pattern[i + 1] == '.')) {
      const std::size_t start = j;
      while (j < path.size() && path[j] >= '0' && path[j] <= '9') ++j;
      if (j == start || (j < path.size() && path[j] != '.')) return false;
      ++i;
      continue;
    }
    if (pattern[i] != path[j]) return false;
    ++i;
    ++j;
  }
  return i == pattern.size() && j == path.size();
}
}  // namespace

std::optional<YAML::Node> ReadContext::override_for(const std::string& path) {
  // The last matching --set wins; earlier ones that match too (a '*' after an index, say)
  // named something real, so they count as used.
  std::optional<YAML::Node> value;
  for (auto it = overrides.rbegin(); it != overrides.rend(); ++it) {
    if (!path_matches(it->pattern, path)) continue;
    it->used = true;
    if (value) continue;
    overridden[path] = it->assignment;
    value = it->value;
  }
  return value;
}

void expand_merge_keys(ReadContext& ctx, YAML::Node map, const std::string& path) {
  // Depth-first over merged mappings; a merge chain deeper than this (or an anchor that
  // merges itself) stops expanding rather than recursing forever.
  constexpr int kMaxDepth = 64;
  struct Expand {
    ReadContext& ctx;
    void operator()(YAML::Node m, const std::string& at_path, int depth) const {
      if (!m.IsMap() || depth > kMaxDepth) return;
      YAML::Node merge_key, merge;
      bool found = false;
      for (const auto& kv : m)
        if (kv.first.IsScalar() && kv.first.Scalar() == "<<" && kv.first.Tag() == "?") {
          merge_key = kv.first;
          merge = kv.second;
          found = true;
          break;
        }
      if (!found) return;
      std::vector<YAML::Node> sources;
      if (merge.IsMap()) {
        sources.push_back(merge);
      } else if (merge.IsSequence()) {
        for (std::size_t i = 0; i < merge.size(); ++i) sources.push_back(merge[i]);
      }
      const bool valid = !sources.empty() &&
                         std::all_of(sources.begin(), sources.end(), [](const YAML::Node& n) { return n.IsMap(); });
      m.remove(merge_key);
      if (!valid) {
        ctx.error(merge, join_path(at_path, "<<"),
                  "a merge key takes a mapping (<<: *base) or a list of mappings (<<: [*a, *b]), got " + shown(merge));
        return;
      }
      for (const auto& src : sources) {
        (*this)(src, at_path, depth + 1);
        for (const auto& kv : src) {
          if (!kv.first.IsScalar()) continue;
          bool present = false;
          for (const auto& own : m)
            present = present || (own.first.IsScalar() && own.first.Scalar() == kv.first.Scalar());
          if (!present) m.force_insert(kv.first, kv.second);
        }
      }
      (*this)(m, at_path, depth + 1);  // a second "<<" (a duplicate key, reported) merges too
    }
  };
  Expand{ctx}(map, path, 0);
}

MapReader::MapReader(ReadContext& ctx, YAML::Node node, std::string path, YAML::Node parent)
    : ctx_(ctx), node_(node), parent_(parent), path_(std::move(path)) {
  if (node_.IsDefined() && !node_.IsNull() && !node_.IsMap()) {
    ctx_.error(node_, path_, "must be a mapping of keys to values, got " + shown(node_));
    node_ = YAML::Node();
    return;
  }
  if (node_.IsMap()) {  // duplicate keys: yaml-cpp keeps them silently
    std::set<std::string> seen;
    for (const auto& kv : node_) {
      const std::string k = kv.first.IsScalar() ? kv.first.Scalar() : "";
      if (!seen.insert(k).second) ctx_.error(kv.first, join_path(path_, printable(k, 200)), "duplicate key");
    }
    expand_merge_keys(ctx_, node_, path_);
  }
}

YAML::Node MapReader::get(const std::string& key) {
  asked_.insert(key);
  if (auto value = ctx_.override_for(join_path(path_, key))) return *value;
  return locate(key);
}

YAML::Node MapReader::locate(const std::string& key) {
  if (!node_.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (const auto& kv : node_)
    if (kv.first.IsScalar() && kv.first.Scalar() == key) return kv.second;
  return YAML::Node(YAML::NodeType::Undefined);
}

bool MapReader::has(const std::string& key) {
  const YAML::Node n = get(key);
  return n.IsDefined() && !n.IsNull();
}

// Where a message about `key` points: its value, else this mapping, else (an absent
// section, or a key without a value) the parent mapping. Chosen without assigning one
// YAML::Node to another: yaml-cpp's assignment writes through to the node assigned to (a
// copy of node_ assigned parent_ turned node_ itself into parent_, and finish() then
// reported the parent's keys as this section's unknown ones: cluster.topics, ...).
YAML::Node MapReader::where(const std::string& key) {
  if (node_.IsMap()) {
    const YAML::Node at = get(key);
    if (at.IsDefined() && !at.IsNull()) return at;
    if (at.IsDefined()) return parent_;  // `key:` with no value
  }
  if (node_.IsDefined() && !node_.IsNull()) return node_;
  return parent_;
}

void MapReader::error(const std::string& key, const std::string& message) {
  ctx_.error(where(key), join_path(path_, key), message);
}

void MapReader::warn(const std::string& key, const std::string& message) {
  ctx_.warn(where(key), join_path(path_, key), message);
}

template <class T>
bool MapReader::scalar(const std::string& key, T& out, const char* what) {
  const YAML::Node n = get(key);
  if (!n.IsDefined() || n.IsNull()) return false;
  if (!n.IsScalar()) {
    ctx_.error(n, join_path(path_, key), std::string("must be ") + what + ", got " + shown(n));
    return false;
  }
  try {
    out = n.as<T>();
    return true;
  } catch (const YAML::Exception&) {
    ctx_.error(n, join_path(path_, key), std::string("must be ") + what + ", got " + shown(n));
    return false;
  }
}

void MapReader::read(const std::string& key, std::int64_t& out, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  const std::string range = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (!scalar(key, v, range.c_str())) return;
  if (v < lo || v > hi) {
    error(key, "must be " + range + ", got " + std::to_string(v));
    return;
  }
  out = v;
}

void MapReader::read(const std::string& key, double& out, double lo, double hi) {
  double v = 0;
  char range[128];
  std::snprintf(range, sizeof range, "a number in [%g, %g]", lo, hi);
  if (!scalar(key, v, range)) return;
  if (!std::isfinite(v)) {
    error(key, std::string("must be ") + range + ", got " + shown(get(key)));
    return;
  }
  if (v < lo || v > hi) {
    error(key, std::string("must be ") + range + ", got " + shown(get(key)));
    return;
  }
  out = v;
}

void MapReader::read(const std::string& key, bool& out) {
  bool v = false;
  if (scalar(key, v, "true or false")) out = v;
}

namespace {
// Every string of a scenario ends up in results (names, keys in traces, JSON), so it must
// be text: valid UTF-8 (YAML streams are Unicode; Java's StringSerializer writes UTF-8).
std::string text_problem(const std::string& v, std::size_t max_length) {
  if (v.size() > max_length)
    return "must be at most " + std::to_string(max_length) + " characters, got " + std::to_string(v.size());
  if (!is_valid_utf8(v)) return "must be valid UTF-8 text, got '" + printable(v) + "'";
  return "";
}
}  // namespace

void MapReader::read(const std::string& key, std::string& out, std::size_t max_length) {
  std::string v;
  if (!scalar(key, v, "a string")) return;
  if (const std::string problem = text_problem(v, max_length); !problem.empty()) {
    error(key, problem);
    return;
  }
  out = v;
}

void MapReader::read_choice(const std::string& key, std::size_t& out, const std::vector<std::string>& choices) {
  std::string v;
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
  if (!scalar(key, v, ("one of " + list).c_str())) return;
  const auto it = std::find(choices.begin(), choices.end(), v);
  if (it == choices.end()) {
    error(key, "must be one of " + list + ", got '" + printable(v) + "'");
    return;
  }
  out = static_cast<std::size_t>(it - choices.begin());
}

void MapReader::read_strings(const std::string& key, std::vector<std::string>& out, std::size_t max_length) {
  const YAML::Node n = get(key);
  if (!n.IsDefined() || n.IsNull()) return;
  if (!n.IsSequence()) {
    ctx_.error(n, join_path(path_, key), "must be a list of strings, got " + shown(n));
    return;
  }
  out.clear();
  for (std::size_t i = 0; i < n.size(); ++i) {
    const std::string item_path = join_path(path_, key) + "." + std::to_string(i);
    if (!n[i].IsScalar()) {
      ctx_.error(n[i], item_path, "must be a string, got " + shown(n[i]));
      continue;
    }
    if (const std::string problem = text_problem(n[i].Scalar(), max_length); !problem.empty()) {
      ctx_.error(n[i], item_path, problem);
      continue;
    }
    out.push_back(n[i].Scalar());
  }
}

void MapReader::read_int_lists(const std::string& key, std::vector<std::vector<std::int32_t>>& out, std::int32_t lo,
                               std::int32_t hi) {
  const YAML::Node n = get(key);
  if (!n.IsDefined() || n.IsNull()) return;
  const std::string range = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (!n.IsSequence()) {
    ctx_.error(n, join_path(path_, key), "must be a list of lists of integers, e.g. [[0, 1], [1, 2]], got " + shown(n));
    return;
  }
  out.clear();
  for (std::size_t i = 0; i < n.size(); ++i) {
    const std::string item_path = join_path(path_, key) + "." + std::to_string(i);
    if (!n[i].IsSequence() || n[i].size() == 0) {
      ctx_.error(n[i], item_path, "must be a non-empty list of integers, e.g. [0, 1], got " + shown(n[i]));
      continue;
    }
    std::vector<std::int32_t>& row = out.emplace_back();
    for (std::size_t j = 0; j < n[i].size(); ++j) {
      const YAML::Node v = n[i][j];
      std::int64_t x = 0;
      bool ok = v.IsScalar();
      if (ok) {
        try {
          x = v.as<std::int64_t>();
        } catch (const YAML::Exception&) {
          ok = false;
        }
      }
      if (!ok || x < lo || x > hi) {
        ctx_.error(v, item_path + "." + std::to_string(j), "must be " + range + ", got " + shown(v));
        continue;
      }
      row.push_back(static_cast<std::int32_t>(x));
    }
  }
}

MapReader MapReader::map(const std::string& key) {
  containers_.insert(key);
  return MapReader(ctx_, get(key), join_path(path_, key), node_.IsDefined() && !node_.IsNull() ? node_ : parent_);
}

std::vector<YAML::Node> MapReader::sequence(const std::string& key) {
  containers_.insert(key);
  const std::string list_path = join_path(path_, key);
  const YAML::Node n = get(key);
  std::vector<YAML::Node> items;
  ctx_.list_sizes[list_path] = n.IsSequence() ? n.size() : 0;
  if (!n.IsDefined() || n.IsNull()) return items;
  if (!n.IsSequence()) {
    ctx_.error(n, list_path, "must be a list, got " + shown(n));
    return items;
  }
  for (std::size_t i = 0; i < n.size(); ++i) {
    const auto replaced = ctx_.override_for(join_path(list_path, std::to_string(i)));
    items.push_back(replaced ? *replaced : n[i]);
  }
  return items;
}

void MapReader::finish() {
  // A --set of a key this mapping does not have, though the reference has it in another of
  // its variants (a Java config key on a kafka-go producer): unknown here, whether or not
  // another item (a Java producer, for producers.*) took it.
  for (Override& o : ctx_.overrides) {
    // A removal (KEY=~) of a key this item lacks leaves it as it is.
    if (path_.empty() || o.pattern.size() <= path_.size() || o.value.IsNull()) continue;
    const std::size_t segments = static_cast<std::size_t>(std::count(path_.begin(), path_.end(), '.')) + 1;
    std::size_t cut = 0;
    for (std::size_t n = 0; n < segments && cut != std::string::npos; ++n) cut = o.pattern.find('.', cut + (n > 0));
    if (cut == std::string::npos || !path_matches(o.pattern.substr(0, cut), path_)) continue;
    const std::string rest = o.pattern.substr(cut + 1);
    // A key of this mapping, or a key inside one of its sections or lists (not inside a
    // value: librdkafka's `partitioner` is not Java's `partitioner.ignore.keys`).
    const bool known = std::any_of(asked_.begin(), asked_.end(), [&](const std::string& a) {
      return rest == a || (containers_.count(a) > 0 && rest.rfind(a + ".", 0) == 0);
    });
    if (known) continue;
    o.used = true;  // said here, not again as naming nothing
    std::string msg = o.assignment + ": unknown key '" + rest + "' under " + path_;
    if (auto guess = did_you_mean(rest, asked_)) msg += " (did you mean '" + *guess + "'?)";
    ctx_.errors.push_back(msg);
  }
  if (!node_.IsMap()) return;
  for (const auto& kv : node_) {
    const std::string k = kv.first.IsScalar() ? kv.first.Scalar() : "?";
    if (asked_.count(k)) continue;
    const std::string key_path = join_path(path_, printable(k, 200));
    std::string msg = "unknown key";
    if (auto guess = did_you_mean(k, asked_)) msg += " (did you mean '" + *guess + "'?)";
    std::string allowed;
    for (const auto& a : asked_) allowed += (allowed.empty() ? "" : ", ") + a;
    msg += "; allowed here: " + allowed;
    ctx_.error(kv.first, key_path, msg);
  }
}

}  // namespace partsim::scenarios
