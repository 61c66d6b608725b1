// murmur2 throughput over keys of typical lengths.

#include <benchmark/benchmark.h>

#include <string>

#include "model/partitioners/key_hash.hpp"

namespace {

void BM_Murmur2(benchmark::State& state) {
  std::string key(static_cast<std::size_t>(state.range(0)), 'k');
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<char>('a' + i % 26);
  for (auto _ : state) {
    key[0] = static_cast<char>(key[0] + 1);  // defeat hoisting
    benchmark::DoNotOptimize(partsim::model::murmur2(key));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Murmur2)->Arg(8)->Arg(32)->Arg(256);

}  // namespace
