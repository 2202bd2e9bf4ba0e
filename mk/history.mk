# flakegate history's benchmark: 10,000 planted runs of 5,000 tests (50
# million results) as go test -json reports, read by flakegate history and
# by DuckDB running docs/warehouse/duckdb/history.sql on the same files in
# the same session (the peer is cgo: make tools-warehouse installs g++).
# It checks DuckDB's figures equal flakegate's, prints both times, their
# ratio and both peak memories, and fails past 256 MB for flakegate.
.PHONY: bench-history
## bench-history: flakegate history on 10,000 runs x 5,000 tests against DuckDB's history.sql on the same reports
bench-history: tools-warehouse
	$(GO) run ./bench/history -runs 10000 -tests 5000

bench: bench-history
