#!/usr/bin/env bash
# check_docs on pages that break one rule each: every one must fail, naming the line, and
# the page that keeps every rule must pass (tests/docs/fixtures/).
set -uo pipefail
check_docs=$1 partsim=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
failed=0
expect() {  # page, exit code, text the diagnostics must hold
  local out rc
  out=$("$check_docs" --partsim "$partsim" --root "$root" "$here/fixtures/$1" 2>&1); rc=$?
  if [[ $rc -ne $2 ]] || ! grep -qF -- "$3" <<<"$out"; then
    echo "FAIL: $1: exit $rc (expected $2), diagnostics lack '$3':"; echo "$out"; failed=1
  else
    echo "ok: $1"
  fi
}
expect good.md 0 "1 page, 3 blocks, 2 commands run, 0 problems"
expect wrong-number.md 1 "wrong-number.md:8: the output of 'partsim hash book-0 book-1 book-2 --partitions 3' differs"
expect wrong-number.md 1 "page line 10"
expect wrong-number.md 1 "1 page, 3 blocks, 2 commands run, 1 problem"
expect sh-output.md 1 "1 page, 1 block, 0 commands run, 1 problem"
expect bare-fence.md 1 "bare-fence.md:7: a fenced block needs a language"
expect sh-output.md 1 "sh-output.md:5: not a command in a sh block: 'key  murmur2'"
expect broken-link.md 1 "link to a missing heading: #nowhere"
expect broken-link.md 1 "link to a missing file: missing.md"
expect unsaid-yaml.md 1 "unsaid-yaml.md:19: a yaml block needs an HTML comment"
expect wrong-exit.md 1 "exited 2, expected 0"
exit $failed
