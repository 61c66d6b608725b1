#!/usr/bin/env bash
# The headline demo that `make run` shows.
set -euo pipefail
partsim=${1:-build/release/partsim}
echo "== A slow broker (+50 ms round trip), 3,000 records/s: every partitioner on the same workload"
echo "   (partsim compare scenarios/slow-broker.yaml --partitioners builtin,sticky-kip480,round-robin,legacy)"
"$partsim" compare scenarios/slow-broker.yaml --partitioners builtin,sticky-kip480,round-robin,legacy \
  | grep -E '^metric|share|records/batch|latency|max/min'
echo
echo "== The built-in partitioner with adaptive partitioning on and off"
"$partsim" compare scenarios/slow-broker.yaml \
  --variant 'adaptive-on:partitioner.adaptive.partitioning.enable=true' \
  --variant 'adaptive-off:partitioner.adaptive.partitioning.enable=false' | grep -E '^metric|records share'
echo
echo "== Where keys land: table T1 (partsim hash book-0 ... book-4 --partitions 3)"
"$partsim" hash book-0 book-1 book-2 book-3 book-4 --partitions 3
echo
echo "== How many keys move when the partition count changes: table T5"
"$partsim" keys --template 'book-B{i}' --count 20000 --change 4:8 --change 4:5 --change 8:16 --change 8:12 --change 12:6
