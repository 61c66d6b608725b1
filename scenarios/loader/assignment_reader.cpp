#include "scenarios/loader/assignment_reader.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "scenarios/loader/input_error.hpp"
#include "scenarios/loader/json_input.hpp"
#include "scenarios/loader/topic_name.hpp"
#include "scenarios/loader/utf8.hpp"

namespace partsim::scenarios {
namespace {

void check_topic_name(const std::string& name, const InputLocation& at, const std::string& what) {
  if (const std::string problem = topic_name_problem(name); !problem.empty())
    throw InputError(at, what + ": " + problem);
}

}  // namespace

std::vector<PartitionReplicas> parse_reassignment_json(const std::string& text, const std::string& source) {
  const auto j = parse_json(text, source);
  if (!j.is_object() || !j.contains("partitions") || !j["partitions"].is_array())
    throw InputError(
        {source},
        "must be Kafka's reassignment JSON: {\"version\":1,\"partitions\":[{\"topic\",\"partition\",\"replicas\"}]}");
  std::vector<PartitionReplicas> out;
  std::set<std::pair<std::string, std::int32_t>> seen;
  for (std::size_t i = 0; i < j["partitions"].size(); ++i) {
    const auto& e = j["partitions"][i];
    const std::string path = "partitions[" + std::to_string(i) + "]";
    if (!e.is_object() || !e.contains("topic") || !e["topic"].is_string() || !e.contains("partition") ||
        !e.contains("replicas") || !e["replicas"].is_array())
      throw InputError({source},
                       path + ": needs \"topic\" (string), \"partition\" and \"replicas\" (list of broker ids)");
    PartitionReplicas p{e["topic"].get<std::string>(), json_int(e["partition"], source, path + ".partition", 0), {}};
    check_topic_name(p.topic, {source}, path + ".topic");
    for (std::size_t k = 0; k < e["replicas"].size(); ++k)
      p.replicas.push_back(json_int(e["replicas"][k], source, path + ".replicas[" + std::to_string(k) + "]", 0));
    if (p.replicas.empty()) throw InputError({source}, path + ".replicas: must list at least one broker");
    if (std::set<std::int32_t>(p.replicas.begin(), p.replicas.end()).size() != p.replicas.size())
      throw InputError({source}, path + ".replicas: a broker appears twice");
    if (!seen.insert({p.topic, p.partition}).second)
      throw InputError({source}, path + ": " + p.topic + "-" + std::to_string(p.partition) + " is listed twice");
    // "log_dirs" (one per replica, "any" for no preference) is not modelled; absent or null
    // is fine, anything else must have Kafka's shape (ReassignPartitionsCommand checks it).
    if (e.contains("log_dirs") && !e["log_dirs"].is_null()) {
      const auto& dirs = e["log_dirs"];
      if (!dirs.is_array() || dirs.size() != p.replicas.size() ||
          !std::all_of(dirs.begin(), dirs.end(), [](const nlohmann::json& d) { return d.is_string(); }))
        throw InputError({source}, path + ".log_dirs: must be null or a list of " + std::to_string(p.replicas.size()) +
                                       " strings (one per replica, \"any\" for no preference), got " +
                                       shown_json(dirs));
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<PartitionReplicas> parse_topics_describe(const std::string& text, const std::string& source) {
  // Lines such as "Topic: t  Partition: 0  Leader: 1  Replicas: 1,2,3  Isr: 1,2,3"; the
  // topic summary lines ("Topic: t  TopicId: ...  PartitionCount: ...") are skipped.
  std::vector<PartitionReplicas> out;
  std::set<std::pair<std::string, std::int32_t>> seen;
  std::istringstream in(text);
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const auto pp = line.find("Partition:");
    const auto rp = line.find("Replicas:");
    if (pp == std::string::npos || rp == std::string::npos) continue;
    const auto tp = line.find("Topic:");
    if (tp == std::string::npos) throw InputError({source, line_no, 1}, "a partition line without \"Topic:\"");
    std::istringstream fields(line.substr(tp + 6));
    PartitionReplicas p;
    fields >> p.topic;
    check_topic_name(p.topic, {source, line_no, line.find_first_not_of(" \t", tp + 6) + 1}, "Topic");
    std::istringstream part(line.substr(pp + 10));
    if (!(part >> p.partition) || p.partition < 0)
      throw InputError({source, line_no, pp + 11}, "Partition: must be a number >= 0");
    std::istringstream reps(line.substr(rp + 9));
    std::string list;
    reps >> list;
    std::size_t pos = 0;
    while (pos <= list.size() && !list.empty()) {
      const auto comma = list.find(',', pos);
      const std::string id = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      std::int32_t v = 0;
      auto [ptr, ec] = std::from_chars(id.data(), id.data() + id.size(), v);
      if (id.empty() || ec != std::errc() || ptr != id.data() + id.size() || v < 0)
        throw InputError({source, line_no, rp + 10},
                         "Replicas: must be broker ids separated by commas, got '" + list + "'");
      p.replicas.push_back(v);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    if (p.replicas.empty()) throw InputError({source, line_no, rp + 10}, "Replicas: must list at least one broker");
    for (auto it = p.replicas.begin(); it != p.replicas.end(); ++it)  // as the JSON form refuses them
      if (std::find(p.replicas.begin(), it, *it) != it)
        throw InputError({source, line_no, rp + 10},
                         "Replicas: broker " + std::to_string(*it) + " appears twice in '" + list + "'");
    if (!seen.insert({p.topic, p.partition}).second)
      throw InputError({source, line_no, pp + 11},
                       "Partition: " + p.topic + "-" + std::to_string(p.partition) + " is listed twice");
    out.push_back(std::move(p));
  }
  if (out.empty()) throw InputError({source}, "no partition lines (expected kafka-topics.sh --describe output)");
  return out;
}

std::vector<BrokerEntry> parse_brokers_json(const std::string& text, const std::string& source) {
  const auto j = parse_json(text, source);
  if (!j.is_object() || !j.contains("brokers") || !j["brokers"].is_array())
    throw InputError({source}, "must be {\"version\":1,\"brokers\":[{\"id\":0,\"rack\":\"a\",\"alive\":true},...]}");
  std::vector<BrokerEntry> out;
  std::set<std::int32_t> ids;
  for (std::size_t i = 0; i < j["brokers"].size(); ++i) {
    const auto& e = j["brokers"][i];
    const std::string path = "brokers[" + std::to_string(i) + "]";
    if (!e.is_object() || !e.contains("id")) throw InputError({source}, path + ": needs \"id\"");
    BrokerEntry b{json_int(e["id"], source, path + ".id", 0), "", true};
    // null means absent, as Kafka's own tools write an unset rack ("rack": null).
    if (e.contains("rack") && !e["rack"].is_null()) {
      if (!e["rack"].is_string())
        throw InputError({source}, path + ".rack: must be a string or null, got " + shown_json(e["rack"]));
      b.rack = e["rack"].get<std::string>();
    }
    if (e.contains("alive") && !e["alive"].is_null()) {
      if (!e["alive"].is_boolean())
        throw InputError({source}, path + ".alive: must be true, false or null, got " + shown_json(e["alive"]));
      b.alive = e["alive"].get<bool>();
    }
    if (!ids.insert(b.id).second)
      throw InputError({source}, path + ".id: broker " + std::to_string(b.id) + " is listed twice");
    out.push_back(b);
  }
  if (out.empty()) throw InputError({source}, "brokers: must list at least one broker");
  return out;
}

std::vector<BrokerEntry> parse_brokers_list(const std::string& text, const std::string& option) {
  std::vector<BrokerEntry> out;
  std::set<std::int32_t> ids;
  std::size_t pos = 0;
  for (;;) {
    const auto comma = text.find(',', pos);
    const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const auto colon = item.find(':');
    const std::string id = item.substr(0, colon);
    std::int32_t v = 0;
    auto [ptr, ec] = std::from_chars(id.data(), id.data() + id.size(), v);
    if (id.empty() || ec != std::errc() || ptr != id.data() + id.size() || v < 0)
      throw InputError({option}, "must be ID[:RACK],... with ids >= 0, got '" + item + "'");
    if (!ids.insert(v).second) throw InputError({option}, "broker " + std::to_string(v) + " is listed twice");
    const std::string rack = colon == std::string::npos ? "" : item.substr(colon + 1);
    if (!is_valid_utf8(rack))
      throw InputError({option},
                       "rack '" + printable(rack) + "' of broker " + std::to_string(v) + " is not valid UTF-8");
    out.push_back({v, rack, true});
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

std::map<std::string, std::int64_t> parse_log_dirs_json(const std::string& text, const std::string& source) {
  std::size_t from = 0;  // the first line that opens a JSON object
  while (from < text.size() && text[from] != '{') {
    const auto eol = text.find('\n', from);
    if (eol == std::string::npos) {
      from = text.size();
      break;
    }
    from = eol + 1;
  }
  if (from >= text.size()) throw InputError({source}, "no JSON object (expected kafka-log-dirs.sh --describe output)");
  const auto j = parse_json(text, source, from);
  const char* shape =
      "must be kafka-log-dirs.sh --describe output: {\"brokers\":[{\"broker\":0,\"logDirs\":[{\"partitions\":"
      "[{\"partition\":\"t-0\",\"size\":123,\"isFuture\":false}]}]}]}";
  if (!j.is_object() || !j.contains("brokers") || !j["brokers"].is_array()) throw InputError({source}, shape);
  std::map<std::string, std::int64_t> sizes;
  for (std::size_t b = 0; b < j["brokers"].size(); ++b) {
    const auto& broker = j["brokers"][b];
    const std::string bpath = "brokers[" + std::to_string(b) + "]";
    if (!broker.is_object() || !broker.contains("logDirs") || !broker["logDirs"].is_array())
      throw InputError({source}, bpath + ": needs \"logDirs\" (a list)");
    for (std::size_t d = 0; d < broker["logDirs"].size(); ++d) {
      const auto& dir = broker["logDirs"][d];
      const std::string dpath = bpath + ".logDirs[" + std::to_string(d) + "]";
      if (!dir.is_object() || !dir.contains("partitions") || !dir["partitions"].is_array())
        throw InputError({source}, dpath + ": needs \"partitions\" (a list)");
      for (std::size_t k = 0; k < dir["partitions"].size(); ++k) {
        const auto& e = dir["partitions"][k];
        const std::string path = dpath + ".partitions[" + std::to_string(k) + "]";
        if (!e.is_object() || !e.contains("partition") || !e["partition"].is_string() || !e.contains("size") ||
            !e["size"].is_number_integer() || e["size"].get<std::int64_t>() < 0)
          throw InputError({source}, path + ": needs \"partition\" (\"topic-N\") and \"size\" (bytes >= 0)");
        if (e.contains("isFuture") && !e["isFuture"].is_null() && !e["isFuture"].is_boolean())
          throw InputError({source}, path + ".isFuture: must be true, false or null, got " + shown_json(e["isFuture"]));
        if (e.contains("isFuture") && e["isFuture"].is_boolean() && e["isFuture"].get<bool>()) continue;
        auto& size = sizes[e["partition"].get<std::string>()];
        size = std::max(size, e["size"].get<std::int64_t>());
      }
    }
  }
  return sizes;
}

std::string write_reassignment_json(const std::vector<PartitionReplicas>& plan) {
  nlohmann::ordered_json j;
  j["version"] = 1;
  auto& parts = j["partitions"] = nlohmann::ordered_json::array();
  for (const auto& p : plan)
    parts.push_back({{"topic", p.topic}, {"partition", p.partition}, {"replicas", p.replicas}});
  return j.dump(2) + "\n";
}

}  // namespace partsim::scenarios
