# The history store's benchmark (bench/store): 10,000 planted runs of 5,000
# tests recorded into one store, against the same runs' go test -json
# reports in the same session: the store's size, flakegate history from the
# store and from the reports (time, peak memory, the same answer), and one
# append at that size. The first run times every test at 10 ms, as histsim
# writes its reports, and holds the targets (fails past them); the second
# varies each test's time run to run, as real suites do, and shows what
# exact run times cost (docs/STORE.md).
.PHONY: bench-history-store
## bench-history-store: the history store against the same runs' reports: size, history's time and memory, one append
bench-history-store:
	$(GO) run ./bench/store -runs 10000 -tests 5000 -times constant
	$(GO) run ./bench/store -runs 1000 -tests 5000 -times varied

bench-history: bench-history-store
