// The sender (spec §4): ready, drain, produce requests, expiry, responses, timeouts.

#include "model/detail/producer_engine.hpp"

namespace partsim::model::detail {

// ---- sender (spec §4) -----------------------------------------------------------------------

void Engine::wake_sender(Producer& p, SimTime t) {
  // One live wake per producer: an earlier request supersedes a later one, which then
  // fires stale and is ignored (cheaper than cancelling: most wakes are superseded).
  t = std::max(t, now());
  if (t >= p.wake_at) return;
  p.wake_at = t;
  sim_.schedule_at(t, SenderWake{p.index, ++p.wake_generation});
}

void Engine::operator()(const SenderWake& e) {
  Producer& p = producers_[e.producer];
  if (e.generation != p.wake_generation) return;
  p.wake_at = kNever;
  run_sender(p);
}

// Sender.runOnce / sendProducerData (spec §4.1) with RecordAccumulator.ready (spec §3.6).
void Engine::run_sender(Producer& p) {
  const ProducerConfig& cfg = *p.cfg;
  const SimTime t = now();
  const SimTime linger = cfg.linger;
  const SimTime avail_timeout = cfg.availability_timeout;
  const bool exhausted = p.blocked;  // free.queued() > 0
  // Adaptive arrays only once every partition has had a deque (RA:672-680).
  // Adaptive only without a partitioner object (KP:427-429), and only once every
  // partition has had a deque (RA:672-680).
  const bool adaptive = cfg.adaptive && !p.custom;
  const bool arrays = adaptive && p.deques_created == p.num_partitions;
  std::fill(p.ready_nodes.begin(), p.ready_nodes.end(), 0);
  if (arrays) {
    p.queue_sizes.assign(static_cast<std::size_t>(p.deques_created), 0);
    p.queue_ids.assign(static_cast<std::size_t>(p.deques_created), 0);
  }
  SimTime next_check = kNever;
  std::int32_t idx = -1;
  for (std::int32_t part = 0; part < p.num_partitions; ++part) {
    const auto up = static_cast<std::size_t>(part);
    if (!p.deque_exists[up]) continue;
    const std::int32_t leader = p.leader_view[up];
    if (leader >= 0 && arrays) p.queue_ids[static_cast<std::size_t>(++idx)] = part;
    const auto& dq = p.deques[up];
    if (dq.empty()) continue;
    const Batch& first = batches_[dq.front()];
    const SimTime waited = t - first.last_attempt;
    const bool backing_off = first.attempts > 0 && waited < first.backoff;
    const bool full = dq.size() > 1 || is_full(first);
    if (leader < 0) continue;  // unknown leader: waits for metadata
    const auto ul = static_cast<std::size_t>(leader);
    if (arrays) {
      p.queue_sizes[static_cast<std::size_t>(idx)] = static_cast<std::int32_t>(dq.size());
      const NodeLatency& nl = p.node_latency[ul];
      if (cfg.availability_timeout > SimTime::zero() && nl.exists && nl.ready_time - nl.drain_time > avail_timeout) --idx;
    }
    if (!p.ready_nodes[ul] && !p.muted[up]) {
      const SimTime time_to_wait = backing_off ? first.backoff : linger;
      const bool expired = waited >= time_to_wait;
      const bool sendable = full || expired || exhausted || p.stopped;
      if (sendable && !backing_off)
        p.ready_nodes[ul] = 1;
      else
        next_check = std::min(next_check, std::max(time_to_wait - waited, SimTime::zero()));
    }
  }
  if (adaptive) {
    if (arrays)
      p.partitioner->update_load_stats(p.queue_sizes, p.queue_ids, idx + 1);
    else
      p.partitioner->clear_load_stats();
  }

  bool sent_any = false;
  for (std::uint32_t node = 0; node < brokers_.size(); ++node) {
    if (!p.ready_nodes[node]) continue;
    // NetworkClient.ready (spec §4.2): connection up and room for another request.
    const bool can_send = brokers_[node].up && p.in_flight[node] < cfg.max_in_flight;
    if (cfg.availability_timeout > SimTime::zero()) {  // spec §3.7
      NodeLatency& nl = p.node_latency[node];
      if (!nl.exists) {
        nl.exists = true;
        nl.drain_time = t;
      }
      nl.ready_time = t;
      if (can_send) nl.drain_time = t;
    }
    if (!can_send) continue;
    auto drained = drain(p, node);
    if (drained.empty()) continue;
    send_request(p, node, std::move(drained));
    sent_any = true;
  }
  const SimTime next_expiry = expire(p);
  if (sent_any) {
    wake_sender(p, t);  // poll(0): another pass may drain more
  } else if (next_check != kNever) {
    wake_sender(p, std::min(next_expiry, t + next_check));
  } else if (p.live_requests.empty() && next_expiry != kNever) {
    // Nothing else will wake the sender (leaderless or unreachable partitions): wake it to
    // expire batches. With requests in flight, their responses or timeouts wake it first;
    // scheduling far-off expiry wakes there would fill the event queue with dead timers.
    wake_sender(p, next_expiry);
  }
}

// RecordAccumulator.drain for one node (spec §3.8).
std::vector<std::uint32_t> Engine::drain(Producer& p, std::uint32_t node) {
  std::vector<std::uint32_t> out;
  const auto& parts = p.parts_for_node[node];
  if (parts.empty()) return out;
  const std::uint32_t n = static_cast<std::uint32_t>(parts.size());
  const std::uint32_t start = p.drain_index[node] % n;
  std::uint32_t i = start;
  std::int64_t size = 0;
  do {
    p.drain_index[node] = i;  // the last partition examined
    const auto part = static_cast<std::size_t>(parts[i]);
    i = (i + 1) % n;
    if (p.muted[part] || !p.deque_exists[part]) continue;
    auto& dq = p.deques[part];
    if (dq.empty()) continue;
    Batch& first = batch(dq.front());
    if (first.attempts > 0 && now() - first.last_attempt < first.backoff) continue;
    if (size + estimated_bytes(first) > p.cfg->max_request_size_bytes && !out.empty()) break;
    dq.pop_front();
    seal(p, first);
    first.sent = now();
    size += first.built_bytes;
    out.push_back(static_cast<std::uint32_t>(&first - batches_.data()));
    if (p.cfg->max_in_flight == 1) p.muted[part] = 1;  // guaranteeMessageOrder
  } while (i != start);
  return out;
}

void Engine::send_request(Producer& p, std::uint32_t node, std::vector<std::uint32_t> drained) {
  const std::uint64_t id = next_request_++;
  Request r;
  r.producer = p.index;
  r.broker = node;
  r.sent = now();
  for (auto b : drained) r.bytes += batch(b).built_bytes;
  r.batches = std::move(drained);
  Broker& br = brokers_[node];
  sim_.schedule_at(now() + one_way(br), RequestArrive{id});
  if (p.cfg->acks == Acks::kNone) {
    // acks=0: complete as soon as the bytes are written; nothing stays in flight.
    r.live = false;
    for (auto b : r.batches) complete_batch(p, b, node);
  } else {
    for (auto b : r.batches) batch(b).in_request = true;
    ++p.in_flight[node];
    // Deadlines come in send order, so one timer per producer watches the oldest; a
    // deadline whose request was answered is simply dropped when it comes up.
    const SimTime deadline = now() + p.cfg->request_timeout;
    p.deadlines.emplace_back(deadline, id);
    if (!p.timeout_timer_pending) {
      p.timeout_timer_pending = true;
      sim_.schedule_at(deadline, RequestTimeout{p.index});
    }
    p.live_requests.push_back(id);
    SimTime oldest = kNever;
    for (auto b : r.batches) oldest = std::min(oldest, batch(b).created);
    p.next_inflight_expiry = std::min(p.next_inflight_expiry, oldest + p.cfg->delivery_timeout);
  }
  requests_.emplace(id, std::move(r));
}

// Expire batches past delivery.timeout.ms (spec §3.9, §4.5); returns the next expiry time.
SimTime Engine::expire(Producer& p) {
  const SimTime timeout = p.cfg->delivery_timeout;
  const SimTime t = now();
  std::vector<std::uint32_t> expired;
  SimTime next = kNever;
  for (std::int32_t part = 0; part < p.num_partitions; ++part) {
    auto& dq = p.deques[static_cast<std::size_t>(part)];
    while (!dq.empty() && t - batches_[dq.front()].created >= timeout) {
      expired.push_back(dq.front());
      dq.pop_front();
    }
    if (!dq.empty()) next = std::min(next, batches_[dq.front()].created + timeout);
  }
  for (auto& [part, dq] : p.limbo) {
    while (!dq.empty() && t - batches_[dq.front()].created >= timeout) {
      expired.push_back(dq.front());
      dq.pop_front();
    }
    if (!dq.empty()) next = std::min(next, batches_[dq.front()].created + timeout);
  }
  if (p.live_requests.empty()) p.next_inflight_expiry = kNever;
  if (t >= p.next_inflight_expiry) {
    p.next_inflight_expiry = kNever;
    for (auto rid : p.live_requests) {
      const Request& r = requests_.at(rid);
      for (auto b : r.batches) {
        const Batch& bb = batches_[b];
        if (bb.done) continue;
        if (t - bb.created >= timeout)
          expired.push_back(b);
        else
          p.next_inflight_expiry = std::min(p.next_inflight_expiry, bb.created + timeout);
      }
    }
  }
  for (auto b : expired) fail_batch(p, b, &FailureCounts::delivery_timeout);
  return std::min(next, p.next_inflight_expiry);
}

void Engine::operator()(const ResponseArrive& e) {
  auto it = requests_.find(e.request);
  if (it == requests_.end()) return;
  Request r = std::move(it->second);
  requests_.erase(it);
  if (!r.live) return;
  Producer& p = producers_[r.producer];
  --p.in_flight[r.broker];
  std::erase(p.live_requests, e.request);
  for (auto b : r.batches)
    if (leave_request(b)) complete_batch(p, b, r.broker);
  wake_sender(p, now());
}

void Engine::operator()(const RequestTimeout& e) {
  Producer& p = producers_[e.producer];
  p.timeout_timer_pending = false;
  while (!p.deadlines.empty() && p.deadlines.front().first <= now()) {
    const std::uint64_t id = p.deadlines.front().second;
    p.deadlines.pop_front();
    auto it = requests_.find(id);
    // request.timeout.ms (spec §4.4): the connection is closed and every request in
    // flight to that node fails with a retriable error.
    if (it != requests_.end() && it->second.live) disconnect(p, it->second.broker);
  }
  if (!p.deadlines.empty()) {
    p.timeout_timer_pending = true;
    sim_.schedule_at(p.deadlines.front().first, RequestTimeout{p.index});
  }
}

void Engine::operator()(const Disconnect& e) {
  if (brokers_[e.broker].epoch != e.epoch) return;  // the broker came back meanwhile
  disconnect(producers_[e.producer], e.broker);
}

void Engine::disconnect(Producer& p, std::uint32_t broker) {
  std::vector<std::uint64_t> failed;
  for (auto rid : p.live_requests)
    if (requests_.at(rid).broker == broker) failed.push_back(rid);
  for (auto rid : failed) {
    Request& r = requests_.at(rid);
    r.live = false;
    --p.in_flight[broker];
    std::erase(p.live_requests, rid);
    const auto batches = std::move(r.batches);
    requests_.erase(rid);  // later events for it find nothing and do nothing
    for (auto b : batches)
      if (leave_request(b)) retry_or_fail(p, b);
  }
  // A disconnect requests a metadata update, answered after one round trip.
  sim_.schedule_in(brokers_[broker].rtt, MetadataRefresh{p.index});
  wake_sender(p, now());
}


}  // namespace partsim::model::detail
