#include "scenarios/loader/members_reader.hpp"

#include <charconv>
#include <set>

#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/json_input.hpp"
#include "scenarios/loader/topic_name.hpp"
#include "scenarios/loader/utf8.hpp"
#include "scenarios/loader/yaml_reader.hpp"

namespace partsim::scenarios {
namespace {

using model::consumer::GroupMember;
using model::consumer::TopicId;

const std::set<std::string> kMemberKeys{"member", "topics", "rack", "instance", "owned", "generation"};
const std::set<std::string> kFileKeys{"members", "topic_ids"};

class Reader {
public:
  Reader(const std::string& source, const std::map<std::string, std::int32_t>& topics)
      : source_(source), topics_(topics) {}

  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw InputError({source_}, path.empty() ? message : path + ": " + message);
  }

  void refuse_unknown_keys(const nlohmann::json& object, const std::set<std::string>& allowed,
                           const std::string& path) const {
    for (const auto& [key, value] : object.items()) {
      if (allowed.count(key) > 0) continue;
      std::string names;
      for (const auto& k : allowed) names += (names.empty() ? "" : ", ") + k;
      const auto guess = did_you_mean(key, allowed);
      fail(path, "unknown key '" + printable(key) + "'" + (guess ? " (did you mean '" + *guess + "'?)" : "") +
                     "; allowed: " + names);
    }
  }

  // A string with no control characters (it is printed in tables); null reads as absent.
  std::optional<std::string> text(const nlohmann::json& object, const std::string& key, const std::string& path) const {
    if (!object.contains(key) || object[key].is_null()) return std::nullopt;
    if (!object[key].is_string()) fail(path + "." + key, "must be a string or null, got " + shown_json(object[key]));
    const auto value = object[key].get<std::string>();
    for (unsigned char c : value)
      if (c < 0x20 || c == 0x7F)
        fail(path + "." + key, "must not contain control characters, got " + shown_json(object[key]));
    return value;
  }

  void check_topic(const std::string& topic, const std::string& path) const {
    if (topics_.count(topic) > 0) return;
    std::set<std::string> known;
    std::string names;
    for (const auto& [name, count] : topics_) {
      known.insert(name);
      names += (names.empty() ? "" : ", ") + name;
    }
    const auto guess = did_you_mean(topic, known);
    fail(path, "unknown topic '" + printable(topic) + "'" + (guess ? " (did you mean '" + *guess + "'?)" : "") +
                   "; --topics has " + names);
  }

  std::vector<std::string> subscription(const nlohmann::json& e, const std::string& path) const {
    std::vector<std::string> out;
    if (!e.contains("topics") || e["topics"].is_null()) {
      for (const auto& [name, count] : topics_) out.push_back(name);
      return out;
    }
    if (!e["topics"].is_array())
      fail(path + ".topics", "must be a list of topic names or null (every topic), got " + shown_json(e["topics"]));
    for (std::size_t k = 0; k < e["topics"].size(); ++k) {
      const auto& t = e["topics"][k];
      const std::string at = path + ".topics[" + std::to_string(k) + "]";
      if (!t.is_string()) fail(at, "must be a topic name, got " + shown_json(t));
      check_topic(t.get<std::string>(), at);
      if (std::find(out.begin(), out.end(), t.get<std::string>()) != out.end())
        fail(at, "'" + t.get<std::string>() + "' is listed twice");
      out.push_back(t.get<std::string>());
    }
    return out;
  }

  // "orders-3": the topic (up to the last '-') and a partition below its count.
  std::vector<model::TopicPartition> owned(const nlohmann::json& e, const std::string& path) const {
    std::vector<model::TopicPartition> out;
    if (!e.contains("owned") || e["owned"].is_null()) return out;
    if (!e["owned"].is_array())
      fail(path + ".owned", "must be a list of partitions such as \"orders-0\", got " + shown_json(e["owned"]));
    std::set<std::pair<std::string, std::int32_t>> seen;
    for (std::size_t k = 0; k < e["owned"].size(); ++k) {
      const auto& v = e["owned"][k];
      const std::string at = path + ".owned[" + std::to_string(k) + "]";
      const auto name = v.is_string() ? v.get<std::string>() : std::string();
      const auto dash = name.rfind('-');
      std::int32_t partition = -1;
      if (dash != std::string::npos) {
        const auto digits = std::string_view(name).substr(dash + 1);
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), partition);
        if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size()) partition = -1;
      }
      if (!v.is_string() || dash == std::string::npos || partition < 0)
        fail(at, "must be a partition such as \"orders-0\", got " + shown_json(v));
      const std::string topic = name.substr(0, dash);
      check_topic(topic, at);
      const auto count = topics_.at(topic);
      if (partition >= count)
        fail(at, name + " does not exist: " + topic + " has " + std::to_string(count) + " partition" +
                     (count == 1 ? "" : "s") + " (--topics)");
      if (!seen.insert({topic, partition}).second) fail(at, name + " is listed twice");
      out.push_back({topic, partition});
    }
    return out;
  }

  std::map<std::string, TopicId> topic_ids(const nlohmann::json& j) const {
    std::map<std::string, TopicId> out;
    if (!j.contains("topic_ids") || j["topic_ids"].is_null()) return out;
    if (!j["topic_ids"].is_object())
      fail("topic_ids", "must map topic names to topic ids, got " + shown_json(j["topic_ids"]));
    for (const auto& [topic, value] : j["topic_ids"].items()) {
      const std::string at = "topic_ids." + topic;
      check_topic(topic, at);
      const auto id = value.is_string() ? TopicId::parse(value.get<std::string>()) : std::nullopt;
      if (!id)
        fail(at, "must be a topic id as kafka-topics.sh --describe prints it (22 characters of base64url), got " +
                     shown_json(value));
      out.emplace(topic, *id);
    }
    for (const auto& [name, count] : topics_)
      if (out.count(name) == 0) fail("topic_ids", "give the id of every topic or of none; " + name + " has none");
    return out;
  }

