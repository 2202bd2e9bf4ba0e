# Report readers (core/report): the 100 MB reading benchmark, and the
# warehouse SQL of docs/WAREHOUSE.md checked with DuckDB.
.PHONY: bench-reports warehousetest tools-warehouse
## bench-reports: read generated 100 MB reports of each big format; print MB/s and peak memory
bench-reports:
	$(GO) run ./bench/reports -mb 100
	$(GO) test ./core/report -run '^$$' -bench ReadPeakMemory -benchtime 1x

# DuckDB's Go driver is cgo with a static library: a C++ toolchain builds
# the test, in its own module (docs/warehouse/check) so the driver stays
# out of flakegate's go.mod.
tools-warehouse:
	@if ! command -v g++ >/dev/null 2>&1; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends g++; \
	fi

## warehousetest: the DuckDB check that warehouse counts give the reports' figures
warehousetest: tools-warehouse
	mk/timed.sh warehousetest sh -c 'cd docs/warehouse/check && CGO_ENABLED=1 $(GO) test -count=1 -tags integration ./...'

TEST_DEPS += tools-warehouse
TEST_SUITES += warehousetest
