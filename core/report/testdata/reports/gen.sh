#!/bin/bash
# Regenerate the real-tool report samples under core/testdata/reports from the
# seeded suites beside this script. Outcomes are fixed by the seeds; times,
# hostnames and paths in the files vary from one generation to the next.
#
#   go test -json      Go (the toolchain in PATH), suite flaky/
#   gotestsum          gotest.tools/gotestsum@v1.13.0 --junitfile, suite flaky/
#   pytest --junitxml  Debian bookworm python3-pytest 7.2.1 and
#                      python3-pytest-rerunfailures, suite pyflaky/
#
# Each go test -json sample gets a .expect file: per test, passes and trials
# counted from the plain `go test -v` text of the same seeds ("--- PASS" and
# "--- FAIL" lines), so the expectation does not come from test2json.
# The Surefire, Jest and Playwright samples in junit/ are written by hand to
# those tools' schemas; each names its source in a comment.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export GOTOOLCHAIN=local GOFLAGS=-mod=mod
out=$here/gotest
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$here/flaky" "$tmp/flaky"
cd "$tmp/flaky"

expect() { # expect NAME [DIR]: passes and trials per test from go test -v output
  awk '/^ *--- (PASS|FAIL): /{t=$3; n[t]++; if ($2=="PASS:") p[t]+=1; else p[t]+=0}
       END{for (t in n) printf "example.com/flaky.%s\t%d\t%d\n", t, p[t], n[t]}' | sort >"${2:-$out}/$1.expect"
}

FLAKY_SEED=1 go test -json -count=5 -run 'TestStable|TestFlaky|TestTable|TestSkipped' . >"$out/count5.json" || true
FLAKY_SEED=1 go test -v -count=5 -run 'TestStable|TestFlaky|TestTable|TestSkipped' . | expect count5 || true
FLAKY_SEED=2 FLAKY_RUN=a go test -json -count=1 . >"$out/seed2.json" || true
FLAKY_SEED=2 FLAKY_RUN=a go test -v -count=1 . | expect seed2 || true
FLAKY_SEED=3 FLAKY_PANIC=1 go test -json -count=1 . >"$out/panic.json" || true
FLAKY_SEED=3 FLAKY_HANG=1 go test -json -count=1 -timeout 2s . >"$out/timeout.json" || true
printf 'package flaky\n\nfunc broken() int { return "x" }\n' >broken.go
go test -json -count=1 . >"$out/buildfail.json" 2>/dev/null || true
rm broken.go
printf 'package flaky\n\nimport "testing"\n\nfunc TestMain(m *testing.M) { panic("no tests today") }\n' >main_test.go
go test -json -count=1 . >"$out/mainfail.json" 2>/dev/null || true
rm main_test.go

# gotestsum: -count=3 gives three testcases of each test in one file.
FLAKY_SEED=4 "${GOTESTSUM:-gotestsum}" --format=none --junitfile "$here/junit/gotestsum_count3.xml" -- -count=3 -run 'TestStable|TestFlaky|TestTable|TestSkipped' . || true
FLAKY_SEED=4 go test -v -count=3 -run 'TestStable|TestFlaky|TestTable|TestSkipped' . | expect gotestsum_count3 "$here/junit" || true

cp -r "$here/pyflaky" "$tmp/pyflaky"
cd "$tmp/pyflaky"
FLAKY_SEED=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider --junitxml="$here/junit/pytest.xml" test_flaky.py >/dev/null || true
FLAKY_SEED=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider --reruns 2 --junitxml="$here/junit/pytest_reruns.xml" test_flaky.py >/dev/null || true
