# bench-aa: time seed 004's aa_check.py against flakegate's A/A check on a
# generated 1,000,000-row CSV; prints the speed ratio and peak memory.
.PHONY: bench-aa tools-time
bench-aa: tools-time
	bench/aa/compare.sh

# GNU time reports the peak memory; install it only when missing.
tools-time:
	@[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }
