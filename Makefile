# flakegate: `make run` to try it, `make test` to check everything.
# Each mk/*.mk adds its targets and appends what the tests need to TEST_DEPS.
SHELL := /bin/bash
GO ?= go
export GOTOOLCHAIN := local
export GOFLAGS := -mod=mod
TEST_DEPS :=

include $(sort $(wildcard mk/*.mk))

.PHONY: test vet gotest goapptest wasmtest fmtcheck cli

## test: vet, every Go test natively, and the core's tests again in WebAssembly
test: $(TEST_DEPS)
	$(MAKE) fmtcheck vet
	$(MAKE) gotest
	$(MAKE) wasmtest

fmtcheck:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi

vet:
	$(GO) vet ./...

gotest:
	$(GO) test -count=1 ./...
	$(MAKE) goapptest

# The go-app the calculator is built with (third_party/go-app, its own
# module): upstream's tests and ours, natively, and a vet of the wasm build.
# Upstream's browser-only tests (they need a DOM and call t.Skip outside
# one) are left out by name, in two runs because one of them is a subtest;
# the end-to-end tests in ./site run that code (the page URL, local storage
# at start-up) in Chromium.
GOAPP_BROWSER_ONLY := TestClientLog|TestBrowserPage|TestJSLocalStorage|TestJSSessionStorage|TestStateManagerCleanupExpiredPersistedStates
goapptest:
	cd third_party/go-app && $(GO) vet ./pkg/... && GOOS=js GOARCH=wasm $(GO) vet ./pkg/app && \
		$(GO) test -count=1 -skip '^($(GOAPP_BROWSER_ONLY)|TestStateManagerSet)$$' ./pkg/... && \
		$(GO) test -count=1 -run '^TestStateManagerSet$$' -skip '^TestStateManagerSet$$/^set_state_broadcast_a_value$$' ./pkg/app

# The same core tests under GOOS=js GOARCH=wasm with Node, so the numbers are
# proven identical in WebAssembly.
wasmtest:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" ./core/...

## cli: build the command-line gate into bin/
cli:
	$(GO) build -trimpath -o bin/flakegate ./cmd/flakegate
