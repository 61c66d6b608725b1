#include "scenarios/loader/set_override.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "scenarios/loader/input_error.hpp"

namespace partsim::scenarios {
namespace {

std::vector<std::string> split_dots(const std::string& text) {
  std::vector<std::string> segs;
  for (std::size_t pos = 0;;) {
    const auto dot = text.find('.', pos);
    segs.push_back(text.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos));
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  return segs;
}

std::string join(const std::vector<std::string>& segs, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t j = from; j < to; ++j) out += (j > from ? "." : "") + segs[j];
  return out;
}

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

}  // namespace

Override parse_override(const std::string& assignment, const Schema& top) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError({"--set"}, "must be PATH=VALUE (e.g. producers.0.config.linger.ms=0), got '" + assignment + "'");
  const InputLocation where{"--set " + assignment};
  const std::string path_text = assignment.substr(0, eq);
  const std::string value_text = assignment.substr(eq + 1);
  if (blank(value_text))
    throw InputError(where, "the value is empty; give one, or remove the field (back to its default) with " +
                                path_text + "=~");
  Override o;
  o.assignment = "--set " + assignment;
  try {
    o.value = YAML::Load(value_text);
  } catch (const YAML::Exception& e) {
    throw InputError(where, "the value is not valid YAML: " + e.msg);
  }
  const std::vector<std::string> segs = split_dots(path_text);
  const Schema* schema = &top;
  // A mapping whose keys depend on another key (a producer's config on its client): any of
  // its sets of keys may be meant; the loader judges the one the item selects.
  std::vector<const Schema*> variants;
  std::string path;
  for (std::size_t i = 0; i < segs.size();) {
    // The longest run of segments that is a key of this mapping.
    const FieldInfo* field = nullptr;
    std::size_t next = i;
    for (std::size_t k = segs.size(); k > i && !field; --k) {
      field = schema->find(join(segs, i, k));
      for (std::size_t v = 0; v < variants.size() && !field; ++v) field = variants[v]->find(join(segs, i, k));
      next = k;
    }
    if (!field) {
      std::set<std::string> keys;
      for (const auto& f : schema->fields) keys.insert(f.key);
      for (const Schema* v : variants)
        for (const auto& f : v->fields) keys.insert(f.key);
      const std::string rest = join(segs, i, segs.size());
      std::string msg = "unknown key '" + rest + "'" + (path.empty() ? "" : " under " + path);
      auto guess = did_you_mean(rest, keys);
      if (!guess) guess = did_you_mean(segs[i], keys);
      if (guess) msg += " (did you mean '" + *guess + "'?)";
      throw InputError(where, msg);
    }
    path = join_path(path, field->key);
    i = next;
    if (i == segs.size()) break;
    variants.clear();
    if (field->shape == FieldInfo::Shape::kMapping) {
      schema = field->sub;
      for (const auto& [name, v] : field->variants) variants.push_back(v);
      continue;
    }
    if (field->shape != FieldInfo::Shape::kList || field->sub == nullptr)
      throw InputError(where, path + ": is not a mapping ('" + join(segs, i, segs.size()) +
                                  "' cannot be set inside it; set the whole value)");
    if (segs[i] == "*") {
      path = join_path(path, "*");
    } else {
      const bool digits = !segs[i].empty() && segs[i].size() <= 9 &&
                          std::all_of(segs[i].begin(), segs[i].end(), [](char c) { return c >= '0' && c <= '9'; });
      if (!digits) throw InputError(where, path + ": is a list; '" + segs[i] + "' is not an index (or *)");
      path = join_path(path, std::to_string(std::stoul(segs[i])));
    }
    schema = field->sub;
    ++i;
  }
  o.pattern = path;
  return o;
}

void add_override(std::vector<Override>& overrides, Override o) {
  // Kept by copy-construction into a new vector, never by assigning one Override over
  // another (as std::erase_if does): YAML::Node's assignment rebinds the node the target
  // shares, so erasing an earlier --set used to hand a later one's value to its neighbour
  // (rtt.ms=50 then *.request.ms=0.2, *.byte.rate=3e6, rtt.ms=0.2 set request.ms to 3e6).
  std::vector<Override> kept;
  kept.reserve(overrides.size() + 1);
  for (const auto& earlier : overrides)
    if (earlier.pattern != o.pattern && earlier.pattern.rfind(o.pattern + ".", 0) != 0) kept.push_back(earlier);
  kept.push_back(std::move(o));
  overrides = std::move(kept);
}

std::vector<std::string> unused_override_errors(const std::vector<Override>& overrides,
                                                const std::map<std::string, std::size_t>& list_sizes) {
  std::vector<std::string> errors;
  for (const auto& o : overrides) {
    if (o.used || o.pattern.find('*') != std::string::npos) continue;
    // The first list on the path that is too short for its index.
    const std::vector<std::string> segs = split_dots(o.pattern);
    std::string message = "names nothing in this scenario";
    for (std::size_t k = 1; k < segs.size() + 1; ++k) {
      const auto it = list_sizes.find(join(segs, 0, k - 1));
      if (k < 2 || it == list_sizes.end() || segs[k - 1].empty() ||
          !std::isdigit(static_cast<unsigned char>(segs[k - 1][0])))
        continue;
      if (std::stoul(segs[k - 1]) >= it->second) {
        message = it->first + ": has " + std::to_string(it->second) + " items, no index " + segs[k - 1];
        break;
      }
    }
    errors.push_back(o.assignment + ": " + message);
  }
  return errors;
}

}  // namespace partsim::scenarios
