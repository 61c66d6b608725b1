#include "scenarios/loader/yaml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace partsim::scenarios {

std::string join_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

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

std::string shown(const YAML::Node& n) {
  if (n.IsScalar()) {
    std::string s = n.Scalar();
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return "'" + s + "'";
  }
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  return "nothing";
}

}  // namespace

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

void ReadContext::error(const YAML::Node& at, const std::string& path, const std::string& message) {
  // A section read twice (to place a cross-check's error) must not report twice.
  auto add = [this](std::string line) {
    if (std::find(errors.begin(), errors.end(), line) == errors.end()) errors.push_back(std::move(line));
  };
  for (const auto& [p, text] : overrides)
    if (path == p || path.rfind(p + ".", 0) == 0) {
      add(text + ": " + path + ": " + message);
      return;
    }
  std::string where = file;
  if (at.IsDefined()) {
    const YAML::Mark m = at.Mark();
    if (m.line >= 0) where += ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }
  add(where + ": " + (path.empty() ? "" : path + ": ") + message);
}

MapReader::MapReader(ReadContext& ctx, YAML::Node node, std::string path, YAML::Node parent)
    : ctx_(ctx), node_(node), parent_(parent), path_(std::move(path)) {
  ctx_.known_keys[path_];
  if (node_.IsDefined() && !node_.IsNull() && !node_.IsMap()) {
    ctx_.error(node_, path_, "must be a mapping of keys to values, got " + shown(node_));
    node_ = YAML::Node();
    return;
  }
  if (node_.IsMap()) {  // duplicate keys: yaml-cpp keeps them silently
    std::set<std::string> seen;
    for (const auto& kv : node_) {
      const std::string k = kv.first.IsScalar() ? kv.first.Scalar() : "";
      if (!seen.insert(k).second) ctx_.error(kv.first, join_path(path_, k), "duplicate key");
    }
  }
}

YAML::Node MapReader::get(const std::string& key) {
  asked_.insert(key);
  ctx_.known_keys[path_].insert(key);
  if (!node_.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (const auto& kv : node_)
    if (kv.first.IsScalar() && kv.first.Scalar() == key) return kv.second;
  return YAML::Node(YAML::NodeType::Undefined);
}

bool MapReader::has(const std::string& key) {
  const YAML::Node n = get(key);
  return n.IsDefined() && !n.IsNull();
}

void MapReader::error(const std::string& key, const std::string& message) {
  YAML::Node at = node_.IsMap() ? get(key) : node_;
  if (!at.IsDefined()) at = node_;
  if (!at.IsDefined() || at.IsNull()) at = parent_;
  ctx_.error(at, join_path(path_, key), message);
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

void MapReader::read(const std::string& key, std::int32_t& out, std::int32_t lo, std::int32_t hi) {
  std::int64_t v = out;
  read(key, v, lo, hi);
  out = static_cast<std::int32_t>(v);
}

void MapReader::read_optional(const std::string& key, std::optional<std::int64_t>& out, std::int64_t lo, std::int64_t hi) {
  if (!has(key)) return;
  std::int64_t v = lo;
  const std::size_t before = ctx_.errors.size();
  read(key, v, lo, hi);
  if (ctx_.errors.size() == before) out = v;
}

void MapReader::read_optional(const std::string& key, std::optional<std::int32_t>& out, std::int32_t lo, std::int32_t hi) {
  std::optional<std::int64_t> v;
  read_optional(key, v, lo, hi);
  if (v) out = static_cast<std::int32_t>(*v);
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

void MapReader::read(const std::string& key, std::string& out, std::size_t max_length) {
  std::string v;
  if (!scalar(key, v, "a string")) return;
  if (v.size() > max_length) {
    error(key, "must be at most " + std::to_string(max_length) + " characters, got " + std::to_string(v.size()));
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
    error(key, "must be one of " + list + ", got '" + v + "'");
    return;
  }
  out = static_cast<std::size_t>(it - choices.begin());
}

void MapReader::read_strings(const std::string& key, std::vector<std::string>& out) {
  const YAML::Node n = get(key);
  if (!n.IsDefined() || n.IsNull()) return;
  if (!n.IsSequence()) {
    ctx_.error(n, join_path(path_, key), "must be a list of strings, got " + shown(n));
    return;
  }
  out.clear();
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (!n[i].IsScalar()) {
      ctx_.error(n[i], join_path(path_, key) + "." + std::to_string(i), "must be a string, got " + shown(n[i]));
      continue;
    }
    out.push_back(n[i].Scalar());
  }
}

MapReader MapReader::map(const std::string& key) {
  return MapReader(ctx_, get(key), join_path(path_, key), node_.IsDefined() && !node_.IsNull() ? node_ : parent_);
}

std::vector<YAML::Node> MapReader::sequence(const std::string& key) {
  const YAML::Node n = get(key);
  std::vector<YAML::Node> items;
  if (!n.IsDefined() || n.IsNull()) return items;
  if (!n.IsSequence()) {
    ctx_.error(n, join_path(path_, key), "must be a list, got " + shown(n));
    return items;
  }
  for (std::size_t i = 0; i < n.size(); ++i) items.push_back(n[i]);
  return items;
}

void MapReader::finish() {
  if (!node_.IsMap()) return;
  for (const auto& kv : node_) {
    const std::string k = kv.first.IsScalar() ? kv.first.Scalar() : "?";
    if (asked_.count(k)) continue;
    std::string msg = "unknown key";
    if (auto guess = did_you_mean(k, asked_)) msg += " (did you mean '" + *guess + "'?)";
    std::string allowed;
    for (const auto& a : asked_) allowed += (allowed.empty() ? "" : ", ") + a;
    msg += "; allowed here: " + allowed;
    ctx_.error(kv.first, join_path(path_, k), msg);
  }
}

}  // namespace partsim::scenarios
