# partsim: the README's commands. Each target first installs missing Debian packages.
PRESET ?= release
BUILD_DIR := build/$(PRESET)
JOBS ?= 2
PARTSIM := $(BUILD_DIR)/partsim

.PHONY: deps configure build run test test-asan slurm-test bench fuzz golden reference format format-check clean

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build --preset $(PRESET) -j $(JOBS)

# The demo needs the partsim program only: not the test suites and benchmarks, which are
# a third of a clean build (the program alone: 89 of 164 steps, 4.3 of 6.7 CPU-minutes).
run: configure
	@cmake --build --preset $(PRESET) -j $(JOBS) --target partsim
	@bash scripts/demo.sh $(PARTSIM)

# Everything: the suites, the program the CLI tests run, and the benchmarks (so that a
# change that breaks their build fails here, in CI). The packages only the tests need
# (Chromium, Node.js) install while the build compiles: apt waits on the network and on dpkg,
# the compiler on the CPU. Their log is printed once both are done.
DEPS_LOG := $(BUILD_DIR)/install-deps-test.log
test: configure
	@bash scripts/install-deps.sh test >$(DEPS_LOG) 2>&1 & deps=$$!; \
	build=0; cmake --build --preset $(PRESET) -j $(JOBS) || build=$$?; \
	installed=0; wait $$deps || installed=$$?; \
	cat $(DEPS_LOG) >&2; \
	if [ $$installed -ne 0 ]; then echo "make test: installing the test packages failed (above)" >&2; exit 1; fi; \
	if [ $$build -ne 0 ]; then exit $$build; fi; \
	ctest --preset $(PRESET) -j $(JOBS)

test-asan:
	@$(MAKE) --no-print-directory test PRESET=asan

# A real Slurm (munge, slurmctld, slurmd on this machine, as root) runs kip794's sweep as a
# 4-task array; the merged store must equal one process's (scripts/slurm-test.sh).
slurm-test: configure
	@bash scripts/install-deps.sh slurm
	@cmake --build --preset $(PRESET) -j $(JOBS) --target partsim
	@timeout -k 30 900 bash scripts/slurm-test.sh $(PARTSIM)

bench: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS) --target partsim_bench
	@build/release/bench/partsim_bench --benchmark_counters_tabular=true $(BENCH_ARGS)

fuzz:
	@FUZZ_SECONDS=$(or $(FUZZ_SECONDS),60) bash scripts/fuzz.sh

golden: build
	@bash scripts/golden.sh $(PARTSIM)

# scenarios/reference.yaml and docs/scenario-fields.md from the field tables (a test checks them)
reference: configure
	@cmake --build --preset $(PRESET) -j $(JOBS) --target reference

# The sources in the style of .clang-format (clang-format 14, Debian 12's); CI fails on a
# file format-check lists.
format:
	@bash scripts/install-deps.sh format
	@bash scripts/format.sh

format-check:
	@bash scripts/install-deps.sh format
	@bash scripts/format.sh --check

clean:
	rm -rf build
