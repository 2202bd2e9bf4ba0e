#!/usr/bin/env bash
# bench/suite/run.sh [-n RUNS] [-hogs N] [-store FILE] [-logs DIR] [-integration]
#
# flakegate's own suite, run the way its flaky tests show: `.ci/run` (make
# test), or with -integration `make integration` (the integration tests
# alone, their tools and the site first: about two thirds of the time),
# RUNS times (default 10), each on a fresh clone of this repository's
# HEAD at the time the run starts, beside N CPU-bound processes (default 2,
# the load the suite is required to pass under), and each run's integration
# tests (INTEGRATION_JSON, go test -json) appended to the history store FILE
# (default docs/suite/runs.fgs) with `flakegate record`. Then
#
#	flakegate history docs/suite/runs.fgs
#
# names the suite's flaky tests. DIR (default a new folder under /tmp) keeps
# each run's make log and go test -json, and runs.tsv a line per run: its
# number, commit, the run's exit status, wall seconds and the load average
# at its end. A file named stop in DIR ends the series after the current run.
# docs/SUITE.md has the runs recorded so far.
set -uo pipefail
runs=10 hogs=2 store=docs/suite/runs.fgs logs= what=.ci/run job="make test"
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	-hogs) hogs=$2; shift 2 ;;
	-store) store=$2; shift 2 ;;
	-logs) logs=$2; shift 2 ;;
	-integration) what="make integration" job="make integration"; shift ;;
	*) echo "usage: bench/suite/run.sh [-n RUNS] [-hogs N] [-store FILE] [-logs DIR] [-integration]" >&2; exit 2 ;;
	esac
done
repo=$(git rev-parse --show-toplevel) || exit 2
cd "$repo"
case $store in /*) ;; *) store=$repo/$store ;; esac
[ -n "$logs" ] || logs=$(mktemp -d /tmp/flakegate-suite.XXXXXX)
mkdir -p "$logs" "$(dirname "$store")"
GOTOOLCHAIN=local go build -trimpath -o "$logs/flakegate" ./cmd/flakegate || exit 2

pids=()
for _ in $(seq "$hogs"); do
	sh -c 'while :; do :; done' &
	pids+=($!)
done
trap '[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null' EXIT

for n in $(seq -w 1 "$runs"); do
	[ -e "$logs/stop" ] && break
	clone=$(mktemp -d /tmp/flakegate-clone.XXXXXX)
	git clone -q "$repo" "$clone" || exit 2
	rev=$(git -C "$clone" rev-parse --short=12 HEAD)
	id=$(date -u +%Y%m%dT%H%M%SZ)-$n
	start=$(date +%s)
	(cd "$clone" && INTEGRATION_JSON=$logs/run-$n.json $what >"$logs/make-$n.log" 2>&1)
	rc=$?
	printf '%s\t%s\t%d\t%d\t%s\n' "$n" "$rev" "$rc" $(($(date +%s) - start)) "$(cut -d' ' -f1 /proc/loadavg)" >>"$logs/runs.tsv"
	if [ -s "$logs/run-$n.json" ]; then
		"$logs/flakegate" record -store "$store" -commit "$rev" -branch main \
			-job "$job beside $hogs CPU-bound processes" -run-id "$id" "$logs/run-$n.json"
	else
		echo "run $n: $job ended (exit $rc) before the integration tests wrote anything; see $logs/make-$n.log" >&2
	fi
	rm -rf "$clone"
done
echo "logs in $logs; flakegate history $store"
