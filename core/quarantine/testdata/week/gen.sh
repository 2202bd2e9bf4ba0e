#!/bin/bash
# Regenerate the week of nightly reports under nights/ from the planted
# suite shop/ (its rates per night are in shop/shop.go). Night 0, 2026-11-20,
# is the measurement that opened the quarantine (-count=60); nights 1 to 7,
# 2026-11-23 to 2026-11-29, run every test 20 times (-count=20). The tools:
#
#   go test -json   the Go toolchain in PATH (the README names the version)
#   gotestsum       gotest.tools/gotestsum@v1.13.0 --junitfile (JUnit XML)
#
# From night 3 TestInventory is renamed TestStock; from night 5 TestCart is
# deleted. Outcomes are fixed by the night; times in the files vary.
#
# Each report gets a .expect file: per test, passes and trials counted from
# the plain `go test -v` text of the same night ("--- PASS" and "--- FAIL"
# lines), so the tests' expectations do not come from the report readers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export GOTOOLCHAIN=local GOFLAGS=-mod=mod
gotestsum=${GOTESTSUM:-gotestsum}
out=$here/nights
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
rm -f "$out"/*

dates=(2026-11-20 2026-11-23 2026-11-24 2026-11-25 2026-11-26 2026-11-27 2026-11-28 2026-11-29)
formats=(junit json junit junit json junit junit json)
for night in 0 1 2 3 4 5 6 7; do
  rm -rf "$tmp/shop"
  cp -r "$here/shop" "$tmp/shop"
  cd "$tmp/shop"
  if [ "$night" -ge 3 ]; then sed -i 's/func TestInventory(/func TestStock(/' inventory_test.go; fi
  if [ "$night" -ge 5 ]; then rm cart_test.go; fi
  count=20
  if [ "$night" -eq 0 ]; then count=60; fi
  base=$out/${dates[$night]}
  export SHOP_NIGHT=$night
  if [ "${formats[$night]}" = json ]; then
    go test -json -count=$count . >"$base.json" || true
  else
    "$gotestsum" --format=none --junitfile "$base.xml" -- -count=$count . >/dev/null 2>&1 || true
  fi
  go test -v -count=$count . | awk '/^ *--- (PASS|FAIL): /{t=$3; n[t]++; if ($2=="PASS:") p[t]+=1; else p[t]+=0}
       END{for (t in n) printf "example.com/shop.%s\t%d\t%d\n", t, p[t], n[t]}' | sort >"$base.expect" || true
done
go version >"$out/go-version.txt"
"$gotestsum" --version >"$out/gotestsum-version.txt"
