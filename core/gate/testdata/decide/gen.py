#!/usr/bin/env python3
"""Generate decide goldens with /work/shared/reference/analyze.py's decide,
its wilson's default z set to core.Z(0.95) = 1.959963984540054 (the listing
fixes 1.959963985), over a grid of counts including the seed's examples.

  python3 core/testdata/decide/gen.py /work/shared/reference
"""
import json
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "/work/shared/reference")
import analyze  # noqa: E402

analyze.wilson.__defaults__ = (1.959963984540054,)
OUT = __file__.rsplit("/", 1)[0]

pairs = [(10, 20, 17, 20), (30, 60, 51, 60), (18, 20, 19, 20), (2, 20, 3, 20), (51, 60, 30, 60),
         (0, 0, 0, 0), (5, 19, 19, 19), (0, 20, 20, 20), (20, 20, 0, 20), (100, 400, 130, 400)]
for n0 in (20, 35, 60):
    for n1 in (20, 60):
        for k0 in range(0, n0 + 1, n0 // 4):
            for k1 in range(0, n1 + 1, n1 // 5):
                pairs.append((k0, n0, k1, n1))
out = []
for k0, n0, k1, n1 in pairs:
    v, (lo0, hi0), (lo1, hi1) = analyze.decide(k0, n0, k1, n1)
    out.append({"baseline": [k0, n0], "patched": [k1, n1], "verdict": v,
                "baseline_interval": [lo0, hi0], "patched_interval": [lo1, hi1]})
with open(f"{OUT}/golden.json", "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
