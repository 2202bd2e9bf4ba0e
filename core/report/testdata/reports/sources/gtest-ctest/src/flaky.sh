#!/bin/sh
# fails on odd attempts: a counter file in the build dir
f=${FLAKY_COUNTER:-./flaky.count}
n=$(cat "$f" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$f"
[ $((n % 2)) -eq 0 ]
