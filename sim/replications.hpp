#pragma once
// Runs independent replications on a pool of threads. Each replication is a pure function
// of its index and its result is handed on in index order, so the output is the same for
// any thread count; results are streamed to the caller as soon as they and every one
// before them are done, so memory does not grow with the number of replications.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace partsim::sim {

/// The most results held at once by for_each_replication: running or waiting for an
/// earlier replication to finish. Two per thread keeps every core busy while one slow
/// replication holds back the in-order hand-over.
inline std::size_t replication_window(unsigned threads) { return 2 * static_cast<std::size_t>(std::max(1u, threads)); }

/// The thread count for_each_replication uses for `requested` (0 = all cores) and `count`.
inline unsigned replication_threads(unsigned requested, std::size_t count) {
  if (requested == 0) requested = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>(requested, std::max<std::size_t>(count, 1)));
}

/// Calls run(i) for i in [0, count) on up to `threads` threads (0 = all cores) and hands
/// each result to consume(i, result) in index order, one call at a time and outside any
/// lock, while later replications still run. Replication i starts only once fewer than
/// replication_window(threads) results are running or waiting, so memory is bounded by the
/// thread count, not by `count`. `progress(done, count)` is called after each replication,
/// one call at a time. The first exception thrown by run or consume stops the pool and is
/// rethrown. Once `cancel` is set no new replication starts; those already running are
/// still consumed (in order): the indexes consumed are always 0..n-1. Returns the number of results consumed.
template <class Result, class Run, class Consume>
std::size_t for_each_replication(std::size_t count, unsigned threads, Run&& run, Consume&& consume,
                                 const std::function<void(std::size_t, std::size_t)>& progress = {},
                                 const std::atomic<bool>* cancel = nullptr) {
  threads = replication_threads(threads, count);
  const std::size_t window = replication_window(threads);
  std::mutex mu;
  std::condition_variable room;  // a slot in the window opened
  std::size_t next = 0;          // next index to start
  std::size_t next_out = 0;      // next index to consume
  std::size_t done = 0;
  std::size_t consumed = 0;
  bool delivering = false;  // one thread at a time hands results on
  bool stop = false;
  std::exception_ptr error;
  std::map<std::size_t, std::optional<Result>> ready;  // finished, waiting for earlier ones (nullopt: skipped)
  auto cancelled = [&] { return cancel && cancel->load(); };

  auto fail = [&](std::exception_ptr e) {
    if (!error) error = e;
    stop = true;
    room.notify_all();
  };
  // Called with the lock held: hands on every result that is next in line.
  auto deliver = [&](std::unique_lock<std::mutex>& lock) {
    if (delivering) return;
    delivering = true;
    for (auto it = ready.find(next_out); it != ready.end() && !error; it = ready.find(next_out)) {
      std::optional<Result> r = std::move(it->second);
      ready.erase(it);
      if (r) {
        lock.unlock();
        try {
          consume(next_out, std::move(*r));
          r.reset();
        } catch (...) {
          lock.lock();
          fail(std::current_exception());
          break;
        }
        lock.lock();
        ++consumed;
      }
      ++next_out;  // only now may a replication take this one's place in the window
      room.notify_all();
    }
    delivering = false;
  };

  auto worker = [&] {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      room.wait(lock, [&] { return stop || next >= count || cancelled() || next < next_out + window; });
      if (stop || next >= count || cancelled()) {
        stop = true;
        room.notify_all();
        break;
      }
      const std::size_t i = next++;
      lock.unlock();
      std::optional<Result> result;
      std::exception_ptr e;
      try {
        result.emplace(run(i));
      } catch (...) {
        e = std::current_exception();
      }
      lock.lock();
      if (e) {
        fail(e);
        ready.emplace(i, std::nullopt);
      } else {
        ready.emplace(i, std::move(result));
        ++done;
        if (progress) progress(done, count);
      }
      deliver(lock);
    }
  };
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  if (error) std::rethrow_exception(error);
  return consumed;
}

/// Calls run(i) for i in [0, count) on up to `threads` threads (0 = all cores) and returns
/// the results in index order. `progress(done, count)` is called after each replication,
/// one call at a time. The first exception thrown by a replication is rethrown. Once
/// `cancel` is set no new replication starts, and only those that ran are returned.
template <class Result, class Run>
std::vector<Result> run_replications(std::size_t count, unsigned threads, Run&& run,
                                     const std::function<void(std::size_t, std::size_t)>& progress = {},
                                     const std::atomic<bool>* cancel = nullptr) {
  std::vector<Result> results;  // not reserved: a Result may be large and count may be huge
  for_each_replication<Result>(
      count, threads, run, [&](std::size_t, Result&& r) { results.push_back(std::move(r)); }, progress, cancel);
  return results;
}

}  // namespace partsim::sim
