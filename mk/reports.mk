# Report readers (core/report): the 100 MB go test -json reading benchmark.
.PHONY: bench-reports
## bench-reports: read a generated 100 MB go test -json stream; print MB/s and peak memory
bench-reports:
	$(GO) run ./bench/reports -mb 100
