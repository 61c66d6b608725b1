#pragma once
// Runs independent replications on a pool of threads. Each replication is a pure function
// of its index, and results are stored by index, so the output is the same for any
// thread count.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace partsim::sim {

/// Calls run(i) for i in [0, count) on up to `threads` threads (0 = all cores) and returns
/// the results in index order. `progress(done, count)` is called after each replication,
/// one call at a time. The first exception thrown by a replication is rethrown. Once
/// `cancel` is set no new replication starts, and only those that ran are returned.
template <class Result, class Run>
std::vector<Result> run_replications(std::size_t count, unsigned threads, Run&& run,
                                     const std::function<void(std::size_t, std::size_t)>& progress = {},
                                     const std::atomic<bool>* cancel = nullptr) {
  std::vector<Result> results(count);
  std::vector<char> ran(count, 0);
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(count, 1)));
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  std::size_t done = 0;
  std::exception_ptr error;
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= count) return;
      if (cancel && cancel->load()) return;
      try {
        results[i] = run(i);
        ran[i] = 1;
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        next.store(count);
        return;
      }
      std::lock_guard<std::mutex> lock(mu);
      ++done;
      if (progress) progress(done, count);
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
  if (cancel && cancel->load()) {
    std::vector<Result> done_only;
    for (std::size_t i = 0; i < count; ++i)
      if (ran[i]) done_only.push_back(std::move(results[i]));
    return done_only;
  }
  return results;
}

}  // namespace partsim::sim
