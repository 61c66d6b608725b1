#include "model/placement/reassign_planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <glpk.h>

#include "model/placement/min_cost_flow.hpp"

namespace partsim::model {
namespace {

// The per-partition count of replicas a rack may hold.
struct RackRange {
  std::int32_t lo = 0, hi = 0;
};

RackRange rack_range(RackMode mode, std::int32_t rf, std::int32_t racks) {
  switch (mode) {
    case RackMode::kStrict: return {0, 1};
    case RackMode::kEven: return {rf / racks, (rf + racks - 1) / racks};
    case RackMode::kNone: break;
  }
  return {0, rf};
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string range_text(CountBounds b) { return std::to_string(b.lo) + ".." + std::to_string(b.hi); }

const char* mode_name(RackMode m) {
  switch (m) {
    case RackMode::kStrict: return "strict";
    case RackMode::kEven: return "even";
    case RackMode::kNone: break;
  }
  return "none";
}

class Problem {
public:
  explicit Problem(const ReassignRequest& r) : r_(r), P_(r.current.size()), B_(r.targets.size()) {
    for (std::size_t b = 0; b < B_; ++b) {
      rack_of_.push_back(rack_ids_.emplace(r.targets[b].rack, rack_ids_.size()).first->second);
    }
  }

  std::string name(std::size_t p) const {
    return p < r_.names.size() ? r_.names[p] : "partition #" + std::to_string(p);
  }
  std::size_t racks() const { return rack_ids_.size(); }
  std::size_t topic_of(std::size_t p) const { return r_.topic.empty() ? 0 : static_cast<std::size_t>(r_.topic[p]); }
  std::size_t topics() const {
    return r_.topic.empty() ? 1 : static_cast<std::size_t>(*std::max_element(r_.topic.begin(), r_.topic.end())) + 1;
  }
  bool per_topic() const { return !r_.topic_replicas.empty(); }

  /// The (topic, broker) layer between partitions and brokers: arcs topic_broker(t, b) ->
  /// broker0 + b, bounded by the per-topic bounds `tb` when there are any.
  void topic_layer(MinCostFlow& f, std::size_t layer0, std::size_t broker0, const std::vector<CountBounds>& tb,
                   std::int64_t K, std::vector<std::size_t>& lower) const {
    for (std::size_t t = 0; t < topics(); ++t)
      for (std::size_t b = 0; b < B_; ++b) {
        if (per_topic()) lower.push_back(f.add_bounded_arc(layer0 + t * B_ + b, broker0 + b, tb[t].lo, tb[t].hi, K));
        else f.add_arc(layer0 + t * B_ + b, broker0 + b, std::int64_t{1} << 40, 0);
      }
  }

  /// Counting arguments that rule a request out before any search, with the reason.
  std::string structural_check() const {
    const auto B = static_cast<std::int64_t>(B_);
    std::int64_t total = 0;
    for (std::size_t p = 0; p < P_; ++p) {
      const auto rf = r_.rf[p];
      total += rf;
      if (rf > B)
        return name(p) + " needs " + std::to_string(rf) + " replicas but there are only " + std::to_string(B) +
               " target brokers";
      if (r_.rack_mode == RackMode::kNone) continue;
      const auto range = rack_range(r_.rack_mode, rf, static_cast<std::int32_t>(racks()));
      std::int64_t room = 0;
      for (const auto& [rack, id] : rack_ids_) {
        const auto n = std::count(rack_of_.begin(), rack_of_.end(), id);
        if (n < range.lo)
          return "--rack-mode even: " + name(p) + " needs " + std::to_string(range.lo) + " replicas on rack '" + rack +
                 "', which has " + std::to_string(n) + " target brokers";
        room += std::min<std::int64_t>(n, range.hi);
      }
      if (room < rf)
        return "--rack-mode " + std::string(mode_name(r_.rack_mode)) + ": " + name(p) + " needs " + std::to_string(rf) +
               " replicas, at most " + std::to_string(range.hi) + " per rack, and the target brokers span " +
               std::to_string(racks()) + " rack" + (racks() == 1 ? "" : "s");
    }
    // Per rack: the replicas the rack mode forces onto it against what its brokers may hold.
    if (r_.rack_mode != RackMode::kNone)
      for (const auto& [rack, id] : rack_ids_) {
        const auto n = static_cast<std::int64_t>(std::count(rack_of_.begin(), rack_of_.end(), id));
        std::int64_t least = 0, most = 0;
        for (std::size_t p = 0; p < P_; ++p) {
          const auto range = rack_range(r_.rack_mode, r_.rf[p], static_cast<std::int32_t>(racks()));
          least += range.lo;
          most += std::min<std::int64_t>(range.hi, n);
        }
        if (least > n * r_.replicas.hi)
          return "--rack-mode " + std::string(mode_name(r_.rack_mode)) + ": rack '" + rack + "' must hold at least " +
                 std::to_string(least) + " replicas, more than its " + std::to_string(n) +
                 " target brokers may with replicas per broker " + range_text(r_.replicas);
        if (most < n * r_.replicas.lo)
          return "--rack-mode " + std::string(mode_name(r_.rack_mode)) + ": rack '" + rack + "' may hold at most " +
                 std::to_string(most) + " replicas, fewer than its " + std::to_string(n) +
                 " target brokers need with replicas per broker " + range_text(r_.replicas);
      }
    if (r_.replicas.lo > r_.replicas.hi || B * r_.replicas.lo > total || B * r_.replicas.hi < total)
      return "replicas per broker " + range_text(r_.replicas) + ": " + std::to_string(B) + " brokers must hold " +
             std::to_string(total) + " replicas";
    if (r_.leaders.lo > r_.leaders.hi || B * r_.leaders.lo > static_cast<std::int64_t>(P_) ||
        B * r_.leaders.hi < static_cast<std::int64_t>(P_))
      return "preferred leaders per broker " + range_text(r_.leaders) + ": " + std::to_string(B) +
             " brokers must lead " + std::to_string(P_) + " partitions";
    if (per_topic())
      for (std::size_t t = 0; t < topics(); ++t) {
        std::int64_t replicas = 0, partitions = 0;
        std::size_t first = 0;
        for (std::size_t p = P_; p-- > 0;)
          if (topic_of(p) == t) replicas += r_.rf[p], ++partitions, first = p;
        const auto rb = r_.topic_replicas[t], lb = r_.topic_leaders[t];
        const std::string topic = r_.names.empty() ? "topic #" + std::to_string(t) : "topic of " + name(first);
        if (partitions > 0 && (rb.lo > rb.hi || B * rb.lo > replicas || B * rb.hi < replicas))
          return "per-topic replicas per broker " + range_text(rb) + ": " + std::to_string(B) +
                 " brokers must hold the " + std::to_string(replicas) + " replicas of the " + topic;
        if (partitions > 0 && (lb.lo > lb.hi || B * lb.lo > partitions || B * lb.hi < partitions))
          return "per-topic preferred leaders per broker " + range_text(lb) + ": " + std::to_string(B) +
                 " brokers must lead the " + std::to_string(partitions) + " partitions of the " + topic;
      }
    return "";
  }

  struct Solution {
    int glpk_status = GLP_UNDEF;                      // GLP_OPT, GLP_FEAS, GLP_NOFEAS, GLP_UNDEF
    std::vector<std::vector<std::int32_t>> replicas;  // per partition, target brokers chosen
    std::vector<std::int32_t> leader;
  };

  /// The 0-1 program: x[p][b] replica, y[p][b] leader; sum_b x = rf, sum_b y = 1, y <= x,
  /// rack and broker bounds. Cost (P + 1) per replica on a new broker, 1 per leader that is
  /// not the current preferred leader: fewest moves first, then fewest leader changes.
  /// `moves` >= 0 fixes the number of moves (the flow's minimum: then only leader changes
  /// are left to minimize); `start`, a plan meeting every constraint, seeds the search.
  Solution solve(double seconds, std::int64_t moves, const std::vector<std::vector<std::int32_t>>* start_replicas,
                 const std::vector<std::int32_t>* start_leader) const {
    std::unique_ptr<glp_prob, decltype(&glp_delete_prob)> lp(glp_create_prob(), &glp_delete_prob);
    glp_prob* g = lp.get();
    glp_set_obj_dir(g, GLP_MIN);
    const auto P = P_, B = B_, R = racks();
    const double W = static_cast<double>(P) + 1;
    auto x = [&](std::size_t p, std::size_t b) { return static_cast<int>(1 + 2 * (p * B + b)); };
    auto y = [&](std::size_t p, std::size_t b) { return static_cast<int>(2 + 2 * (p * B + b)); };
    glp_add_cols(g, static_cast<int>(2 * P * B));
    for (std::size_t p = 0; p < P; ++p) {
      std::set<std::int32_t> held(r_.current[p].begin(), r_.current[p].end());
      for (std::size_t b = 0; b < B; ++b) {
        glp_set_col_kind(g, x(p, b), GLP_BV);
        glp_set_col_kind(g, y(p, b), GLP_BV);
        glp_set_obj_coef(g, x(p, b), held.count(r_.targets[b].id) ? 0.0 : W);
        glp_set_obj_coef(g, y(p, b), r_.current[p].front() == r_.targets[b].id ? 0.0 : 1.0);
      }
    }
    std::vector<int> ia{0}, ja{0};
    std::vector<double> ar{0};
    auto row = [&](int type, double lo, double hi) {
      const int i = glp_add_rows(g, 1);
      glp_set_row_bnds(g, i, type == GLP_DB && lo == hi ? GLP_FX : type, lo, hi);
      return i;
    };
    auto put = [&](int i, int j, double v) {
      ia.push_back(i);
      ja.push_back(j);
      ar.push_back(v);
    };
    for (std::size_t p = 0; p < P; ++p) {
      const int rf_row = row(GLP_FX, r_.rf[p], r_.rf[p]), lead_row = row(GLP_FX, 1, 1);
      for (std::size_t b = 0; b < B; ++b) {
        put(rf_row, x(p, b), 1);
        put(lead_row, y(p, b), 1);
        const int link = row(GLP_UP, 0, 0);  // y - x <= 0: the leader is a replica
        put(link, y(p, b), 1);
        put(link, x(p, b), -1);
      }
      if (r_.rack_mode != RackMode::kNone) {
        const auto range = rack_range(r_.rack_mode, r_.rf[p], static_cast<std::int32_t>(R));
        std::vector<int> rack_row(R);
        for (auto& i : rack_row) i = row(GLP_DB, range.lo, range.hi);
        for (std::size_t b = 0; b < B; ++b) put(rack_row[rack_of_[b]], x(p, b), 1);
      }
    }
    if (moves >= 0) {
      const int fixed = row(GLP_DB, static_cast<double>(moves), static_cast<double>(moves));
      for (std::size_t p = 0; p < P; ++p)
        for (std::size_t b = 0; b < B; ++b)
          if (std::find(r_.current[p].begin(), r_.current[p].end(), r_.targets[b].id) == r_.current[p].end())
            put(fixed, x(p, b), 1);
    }
    for (std::size_t b = 0; b < B; ++b) {
      const int rep = row(GLP_DB, r_.replicas.lo, r_.replicas.hi);
      const int lead = row(GLP_DB, r_.leaders.lo, r_.leaders.hi);
      for (std::size_t p = 0; p < P; ++p) {
        put(rep, x(p, b), 1);
        put(lead, y(p, b), 1);
      }
      if (!per_topic()) continue;
      std::vector<int> topic_rep(topics()), topic_lead(topics());
      for (std::size_t t = 0; t < topics(); ++t) {
        topic_rep[t] = row(GLP_DB, r_.topic_replicas[t].lo, r_.topic_replicas[t].hi);
        topic_lead[t] = row(GLP_DB, r_.topic_leaders[t].lo, r_.topic_leaders[t].hi);
      }
      for (std::size_t p = 0; p < P; ++p) {
        put(topic_rep[topic_of(p)], x(p, b), 1);
        put(topic_lead[topic_of(p)], y(p, b), 1);
      }
    }
    if (r_.disks()) {
      // Bytes in units of the largest partition, so that the simplex sees coefficients near 1.
      const double unit = std::max<double>(1, static_cast<double>(*std::max_element(r_.sizes.begin(), r_.sizes.end())));
      const auto in_units = [&](std::int64_t bytes) { return static_cast<double>(bytes) / unit; };
      for (std::size_t b = 0; b < B; ++b) {
        const auto id = r_.targets[b].id;
        if (!r_.disk_limit.empty()) {
          const int cap = row(GLP_UP, 0, in_units(r_.disk_limit[b]));
          for (std::size_t p = 0; p < P; ++p) {
            const bool held = std::find(r_.current[p].begin(), r_.current[p].end(), id) != r_.current[p].end();
            put(cap, x(p, b), in_units(r_.sizes[p]) * (held ? 1.0 : r_.move_in_reserve));
          }
        }
        if (!r_.disk_band.empty()) {
          const int band = row(GLP_DB, in_units(r_.disk_band[b].first), in_units(r_.disk_band[b].second));
          for (std::size_t p = 0; p < P; ++p) put(band, x(p, b), in_units(r_.sizes[p]));
        }
      }
    }
    glp_load_matrix(g, static_cast<int>(ia.size() - 1), ia.data(), ja.data(), ar.data());

    Solution s;
    const int limit_ms = static_cast<int>(std::min(seconds * 1000.0, 2.0e9));
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    sp.tm_lim = limit_ms;
    if (glp_simplex(g, &sp) != 0 || glp_get_status(g) != GLP_OPT) {
      s.glpk_status = glp_get_status(g) == GLP_NOFEAS ? GLP_NOFEAS : GLP_UNDEF;
      return s;
    }
    glp_iocp ip;
    glp_init_iocp(&ip);
    ip.msg_lev = GLP_MSG_OFF;
    ip.tm_lim = limit_ms;
    ip.fp_heur = GLP_ON;  // a feasible plan early, in case the limit stops the search
    ip.gmi_cuts = GLP_ON;
    ip.mir_cuts = GLP_ON;
    std::vector<double> seed;  // column values, 1-based, of the starting plan
    if (start_replicas && start_leader) {
      seed.assign(2 * P * B + 1, 0.0);
      for (std::size_t p = 0; p < P; ++p)
        for (std::size_t b = 0; b < B; ++b) {
          const auto id = r_.targets[b].id;
          const auto& chosen = (*start_replicas)[p];
          seed[static_cast<std::size_t>(x(p, b))] = std::find(chosen.begin(), chosen.end(), id) != chosen.end() ? 1.0
                                                                                                                : 0.0;
          seed[static_cast<std::size_t>(y(p, b))] = (*start_leader)[p] == id ? 1.0 : 0.0;
        }
      ip.cb_info = &seed;
      ip.cb_func = [](glp_tree* tree, void* info) {
        auto* values = static_cast<std::vector<double>*>(info);
        if (glp_ios_reason(tree) == GLP_IHEUR && !values->empty()) {
          glp_ios_heur_sol(tree, values->data());
          values->clear();  // once is enough
        }
      };
    }
    const int rc = glp_intopt(g, &ip);
    s.glpk_status = glp_mip_status(g);
    if ((rc != 0 && rc != GLP_ETMLIM) || (s.glpk_status != GLP_OPT && s.glpk_status != GLP_FEAS)) return s;
    s.replicas.resize(P);
    s.leader.resize(P);
    for (std::size_t p = 0; p < P; ++p)
      for (std::size_t b = 0; b < B; ++b) {
        if (glp_mip_col_val(g, x(p, b)) > 0.5) s.replicas[p].push_back(r_.targets[b].id);
        if (glp_mip_col_val(g, y(p, b)) > 0.5) s.leader[p] = r_.targets[b].id;
      }
    return s;
  }

  /// Replicas alone as a min-cost flow (Boost.Graph): source -> partition (rf) -> rack
  /// (the rack mode's per-partition range) -> broker (capacity 1 per partition) -> sink (the
  /// replica bounds). Costs: W per replica on a broker that did not hold the partition, and
  /// 1 per replica on a broker other than the partition's wanted leader (the current one, or
  /// `ideal`'s), so that among the fewest moves the wanted leaders hold a replica. Lower bounds are arcs of cost 0
  /// beside arcs of cost K, K above any other total, so they fill first and are met whenever the constraints allow.
  /// Exact for the fewest moves with leaders left out; returns the chosen brokers, or nothing when the replica and rack
  /// constraints cannot be met.
  std::optional<std::vector<std::vector<std::int32_t>>> flow_replicas(
      bool rack_bounds, const std::vector<std::int32_t>* ideal = nullptr) const {
    const auto P = P_, B = B_;
    const bool by_rack = rack_bounds && r_.rack_mode != RackMode::kNone;
    const std::size_t R = by_rack ? racks() : 1;
    std::int64_t total = 0;
    for (auto rf : r_.rf) total += rf;
    const std::int64_t W = total + 1, K = W * (total + 1);
    const std::size_t s = 0, part0 = 1, rack0 = part0 + P, layer0 = rack0 + P * R, broker0 = layer0 + topics() * B,
                      t = broker0 + B;
    MinCostFlow flow(t + 1);
    std::vector<std::size_t> lower_arcs;
    std::vector<std::vector<std::pair<std::size_t, std::int32_t>>> choice(P);  // (arc, broker)
    for (std::size_t p = 0; p < P; ++p) {
      flow.add_arc(s, part0 + p, r_.rf[p], 0);
      const auto range = by_rack ? rack_range(r_.rack_mode, r_.rf[p], static_cast<std::int32_t>(R))
                                 : RackRange{0, r_.rf[p]};
      for (std::size_t k = 0; k < R; ++k)
        lower_arcs.push_back(flow.add_bounded_arc(part0 + p, rack0 + p * R + k, range.lo, range.hi, K));
      const auto& cur = r_.current[p];
      for (std::size_t b = 0; b < B; ++b) {
        const auto id = r_.targets[b].id;
        const auto at = std::find(cur.begin(), cur.end(), id);
        const bool wanted = ideal ? (*ideal)[p] == id : at == cur.begin();
        const std::int64_t cost = (at == cur.end() ? W : 0) + (wanted ? 0 : 1);
        choice[p].push_back(
            {flow.add_arc(rack0 + p * R + (by_rack ? rack_of_[b] : 0), layer0 + topic_of(p) * B + b, 1, cost), id});
      }
    }
    topic_layer(flow, layer0, broker0, r_.topic_replicas, K, lower_arcs);
    for (std::size_t b = 0; b < B; ++b)
      lower_arcs.push_back(flow.add_bounded_arc(broker0 + b, t, r_.replicas.lo, r_.replicas.hi, K));
    if (flow.solve(s, t) < total) return std::nullopt;
    for (auto a : lower_arcs)
      if (!flow.met(a)) return std::nullopt;
    std::vector<std::vector<std::int32_t>> chosen(P);
    for (std::size_t p = 0; p < P; ++p)
      for (const auto& [arc, id] : choice[p])
        if (flow.flow(arc) > 0) chosen[p].push_back(id);
    return chosen;
  }

  /// Leaders among fixed replicas (leader_balance's flow, with the topic bounds when there
  /// are any). Nothing when the bounds cannot be met.
  std::optional<std::vector<std::int32_t>> flow_leaders(const std::vector<std::vector<std::int32_t>>& chosen) const {
    std::vector<std::int32_t> ids, fronts, groups;
    for (const auto& t : r_.targets) ids.push_back(t.id);
    for (std::size_t p = 0; p < P_; ++p) {
      fronts.push_back(r_.current[p].front());
      groups.push_back(static_cast<std::int32_t>(topic_of(p)));
    }
    auto choice = choose_leaders(chosen, fronts, ids, r_.leaders, groups, r_.topic_leaders);
    if (choice.leader.empty()) return std::nullopt;
    return std::move(choice.leader);
  }

  /// The fewest leader changes any plan needs, with a leader per partition that achieves
  /// it: each partition may be led by any target broker (a relaxation of the real problem),
  /// its current leader free, any other at 1, within the leader bounds. Among such choices
  /// a current follower is preferred to a broker without a replica, so that step 1 can
  /// usually keep the replicas these leaders need without extra moves.
  struct IdealLeaders {
    std::int64_t changes = 0;
    std::vector<std::int32_t> leader;
  };
  IdealLeaders ideal_leaders() const {
    const auto P = P_, B = B_;
    std::map<std::int32_t, std::size_t> index;
    for (std::size_t b = 0; b < B; ++b) index[r_.targets[b].id] = b;
    const std::int64_t C = static_cast<std::int64_t>(P) + 1, K = C * (static_cast<std::int64_t>(P) + 1);
    const std::size_t T = topics(), s = 0, hub0 = 1, part0 = hub0 + T, layer0 = part0 + P, broker0 = layer0 + T * B,
                      t = broker0 + B;
    MinCostFlow flow(t + 1);
    std::vector<std::vector<std::pair<std::size_t, std::int32_t>>> direct(P);
    std::vector<std::size_t> via_hub(P);
    for (std::size_t p = 0; p < P; ++p) {
      flow.add_arc(s, part0 + p, 1, 0);
      const auto& cur = r_.current[p];
      for (std::size_t j = 0; j < cur.size(); ++j) {
        auto it = index.find(cur[j]);
        if (it != index.end())
          direct[p].push_back({flow.add_arc(part0 + p, layer0 + topic_of(p) * B + it->second, 1, j == 0 ? 0 : C),
                               cur[j]});
      }
      via_hub[p] = flow.add_arc(part0 + p, hub0 + topic_of(p), 1, C + 1);
    }
    std::vector<std::size_t> from_hub(T * B), lower_arcs;
    for (std::size_t tp = 0; tp < T; ++tp)
      for (std::size_t b = 0; b < B; ++b)
        from_hub[tp * B + b] = flow.add_arc(hub0 + tp, layer0 + tp * B + b, static_cast<std::int64_t>(P), 0);
    topic_layer(flow, layer0, broker0, r_.topic_leaders, K, lower_arcs);
    for (std::size_t b = 0; b < B; ++b)
      lower_arcs.push_back(flow.add_bounded_arc(broker0 + b, t, r_.leaders.lo, r_.leaders.hi, K));
    flow.solve(s, t);
    IdealLeaders out;
    out.leader.assign(P, -1);
    std::vector<std::int64_t> hub_left(T * B);
    for (std::size_t i = 0; i < T * B; ++i) hub_left[i] = flow.flow(from_hub[i]);
    for (std::size_t p = 0; p < P; ++p) {
      for (const auto& [arc, id] : direct[p])
        if (flow.flow(arc) > 0) {
          out.leader[p] = id;
          if (id != r_.current[p].front()) ++out.changes;
        }
      if (flow.flow(via_hub[p]) > 0) {  // hand out the topic hub's units to brokers in order
        ++out.changes;
        for (std::size_t b = 0; b < B; ++b)
          if (auto& left = hub_left[topic_of(p) * B + b]; left > 0) {
            --left;
            out.leader[p] = r_.targets[b].id;
            break;
          }
      }
    }
    return out;
  }

  /// The new list: kept replicas stay where they were, new ones take the freed slots in
  /// id order (then extend the list), and the chosen leader goes first.
  std::vector<std::int32_t> order(std::size_t p, const std::vector<std::int32_t>& chosen, std::int32_t leader) const {
    const auto& old = r_.current[p];
    std::vector<std::int32_t> fresh;
    for (auto b : chosen)
      if (std::find(old.begin(), old.end(), b) == old.end()) fresh.push_back(b);
    std::sort(fresh.begin(), fresh.end());
    std::vector<std::int32_t> out;
    std::size_t next = 0;
    for (auto b : old) {
      if (std::find(chosen.begin(), chosen.end(), b) != chosen.end()) out.push_back(b);
      else if (next < fresh.size()) out.push_back(fresh[next++]);
    }
    while (next < fresh.size()) out.push_back(fresh[next++]);
    out.erase(std::find(out.begin(), out.end(), leader));
    out.insert(out.begin(), leader);
    return out;
  }

private:
  const ReassignRequest& r_;
  std::size_t P_, B_;
  std::map<std::string, std::size_t> rack_ids_;
  std::vector<std::size_t> rack_of_;
};

}  // namespace

std::int32_t count_moves(const Assignment& before, const Assignment& after) {
  std::int32_t n = 0;
  for (std::size_t p = 0; p < after.size(); ++p)
    for (auto b : after[p])
      if (p >= before.size() || std::find(before[p].begin(), before[p].end(), b) == before[p].end()) ++n;
  return n;
}

std::int32_t count_leader_changes(const Assignment& before, const Assignment& after) {
  std::int32_t n = 0;
  for (std::size_t p = 0; p < after.size() && p < before.size(); ++p)
    if (before[p].empty() || after[p].empty() || before[p].front() != after[p].front()) ++n;
  return n;
}

std::string check_plan(const ReassignRequest& r, const Assignment& a) {
  std::map<std::int32_t, std::size_t> index;
  for (std::size_t b = 0; b < r.targets.size(); ++b) index[r.targets[b].id] = b;
  std::set<std::string> all_racks;
  for (const auto& t : r.targets) all_racks.insert(t.rack);
  std::vector<std::int32_t> replicas(r.targets.size()), leaders(r.targets.size());
  std::map<std::pair<std::int32_t, std::size_t>, std::int32_t> topic_replicas, topic_leaders;  // (topic, broker)
  for (std::size_t p = 0; p < a.size(); ++p) {
    const std::string name = "partition #" + std::to_string(p);
    if (static_cast<std::int32_t>(a[p].size()) != r.rf[p]) return name + ": wrong replication factor";
    std::map<std::string, std::int32_t> per_rack;
    for (std::size_t j = 0; j < a[p].size(); ++j) {
      auto it = index.find(a[p][j]);
      if (it == index.end()) return name + ": broker " + std::to_string(a[p][j]) + " is not a target";
      if (std::find(a[p].begin(), a[p].begin() + static_cast<std::ptrdiff_t>(j), a[p][j]) !=
          a[p].begin() + static_cast<std::ptrdiff_t>(j))
        return name + ": broker " + std::to_string(a[p][j]) + " twice";
      ++replicas[it->second];
      if (j == 0) ++leaders[it->second];
      const std::int32_t topic = r.topic.empty() ? 0 : r.topic[p];
      ++topic_replicas[{topic, it->second}];
      if (j == 0) ++topic_leaders[{topic, it->second}];
      ++per_rack[r.targets[it->second].rack];
    }
    const auto range = rack_range(r.rack_mode, r.rf[p], static_cast<std::int32_t>(all_racks.size()));
    for (const auto& rack : all_racks) {
      const auto n = per_rack.count(rack) ? per_rack[rack] : 0;
      if (n < range.lo || n > range.hi) return name + ": rack '" + rack + "' holds " + std::to_string(n);
    }
  }
  for (std::size_t b = 0; r.disks() && b < r.targets.size(); ++b) {
    const auto id = r.targets[b].id;
    // (a relative tolerance as the solver's, 1e-7 of the bound)
    if (const double bytes = broker_bytes(r, a, id, true);
        !r.disk_limit.empty() && bytes > static_cast<double>(r.disk_limit[b]) * (1 + 1e-7))
      return "broker " + std::to_string(id) + " would hold " + std::to_string(std::llround(bytes)) +
             " bytes (moving in x" + number_text(r.move_in_reserve) + "), over its " + std::to_string(r.disk_limit[b]);
    if (!r.disk_band.empty()) {
      const double bytes = broker_bytes(r, a, id, false);
      if (bytes < static_cast<double>(r.disk_band[b].first) * (1 - 1e-7) ||
          bytes > static_cast<double>(r.disk_band[b].second) * (1 + 1e-7))
        return "broker " + std::to_string(id) + " would hold " + std::to_string(std::llround(bytes)) +
               " bytes, outside " + std::to_string(r.disk_band[b].first) + ".." + std::to_string(r.disk_band[b].second);
    }
  }
  for (std::size_t b = 0; b < r.targets.size(); ++b) {
    if (replicas[b] < r.replicas.lo || replicas[b] > r.replicas.hi)
      return "broker " + std::to_string(r.targets[b].id) + " holds " + std::to_string(replicas[b]) + " replicas";
    if (leaders[b] < r.leaders.lo || leaders[b] > r.leaders.hi)
      return "broker " + std::to_string(r.targets[b].id) + " leads " + std::to_string(leaders[b]) + " partitions";
    for (std::size_t t = 0; t < r.topic_replicas.size(); ++t) {
      const auto key = std::pair{static_cast<std::int32_t>(t), b};
      const auto n = topic_replicas.count(key) ? topic_replicas[key] : 0,
                 l = topic_leaders.count(key) ? topic_leaders[key] : 0;
      if (n < r.topic_replicas[t].lo || n > r.topic_replicas[t].hi)
        return "broker " + std::to_string(r.targets[b].id) + " holds " + std::to_string(n) + " replicas of topic #" +
               std::to_string(t);
      if (l < r.topic_leaders[t].lo || l > r.topic_leaders[t].hi)
        return "broker " + std::to_string(r.targets[b].id) + " leads " + std::to_string(l) + " partitions of topic #" +
               std::to_string(t);
    }
  }
  return "";
}

double broker_bytes(const ReassignRequest& r, const Assignment& a, std::int32_t broker, bool reserve) {
  double bytes = 0;
  for (std::size_t p = 0; p < a.size() && p < r.sizes.size(); ++p) {
    if (std::find(a[p].begin(), a[p].end(), broker) == a[p].end()) continue;
    const bool moving_in = p >= r.current.size() ||
                           std::find(r.current[p].begin(), r.current[p].end(), broker) == r.current[p].end();
    bytes += static_cast<double>(r.sizes[p]) * (reserve && moving_in ? r.move_in_reserve : 1.0);
  }
  return bytes;
}

// Which of the two an infeasible plan with disks runs into: the replicas' bytes against the
// limits together, else whether the leader bounds alone can be met (the flows' plan, which
// knows nothing of bytes, shows the disk it overfills).
static std::string disk_hint(const ReassignRequest& r, const Problem& problem, const Assignment& replicas,
                             const std::vector<std::int32_t>* leaders) {
  double need = 0, room = 0;
  for (std::size_t p = 0; p < r.current.size() && p < r.sizes.size(); ++p)
    need += static_cast<double>(r.sizes[p]) * static_cast<double>(r.rf[p]);
  for (const auto limit : r.disk_limit) room += static_cast<double>(limit);
  if (!r.disk_limit.empty() && need > room)
    return ": the replicas hold " + std::to_string(std::llround(need)) + " bytes, more than the " +
           std::to_string(r.disk_limit.size()) + " brokers' disk limits together (" +
           std::to_string(std::llround(room)) + ")";
  if (!leaders) return "; the fewest-moves placement cannot meet the leader bounds either";
  Assignment a;
  for (std::size_t p = 0; p < r.current.size(); ++p) a.push_back(problem.order(p, replicas[p], (*leaders)[p]));
  const std::string over = check_plan(r, a);
  return "; the leader bounds alone can be met, so the disks bind" +
         (over.empty() ? std::string() : " (in the fewest-moves plan that meets them, " + over + ")");
}

ReassignPlan plan_reassignment(const ReassignRequest& r) {
  ReassignPlan out;
  const Problem problem(r);
  if (r.targets.empty()) {
    out.reason = "no target brokers";
    return out;
  }
  if (r.current.empty()) {  // nothing to place: the empty plan (and GLPK refuses a program without columns)
    out.status = PlanStatus::kOptimal;
    out.method = "flow";
    return out;
  }
  if (auto why = problem.structural_check(); !why.empty()) {
    out.reason = why;
    return out;
  }
  // 1. Replicas alone, exactly, as a flow: the fewest moves any plan needs, or proof that the
  //    replica and rack constraints cannot be met.
  const auto ideal = problem.ideal_leaders();
  const auto replicas = problem.flow_replicas(true, &ideal.leader);
  if (!replicas) {
    if (r.rack_mode != RackMode::kNone && problem.flow_replicas(false))
      out.reason = "--rack-mode " + std::string(mode_name(r.rack_mode)) +
                   " cannot be met with replicas per broker within " + range_text(r.replicas);
    else out.reason = "no placement keeps replicas per broker within " + range_text(r.replicas);
    return out;
  }
  auto finish = [&](const std::vector<std::vector<std::int32_t>>& chosen, const std::vector<std::int32_t>& leader,
                    PlanStatus status) {
    out.status = status;
    for (std::size_t p = 0; p < r.current.size(); ++p) out.plan.push_back(problem.order(p, chosen[p], leader[p]));
    out.moves = count_moves(r.current, out.plan);
    out.leader_changes = count_leader_changes(r.current, out.plan);
    if (status == PlanStatus::kOptimal) out.lower_bound_leader_changes = out.leader_changes;
    return out;
  };
  out.lower_bound_moves = count_moves(r.current, *replicas);
  out.method = "flow";
  auto cost = [&](const std::vector<std::vector<std::int32_t>>& chosen, const std::vector<std::int32_t>& leader) {
    std::int32_t changes = 0;
    for (std::size_t p = 0; p < r.current.size(); ++p) changes += leader[p] != r.current[p].front();
    return std::pair{count_moves(r.current, chosen), changes};
  };
  // 2. Leaders among those replicas, as a flow. When that meets the leader bounds with no
  //    more changes than any plan needs, the pair is optimal for the joint problem too.
  const auto leaders = problem.flow_leaders(*replicas);
  out.lower_bound_leader_changes = ideal.changes;
  // (With disks, the flows know nothing of bytes: their plan stands only if it keeps the disks within bounds.)
  const auto meets_disks = [&](const std::vector<std::vector<std::int32_t>>& chosen,
                               const std::vector<std::int32_t>& leader) {
    if (!r.disks()) return true;
    Assignment a;
    for (std::size_t p = 0; p < r.current.size(); ++p) a.push_back(problem.order(p, chosen[p], leader[p]));
    return check_plan(r, a).empty();
  };
  const bool flow_ok = leaders && meets_disks(*replicas, *leaders);
  if (flow_ok && cost(*replicas, *leaders).second == out.lower_bound_leader_changes)
    return finish(*replicas, *leaders, PlanStatus::kOptimal);
  out.method = "0-1 program";
  // 3. Otherwise the joint 0-1 program decides (the flow plan stands in if time runs out).
  glp_term_out(GLP_OFF);
  // With the flow's fewest moves fixed first (their minimum is proven, so if a plan exists
  // there it is the optimum), and only if none does, with the moves free.
  auto s = problem.solve(r.time_limit_s, out.lower_bound_moves, flow_ok ? &*replicas : nullptr,
                         flow_ok ? &*leaders : nullptr);
  if (s.glpk_status == GLP_NOFEAS) s = problem.solve(r.time_limit_s, -1, nullptr, nullptr);
  glp_free_env();
  if (s.glpk_status == GLP_OPT) return finish(s.replicas, s.leader, PlanStatus::kOptimal);
  if (s.glpk_status == GLP_NOFEAS) {
    out.reason = "no plan keeps preferred leaders per broker within " + range_text(r.leaders) +
                 (r.disks() ? " and every broker's disk within its bounds (partitions moving in counted x" +
                                  number_text(r.move_in_reserve) + ")"
                            : "") +
                 " while meeting the replica and rack constraints (which alone can be met)";
    if (r.disks()) out.reason += disk_hint(r, problem, *replicas, leaders ? &*leaders : nullptr);
    return out;
  }
  // Time ran out: the better of the program's incumbent and the flow plan, if either exists.
  if (s.glpk_status == GLP_FEAS && (!flow_ok || cost(s.replicas, s.leader) < cost(*replicas, *leaders)))
    return finish(s.replicas, s.leader, PlanStatus::kFeasible);
  if (flow_ok) {
    out.method = "flow";
    return finish(*replicas, *leaders, PlanStatus::kFeasible);
  }
  out.status = PlanStatus::kTimedOut;
  out.reason = "the solver's time limit (" + seconds_text(r.time_limit_s) +
               ") ran out before it found a plan that meets the leader bounds " + range_text(r.leaders);
  return out;
}

}  // namespace partsim::model
