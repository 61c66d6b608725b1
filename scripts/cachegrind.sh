#!/usr/bin/env bash
# Instruction and cache-miss counts of benchmarks, which do not move with the machine's
# load as wall times do: each benchmark matching FILTER run alone under cachegrind with an
# 8 MB last-level cache (docs/performance.md).
#   scripts/cachegrind.sh [BENCH_BINARY] [FILTER]
# BENCH_BINARY defaults to build/release/bench/partsim_bench, FILTER to the two producer
# benchmarks. Prints one line per benchmark: instructions, D1 misses, LL misses.
set -euo pipefail
bench=${1:-build/release/bench/partsim_bench}
filter=${2:-'BM_ProducerEndToEnd/1/10|BM_ProducerFleet'}
command -v valgrind >/dev/null || { echo "cachegrind.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
[ -x "$bench" ] || { echo "cachegrind.sh: no benchmark program at '$bench' (cmake --build --preset release)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bench" --benchmark_list_tests --benchmark_filter="$filter" > "$tmp/names"
[ -s "$tmp/names" ] || { echo "cachegrind.sh: no benchmark matches '$filter'" >&2; exit 2; }
printf '%-36s %16s %14s %14s\n' benchmark instructions D1_misses LL_misses
while read -r name; do
  valgrind --tool=cachegrind --cache-sim=yes --LL=8388608,16,64 --cachegrind-out-file=/dev/null \
    "$bench" --benchmark_filter="^${name}\$" > /dev/null 2> "$tmp/err"
  # The summary: "I refs: N", "D1  misses: N (...)", "LL misses: N (...)", with thousands separators.
  count() { grep -m1 "$1" "$tmp/err" | sed -E 's/^==[0-9]+== *[^:]+: *([0-9,]+).*/\1/' | tr -d ,; }
  printf '%-36s %16s %14s %14s\n' "$name" "$(count 'I *refs:')" "$(count 'D1 *misses:')" "$(count 'LL misses:')"
done < "$tmp/names"
