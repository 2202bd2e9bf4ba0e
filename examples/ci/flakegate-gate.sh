#!/bin/sh
# flakegate-gate.sh: run a Go test suite RUNS times on the baseline and RUNS
# times on the patch with flakegate run (the two interleaved, each run a
# fresh go test -json -count=1 process, every run recorded in a ledger as it
# ends), and let flakegate decide, per test, whether the patch changed the
# pass rate. The exit status is flakegate's:
#   0  the gate passes      1  the gate blocks      2  bad input or usage
#   3  a budget (-max-time, -max-trials in FLAKEGATE_FLAGS) stopped the runs
#
# usage: flakegate-gate.sh BASELINE PATCHED_DIR
#
# BASELINE is the baseline's checkout (a directory), or a git ref of the
# patched checkout's repository (origin/main, a commit), which flakegate run
# checks out in a worktree of its own.
#
# Environment (all optional):
#   RUNS             runs per arm (default 20, flakegate's default minimum of
#                    trials per arm)
#   PACKAGES         packages to test, relative to each checkout (default ./...)
#   GO_TEST_FLAGS    more go test flags, such as -run or -timeout (default -timeout 10m)
#   LEDGER           the trial ledger (default ./flakegate.jsonl); an existing
#                    one is resumed: a job that was cut short runs only what
#                    is missing
#   REPORTS          each run's output: REPORTS/b1/stdout, REPORTS/p1/stdout, ...
#                    (default ./flakegate-reports)
#   FLAKEGATE        the flakegate command (default flakegate)
#   FLAKEGATE_FLAGS  more flags for flakegate run, such as -min-trials 30,
#                    -property passed or -max-time 45m (default none)
#
# Each run sees FLAKEGATE_ARM (baseline or patched) and FLAKEGATE_RUN (b1,
# p1, b2, ...) in its environment. A failing test does not stop the runs:
# its report is the evidence. A package that does not build has no trials in
# that run, so its tests are underpowered and the gate blocks; when no
# package builds, the run is an error of its own, and when every run of an
# arm is one, flakegate exits 2. A broken patch never passes the gate.
set -eu

if [ $# -ne 2 ]; then
	echo "usage: $0 BASELINE PATCHED_DIR" >&2
	exit 2
fi
baseline=$1
patched=$2
RUNS=${RUNS:-20}
PACKAGES=${PACKAGES:-./...}
GO_TEST_FLAGS=${GO_TEST_FLAGS:--timeout 10m}
LEDGER=${LEDGER:-./flakegate.jsonl}
REPORTS=${REPORTS:-./flakegate-reports}
FLAKEGATE=${FLAKEGATE:-flakegate}
FLAKEGATE_FLAGS=${FLAKEGATE_FLAGS:-}

case $RUNS in
'' | *[!0-9]*)
	echo "$0: RUNS must be a whole number, got '$RUNS'" >&2
	exit 2
	;;
esac

# The ledger and the reports stay where they were named, whatever the
# directory the runs start from.
mkdir -p "$REPORTS" "$(dirname "$LEDGER")"
REPORTS=$(cd "$REPORTS" && pwd)
LEDGER=$(cd "$(dirname "$LEDGER")" && pwd)/$(basename "$LEDGER")

if [ -d "$baseline" ]; then
	set -- -baseline-dir "$baseline" -patched-dir "$patched"
else
	# A ref: its worktree stands in for the baseline checkout.
	cd "$patched"
	set -- -baseline-ref "$baseline"
fi
# shellcheck disable=SC2086 # the flags and packages are word lists
exec "$FLAKEGATE" run -n "$RUNS" -ledger "$LEDGER" -keep "$REPORTS" "$@" $FLAKEGATE_FLAGS \
	-- go test -json -count=1 $GO_TEST_FLAGS $PACKAGES
