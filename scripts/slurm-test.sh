#!/usr/bin/env bash
# A real Slurm test of `partsim sweep` (issue 16): starts munge, slurmctld and slurmd on this
# machine (Debian's slurm-wlm, as root, without systemd), submits the sbatch array script
# that `partsim sweep --emit slurm --shards 4` writes for scenarios/sweeps/kip794.yaml,
# waits for the array, merges the 4 shards' stores with `partsim merge`, runs the same sweep
# in one process, and compares the two stores row by row (sorted; no row ids, timestamps or
# host names). Exit 0 only when they are identical.
#
#   scripts/slurm-test.sh [PARTSIM]      (default build/release/partsim; `make slurm-test`)
#
# Everything lives in a private temp dir (slurm.conf, munge key and socket, state, logs,
# stores) and on 127.0.0.1 with a free port pair; on any exit the daemons it started are
# stopped by pid and the dir is removed. Every wait has a timeout (SLURM_TEST_TIMEOUT, the
# array's, default 600 s).
set -euo pipefail
cd "$(dirname "$0")/.."

partsim=$(realpath -e "${1:-build/release/partsim}" 2>/dev/null) || {
  echo "slurm-test: no partsim program at '${1:-build/release/partsim}' (build it: make build)" >&2
  exit 2
}
sweep=scenarios/sweeps/kip794.yaml
shards=4
array_timeout=${SLURM_TEST_TIMEOUT:-600}

if [ "$(id -u)" -ne 0 ]; then
  echo "slurm-test: run as root (it starts munged, slurmctld and slurmd with SlurmUser=root)" >&2
  exit 2
fi
for c in munged munge slurmctld slurmd sbatch squeue sinfo scontrol scancel sqlite3 timeout; do
  command -v "$c" >/dev/null || {
    echo "slurm-test: '$c' not found: run scripts/install-deps.sh slurm (Debian's munge, slurmctld, slurmd, slurm-client, sqlite3)" >&2
    exit 2
  }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/partsim-slurm.XXXXXX")
chmod 711 "$work"  # munged wants every folder above its socket searchable by all
export SLURM_CONF=$work/slurm.conf
pids=()  # the daemons started here, in start order
job=
log() { echo "slurm-test: $*" >&2; }

