#!/usr/bin/env bash
# Formats partsim's C++ sources with clang-format 14 and the repository's .clang-format.
#   scripts/format.sh           formats every file in place
#   scripts/format.sh --check   lists the files that are not formatted; exits 1 if any, 0 if none
# Files: the git-tracked *.cpp and *.hpp of the source folders. tests/layout/bad-tree/ is left
# alone: it is a fixture whose line numbers tests/layout/bad-tree.expected names.
# The formatter must be clang-format 14 (Debian 12's clang-format-14): other versions format
# differently, so a tree clean for one is not clean for another.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/format.sh [--check]" >&2
  exit 2
}

check=0
case $# in
  0) ;;
  1) [ "$1" = --check ] && check=1 || usage ;;
  *) usage ;;
esac

# clang-format-14, or a plain clang-format whose version is 14.
if command -v clang-format-14 >/dev/null 2>&1; then
  formatter=clang-format-14
elif command -v clang-format >/dev/null 2>&1 &&
  clang-format --version | grep -Eq 'clang-format version 14\.'; then
  formatter=clang-format
else
  found=$(command -v clang-format >/dev/null 2>&1 && clang-format --version || echo "no clang-format at all")
  echo "scripts/format.sh: needs clang-format 14 (found: $found)." >&2
  echo "On Debian 12: apt-get install clang-format-14" >&2
  exit 2
fi

folders=(sim model scenarios/loader analysis cli tests bench fuzz)
files=()
while IFS= read -r -d '' f; do
  case $f in
    tests/layout/bad-tree/*) continue ;;
  esac
  files+=("$f")
done < <(git ls-files -z -- "${folders[@]/%//*.cpp}" "${folders[@]/%//*.hpp}")

if [ ${#files[@]} -eq 0 ]; then
  echo "scripts/format.sh: no sources found (is this a git checkout?)" >&2
  exit 2
fi

if [ $check -eq 0 ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -n 50 "$formatter" -i --style=file
  echo "formatted ${#files[@]} files with $formatter"
  exit 0
fi

# One run over all files: --dry-run warns "FILE:LINE:COL: warning: code should be
# clang-formatted" for each file that formatting would change.
status=0
report=$(printf '%s\0' "${files[@]}" | xargs -0 "$formatter" --dry-run --style=file 2>&1) || status=$?
bad=$(printf '%s\n' "$report" | sed -n 's/^\(.*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)
if [ -n "$bad" ]; then
  printf '%s\n' "$bad"
  echo "$(printf '%s\n' "$bad" | wc -l) of ${#files[@]} files are not formatted: run scripts/format.sh to fix them." >&2
  exit 1
fi
if [ $status -ne 0 ]; then
  printf '%s\n' "$report" >&2
  echo "scripts/format.sh: $formatter failed (exit $status)" >&2
  exit 2
fi
echo "all ${#files[@]} files are formatted"
