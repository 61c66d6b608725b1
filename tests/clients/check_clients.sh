#!/usr/bin/env bash
# partsim hash --clients against the real clients' code, on 100,000 generated keys at 3, 6,
# 12 and 64 partitions (kafka-clients.md §8): librdkafka's partitioner functions (Debian's
# librdkafka-dev, compiled against here), kafkajs' (npm kafkajs 2.2.4 in
# tests/clients/node_modules), and sarama's and kafka-go's (Debian's Go packages of sarama
# 1.22.1 and kafka-go 0.2.1, built here with Debian's Go). All come from
# `scripts/install-deps.sh test` (make test); a missing one fails the test.
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
command -v go >/dev/null || fail "go is not installed (bash scripts/install-deps.sh test)"
for pkg in github.com/Shopify/sarama github.com/segmentio/kafka-go; do
  [ -d "/usr/share/gocode/src/$pkg" ] || fail "$pkg is not installed in /usr/share/gocode (bash scripts/install-deps.sh test)"
done

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
# sarama 1.22.1's NewHashPartitioner: FNV-1a, abs, as the current code (kafka-clients.md §6).
GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$tmp/gocache" GOFLAGS= \
  go build -o "$tmp/go_oracle" "$here/go_oracle.go" 2> "$tmp/go-build.log" ||
  { cat "$tmp/go-build.log" >&2; fail "the Go oracle does not build"; }
"$tmp/go_oracle" "$tmp/keys-empty.hex" "$tmp/sarama.csv" "$tmp/kafka-go.csv"
"$partsim" hash --keys-file "$tmp/keys-empty.hex" --key-encoding hex -p 3,6,12,64 \
  --clients sarama --format csv > "$tmp/partsim-sarama.csv"
compare "sarama 1.22.1's NewHashPartitioner" "$tmp/sarama.csv" "$tmp/partsim-sarama.csv"

# kafka-go: Debian's 0.2.1 computes int(Sum32()) % n, which a 64-bit int never makes negative:
# unsigned, where the current code (0.4.50, kafka-clients.md §11) takes int32's abs. The two
# agree where FNV-1a's top bit is clear: partsim's kafka-go-hash must equal 0.2.1 there, and
# be |int32(h)| mod n (h from Go's own FNV-1a) on the others, where a share of them differ
# from 0.2.1. Its RoundRobin ignores keys (0, 1, 2, ...), and so does partsim's kafka-go
# column: no key has a partition there.
"$partsim" hash --keys-file "$tmp/keys-empty.hex" --key-encoding hex -p 3,6,12,64 \
  --clients kafka-go-hash --format csv > "$tmp/partsim-kafka-go.csv"
paste -d, "$tmp/kafka-go.csv" "$tmp/partsim-kafka-go.csv" | tail -n +2 | awk -F, -v keys=100001 '
  # kafka-go.csv: key, fnv1a, (hash, roundrobin) x 4 counts; then partsim: key, kafka-go-hash x 4
  { if ($1 != $11) { print "row " NR ": keys differ"; bad = 1; exit 1 }
    split("3 6 12 64", n, " ")
    for (c = 1; c <= 4; c++) {
      rr = $(4 + 2 * (c - 1)); h = $(3 + 2 * (c - 1)); ours = $(11 + c)
      if (rr != (NR - 1) % n[c]) { print "row " NR ": RoundRobin gave " rr " at " n[c]; bad = 1; exit 1 }
      if ($2 < 2147483648 && h != ours) { print "row " NR ": kafka-go Hash " h ", partsim " ours " at " n[c]; bad = 1; exit 1 }
      if ($2 >= 2147483648 && ours != (4294967296 - $2) % n[c]) { print "row " NR ": partsim " ours " is not |int32(h)| mod " n[c]; bad = 1; exit 1 }
      if ($2 >= 2147483648 && h != ours) apart[c]++
      if ($2 >= 2147483648 && h != $2 % n[c]) { print "row " NR ": kafka-go 0.2.1 Hash is not unsigned"; bad = 1; exit 1 }
    }
  }
  END { if (bad) exit 1; if (NR != keys) { print NR " rows, not " keys; exit 1 }
        if (apart[4] < 10000) { print "kafka-go 0.2.1 and partsim (abs) part on " apart[4] " keys at 64 partitions; expected about half of the top-bit keys"; exit 1 } }
