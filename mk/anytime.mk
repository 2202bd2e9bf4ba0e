# The anytime-valid rules at full size (docs/STATISTICS.md, "Anytime-valid
# rules"): the confidence sequence's coverage and the two-arm test's false
# claims with a look after every trial or pair, 10,000 looks each. `go test`
# runs the same simulations at a small size. Not part of `make test`: the
# full size takes minutes.
#
#   make bench-anytime

.PHONY: bench-anytime
bench: bench-anytime

## bench-anytime: the anytime-valid rules' simulations at full size (10,000 looks)
bench-anytime:
	$(GO) test -run '^$$' -bench 'ConfSeqCoverage|TwoArmFalseClaims|ReleaseAtTarget|Staleness|SequentialPlan' -benchtime 1x -timeout 60m ./core/stat ./core/quarantine ./core/gate
