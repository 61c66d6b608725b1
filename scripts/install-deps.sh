#!/usr/bin/env bash
# Installs the Debian packages partsim needs to build, test, benchmark and plot.
# Idempotent: does nothing (and needs no root) when every package is present.
set -euo pipefail

# third_party/README.md says what each is for and the version tested. libboost-dev brings
# every Boost header (Random, Math, Graph, ...); Program_options is the one compiled Boost
# library partsim links.
packages=(
  build-essential g++ cmake ninja-build make git
  libboost-dev libboost-program-options-dev
  libyaml-cpp-dev nlohmann-json3-dev libglpk-dev libeigen3-dev
  doctest-dev libbenchmark-dev gnuplot-nox libsqlite3-dev
)

# `install-deps.sh test` (make test) adds Debian's Chromium, which renders partsim
# report's page in the test suite; `make run` does not need it.
if [ "${1:-}" = "test" ]; then packages+=(chromium); fi
# `install-deps.sh slurm` (make slurm-test) adds MUNGE, Slurm's daemons and client and the
# sqlite3 shell, for scripts/slurm-test.sh: a real Slurm runs a sweep's array script.
if [ "${1:-}" = "slurm" ]; then packages+=(munge slurmctld slurmd slurm-client sqlite3); fi
# `install-deps.sh fuzz` adds clang and its sanitizer runtimes for the libFuzzer targets.
if [ "${1:-}" = "fuzz" ]; then packages+=(clang libclang-rt-14-dev); fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ ! -r /etc/os-release ] || ! grep -qiE '^(ID|ID_LIKE)=.*(debian|ubuntu)' /etc/os-release; then
  echo "install-deps: partsim's setup supports Debian/Ubuntu only; install these yourself: ${missing[*]}" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages (${missing[*]}); run as root (e.g. sudo make ...) so apt-get can install them" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
