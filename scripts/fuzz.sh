#!/usr/bin/env bash
# Builds the libFuzzer targets (preset "fuzz", clang) and runs each for FUZZ_SECONDS
# (default 60). Corpora start from the shipped scenarios, the bad-scenario catalogue and
# sample key files; crashes, leaks and timeouts land in build/fuzz/artifacts/<target>/.
# Copy what they find into tests/fuzz-regressions/<target>/ so `make test` replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-"scenario_loader key_reader set_override assignment_inputs"}
bash scripts/install-deps.sh fuzz
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j 2 --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done)
for t in $targets; do
  corpus=build/fuzz/corpus/$t
  artifacts=build/fuzz/artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  case $t in
    scenario_loader) find scenarios tests/bad-scenarios -name '*.yaml' -exec cp {} "$corpus"/ \; 2>/dev/null || true ;;
    key_reader) printf 'book-0\nbook-1\n\n' > "$corpus/keys.txt"; printf '626f6f6b2d30\n80\nzz\n' > "$corpus/hex.txt" ;;
    set_override) for s in 'producers.0.config.linger.ms=5' 'cluster.brokers.*.rtt.ms=3' 'run.records=~' 'topics.0.partitions=[1,2]' \
                             'producers.0.workload.keys.kind=zipf'; do printf '%s' "$s" > "$corpus/$(echo "$s" | md5sum | cut -c1-8)"; done ;;
    assignment_inputs) cp examples/reassign/*.json examples/consumers/*.json "$corpus"/
                       printf 'Topic: t\tPartition: 0\tLeader: 1\tReplicas: 1,2\tIsr: 1,2\n' > "$corpus/describe.txt"
                       printf '0:a,1:b,2' > "$corpus/brokers.txt"
                       printf 'orders:12,payments:6' > "$corpus/topics.txt"
                       printf 'Querying\n{"brokers":[{"broker":0,"logDirs":[{"partitions":[{"partition":"t-0","size":5}]}]}]}\n' > "$corpus/logdirs.txt" ;;
  esac
  if [ -d "tests/fuzz-regressions/$t" ]; then cp tests/fuzz-regressions/$t/* "$corpus"/ 2>/dev/null || true; fi
  echo "== fuzz_$t for ${seconds}s"
  build/fuzz/fuzz/fuzz_$t "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 2>&1 | grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb|==.*ERROR|SUMMARY)' || true
done
