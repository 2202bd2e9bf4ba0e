#!/usr/bin/env bash
# Time the reference aa_check.py and flakegate's A/A check on the same
# generated 1,000,000-row CSV (10,000 scenarios × 100 runs), check that they
# print the same figures, and report the speed ratio and each side's peak
# memory (maximum resident set size, from the kernel's resource usage).
#
#   bench/aa/compare.sh [path/to/aa_check.py]
#   AA_PEER_REF=<git commit> bench/aa/compare.sh ...
#
# The runs are paired: each round runs the reference, then flakegate (and,
# with AA_PEER_REF, flakegate built from that commit), so that the load of a
# shared machine falls on all of them alike. Each run is timed by
# `aabench time` (wall and CPU time to the microsecond; GNU time's hundredths
# would be ±20% of flakegate's CPU). Needs go and python3, and git with
# AA_PEER_REF. Writes only to a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The reference listing sits beside the repository: ../shared from the main
# checkout, and beside the main checkout from a git worktree of it.
REF=${1:-../shared/reference/aa_check.py}
if [ $# -eq 0 ] && [ ! -f "$REF" ]; then
	common=$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
	[ -z "$common" ] || REF="$common/../../shared/reference/aa_check.py"
fi
[ -f "$REF" ] || { echo "compare.sh: no reference listing at $REF" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -trimpath -o "$tmp/aabench" ./bench/aa/cmd/aabench
"$tmp/aabench" gen >"$tmp/big.csv"
echo "input: $(wc -l <"$tmp/big.csv") lines, $(($(stat -c %s "$tmp/big.csv") / 1000000)) MB"

# one timed run of a command: appends wall seconds, user and system CPU
# seconds and max RSS (kB) to $tmp/<name>.times
timed() { # name cmd...
	local name=$1
	shift
	"$tmp/aabench" time "$tmp/t" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	cat "$tmp/t" >>"$tmp/$name.times"
}
# best wall seconds, best CPU seconds (user+sys) and largest max RSS (kB)
best() { # name
	awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $2 + $3 < c { c = $2 + $3 } $4 > m { m = $4 } END { print w, c, m }' "$tmp/$1.times"
}

peer=
if [ -n "${AA_PEER_REF:-}" ]; then
	mkdir "$tmp/peer"
	git archive "$AA_PEER_REF" | tar -x -C "$tmp/peer"
	(cd "$tmp/peer" && go build -trimpath -o "$tmp/aabench-peer" ./bench/aa/cmd/aabench)
	peer="$tmp/aabench-peer"
fi
: >"$tmp/py.times"
: >"$tmp/go.times"
: >"$tmp/peer.times"
for round in 1 2 3; do
	timed py python3 "$REF" "$tmp/big.csv"
	for _ in 1 2; do
		timed go "$tmp/aabench" run "$tmp/big.csv"
		[ -z "$peer" ] || timed peer "$peer" run "$tmp/big.csv"
	done
done
read -r py_s py_cpu py_kb < <(best py)
read -r go_s go_cpu go_kb < <(best go)
"$tmp/aabench" run -n 10 "$tmp/big.csv" 2>&1 >/dev/null
"$tmp/aabench" run -n 10 -figures all "$tmp/big.csv" 2>&1 >/dev/null

# the same figures: compare what the reference prints with ours, rounded as it rounds
python3 - "$tmp/py.out" "$tmp/go.out" <<'PY'
import json, re, sys
py = open(sys.argv[1]).read()
r = json.load(open(sys.argv[2]))
want = [f"{r['scenarios']} scenarios, {r['runs']} runs, {r['mixed']} scenarios", f"v = {r['v']:.4f}",
        f"formula {100 * r['noise']['formula']:.2f} points", f"using s = {100 * r['noise']['s']:.2f}"]
want += [f"flag only drops larger than {100 * t['drop']:.2f} points" for t in r["thresholds"]]
want += [f"80% of the time: {n['runs_per_side']} run(s)" for n in r["runs_needed"]]
if r["trend"]:
    t = r["trend"]
    want.append(f"fired on {t['fired_earlier_baseline']} of {t['pairs']} pairs with the earlier run as baseline and on {t['fired_later_baseline']} ")
missing = [w for w in want if w not in py]
if missing:
    sys.exit("compare.sh: the reference printed different figures: " + "; ".join(missing))
print("figures: the reference prints the same figures as flakegate")
PY

awk -v ps="$py_s" -v pc="$py_cpu" -v pk="$py_kb" -v gs="$go_s" -v gc="$go_cpu" -v gk="$go_kb" 'BEGIN {
	printf "python3 aa_check.py:  %7.3f s wall, %7.3f s CPU, peak RSS %5.1f MB (best of 3)\n", ps, pc, pk / 1024
	printf "flakegate (aabench):  %7.3f s wall, %7.3f s CPU, peak RSS %5.1f MB (best of 6, whole process)\n", gs, gc, gk / 1024
	printf "speed ratio: %.0fx by wall time, %.0fx by CPU time (goal 60x); Go peak RSS %s 16 MB\n", ps / gs, pc / gc, (gk / 1024 < 16 ? "under" : "OVER")
}'
if [ -n "$peer" ]; then
	read -r pe_s pe_cpu pe_kb < <(best peer)
	cmp -s "$tmp/go.out" "$tmp/peer.out" && same="the same JSON" || same="DIFFERENT JSON"
	awk -v ref="$AA_PEER_REF" -v ps="$py_s" -v pc="$py_cpu" -v es="$pe_s" -v ec="$pe_cpu" -v ek="$pe_kb" -v gs="$go_s" -v gc="$go_cpu" -v same="$same" 'BEGIN {
		printf "flakegate at %s:  %7.3f s wall, %7.3f s CPU, peak RSS %5.1f MB (best of 6, the peer)\n", ref, es, ec, ek / 1024
		printf "peer against the reference: %.0fx by wall time, %.0fx by CPU time; this build against the peer: %.2fx by wall, %.2fx by CPU; %s\n",
			ps / es, pc / ec, es / gs, ec / gc, same
	}'
fi
echo "(load average now: $(cut -d' ' -f1-3 /proc/loadavg); other work on the machine inflates the wall times)"