' > "$tmp/kafka-go.check" || { cat "$tmp/kafka-go.check" >&2; fail "partsim differs from kafka-go 0.2.1's Hash or RoundRobin"; }
"$partsim" hash --keys-file "$tmp/keys-empty.hex" --key-encoding hex -p 3,6,12,64 \
  --clients kafka-go --format csv | tail -n +2 | grep -v '^[0-9a-f]*,,,,$' | head -3 > "$tmp/kafka-go-keyed" || true
[ ! -s "$tmp/kafka-go-keyed" ] || { cat "$tmp/kafka-go-keyed" >&2; fail "partsim's kafka-go (RoundRobin) places keys by their hash"; }
echo "check_clients: librdkafka (consistent_random, murmur2_random, fnv1a), kafkajs (DefaultPartitioner, LegacyPartitioner), sarama 1.22.1 (NewHashPartitioner) and kafka-go 0.2.1 (Hash where FNV-1a's top bit is clear; RoundRobin) agree with partsim on 100,000 keys at 3, 6, 12 and 64 partitions"

# librdkafka's sticky partitioner against partsim's librdkafka-2.x profile (kafka-clients.md
# §3.3): a real producer on librdkafka's mock cluster (three in-process brokers, six
# partitions, linger.ms 5, so NULL keys stick 10 ms) sends 2,000 NULL-key messages/s for 2 s,
# five times; partsim's profile runs the same workload with five seeds. Over all runs (a run:
# messages in a row on one partition) of each: the median run (10 ms and the wait for the
# next message: a switch never comes earlier) and the share of runs of at least 19 ms (the
# next draw repeated the partition, which librdkafka allows: 1 in 6 expected). partsim's must
# lie within 1 ms (two message intervals: the real sends' clock is off by microseconds, so
# the message due at exactly 10 ms often comes just before the switch and the next one makes
# it) and 0.06 (the sampling of about 800 runs each) of the real client's.
cc -O1 -o "$tmp/mock_oracle" "$here/librdkafka_mock_oracle.c" -lrdkafka
for r in 1 2 3 4 5; do
  "$tmp/mock_oracle" produce 2000 2 6 2> "$tmp/mock.err" | "$tmp/mock_oracle" stat >> "$tmp/real.runs" ||
    { cat "$tmp/mock.err" >&2; fail "the librdkafka mock-cluster producer failed"; }
done
cat > "$tmp/sticky.yaml" <<'YAML'
name: librdkafka-sticky
client: librdkafka-2.x
run: {duration.ms: 2000, trace: 4000}
cluster: {brokers: [{id: 0, rtt.ms: 1}, {id: 1, rtt.ms: 1}, {id: 2, rtt.ms: 1}]}
topics: [{name: t, partitions: 6}]
producers:
  - name: app
    workload: {arrivals: {kind: constant, rate: 2000}, keys: {kind: none}, values: {kind: fixed, size: 100}}
YAML
for seed in 1 2 3 4 5; do
  "$partsim" run "$tmp/sticky.yaml" --seed "$seed" --format json | sed -n '/"trace": \[/,/\]/p' | tr -cd '0-9\n' |
    sed '/^$/d' | awk '{ printf "%s %.4f\n", $1, (NR - 1) / 2 }' | "$tmp/mock_oracle" stat >> "$tmp/partsim.runs"
done
runs_stat() { sort -g "$1" | awk '{ d[NR] = $1; long += ($1 >= 19) } END { printf "%.3f %.4f %d\n", d[int((NR + 1) / 2)], long / NR, NR }'; }
read -r real_median real_long real_n < <(runs_stat "$tmp/real.runs")
read -r our_median our_long our_n < <(runs_stat "$tmp/partsim.runs")
echo "check_clients: librdkafka sticky runs on the mock cluster: median $real_median ms, $real_long of $real_n runs >= 19 ms; partsim: median $our_median ms, $our_long of $our_n"
awk -v rm="$real_median" -v rl="$real_long" -v om="$our_median" -v ol="$our_long" \
  'BEGIN { d = om - rm; e = ol - rl; exit !(d <= 1 && d >= -1 && e <= 0.06 && e >= -0.06 && ol > 0.05) }' ||
  fail "partsim's librdkafka sticky-by-time spread lies outside the real client's"
