#!/bin/sh
# flakegate-gate.sh: run a Go test suite RUNS times in each of two checkouts,
# keep every go test -json report, and let flakegate decide, per test, whether
# the patch changed the pass rate. The exit status is flakegate's:
#   0  the gate passes      1  the gate blocks      2  bad input or usage
#
# usage: flakegate-gate.sh BASELINE_DIR PATCHED_DIR
#
# Environment (all optional):
#   RUNS             runs per arm, each a fresh go test process (default 20,
#                    flakegate's default minimum of trials per arm)
#   PACKAGES         packages to test, relative to each checkout (default ./...)
#   GO_TEST_FLAGS    more go test flags, such as -run or -timeout (default -timeout 10m)
#   REPORTS          where the reports go: REPORTS/baseline/run-001.json, ...
#                    (default ./flakegate-reports; emptied first)
#   FLAKEGATE        the flakegate command (default flakegate)
#   FLAKEGATE_FLAGS  more flags for flakegate ledger, such as -min-trials 30
#                    or -property passed (default none)
#
# Each run sees FLAKEGATE_ARM (baseline or patched) and FLAKEGATE_RUN (such as
# patched-007) in its environment. A failing test does not stop the loop: its
# report is the evidence. A package that does not build makes flakegate exit
# 2, so a broken patch never passes the gate.
set -eu

if [ $# -ne 2 ]; then
	echo "usage: $0 BASELINE_DIR PATCHED_DIR" >&2
	exit 2
fi
baseline=$1
patched=$2
RUNS=${RUNS:-20}
PACKAGES=${PACKAGES:-./...}
GO_TEST_FLAGS=${GO_TEST_FLAGS:--timeout 10m}
REPORTS=${REPORTS:-./flakegate-reports}
FLAKEGATE=${FLAKEGATE:-flakegate}
FLAKEGATE_FLAGS=${FLAKEGATE_FLAGS:-}

case $RUNS in
'' | *[!0-9]*)
	echo "$0: RUNS must be a whole number, got '$RUNS'" >&2
	exit 2
	;;
esac

rm -rf "$REPORTS"
mkdir -p "$REPORTS/baseline" "$REPORTS/patched"
REPORTS=$(cd "$REPORTS" && pwd)

for arm in baseline patched; do
	if [ "$arm" = baseline ]; then dir=$baseline; else dir=$patched; fi
	i=1
	while [ "$i" -le "$RUNS" ]; do
		run=$(printf '%s-%03d' "$arm" "$i")
		# go test exits 1 when a test fails; the report says which, so the
		# status is not what decides here.
		# shellcheck disable=SC2086 # the flags and packages are word lists
		(cd "$dir" && FLAKEGATE_ARM=$arm FLAKEGATE_RUN=$run go test -json -count=1 $GO_TEST_FLAGS $PACKAGES) \
			>"$REPORTS/$arm/run-$(printf '%03d' "$i").json" 2>"$REPORTS/$arm/run-$(printf '%03d' "$i").stderr" || true
		i=$((i + 1))
	done
	echo "$arm: $RUNS runs in $REPORTS/$arm" >&2
done

set --
for f in "$REPORTS"/baseline/*.json; do set -- "$@" -baseline "$f"; done
for f in "$REPORTS"/patched/*.json; do set -- "$@" -patched "$f"; done
# shellcheck disable=SC2086 # FLAKEGATE_FLAGS is a word list
exec "$FLAKEGATE" ledger -format gotest $FLAKEGATE_FLAGS "$@"
