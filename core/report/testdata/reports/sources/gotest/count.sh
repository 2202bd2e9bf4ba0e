#!/bin/sh
# count.sh FILE.v.txt: per test, passes and trials from go test -v text ("--- PASS"/"--- FAIL" lines),
# independent of test2json. Output: name<TAB>passed<TAB>trials, sorted; then a total line.
awk '/^=== RUN/{next} /^ *--- (PASS|FAIL): /{t=$3; n[t]++; if ($2=="PASS:") p[t]+=1; else p[t]+=0}
     END{for (t in n) {printf "%s\t%d\t%d\n", t, p[t], n[t]; P+=p[t]; N+=n[t]}; printf "TOTAL\t%d\t%d\n", P, N > "/dev/stderr"}' "$1" | sort
