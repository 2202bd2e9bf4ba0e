# bench-aa: time the reference aa_check.py against flakegate's A/A check on a
# generated 1,000,000-row CSV, paired run for run; prints the speed ratio and
# peak memory. With AA_PEER_REF=<commit>, flakegate built from that commit
# runs in the same rounds and the ratio of this build to it is printed too.
#
# bench-aa-api: POST /v1/aa (200 scenarios x 20 runs) on the local server
# against the same server built from AA_API_PEER (by default the last commit
# before the in-depth analyses came on by default), in alternating rounds;
# prints requests per second, the server's CPU time a request, and the
# ratios.
#
# bench: both, and the other benchmarks' targets that add themselves.
AA_API_PEER ?= 5da46e3
.PHONY: bench bench-aa bench-aa-api
bench: bench-aa bench-aa-api

bench-aa:
	bench/aa/compare.sh

bench-aa-api: wrk serve-bin
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	git archive $(AA_API_PEER) | tar -x -C "$$tmp" && \
	(cd "$$tmp" && $(GO) build -trimpath -o "$$tmp/peer-serve" ./cmd/flakegate-serve) && \
	$(GO) run ./bench/api -server ./bin/flakegate-serve -peer "$$tmp/peer-serve" -duration 30s -rounds 6