private:
  const std::string& source_;
  const std::map<std::string, std::int32_t>& topics_;
};

}  // namespace

std::vector<std::pair<std::string, std::int32_t>> parse_topic_counts(const std::string& text, const std::string& option,
                                                                     std::int32_t max_partitions) {
  std::vector<std::pair<std::string, std::int32_t>> out;
  std::set<std::string> seen;
  std::size_t pos = 0;
  for (;;) {
    const auto comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const auto colon = item.rfind(':');
    if (colon == std::string::npos)
      throw InputError({option},
                       "must be TOPIC:PARTITIONS,... such as orders:12,payments:6, got '" + printable(item) + "'");
    const std::string name = item.substr(0, colon), count = item.substr(colon + 1);
    if (const auto problem = topic_name_problem(name); !problem.empty()) throw InputError({option}, problem);
    std::int32_t n = 0;
    const auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
    if (count.empty() || ec != std::errc() || ptr != count.data() + count.size() || n < 1 || n > max_partitions)
      throw InputError({option}, name + ": the partition count must be an integer in [1, " +
                                     std::to_string(max_partitions) + "], got '" + printable(count) + "'");
    if (!seen.insert(name).second) throw InputError({option}, "topic " + name + " is listed twice");
    out.emplace_back(name, n);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

MembersFile parse_members_json(const std::string& text, const std::string& source,
                               const std::map<std::string, std::int32_t>& topics) {
  const auto j = parse_json(text, source);
  const Reader r(source, topics);
  if (!j.is_object() || !j.contains("members") || !j["members"].is_array())
    throw InputError(
        {source},
        "must be {\"members\": [{\"member\": \"c0\", \"topics\": [...], \"rack\": ..., \"owned\": [...], \"generation\": ...}, ...]}");
  r.refuse_unknown_keys(j, kFileKeys, "");
  MembersFile file;
  std::map<std::string, std::size_t> ids, instances;
  for (std::size_t i = 0; i < j["members"].size(); ++i) {
    const auto& e = j["members"][i];
    const std::string path = "members[" + std::to_string(i) + "]";
    if (!e.is_object()) r.fail(path, "must be an object such as {\"member\": \"c0\"}, got " + shown_json(e));
    r.refuse_unknown_keys(e, kMemberKeys, path);
    GroupMember m;
    const auto id = r.text(e, "member", path);
    if (!id || id->empty()) r.fail(path + ".member", "every member needs an id (a non-empty string)");
    m.id = *id;
    if (const auto [at, fresh] = ids.emplace(m.id, i); !fresh)
      r.fail(path + ".member", "'" + m.id + "' is listed twice (also members[" + std::to_string(at->second) + "])");
    m.topics = r.subscription(e, path);
    m.rack = r.text(e, "rack", path).value_or("");
    m.instance_id = r.text(e, "instance", path);
    if (m.instance_id) {
      if (m.instance_id->empty()) r.fail(path + ".instance", "must not be empty (null for a dynamic member)");
      if (const auto [at, fresh] = instances.emplace(*m.instance_id, i); !fresh)
        r.fail(path + ".instance", "'" + *m.instance_id + "' is also members[" + std::to_string(at->second) +
                                       "]'s; a group.instance.id belongs to one member");
    }
    m.owned = r.owned(e, path);
    if (e.contains("generation") && !e["generation"].is_null())
      m.generation = json_int(e["generation"], source, path + ".generation", 0);
    file.members.push_back(std::move(m));
  }
  if (file.members.empty()) throw InputError({source}, "members: must list at least one member");
  file.topic_ids = r.topic_ids(j);
  return file;
}

}  // namespace partsim::scenarios
