# The gate simulator's benchmark: 4,000 sets, 4 shapes, 200
# scenarios, 4 runs per side, natively (budget 1 s) and in WebAssembly under
# Node as a proxy for the browser (budget 3 s). Not part of `make test`:
# timings depend on the machine's load.
#
#   make bench-sim

.PHONY: bench-sim

## bench-sim: time the gate simulator natively and in WebAssembly (bench/sim)
bench-sim:
	$(GO) run ./bench/sim -budget 1s
	GOOS=js GOARCH=wasm $(GO) run -exec="$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" ./bench/sim -budget 3s
