#!/usr/bin/env python3
"""Generate the ledger golden files: seeded JSONL ledgers in the seed plugin's
shape, and for each the per-test counts and verdicts of the reference
analyzer (/work/shared/reference/analyze.py: load, rates, decide).

The reference fixes z = 1.959963985; core.Z(0.95) is 1.959963984540054. So
that the goldens can be compared at 1e-12 relative, wilson's default z is set
to core's value before decide runs. Setup and teardown failure counts are not
computed by the reference; they are counted here from the raw rows.

  python3 core/testdata/ledger/gen.py /work/shared/reference
"""
import json
import random
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "/work/shared/reference")
import analyze  # noqa: E402

analyze.wilson.__defaults__ = (1.959963984540054,)
OUT = __file__.rsplit("/", 1)[0]


def row(run, arm, nodeid, when, outcome, ts):
    return json.dumps({"run": run, "arm": arm, "nodeid": nodeid, "when": when,
                       "outcome": outcome, "ts": round(ts, 3)})


def trials(rng, passed, n):
    """n outcomes with exactly `passed` passes, in a seeded shuffled order."""
    out = [True] * passed + [False] * (n - passed)
    rng.shuffle(out)
    return out


def seed_shape(rng, n, kb, kp, tests):
    """The seed's loop: n pytest invocations per arm, run ids b1.. and p1..;
    the flaky test passes exactly kb then kp times; the property test always."""
    lines, ts = [], 1700000000.0
    for arm, prefix, k in (("baseline", "b", kb), ("patched", "p", kp)):
        flaky = trials(rng, k, n)
        for i in range(n):
            for t in tests:
                ok = flaky[i] if t.endswith("test_retry_budget") else True
                ts += rng.uniform(0.01, 0.5)
                lines.append(row(f"{prefix}{i + 1}", arm, t, "call", "passed" if ok else "failed", ts))
    return lines


def messy(rng):
    """Setup and teardown failures, reruns inside a run (last one stands),
    blank lines, a skipped call, a test in one arm only, a test with only a
    setup failure, unknown extra fields."""
    lines, ts = [], 1700000000.0
    tests = ["tests/test_db.py::test_pool", "tests/test_db.py::test_tx[sqlite]", "tests/test_db.py::test_tx[pg]"]
    for arm, prefix, rate in (("baseline", "b", 0.6), ("patched", "p", 0.9)):
        for i in range(25):
            run = f"{prefix}{i + 1:02d}"
            for t in tests:
                ts += 0.1
                if t.endswith("[pg]") and rng.random() < 0.15:
                    lines.append(row(run, arm, t, "setup", "failed", ts))
                    continue
                ok = rng.random() < rate
                if not ok and rng.random() < 0.5:  # a rerun plugin: fail, then the rerun's outcome stands
                    lines.append(row(run, arm, t, "call", "failed", ts))
                    ok = rng.random() < rate
                lines.append(row(run, arm, t, "call", "passed" if ok else "failed", ts))
                if t.endswith("test_pool") and rng.random() < 0.1:
                    lines.append(row(run, arm, t, "teardown", "failed", ts))
            if arm == "patched":
                lines.append(row(run, arm, "tests/test_new.py::test_added", "call", "passed", ts))
            if i % 7 == 3:
                lines.append("")
    lines.append(row("b01", "baseline", "tests/test_db.py::test_skipme", "call", "skipped", ts))
    lines.append(row("p01", "patched", "tests/test_db.py::test_broken_fixture", "setup", "failed", ts))
    lines.append(json.dumps({"run": "p02", "arm": "patched", "nodeid": "tests/test_db.py::test_pool",
                             "when": "call", "outcome": "passed", "ts": ts, "worker": "gw1", "extra": [1, {"a": 2}]}))
    return lines


def random_many(rng):
    """Eight tests with random pass rates, 30 baseline and 24 patched runs."""
    lines, ts = [], 1700000000.0
    rates = {f"pkg/t_{j}.py::test_{j}": (rng.uniform(0.3, 1.0), rng.uniform(0.3, 1.0)) for j in range(8)}
    for arm, prefix, n in (("baseline", "base-", 30), ("patched", "patch-", 24)):
        for i in range(n):
            for t, (rb, rp) in rates.items():
                ts += 0.05
                r = rb if arm == "baseline" else rp
                lines.append(row(f"{prefix}{i}", arm, t, "call", "passed" if rng.random() < r else "failed", ts))
    return lines


def golden(path):
    runs = analyze.load(path)
    nodeids = set()
    side = {}
    for line in open(path):
        if not line.strip():
            continue
        r = json.loads(line)
        nodeids.add(r["nodeid"])
        if r["when"] in ("setup", "teardown") and r["outcome"] == "failed":
            s = side.setdefault(r["nodeid"], {a: {"setup": 0, "teardown": 0} for a in ("baseline", "patched")})
            s[r["arm"]][r["when"]] += 1
    tests = []
    for t in sorted(nodeids):
        c = analyze.rates(path, t)
        (k0, n0), (k1, n1) = c["baseline"], c["patched"]
        verdict, (lo0, hi0), (lo1, hi1) = analyze.decide(k0, n0, k1, n1)
        zero = {a: {"setup": 0, "teardown": 0} for a in ("baseline", "patched")}
        tests.append({"nodeid": t, "verdict": verdict,
                      "baseline": {"passed": k0, "trials": n0, "lower": lo0, "upper": hi0},
                      "patched": {"passed": k1, "trials": n1, "lower": lo1, "upper": hi1},
                      "side_failures": side.get(t, zero)})
    return {"runs": {a: sum(1 for (arm, _r) in runs if arm == a) for a in ("baseline", "patched")},
            "tests": tests}


CASES = {
    "seed_60x60": lambda rng: seed_shape(rng, 60, 30, 51, ["tests/test_retry_budget.py::test_retry_budget",
                                                          "tests/test_retry_budget.py::test_attempts_respect_budget"]),
    "seed_20x20": lambda rng: seed_shape(rng, 20, 10, 17, ["tests/test_retry_budget.py::test_retry_budget"]),
    "messy": messy,
    "random_many": random_many,
}

if __name__ == "__main__":
    for i, (name, make) in enumerate(CASES.items()):
        rng = random.Random(1000 + i)
        path = f"{OUT}/{name}.jsonl"
        with open(path, "w") as f:
            f.write("\n".join(make(rng)) + "\n")
        with open(f"{OUT}/{name}.golden.json", "w") as f:
            json.dump(golden(path), f, indent=2, sort_keys=True)
            f.write("\n")
        print(path)
