#!/usr/bin/env bash
# Regenerates tests/golden/: the JSON summary of every shipped scenario with its own seed.
# Run only when a change of results is intended (make golden), and say why in the commit.
# scenarios/sweeps/ holds sweep files (partsim sweep), not scenarios: skipped, as the golden
# test skips them.
set -euo pipefail
cd "$(dirname "$0")/.."
partsim=${1:-build/release/partsim}
mkdir -p tests/golden
rm -f tests/golden/*.json
find scenarios -path scenarios/sweeps -prune -o -name '*.yaml' -print | sort | while read -r f; do
  rel=${f#scenarios/}
  out=tests/golden/$(echo "${rel%.yaml}" | sed 's|/|__|g').json
  "$partsim" run "$f" --format json > "$out.tmp"
  mv "$out.tmp" "$out"
  echo "golden: $out"
done
