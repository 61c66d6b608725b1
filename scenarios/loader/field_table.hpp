#pragma once
// The declarative field table: one row per scenario key (key, member, range, unit, one-line
// doc, required or not, how the default depends on the client version) with the typed code
// that reads the key from YAML into the member, writes the member back, and sets the default
// of the client being read (model/client_version.hpp). The default client's default is the
// member's initializer in model/scenario.hpp, rendered through the row's writer, so no
// default is spelled twice. The loader, the writer of
// scenario.resolved.yaml, --set and "did you mean", and the generated reference
// (scenarios/reference.yaml, docs/scenario-fields.md) all walk these tables; the rules
// between fields stay as code (a table's check) after the table pass.
//
// A row, e.g.:
//   F::integer("batch.size", &ProducerConfig::batch_size_bytes, 1, kInt32Max, "bytes", "upper bound ...")

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "scenarios/loader/field_schema.hpp"
#include "scenarios/loader/yaml_reader.hpp"
#include "sim/sim_time.hpp"

namespace partsim::scenarios {

/// Seconds, milliseconds or microseconds: the unit a duration key carries in its name.
enum class TimeUnit { kSeconds, kMillis, kMicros };
/// The value given in `unit` as SimTime, rounded to the nearest nanosecond.
sim::SimTime time_from(double value, TimeUnit unit);
/// `t` in `unit` (the inverse of time_from for every whole number of nanoseconds).
double time_value(sim::SimTime t, TimeUnit unit);
/// The shortest text that reads back as `v` ("0.1", "2000", "1e-06").
std::string number_text(double v);
/// A node as one line of flow-style YAML ("" for an undefined node).
std::string yaml_text(const YAML::Node& n);

template <class S>
struct Field {
  FieldInfo info;
  std::function<void(MapReader&, S&)> read;   ///< reads and checks the key when present
  std::function<YAML::Node(const S&)> write;  ///< the value as YAML; undefined = not written
  /// Sets the default of the client being read (empty: the same for every client).
  std::function<void(S&, const model::ClientVersion&)> by_client;
  bool has_default = true;  ///< false: what S{} holds is no default (one of several)

  Field& required(std::string hint = "") {
    info.required = true;
    info.required_hint = std::move(hint);
    return *this;
  }
  /// A default that depends on the client: `set` puts it in place, `text` says how
  /// ("0 before kafka-4.0").
  Field& client_default(std::function<void(S&, const model::ClientVersion&)> set, std::string text) {
    by_client = std::move(set);
    info.client_text = std::move(text);
    return *this;
  }
  Field& example(std::string text) {
    info.example = std::move(text);
    return *this;
  }
  Field& no_default() {
    has_default = false;
    return *this;
  }
};

/// The rules of a list key beyond its items' own table, e.g.
/// ListRules<BrokerConfig>("broker").at_least(1).unique("id", "broker id").
template <class Item>
struct ListRules {
  explicit ListRules(std::string item_noun) : noun(std::move(item_noun)) {}
  ListRules& at_least(std::size_t n) {
    min_items = n;
    return *this;
  }
  ListRules& at_most(std::size_t n) {
    max_items = n;
    return *this;
  }
  ListRules& unique(std::string key, std::string what) {
    unique_key = std::move(key);
    unique_noun = std::move(what);
    return *this;
  }
  ListRules& defaults(std::function<void(Item&, std::size_t)> set) {
    init = std::move(set);
    return *this;
  }

  std::string noun;  ///< "broker": "must list at least one broker"
  std::size_t min_items = 0;
  std::size_t max_items = std::numeric_limits<std::size_t>::max();
  std::string unique_key;                        ///< an item key whose values must differ
  std::string unique_noun;                       ///< "broker id": "duplicate broker id 0"
  std::function<void(Item&, std::size_t)> init;  ///< defaults that depend on the item's index
};

template <class S>
class Table {
public:
  /// Cross-field rules, run after every key is read and before unknown keys are refused.
  using Check = std::function<void(MapReader&, S&)>;

  /// `defaults`: what the reference shows as each key's default (S{} unless given: another
  /// client's profile has its own).
  Table(std::string name, std::vector<Field<S>> fields, Check check = {}, std::optional<S> shown = std::nullopt)
      : fields_(std::move(fields)), check_(std::move(check)) {
    schema_.name = std::move(name);
    const S defaults = shown ? std::move(*shown) : S{};
    for (const auto& f : fields_) {
      FieldInfo info = f.info;
      if (info.default_text.empty() && f.has_default && !info.required && info.shape != FieldInfo::Shape::kMapping &&
          (info.shape != FieldInfo::Shape::kList || info.sub == nullptr)) {
        info.default_text = yaml_text(f.write(defaults));
      }
      schema_.fields.push_back(std::move(info));
    }
  }

