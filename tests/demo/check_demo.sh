#!/usr/bin/env bash
# The headline demo (`make run`, scripts/demo.sh) as a test. It fails when
#  - a section (a "== " header) prints no row of results: a renamed metric that a grep no
#    longer matches leaves a section with its header alone, as the adaptive section once did;
#  - any line differs from tests/demo/demo.expected, numbers included: the demo is what
#    `make run` shows (README.md, "The two commands"). When a change of results is intended, update demo.expected
#    from this test's diff and say why in the commit.
#  - the chart it names is missing or empty.
# The plots' folder is the only machine-dependent text: it is written as <plots>.
set -euo pipefail
partsim=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
PARTSIM_DEMO_PLOTS="$tmp/plots" bash scripts/demo.sh "$partsim" > "$tmp/raw" 2> "$tmp/err" || {
  echo "demo.sh failed:"; cat "$tmp/err"; exit 1; }
sed "s|$tmp/plots|<plots>|g" "$tmp/raw" > "$tmp/out"

# Every section prints at least two lines besides its header and the echoed command: a
# table's column header and a row (a section whose grep matches nothing prints at most the
# header), the chart folder and a chart.
bad=$(awk '
  /^== / { if (name != "" && rows < 2) print name; name = $0; rows = 0; next }
  /^$/ || /^   \(/ { next }
  { rows++ }
  END { if (name != "" && rows < 2) print name }' "$tmp/out")
if [[ -n $bad ]]; then
  echo "demo sections with no rows:"; echo "$bad"; exit 1
fi
for png in $(sed -n 's|^   <plots>/||p' "$tmp/out"); do
  [[ -s $tmp/plots/$png ]] || { echo "demo chart missing or empty: $png"; exit 1; }
done
if ! diff -u tests/demo/demo.expected "$tmp/out"; then
  echo "the demo's output differs from tests/demo/demo.expected (above: - expected, + now)"
  exit 1
fi
echo "demo: $(grep -c '^== ' "$tmp/out") sections, $(wc -l < "$tmp/out") lines as expected"
