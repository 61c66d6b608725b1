#!/usr/bin/env bash
# The headline demo that `make run` shows.
set -euo pipefail
partsim=${1:-build/release/partsim}
echo "== A slow broker (+50 ms round trip) and the built-in partitioner, 3,000 records/s"
echo "   (partsim run scenarios/slow-broker.yaml)"
"$partsim" run scenarios/slow-broker.yaml
echo
echo "== The same with adaptive partitioning off"
"$partsim" run scenarios/slow-broker.yaml --set producers.0.config.partitioner.adaptive.partitioning.enable=false --format json \
  | sed -n '/"brokers"/,/"distribution"/p' | grep -E '"broker"|"share"' | paste - - | sed 's/[ ,]\+/ /g'
echo
echo "== Where keys land: table T1 (partsim hash book-0 ... book-4 --partitions 3)"
"$partsim" hash book-0 book-1 book-2 book-3 book-4 --partitions 3
echo
echo "== How many keys move when the partition count changes: table T5"
"$partsim" keys --template 'book-B{i}' --count 20000 --change 4:8 --change 4:5 --change 8:16 --change 8:12 --change 12:6