  /// Reads `m` into `out`: the defaults of the client being read first, every key (missing
  /// required keys are errors), the check, then unknown keys are refused. The
  /// check runs only when every key read without error: a refused value leaves its default
  /// in `out`, and a check would judge that default (a second, spurious error).
  void read(MapReader& m, S& out) const {
    for (const auto& f : fields_)
      if (f.by_client) f.by_client(out, m.context()->version());
    const std::size_t errors_before = m.context()->errors.size();
    for (const auto& f : fields_) {
      if (f.info.required && !m.has(f.info.key))
        m.error(f.info.key,
                "is required" + (f.info.required_hint.empty() ? std::string() : " " + f.info.required_hint));
      f.read(m, out);
    }
    if (check_ && m.context()->errors.size() == errors_before) check_(m, out);
    m.finish();
  }

  /// Every key of `s` in table order, defaults included.
  YAML::Node write(const S& s) const {
    YAML::Node node(YAML::NodeType::Map);
    for (const auto& f : fields_) {
      YAML::Node value = f.write(s);
      if (value.IsDefined()) node[f.info.key] = value;
    }
    return node;
  }

  /// One key's value in `s` as YAML (undefined when the key is unknown or not written).
  YAML::Node write_field(const S& s, const std::string& key) const {
    for (const auto& f : fields_)
      if (f.info.key == key) return f.write(s);
    return YAML::Node(YAML::NodeType::Undefined);
  }

  const Schema& schema() const { return schema_; }

private:
  std::vector<Field<S>> fields_;
  Check check_;
  Schema schema_;
};

namespace detail {
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct value_of {
  using type = T;
};
template <class T>
struct value_of<std::optional<T>> {
  using type = T;
};
template <class S, class Acc>
using member_t = std::remove_cvref_t<std::invoke_result_t<Acc, S&>>;

std::string integer_range(std::int64_t lo, std::int64_t hi);
std::string number_range(double lo, double hi);
std::string choice_range(const std::vector<std::string>& names);
}  // namespace detail

/// The row factories for a table over S. An accessor is a member pointer
/// (&ProducerConfig::linger) or a lambda `[](auto& s) -> auto& { return s.a.b; }`.
template <class S>
struct Fields {
  /// An integer member (or std::optional of one: written only when set, no default).
  template <class Acc>
  static Field<S> integer(std::string key, Acc acc, std::int64_t lo, std::int64_t hi, std::string unit,
                          std::string doc) {
    using M = detail::member_t<S, Acc>;
    using T = typename detail::value_of<M>::type;
    Field<S> f;
    f.info = field_info(FieldInfo::Shape::kValue, key, "integer", std::move(unit), detail::integer_range(lo, hi),
                        std::move(doc));
    f.read = [key, acc, lo, hi](MapReader& m, S& s) {
      if (!m.has(key)) return;
      std::int64_t v = 0;
      const std::size_t before = m.context()->errors.size();
      m.read(key, v, lo, hi);
      if (m.context()->errors.size() == before) std::invoke(acc, s) = static_cast<T>(v);
    };
    f.write = [acc](const S& s) {
      const auto& v = std::invoke(acc, s);
      if constexpr (detail::is_optional<M>::value)
        return v ? YAML::Node(std::to_string(*v)) : YAML::Node(YAML::NodeType::Undefined);
      else return YAML::Node(std::to_string(v));
    };
    f.has_default = !detail::is_optional<M>::value;
    return f;
  }

  /// A finite floating-point member in [lo, hi].
  template <class Acc>
  static Field<S> number(std::string key, Acc acc, double lo, double hi, std::string unit, std::string doc) {
    Field<S> f;
    f.info = field_info(FieldInfo::Shape::kValue, key, "number", std::move(unit), detail::number_range(lo, hi),
                        std::move(doc));
    f.read = [key, acc, lo, hi](MapReader& m, S& s) { m.read(key, std::invoke(acc, s), lo, hi); };
    f.write = [acc](const S& s) { return YAML::Node(number_text(std::invoke(acc, s))); };
    return f;
  }

