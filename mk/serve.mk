# make run: for now, the CLI on the bundled examples.
.PHONY: run
run: cli
	./bin/flakegate budget -target 0.95 -cost 8 -cap 3 -observe 1/120 0.05 0.02 0.01
	./bin/flakegate decide -baseline 10/20 -patched 17/20
