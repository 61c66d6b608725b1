// Leader balancing against brute force on small cases.

#include "model/placement/leader_balance.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/successive_shortest_path_nonnegative_weights.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "model/placement/min_cost_flow.hpp"

using namespace partsim::model;

namespace {
// The fewest leader changes over every choice of leaders, or -1 when none meets the bounds.
int brute_force_changes(const Assignment& a, const std::vector<std::int32_t>& brokers, LeaderBounds bounds) {
  int best = -1;
  std::vector<std::size_t> pick(a.size(), 0);
  for (;;) {
    std::map<std::int32_t, int> load;
    int changes = 0;
    for (std::size_t p = 0; p < a.size(); ++p) {
      ++load[a[p][pick[p]]];
      if (pick[p] != 0) ++changes;
    }
    bool ok = true;
    for (auto b : brokers) ok = ok && load[b] >= bounds.lo && load[b] <= bounds.hi;
    if (ok && (best < 0 || changes < best)) best = changes;
    std::size_t i = 0;
    while (i < a.size() && ++pick[i] == a[i].size()) pick[i++] = 0;
    if (i == a.size()) break;
  }
  return best;
}
}  // namespace

TEST_CASE("min-cost flow on a tiny network") {
  MinCostFlow f(4);
  const auto a = f.add_arc(0, 1, 2, 1);
  const auto b = f.add_arc(0, 2, 2, 3);
  f.add_arc(1, 3, 1, 0);
  f.add_arc(2, 3, 2, 0);
  CHECK(f.solve(0, 3) == 3);
  CHECK(f.flow(a) == 1);
  CHECK(f.flow(b) == 2);
  CHECK(f.total_cost() == 7);
}

TEST_CASE("min-cost flow agrees with Boost's successive shortest paths on random networks") {
  using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
  using Graph = boost::adjacency_list<
      boost::vecS, boost::vecS, boost::directedS, boost::no_property,
      boost::property<boost::edge_capacity_t, long,
                      boost::property<boost::edge_residual_capacity_t, long,
                                      boost::property<boost::edge_reverse_t, Traits::edge_descriptor,
                                                      boost::property<boost::edge_weight_t, double>>>>>;
  boost::random::mt19937 rng(11);
  auto draw = [&](int lo, int hi) { return boost::random::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 300; ++trial) {
    CAPTURE(trial);
    const int n = draw(2, 12), m = draw(1, 40);
    MinCostFlow mine(static_cast<std::size_t>(n));
    std::vector<Traits::edge_descriptor> forward;
    Graph g(static_cast<std::size_t>(n));
    auto cap = boost::get(boost::edge_capacity, g);
    auto rev = boost::get(boost::edge_reverse, g);
    auto weight = boost::get(boost::edge_weight, g);
    auto residual = boost::get(boost::edge_residual_capacity, g);
    for (int i = 0; i < m; ++i) {
      const int u = draw(0, n - 1), v = draw(0, n - 1), c = draw(0, 5), w = draw(0, 9);
      if (u == v) continue;
      mine.add_arc(static_cast<std::size_t>(u), static_cast<std::size_t>(v), c, w);
      auto e = boost::add_edge(static_cast<std::size_t>(u), static_cast<std::size_t>(v), g).first;
      auto r = boost::add_edge(static_cast<std::size_t>(v), static_cast<std::size_t>(u), g).first;
      cap[e] = c, cap[r] = 0, weight[e] = w, weight[r] = -w, rev[e] = r, rev[r] = e;
      forward.push_back(e);
    }
    const auto sent = mine.solve(0, static_cast<std::size_t>(n - 1));
    boost::successive_shortest_path_nonnegative_weights(g, 0, static_cast<std::size_t>(n - 1));
    long boost_sent = 0;
    double boost_cost = 0;
    for (auto e : forward) {
      boost_cost += static_cast<double>(cap[e] - residual[e]) * weight[e];
      if (boost::source(e, g) == 0) boost_sent += cap[e] - residual[e];
    }
    CHECK(sent == boost_sent);
    CHECK(static_cast<double>(mine.total_cost()) == boost_cost);
  }
}

TEST_CASE("leader balancing finds the fewest changes, as brute force does") {
  boost::random::mt19937 rng(3);
  const std::vector<std::int32_t> brokers{0, 1, 2, 3};
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    boost::random::uniform_int_distribution<int> parts(1, 7), broker(0, 3);
    Assignment a;
    const int P = parts(rng);
    for (int p = 0; p < P; ++p) {
      std::vector<std::int32_t> r;
      while (r.size() < 2 + static_cast<std::size_t>(trial % 2)) {
        const int b = broker(rng);
        if (std::find(r.begin(), r.end(), b) == r.end()) r.push_back(b);
      }
      a.push_back(r);
    }
    for (const auto bounds : {leader_bounds_exact(P, 4), LeaderBounds{0, P}, LeaderBounds{1, 2}}) {
      const auto plan = balance_leaders(a, brokers, bounds, false);
      const int brute = brute_force_changes(a, brokers, bounds);
      CHECK(plan.feasible == (brute >= 0));
      if (plan.feasible) CHECK(plan.leader_changes == brute);
    }
  }
}

TEST_CASE("failover ordering spreads a broker's leadership over the others") {
  // Broker 0 leads 6 partitions whose followers all include 1, 2 and 3: after balancing,
  // each of them takes over 2 when 0 fails (originally broker 1 would take all 6).
  Assignment a(6, std::vector<std::int32_t>{0, 1, 2, 3});
  const auto plan = balance_leaders(a, {0, 1, 2, 3}, LeaderBounds{0, 6}, true);
  REQUIRE(plan.feasible);
  std::map<std::int32_t, int> takeover;
  for (const auto& r : plan.reordered) ++takeover[r[1]];
  CHECK(takeover == std::map<std::int32_t, int>{{1, 2}, {2, 2}, {3, 2}});
  CHECK(plan.leader_changes == 0);
  CHECK(plan.failover_changes == 4);
}

TEST_CASE("infeasible bounds say which constraint fails") {
  Assignment a{{0, 1}, {0, 1}, {0, 1}};
  const auto plan = balance_leaders(a, {0, 1, 2}, LeaderBounds{1, 1}, false);
  CHECK_FALSE(plan.feasible);
  CHECK(plan.infeasible_reason.find("at most 1") != std::string::npos);
}

TEST_CASE("no partitions: nothing to balance, a feasible empty plan") {
  const auto plan = balance_leaders({}, {0, 1}, {0, 0}, true);
  CHECK(plan.feasible);
  CHECK(plan.reordered.empty());
  CHECK(plan.leader_changes == 0);
}
