#!/usr/bin/env bash
# The headline demo that `make run` shows: what partsim answers, in a few seconds.
# tests/demo/check_demo.sh runs it and compares every line with tests/demo/demo.expected,
# so a renamed metric that empties a section, or a number that moves, fails `make test`.
set -euo pipefail
partsim=${1:-build/release/partsim}
plots=${PARTSIM_DEMO_PLOTS:-build/demo-plots}

echo "== A slow broker (+50 ms round trip), 3,000 records/s: every partitioner on the same workload"
echo "   (partsim compare scenarios/slow-broker.yaml --partitioners builtin,sticky-kip480,round-robin,legacy --plot $plots)"
"$partsim" compare scenarios/slow-broker.yaml --partitioners builtin,sticky-kip480,round-robin,legacy --plot "$plots" \
  | grep -E '^metric|\.records_share|records_per_batch|^latency|max_over_min'
echo
echo "== The built-in partitioner with adaptive partitioning on and off: the slow broker 2 gets fewer records"
echo "   (partsim compare scenarios/slow-broker.yaml --variant adaptive-on:...=true --variant adaptive-off:...=false)"
"$partsim" compare scenarios/slow-broker.yaml \
  --variant 'adaptive-on:partitioner.adaptive.partitioning.enable=true' \
  --variant 'adaptive-off:partitioner.adaptive.partitioning.enable=false' \
  | grep -E '^metric|\.records_share|^latency\.p99_ms'
echo
echo "== Where keys land: table T1 (partsim hash book-0 ... book-4 --partitions 3)"
"$partsim" hash book-0 book-1 book-2 book-3 book-4 --partitions 3
echo
echo "== How many keys move when the partition count changes: table T5"
"$partsim" keys --template 'book-B{i}' --count 20000 --change 4:8 --change 4:5 --change 8:16 --change 8:12 --change 12:6
echo
echo "== Growing a keyed topic from 4 to 8 partitions under load, read by a consumer group"
echo "   (partsim run scenarios/repartition/live-increase.yaml)"
"$partsim" run scenarios/repartition/live-increase.yaml \
  | sed -n -e '/^consumer group /p' -e '/^repartition$/,$p'
echo
echo "== Charts: the latency of every run of the first comparison (gnuplot)"
echo "folder $plots:"
ls "$plots"/*.png | sed 's|^|   |'