  /// A SimTime member (or std::optional of one) given in `unit`, in [lo, hi] of that unit.
  template <class Acc>
  static Field<S> duration(std::string key, Acc acc, TimeUnit unit, double lo, double hi, std::string doc) {
    using M = detail::member_t<S, Acc>;
    static const char* const kUnits[] = {"s", "ms", "us"};
    Field<S> f;
    f.info = field_info(FieldInfo::Shape::kValue, key, "duration", kUnits[static_cast<int>(unit)],
                        detail::number_range(lo, hi), std::move(doc));
    f.read = [key, acc, unit, lo, hi](MapReader& m, S& s) {
      if (!m.has(key)) return;
      double v = 0;
      const std::size_t before = m.context()->errors.size();
      m.read(key, v, lo, hi);
      if (m.context()->errors.size() == before) std::invoke(acc, s) = time_from(v, unit);
    };
    f.write = [acc, unit](const S& s) {
      const auto& v = std::invoke(acc, s);
      if constexpr (detail::is_optional<M>::value)
        return v ? YAML::Node(number_text(time_value(*v, unit))) : YAML::Node(YAML::NodeType::Undefined);
      else return YAML::Node(number_text(time_value(v, unit)));
    };
    f.has_default = !detail::is_optional<M>::value;
    return f;
  }

  template <class Acc>
  static Field<S> flag(std::string key, Acc acc, std::string doc) {
    Field<S> f;
    f.info = field_info(FieldInfo::Shape::kValue, key, "bool", "", "true | false", std::move(doc));
    f.read = [key, acc](MapReader& m, S& s) { m.read(key, std::invoke(acc, s)); };
    f.write = [acc](const S& s) { return YAML::Node(std::invoke(acc, s) ? "true" : "false"); };
    return f;
  }

  /// UTF-8 text of at most `max_length` bytes; `rule` (optional) returns what is wrong
  /// with a value ("" when fine), e.g. Kafka's topic-name rule.
  template <class Acc>
  static Field<S> text(std::string key, Acc acc, std::size_t max_length, std::string doc,
                       std::string (*rule)(std::string_view) = nullptr) {
    Field<S> f;
    f.info = field_info(FieldInfo::Shape::kValue, key, "string", "",
                        "at most " + std::to_string(max_length) + " bytes of UTF-8", std::move(doc));
    f.read = [key, acc, max_length, rule](MapReader& m, S& s) {
      if (!m.has(key)) return;
      std::string v;
      const std::size_t before = m.context()->errors.size();
      m.read(key, v, max_length);
      if (m.context()->errors.size() != before) return;
      if (rule) {
        if (const std::string problem = rule(v); !problem.empty()) {
          m.error(key, problem);
          return;
        }
      }
      std::invoke(acc, s) = std::move(v);
    };
    f.write = [acc](const S& s) { return YAML::Node(std::invoke(acc, s)); };
    return f;
  }

  /// A list of UTF-8 strings, written in flow style.
  template <class Acc>
  static Field<S> strings(std::string key, Acc acc, std::string doc) {
    Field<S> f;
    f.info = field_info(FieldInfo::Shape::kList, key, "list of strings", "", "", std::move(doc));
    f.read = [key, acc](MapReader& m, S& s) { m.read_strings(key, std::invoke(acc, s)); };
    f.write = [acc](const S& s) {
      YAML::Node list(YAML::NodeType::Sequence);
      for (const auto& item : std::invoke(acc, s)) list.push_back(item);
      list.SetStyle(YAML::EmitterStyle::Flow);
      return list;
    };
    return f;
  }

  /// An enum member whose values are 0, 1, ... in the order of `names`.
  template <class Acc>
  static Field<S> choice(std::string key, Acc acc, std::vector<std::string> names, std::string doc) {
    using E = detail::member_t<S, Acc>;
    return choice(
        std::move(key), names, [acc](const S& s) { return static_cast<std::size_t>(std::invoke(acc, s)); },
        [acc](S& s, std::size_t i) { std::invoke(acc, s) = static_cast<E>(i); }, std::move(doc));
  }

  /// A choice kept in the struct some other way: `get` gives the index of the name to write
  /// (out of range: not written), `set` stores the index read.
  static Field<S> choice(std::string key, std::vector<std::string> names, std::function<std::size_t(const S&)> get,
                         std::function<void(S&, std::size_t)> set, std::string doc) {
    Field<S> f;
    f.info = field_info(FieldInfo::Shape::kValue, key, "choice", "", detail::choice_range(names), std::move(doc));
    f.read = [key, names, set](MapReader& m, S& s) {
      if (!m.has(key)) return;
      std::size_t i = names.size();
      m.read_choice(key, i, names);
      if (i < names.size()) set(s, i);
    };
    f.write = [names, get](const S& s) {
      const std::size_t i = get(s);
      return i < names.size() ? YAML::Node(names[i]) : YAML::Node(YAML::NodeType::Undefined);
    };
    return f;
  }