show_logs() {
  local f
  for f in "$work"/stores/slurm-*.out "$work"/log/*; do
    [ -s "$f" ] || continue
    echo "----- $f (last 40 lines)" >&2
    tail -n 40 "$f" >&2
  done
}

# Stops what this script started, by pid: the array (if still there), any slurmstepd left
# by our slurmd (found by our SLURM_CONF in its environment), then slurmd, slurmctld, munged.
cleanup() {
  local rc=$? pid i p
  set +e
  trap - EXIT INT TERM
  if [ -n "$job" ]; then timeout 10 scancel "$job" >/dev/null 2>&1; fi
  for p in /proc/[0-9]*; do
    [ "$(cat "$p/comm" 2>/dev/null)" = slurmstepd ] || continue
    if tr '\0' '\n' 2>/dev/null <"$p/environ" | grep -qxF "SLURM_CONF=$SLURM_CONF"; then kill -TERM "${p#/proc/}" 2>/dev/null; fi
  done
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# until SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds; fails after SECONDS.
until_ok() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
}

# Two consecutive TCP ports that nothing on this machine uses (any state, IPv4 or IPv6).
used_ports=$(for h in $(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '$2 ~ /:/ { n = split($2, a, ":"); print a[n] }'); do
  echo $((16#$h))
done | sort -u)
port=
for _ in $(seq 200); do
  p=$((20000 + RANDOM % 40000))
  if ! grep -qxE "$p|$((p + 1))" <<<"$used_ports"; then port=$p; break; fi
done
[ -n "$port" ] || { log "found no free port pair"; exit 1; }

# munge: a fresh key in a private folder, the socket in a searchable one.
mkdir -m 700 "$work/key" "$work/state" "$work/spool"
mkdir -m 755 "$work/munge" "$work/log" "$work/stores"
dd if=/dev/urandom of="$work/key/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/key/munge.key"
munged --foreground --force --socket="$work/munge/munge.socket" --key-file="$work/key/munge.key" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/key/munged.seed" \
  >"$work/log/munged.out" 2>&1 &
pids+=($!)
until_ok 20 munge --socket="$work/munge/munge.socket" --no-input --output=/dev/null 2>/dev/null ||
  { log "munged did not start"; show_logs; exit 1; }

# slurm.conf: this host as the one node, with the CPUs and memory slurmd finds.
node=$(uname -n)  # as `hostname -s`: the name slurmd takes for itself
node=${node%%.*}
hw=$(slurmd -C 2>/dev/null | head -n 1 | sed -n 's/^NodeName=[^ ]* \(CPUs=.*\)/\1/p')
[ -n "$hw" ] || { log "slurmd -C did not describe this machine"; exit 1; }
cat >"$SLURM_CONF" <<EOF
ClusterName=partsim-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$node NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=30 State=UP
EOF

slurmctld -D -i >"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" >"$work/log/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { [ "$(timeout 5 sinfo -h -n "$node" -o %t 2>/dev/null)" = idle ]; }
until_ok 60 node_idle || { log "node $node did not become idle within 60 s"; timeout 5 sinfo >&2; show_logs; exit 1; }

array_gone() {
  local q
  q=$(timeout 10 squeue -h -j "$job" -o %i 2>/dev/null) || return 1
  [ -z "$q" ]
}
# submit TASKS [SBATCH OPTION...]: submits the emitted script, waits until its TASKS tasks
# have left the queue and checks that each COMPLETED with exit code 0 (scontrol keeps
# finished jobs for MinJobAge); on failure prints the tasks' states and output files.
submit() {
  local tasks=$1 ok
  shift
  job=$(timeout 30 sbatch --parsable "$@" "$work/kip794.sbatch")
  job=${job%%;*}
  until_ok "$array_timeout" array_gone || { log "job $job did not finish within $array_timeout s"; show_logs; exit 1; }
  ok=$(timeout 10 scontrol -o show job "$job" | grep -c 'JobState=COMPLETED .*ExitCode=0:0' || true)
  if [ "$ok" -ne "$tasks" ]; then
    log "job $job: $ok of $tasks tasks completed with exit code 0:"
    timeout 10 scontrol -o show job "$job" | grep -oE '(JobId|ArrayTaskId|JobState|Reason|ExitCode)=[^ ]*' | paste -sd ' ' >&2
    show_logs
    exit 1
  fi
  job=
}

# The array script, as partsim writes it (a time limit through partsim's --sbatch).
"$partsim" sweep "$sweep" --emit slurm --shards "$shards" --store "$work/stores/shard-%a.sqlite" \
  --sbatch "--time=$(((array_timeout + 59) / 60))" --out "$work/kip794.sbatch"
log "node $node idle (ports $port-$((port + 1))); submitting the $shards-task array"
start=$SECONDS
submit "$shards"
array_seconds=$((SECONDS - start))

# A task that stopped half-way, resubmitted alone (`sbatch --array=2`), resumes its store:
# shard 2 loses its later rows (as a task killed half-way leaves it) and gets them back.
s2=$work/stores/shard-2.sqlite
s2_rows=$(sqlite3 -batch "$s2" "SELECT count(*) FROM done")
sqlite3 -batch "$s2" "DELETE FROM done WHERE point >= (SELECT (min(point) + max(point)) / 2 FROM done);
  DELETE FROM results WHERE NOT EXISTS (SELECT 1 FROM done d WHERE d.point = results.point AND d.replication = results.replication);"
s2_kept=$(sqlite3 -batch "$s2" "SELECT count(*) FROM done")
start=$SECONDS
submit 1 --array=2
resume_seconds=$((SECONDS - start))
s2_now=$(sqlite3 -batch "$s2" "SELECT count(*) FROM done")
if [ "$s2_now" -ne "$s2_rows" ] || [ "$s2_kept" -ge "$s2_rows" ]; then
  log "FAIL: shard 2 resubmitted alone: $s2_now rows done, expected $s2_rows (kept $s2_kept)"
  show_logs
  exit 1
fi

stores=()
for ((i = 0; i < shards; i++)); do stores+=("$work/stores/shard-$i.sqlite"); done
"$partsim" merge "${stores[@]}" --out "$work/merged.sqlite"
# The same sweep file as the array's tasks run it: by its absolute path (the store's meta
# `scenario` is the base scenario's path as reached from the sweep file's).
"$partsim" sweep "$(realpath "$sweep")" --store "$work/single.sqlite" --threads 2 2>/dev/null

# A store as sorted text lines: every table, every column but row ids, timestamps and host
# names (none today; a column or meta key with 'time' or 'host' in its name is left out),
# REALs with 17 significant digits (exact for a double).
dump() {
  local db=$1 t cols
  for t in $(sqlite3 -batch "$db" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"); do
    cols=$(sqlite3 -batch "$db" "SELECT group_concat(
        CASE WHEN type = 'REAL' THEN 'CASE typeof(' || name || ') WHEN ''real'' THEN printf(''%!.17g'', ' || name || ') ELSE quote(' || name || ') END'
             ELSE 'quote(' || name || ')' END, ' || ''|'' || ')
      FROM pragma_table_info('$t') WHERE name NOT LIKE '%time%' AND name NOT LIKE '%host%' AND name <> 'rowid'")
    if [ "$t" = meta ]; then
      sqlite3 -batch "$db" "SELECT '$t|' || $cols FROM $t WHERE key NOT LIKE '%time%' AND key NOT LIKE '%host%'"
    else
      sqlite3 -batch "$db" "SELECT '$t|' || $cols FROM $t"
    fi
  done | LC_ALL=C sort
}
dump "$work/merged.sqlite" >"$work/merged.txt"
dump "$work/single.sqlite" >"$work/single.txt"
rows=$(grep -c '^done|' "$work/single.txt" || true)
results=$(grep -c '^results|' "$work/single.txt" || true)
if [ "$rows" -eq 0 ] || ! cmp -s "$work/merged.txt" "$work/single.txt"; then
  log "FAIL: the merged store of the $shards array tasks differs from the single-process store ($rows rows):"
  diff "$work/single.txt" "$work/merged.txt" | head -n 20 >&2 || true
  exit 1
fi
echo "slurm-test: OK: $shards Slurm array tasks took ${array_seconds} s (submit to last task done); shard 2 resubmitted alone resumed $s2_kept -> $s2_rows rows in ${resume_seconds} s; merged store = single-process store: $rows rows, $results results, $(wc -l <"$work/single.txt") lines compared"
