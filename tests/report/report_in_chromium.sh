#!/usr/bin/env bash
# partsim report's page in a real browser: a small KIP-794 sweep, its report, rendered by
# Debian's Chromium headless. Passes when the page parses into the expected document (two
# inline SVG charts, their tables, the metric sections) and its screenshot is not blank:
# text is drawn, and each line's colour of the charts is on the screen.
#   bash tests/report/report_in_chromium.sh PARTSIM_BINARY [SHOT.png]
set -euo pipefail
partsim=${1:?usage: report_in_chromium.sh PARTSIM_BINARY [SHOT.png]}
keep_shot=${2:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
browser=$(command -v chromium || true)
if [ -z "$browser" ]; then
  echo "report_in_chromium: Debian's chromium is not installed; make test installs it (bash scripts/install-deps.sh test)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/s.yaml" <<YAML
name: chromium-check
scenario: $src/scenarios/kip794/slow-broker.yaml
seed: 5
replications: 3
set:
  run.records: 3000
  run.warmup.ms: 0
partitioners: [builtin, sticky-kip480]
grid:
  workload.arrivals.rate: [300, 3000, 30000]
YAML
"$partsim" sweep "$tmp/s.yaml" --store "$tmp/s.sqlite" 2>/dev/null
"$partsim" report "$tmp/s.sqlite" --out "$tmp/report" --metrics broker.2.records_share,latency.p99_ms 2>/dev/null

# Chromium as root needs --no-sandbox; --disable-dev-shm-usage keeps it off /dev/shm, which
# containers often cap at 64 MB; its own profile in the scratch folder; no network.
chrome() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --no-first-run \
    --user-data-dir="$tmp/profile" --proxy-server=127.0.0.1:9 "$@" 2>"$tmp/chromium.err"
}
page="file://$tmp/report/report.html"

# The document as the browser parsed it.
chrome --dump-dom "$page" >"$tmp/dom.html"
fail() { echo "report_in_chromium: $*" >&2; exit 1; }
svgs=$(grep -o '<svg' "$tmp/dom.html" | wc -l)
[ "$svgs" -eq 2 ] || fail "the parsed page holds $svgs inline SVG charts, expected 2"
grep -q 'id="m-broker.2.records_share"' "$tmp/dom.html" || fail "no section for broker.2.records_share"
grep -q '<th>sticky-kip480</th>' "$tmp/dom.html" || fail "no table column for sticky-kip480"

# The screenshot, as pixels (gnuplot reads PNG): x y red green blue alpha per line.
chrome --window-size=1000,1500 --screenshot="$tmp/shot.png" "$page" >/dev/null
[ -s "$tmp/shot.png" ] || fail "no screenshot written"
gnuplot -e "set table '$tmp/pixels.txt'; plot '$tmp/shot.png' binary filetype=png with rgbimage" 2>/dev/null
# builtin is drawn in #4477aa, sticky-kip480 in #ee6677 (the report's palette); text is dark.
read -r total dark blue red < <(awk '$1 ~ /^[0-9]/ { n++; if ($3 < 80 && $4 < 80 && $5 < 80) d++;
  if ($3 == 68 && $4 == 119 && $5 == 170) b++; if ($3 == 238 && $4 == 102 && $5 == 119) r++ }
  END { print n + 0, d + 0, b + 0, r + 0 }' "$tmp/pixels.txt")
echo "report_in_chromium: $total pixels, $dark dark (text, axes), $blue in builtin's colour, $red in sticky-kip480's"
[ "$total" -eq $((1000 * 1500)) ] || fail "the screenshot has $total pixels, expected 1000 x 1500"
[ "$dark" -gt 2000 ] || fail "the screenshot is blank: $dark dark pixels"
[ "$blue" -gt 100 ] || fail "builtin's line is not on the screen ($blue pixels of #4477aa)"
[ "$red" -gt 100 ] || fail "sticky-kip480's line is not on the screen ($red pixels of #ee6677)"
if [ -n "$keep_shot" ]; then cp "$tmp/shot.png" "$keep_shot"; fi
echo "report_in_chromium: passed"