  /// A mapping whose keys are `table`'s, stored in the member `acc` gives.
  template <class Acc, class Sub>
  static Field<S> section(std::string key, Acc acc, const Table<Sub>& table, std::string doc) {
    Field<S> f;
    f.info = field_info(FieldInfo::Shape::kMapping, key, "mapping", "", "", std::move(doc));
    f.info.sub = &table.schema();
    f.read = [key, acc, &table](MapReader& m, S& s) {
      MapReader sub = m.map(key);
      table.read(sub, std::invoke(acc, s));
    };
    f.write = [acc, &table](const S& s) { return table.write(std::invoke(acc, s)); };
    return f;
  }

  /// A list of mappings, each read with `table` into a std::vector member.
  template <class Acc, class Item>
  static Field<S> list(std::string key, Acc acc, const Table<Item>& table, ListRules<Item> rules, std::string doc) {
    Field<S> f;
    f.info = field_info(FieldInfo::Shape::kList, key, "list", "", "", std::move(doc));
    f.info.sub = &table.schema();
    f.read = [key, acc, &table, rules](MapReader& m, S& s) {
      const std::size_t errors_before = m.context()->errors.size();
      const auto items = m.sequence(key);
      if (m.context()->errors.size() != errors_before) return;  // not a list: said once
      auto& out = std::invoke(acc, s);
      if (items.size() > rules.max_items) {
        m.error(key, "must list at most " + std::to_string(rules.max_items) + " " + rules.noun + "s");
        return;
      }
      out.clear();
      std::vector<std::string> seen;
      for (std::size_t i = 0; i < items.size(); ++i) {
        Item item{};
        if (rules.init) rules.init(item, i);
        MapReader r(*m.context(), items[i], join_path(m.path(), key + "." + std::to_string(i)));
        // A producer's or group's own client ends with it; a list inside one keeps it.
        const std::optional<model::ClientVersion> outer_client = m.context()->item_client;
        table.read(r, item);
        m.context()->item_client = outer_client;
        if (!rules.unique_key.empty()) {
          const YAML::Node v = table.write_field(item, rules.unique_key);
          const std::string text = v.IsScalar() ? v.Scalar() : "";
          const bool quoted = table.schema().find(rules.unique_key)->type == "string";
          if (std::find(seen.begin(), seen.end(), text) != seen.end())
            r.error(rules.unique_key, "duplicate " + rules.unique_noun + " " + (quoted ? "'" + text + "'" : text));
          seen.push_back(text);
        }
        out.push_back(std::move(item));
      }
      if (items.size() < rules.min_items)
        m.error(key, rules.min_items == 1
                         ? "must list at least one " + rules.noun
                         : "must list at least " + std::to_string(rules.min_items) + " " + rules.noun + "s");
    };
    f.write = [acc, &table](const S& s) {
      YAML::Node list(YAML::NodeType::Sequence);
      for (const auto& item : std::invoke(acc, s)) list.push_back(table.write(item));
      if (list.size() == 0) list.SetStyle(YAML::EmitterStyle::Flow);  // "schedule: []" on one line
      return list;
    };
    return f;
  }

  /// One of several keys that select a variant (a schedule step's action, a rule's match):
  /// present, it sets `kind_acc` to `kind` and reads as `inner`; written only for that kind.
  template <class Acc, class K>
  static Field<S> selects(Field<S> inner, Acc kind_acc, K kind) {
    Field<S> f = inner;
    f.read = [key = inner.info.key, read = inner.read, kind_acc, kind](MapReader& m, S& s) {
      if (!m.has(key)) return;
      std::invoke(kind_acc, s) = kind;
      read(m, s);
    };
    f.write = [write = inner.write, kind_acc, kind](const S& s) {
      return std::invoke(kind_acc, s) == kind ? write(s) : YAML::Node(YAML::NodeType::Undefined);
    };
    f.has_default = false;
    return f;
  }

  /// A row whose reading and writing do not fit the kinds above.
  static Field<S> custom(FieldInfo info, std::function<void(MapReader&, S&)> read,
                         std::function<YAML::Node(const S&)> write) {
    Field<S> f;
    f.info = std::move(info);
    f.read = std::move(read);
    f.write = std::move(write);
    return f;
  }
};

}  // namespace partsim::scenarios
