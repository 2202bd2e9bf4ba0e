# flakegate: `make run` to try it, `make test` to check everything.
# Each mk/*.mk adds its targets, appends what the tests need (tools, builds)
# to TEST_DEPS and its own test runs to TEST_SUITES.
SHELL := /bin/bash
GO ?= go
export GOTOOLCHAIN := local
export GOFLAGS := -mod=mod
TEST_DEPS :=
TEST_SUITES :=
# When make started (seconds since the epoch), for mk/timed.sh's stage times;
# sub-makes inherit it.
ifndef FLAKEGATE_T0
FLAKEGATE_T0 := $(shell date +%s)
endif
export FLAKEGATE_T0

include $(sort $(wildcard mk/*.mk))

.PHONY: test vet gotest integrationtest goapptest wasmtest fmtcheck cli

# The packages with integration tests: tests that drive Chromium, wrangler,
# the Lambda runtime emulator or wrk carry `//go:build integration`, so
# `go test ./...` passes with Go alone and `make test` runs them with the tag.
# docs/ holds no package of this module (docs/warehouse/check is its own
# module, run by mk/reports.mk's warehousetest). ./site/ comes first: go
# test starts packages in the order given, and the browser tests are the
# longest, so they start at once while the others follow each other
# beside them.
INTEGRATION_FILES = $(shell grep -rlE --include='*_test.go' --exclude-dir=third_party \
	--exclude-dir=node_modules --exclude-dir=dist --exclude-dir=docs '^//go:build .*\<integration\>' .)
INTEGRATION_ALL = $(sort $(dir $(INTEGRATION_FILES)))
INTEGRATION_PKGS = $(filter ./site/,$(INTEGRATION_ALL)) $(filter-out ./site/,$(INTEGRATION_ALL))
# The tests in those files, and only those: a package's other tests pass
# without the tag, and gotest runs them (they were five minutes run twice
# under load: examples/ci's and cmd/flakegate's above all).
INTEGRATION_TESTS = $(shell grep -hoE '^func (Test|Fuzz|Example)[A-Za-z0-9_]*' $(INTEGRATION_FILES) | sed 's/^func //' | sort -u | paste -sd'|' -)

## test: vet, every Go test natively (with Go alone, then the integration tests with their tools), and the core's tests again in WebAssembly and on arm64
# Two lines at once once vet has passed: the integration tests (browser,
# Workers, Lambda; much of their time is spent waiting on a page, a server
# or a throttled network) beside the CPU-bound rest, one after another.
# Every test is written to pass on a busy machine, and this keeps both
# cores working. Output is kept whole per line.
test: $(TEST_DEPS)
	mk/timed.sh "fmtcheck and vet" $(MAKE) fmtcheck vet
	$(MAKE) -j2 --output-sync=line test-integration test-suites

## integration: the integration tests alone, after installing their tools and building the site (INTEGRATION_JSON=file records them)
.PHONY: integration
integration: $(TEST_DEPS)
	$(MAKE) test-integration

.PHONY: test-integration test-suites
test-integration:
	mk/timed.sh integrationtest $(MAKE) integrationtest E2E_SITE=$(abspath $(WEB_OUT))

test-suites:
	mk/timed.sh gotest $(MAKE) gotest
	mk/timed.sh wasmtest $(MAKE) wasmtest
	$(MAKE) $(TEST_SUITES)

fmtcheck:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi

# Both builds: without the tag, and with the integration tests' files; and
# the Worker's WebAssembly build, deployed and with its test hooks.
vet:
	$(GO) vet ./...
	$(GO) vet -tags integration ./...
	GOOS=js GOARCH=wasm $(GO) vet ./functions/workers/...
	GOOS=js GOARCH=wasm $(GO) vet -tags workertest ./functions/workers/

# gotest: every test without the integration tag, as a machine with only Go
# runs them (mk/go-only.sh: PATH holds go, gofmt, sh, bash, git and the
# coreutils; the module is a copy outside this folder; HOME is empty), then
# the forked go-app's.
gotest:
	GO=$(GO) mk/go-only.sh go test -count=1 ./...
	$(MAKE) goapptest

# integrationtest: the packages with integration tests, with the tag and the
# tools `make test` installed first; a missing tool fails the test (each
# looks for its tool before it builds anything) and names the make target
# that installs it.
# E2E_SITE, set by test, is the site its first step built (dist/site), which
# the browser tests read instead of building their own. -parallel 3: the
# browser tests that wait on a throttled network (site, eachLinkAtOnce) load
# three links at once, in three browsers; no other test is marked parallel.
# -p 3: three packages at once (go test's default is one a core). Much of
# their time is spent waiting on a page, a server or a throttled network,
# and two at a time, the packages beside the browser tests' took longer
# one after another than those (on a quiet machine: site 982 s; Workers
# 432 s and examples/ci 425 s with five more). -timeout 45m: the browser
# tests took 16 minutes on a quiet machine and ran past 30 at a load
# average of 24, where the old 30 minutes stopped them.
# INTEGRATION_JSON=file records the run as `go test -json` in file instead
# of printing it, for `flakegate record` and `flakegate history` to find the
# suite's own flaky tests over many runs.
integrationtest:
	FLAKEGATE_E2E_SITE=$(E2E_SITE) $(GO) test -count=1 -timeout 45m -p 3 -parallel 3 -tags integration \
		-run '^($(INTEGRATION_TESTS))$$' $(if $(INTEGRATION_JSON),-json) $(INTEGRATION_PKGS) $(if $(INTEGRATION_JSON),> $(INTEGRATION_JSON))

# The go-app the calculator is built with (third_party/go-app, its own
# module): upstream's tests and ours, natively, and a vet of the wasm build.
# Upstream's browser-only tests (they need a DOM and call t.Skip outside
# one) are left out by name, in two runs because one of them is a subtest;
# the end-to-end tests in ./site and ./wasm run that code (the page URL, local storage
# at start-up) in Chromium.
GOAPP_BROWSER_ONLY := TestClientLog|TestBrowserPage|TestJSLocalStorage|TestJSSessionStorage|TestStateManagerCleanupExpiredPersistedStates
goapptest:
	cd third_party/go-app && $(GO) vet ./pkg/... && GOOS=js GOARCH=wasm $(GO) vet ./pkg/app && \
		$(GO) test -count=1 -skip '^($(GOAPP_BROWSER_ONLY)|TestStateManagerSet)$$' ./pkg/... && \
		$(GO) test -count=1 -run '^TestStateManagerSet$$' -skip '^TestStateManagerSet$$/^set_state_broadcast_a_value$$' ./pkg/app

# The same tests of the core packages and of words under GOOS=js GOARCH=wasm
# with Node, so the numbers (and the words for them) are proven identical in
# WebAssembly; and the Worker's bridge to JavaScript. -short runs the seeded
# simulations at a smaller size: their full size runs natively.
wasmtest:
	@command -v node >/dev/null || { echo "wasmtest: node not found: the WebAssembly tests run under Node 20 (apt-get install nodejs)"; exit 1; }
	GOOS=js GOARCH=wasm $(GO) test -short -count=1 -exec="$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" ./core/... ./internal/words/... ./functions/workers/bridge/

## cli: build the command-line gate into bin/
cli:
	$(GO) build -trimpath -o bin/flakegate ./cmd/flakegate
