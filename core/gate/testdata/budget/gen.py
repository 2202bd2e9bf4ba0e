#!/usr/bin/env python3
"""Generate budget goldens with the functions of the reference listing
/work/shared/reference/flake_budget.py (runs_for, power, wilson).

wilson is called with z = 1.959963984540054 (core.Z(0.95)) instead of the
listing's default 1.96, so that the observed interval is the same formula
with the same constant. power is the listing's 1-(1-p)**k; core computes
-expm1(k*log1p(-p)). The two agree to a few ulps of 1, so powers and gains
are compared absolutely (1e-12), not relatively.

  python3 core/testdata/budget/gen.py /work/shared/reference
"""
import json
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "/work/shared/reference")
import flake_budget as fb  # noqa: E402

Z95 = 1.959963984540054
OUT = __file__.rsplit("/", 1)[0]

CASES = [
    {"name": "budget_table", "target": 0.95, "cost": 8.0, "cap": 3, "rates": [0.05, 0.02, 0.01, 0.005, 0.001]},
    {"name": "budget_observe", "target": 0.95, "cost": 8.0, "cap": 3, "observe": [1, 120], "rates": []},
    {"name": "budget_history", "target": 0.95, "cost": None, "cap": 3, "observe": [4, 120], "rates": [0.0333]},
    {"name": "edges", "target": 0.95, "cost": 90.0, "cap": 10, "rates": [1.0, 0.9, 0.5, 0.3, 0.26, 0.25, 0.0001]},
    {"name": "target80", "target": 0.8, "cost": 1.5, "cap": 5, "observe": [0, 10], "rates": [0.2, 0.1, 0.03]},
    {"name": "target99", "target": 0.99, "cost": 0.25, "cap": 0, "observe": [7, 7], "rates": [0.4, 0.01]},
]

out = []
for c in CASES:
    rows = []
    obs = None
    if "observe" in c:
        f, n = c["observe"]
        lo, hi = fb.wilson(f, n, Z95)
        obs = {"fails": f, "runs": n, "rate": f / n, "lower": lo, "upper": hi}
        rows.append(hi)
    rows += c["rates"]
    expect = []
    for p in rows:
        k = fb.runs_for(p, c["target"])
        if k < 0:
            expect.append({"rate": p, "reruns": None})
            continue
        before = fb.power(p, k - 1)
        expect.append({"rate": p, "reruns": k, "power": fb.power(p, k), "power_one_short": before,
                       "gain": c["target"] - before, "power_at_cap": fb.power(p, c["cap"]),
                       "seconds": None if c["cost"] is None else k * c["cost"]})
    out.append({"name": c["name"], "input": {"target": c["target"], "cost": c["cost"], "cap": c["cap"],
                                              "rates": c["rates"], "observe": c.get("observe")},
                "observed": obs, "rows": expect})
with open(f"{OUT}/golden.json", "w") as f:
    json.dump(out, f, indent=2)
    f.write("\n")
