#!/usr/bin/env bash
# partsim hash --clients against the real clients' code, on 100,000 generated keys at 3, 6,
# 12 and 64 partitions (kafka-clients.md §8): librdkafka's partitioner functions (Debian's
# librdkafka-dev, compiled against here) and kafkajs' (npm kafkajs 2.2.4 in
# tests/clients/node_modules). Both come from `scripts/install-deps.sh test` (make test); a
# missing one fails the test.
#   check_clients.sh PARTSIM
set -euo pipefail
partsim=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check_clients: $*" >&2; exit 1; }

[ -r /usr/include/librdkafka/rdkafka.h ] || fail "librdkafka-dev is not installed (bash scripts/install-deps.sh test)"
[ -d "$here/node_modules/kafkajs" ] || fail "kafkajs is not installed in $here/node_modules (bash scripts/install-deps.sh test)"
command -v node >/dev/null || fail "node is not installed (bash scripts/install-deps.sh test)"

# Lines that differ, at most five, with the column names.
compare() {  # NAME EXPECTED ACTUAL
  if ! cmp -s "$2" "$3"; then
    echo "check_clients: partsim differs from $1 (expected < > partsim):" >&2
    diff "$2" "$3" | head -10 >&2
    exit 1
  fi
}

cc -O1 -o "$tmp/librdkafka_oracle" "$here/librdkafka_oracle.c" -lrdkafka
"$tmp/librdkafka_oracle" 100000 > "$tmp/librdkafka.csv"
tail -n +2 "$tmp/librdkafka.csv" | cut -d, -f1 > "$tmp/keys.hex"
[ "$(wc -l < "$tmp/keys.hex")" -eq 100000 ] || fail "the librdkafka oracle gave $(wc -l < "$tmp/keys.hex") keys, not 100000"
"$partsim" hash --keys-file "$tmp/keys.hex" --key-encoding hex -p 3,6,12,64 \
  --clients librdkafka,librdkafka-murmur2,sarama --format csv > "$tmp/partsim-librdkafka.csv"
compare "librdkafka's consistent_random, murmur2_random and fnv1a" "$tmp/librdkafka.csv" "$tmp/partsim-librdkafka.csv"

# kafkajs: the same keys and the empty key, which it hashes.
{ echo; cat "$tmp/keys.hex"; } > "$tmp/keys-empty.hex"
node "$here/kafkajs_oracle.js" "$tmp/keys-empty.hex" > "$tmp/kafkajs.csv"
"$partsim" hash --keys-file "$tmp/keys-empty.hex" --key-encoding hex -p 3,6,12,64 \
  --clients kafkajs,kafkajs-legacy --format csv > "$tmp/partsim-kafkajs.csv"
compare "kafkajs' DefaultPartitioner and LegacyPartitioner" "$tmp/kafkajs.csv" "$tmp/partsim-kafkajs.csv"
# The keys differ from Java's by the hash: a check that is not empty.
disagree=$(tail -n +2 "$tmp/kafkajs.csv" | awk -F, '$3 != $2' | wc -l)
[ "$disagree" -gt 50000 ] || fail "kafkajs-legacy agrees with kafkajs on $((100001 - disagree)) of 100001 keys at 3 partitions; expected about a third"
echo "check_clients: librdkafka (consistent_random, murmur2_random, fnv1a) and kafkajs (DefaultPartitioner, LegacyPartitioner) agree with partsim on 100,000 keys at 3, 6, 12 and 64 partitions"
