#pragma once
// Speed only: cache hints. Each asks the CPU for memory the caller will read soon; none
// changes what a run computes, so taking any out changes no result (the goldens stay
// byte-identical; only the benchmarks move). Every prefetch in partsim goes through here, so
// that a reader of the model finds them by name (docs/performance.md).

namespace partsim::sim {

/// Asks for the cache line at `p`.
inline void prefetch(const void* p) { __builtin_prefetch(p); }

/// Asks for each line `*object` spans (two for an object up to a line that straddles one).
template <class T>
inline void prefetch_object(const T* object) {
  prefetch(object);
  prefetch(reinterpret_cast<const char*>(object + 1) - 1);
}

}  // namespace partsim::sim
