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
  libyaml-cpp-dev nlohmann-json3-dev libglpk-dev libeigen3-dev zlib1g-dev
  doctest-dev libbenchmark-dev gnuplot-nox libsqlite3-dev
)

# `install-deps.sh test` (make test) adds Debian's Chromium, which renders partsim
# report's page in the test suite; librdkafka-dev and Go with Debian's sarama and kafka-go,
# whose partitioners check `hash --clients` (tests/clients); and Node.js with npm, which check `sweep --emit k8s`
# against Kubernetes' schema (tests/emit: kubernetes-models, yaml) and run kafkajs'
# partitioners (tests/clients), each folder's packages pinned by its package-lock.json and
# installed into its node_modules below; `make run` needs none of them. A node and npm
# already on the PATH (another packaging) are used as they are.
if [ "${1:-}" = "test" ]; then
  packages+=(chromium librdkafka-dev golang-go golang-github-shopify-sarama-dev golang-github-segmentio-kafka-go-dev)
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi
# `install-deps.sh slurm` (make slurm-test) adds MUNGE, Slurm's daemons and client and the
# sqlite3 shell, for scripts/slurm-test.sh: a real Slurm runs a sweep's array script.
if [ "${1:-}" = "slurm" ]; then packages+=(munge slurmctld slurmd slurm-client sqlite3); fi
# `install-deps.sh format` (make format, make format-check) adds clang-format 14, the version
# .clang-format is written for (Debian 12's).
if [ "${1:-}" = "format" ]; then packages+=(clang-format-14); fi
# `install-deps.sh fuzz` adds clang and its sanitizer runtimes for the libFuzzer targets.
if [ "${1:-}" = "fuzz" ]; then packages+=(clang libclang-rt-14-dev); fi

# The npm packages of tests/emit and tests/clients, as their lock files pin them (npm ci),
# once per lock file.
npm_packages() {
  [ "${1:-}" = "test" ] || return 0
  local root dir
  root="$(cd "$(dirname "$0")/.." && pwd)"
  for dir in "$root/tests/emit" "$root/tests/clients"; do
    cmp -s "$dir/package-lock.json" "$dir/node_modules/.partsim-lock" && continue
    echo "install-deps: installing the npm packages of ${dir#"$root"/} (npm ci)" >&2
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    cp "$dir/package-lock.json" "$dir/node_modules/.partsim-lock"
  done
}

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  npm_packages "${1:-}"
  exit 0
fi

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
npm_packages "${1:-}"
