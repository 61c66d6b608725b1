# partsim: the README's commands. Each target first installs missing Debian packages.
PRESET ?= release
BUILD_DIR := build/$(PRESET)
JOBS ?= 2
PARTSIM := build/release/partsim

.PHONY: deps configure build run test test-asan bench fuzz golden reference clean

deps:
	@bash scripts/install-deps.sh

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build --preset $(PRESET) -j $(JOBS)

run: build
	@bash scripts/demo.sh $(PARTSIM)

test: build
	@ctest --preset $(PRESET) -j $(JOBS)

test-asan:
	@$(MAKE) --no-print-directory test PRESET=asan

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

clean:
	rm -rf build
