"""Make the A/A golden cases: seeded CSVs and, for each, the figures the
reference aa_check.py computes from it (../shared/reference/aa_check.py, seed
004), written as <case>.golden.json in the shape of core.AAResult without its
warnings. Run from anywhere:

    python3 core/testdata/aa/gen.py [path/to/aa_check.py]

The reference's own load() reads every CSV it can read. Variants it cannot
read (a byte order mark, true/false) are written beside a plain twin and take
the twin's figures; the Go test checks that both read to the same tallies.
"""
import importlib.util
import json
import math
import os
import random
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REF = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../../../shared/reference/aa_check.py")

spec = importlib.util.spec_from_file_location("aa_check", REF)
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)
Z_ALARM, Z_POWER = ref.Z_ALARM, ref.Z_POWER
KS, DROPS = (1, 2, 4, 8), (0.02, 0.03, 0.05)


def figures(base_path, cand_path=None):
    """The numbers aa_check.main() prints, unrounded, operation for operation."""
    base, rates = ref.load(base_path)
    n = len(base)
    assert all(len(r) >= 2 for r in base.values())
    v = statistics.fmean(len(r) / (len(r) - 1) * statistics.fmean(r) * (1 - statistics.fmean(r)) for r in base.values())
    s_formula = math.sqrt(2 * v / n)
    s_runs = math.sqrt(2) * statistics.stdev(rates) if len(rates) >= 3 else 0.0
    s = max(s_formula, s_runs)
    mixed = sum(0 < sum(r) < len(r) for r in base.values())
    # by_run keys in first-appearance order, as load() builds rates
    run_ids = []
    import csv
    with open(base_path, newline="") as f:
        seen = set()
        for row in csv.DictReader(f):
            if row["run"] not in seen:
                seen.add(row["run"])
                run_ids.append(row["run"])
    out = {
        "scenarios": n,
        "runs": len(rates),
        "rows": sum(len(r) for r in base.values()),
        "mixed": mixed,
        "v": v,
        "noise": {"formula": s_formula, "measured": s_runs if len(rates) >= 3 else None, "s": s},
        "thresholds": [{"runs_per_side": k, "drop": Z_ALARM * s / math.sqrt(k)} for k in (KS if s else ())],
        "runs_needed": [{"drop": d, "runs_per_side": math.ceil(((Z_ALARM + Z_POWER) * s / d) ** 2)}
                        for d in (DROPS if s else ())],
        "trend": None,
        "run_rates": [{"run": r, "rate": x} for r, x in zip(run_ids, rates)],
        "candidate": None,
    }
    if s and len(rates) >= 3:
        t = Z_ALARM * s
        early = sum(rates[j] - rates[i] < -t for i in range(len(rates)) for j in range(i + 1, len(rates)))
        late = sum(rates[i] - rates[j] < -t for i in range(len(rates)) for j in range(i + 1, len(rates)))
        m = len(rates) * (len(rates) - 1) // 2
        out["trend"] = {"pairs": m, "fired_earlier_baseline": early, "fired_later_baseline": late}
    if cand_path:
        cand, crates = ref.load(cand_path)
        common = sorted(set(base) & set(cand))
        drop = {x: statistics.fmean(cand[x]) - statistics.fmean(base[x]) for x in common}
        diff = statistics.fmean(drop.values())
        threshold = Z_ALARM * s / math.sqrt(2) * math.sqrt(1 / len(rates) + 1 / len(crates))
        verdict = "regression" if diff < -threshold else "no-regression"
        out["candidate"] = {
            "runs": len(crates),
            "scenarios": len(common),
            "diff": diff,
            "threshold": threshold,
            "verdict": verdict,
            "blocks": verdict == "regression",
            "largest_drops": [{"scenario": x, "diff": drop[x]} for x in sorted(common, key=drop.get)[:8]],
        }
    return out


def write_csv(name, rows, header=("scenario", "run", "passed"), newline="\n"):
    with open(os.path.join(HERE, name), "w", newline="") as f:
        f.write(",".join(header) + newline)
        for r in rows:
            f.write(",".join(str(x) for x in r) + newline)


def runs_of(rng, qs, runs, run_name=lambda j: f"run{j + 1:02d}", shuffle=True, drift=None):
    """Rows of `runs` runs over scenarios {id: q}; each run in a new order."""
    rows = []
    ids = list(qs)
    for j in range(runs):
        order = ids[:]
        if shuffle:
            rng.shuffle(order)
        for sid in order:
            q = qs[sid] if drift is None else drift(sid, j)
            rows.append((sid, run_name(j), int(rng.random() < q)))
    return rows


def seed_shape(rng):
    # The published A/A suite (docs/STATISTICS.md): 200 scenarios, 20 runs; 158 always pass, 14 always
    # fail, 28 go both ways, and the flaky ones drift down over the runs.
    qs = {}
    for i in range(200):
        sid = f"bfcl_{i:03d}"
        qs[sid] = 1.0 if i < 158 else 0.0 if i < 172 else rng.uniform(0.55, 0.97)
    flaky = [s for s in qs if 0 < qs[s] < 1]

    def drift(sid, j):
        q = qs[sid]
        return q if q in (0.0, 1.0) else min(0.97, max(0.05, q + 0.02 * (9.5 - j)))
    rows = runs_of(rng, qs, 20, drift=drift)
    # make sure every flaky scenario goes both ways, as in the seed
    by = {}
    for k, (sid, run, p) in enumerate(rows):
        by.setdefault(sid, []).append(k)
    for sid in flaky:
        ks = by[sid]
        vals = {rows[k][2] for k in ks}
        if vals == {1}:
            k = ks[0]
            rows[k] = (rows[k][0], rows[k][1], 0)
        elif vals == {0}:
            k = ks[0]
            rows[k] = (rows[k][0], rows[k][1], 1)
    write_csv("seed_shape.csv", rows)
    # a candidate that breaks 6 stable scenarios half the time, 4 runs
    cq = dict(qs)
    for sid in list(qs)[:6]:
        cq[sid] = 0.5
    write_csv("seed_shape_cand.csv", runs_of(rng, cq, 4, run_name=lambda j: f"cand{j + 1}"))


def main():
    rng = random.Random(4004)
    seed_shape(rng)
    cases = [("seed_shape", "seed_shape.csv", "seed_shape_cand.csv")]

    qs = {f"t{i}": rng.choice([1.0, 1.0, 0.0, 0.5, 0.8]) for i in range(30)}
    write_csv("two_runs.csv", runs_of(rng, qs, 2))
    cases.append(("two_runs", "two_runs.csv", None))

    qs = {f"t{i}": rng.choice([1.0, 0.9, 0.6, 0.2]) for i in range(25)}
    write_csv("three_runs.csv", runs_of(rng, qs, 3))
    cases.append(("three_runs", "three_runs.csv", None))

    # no noise at all; the candidate loses one scenario in one of its 2 runs
    qs = {f"z{i}": float(i % 3 != 0) for i in range(10)}
    write_csv("zero_noise.csv", runs_of(rng, qs, 5))
    cq = dict(qs)
    cq["z1"] = 0.0
    write_csv("zero_noise_cand.csv", [r if r[0] != "z1" or r[1] != "c1" else (r[0], r[1], 0)
                                      for r in runs_of(rng, qs, 2, run_name=lambda j: f"c{j}")])
    cases.append(("zero_noise", "zero_noise.csv", "zero_noise_cand.csv"))

    # a candidate with a real drop, scenarios on one side only, tied drops,
    # ids whose sort order is not their order of appearance
    ids = [f"case-{c}" for c in "qwertyuiopasdfghjklzxcvbnm"] + [f"k{i}" for i in range(74)]
    qs = {sid: rng.choice([1.0, 1.0, 1.0, 0.95, 0.7, 0.4, 0.0]) for sid in ids}
    base_ids = {s: qs[s] for s in ids[:95]}
    write_csv("cand_drop.csv", runs_of(rng, base_ids, 10))
    cq = {s: qs[s] for s in ids[3:]}
    for sid in ids[10:22]:
        cq[sid] = max(0.0, cq[sid] - 0.5)
    cq.update({"new-a": 1.0, "new-b": 0.5})
    write_csv("cand_drop_cand.csv", runs_of(rng, cq, 5, run_name=lambda j: f"c{j}"))
    cases.append(("cand_drop", "cand_drop.csv", "cand_drop_cand.csv"))

    # duplicate rows, scenarios missing from some runs, runs interleaved
    qs = {f"d{i:02d}": rng.choice([1.0, 0.5, 0.9]) for i in range(40)}
    rows = []
    for sid in qs:
        for j in range(6):
            if rng.random() < 0.1 and j > 1:
                continue  # this run skipped the scenario
            rows.append((sid, f"r{j}", int(rng.random() < qs[sid])))
            if rng.random() < 0.05:
                rows.append((sid, f"r{j}", int(rng.random() < qs[sid])))  # a duplicate
    write_csv("duplicates.csv", rows)
    cases.append(("duplicates", "duplicates.csv", None))

    # many runs: exercises the O(R log R) trend count against the reference's pairs
    qs = {f"m{i}": rng.choice([1.0, 0.97, 0.9, 0.8, 0.5]) for i in range(30)}
    write_csv("many_runs.csv", runs_of(rng, qs, 150, run_name=lambda j: str(1000 + j), shuffle=False))
    cases.append(("many_runs", "many_runs.csv", None))

    # RFC 4180: quoted ids with commas, doubled quotes and a line break,
    # CRLF, extra columns, another column order. Python's csv reads it too.
    qs = {'plain': 0.9, 'with, comma': 0.6, 'say "hi"': 0.5, 'two\nlines': 0.8, 'ünï': 1.0, ' spaced ': 0.3}
    rows = runs_of(rng, qs, 4)

    def q(x):
        x = str(x)
        return '"' + x.replace('"', '""') + '"' if any(c in x for c in ',"\n\r') or rng.random() < 0.3 else x
    with open(os.path.join(HERE, "quoted_crlf.csv"), "w", newline="", encoding="utf-8") as f:
        f.write('note,passed,"run",scenario,extra\r\n')
        for sid, run, p in rows:
            f.write(",".join([q("n, o"), q(p), q(run), q(sid), ""]) + "\r\n")
    cases.append(("quoted_crlf", "quoted_crlf.csv", None))

    # a twin that Python cannot read: BOM, true/false in any case, blank lines
    # and spaces around passed. Its figures are those of bom_plain.csv.
    qs = {f"b{i}": rng.choice([1.0, 0.7, 0.3]) for i in range(12)}
    rows = runs_of(rng, qs, 5)
    write_csv("bom_plain.csv", rows)
    words = {0: ["false", "FALSE", "False", " 0"], 1: ["true", "TRUE", "True", "1 "]}
    with open(os.path.join(HERE, "bom_words.csv"), "w", newline="", encoding="utf-8") as f:
        f.write("\ufeffScenario, Run ,PASSED\r\n\r\n")
        for k, (sid, run, p) in enumerate(rows):
            f.write(f"{sid},{run},{rng.choice(words[p])}\n")
            if k % 17 == 0:
                f.write("\n  \n")
    cases.append(("bom_plain", "bom_plain.csv", None))

    for name, b, c in cases:
        fig = figures(os.path.join(HERE, b), os.path.join(HERE, c) if c else None)
        fig = {"case": name, "baseline": b, "candidate_csv": c, "figures": fig}
        with open(os.path.join(HERE, name + ".golden.json"), "w") as f:
            json.dump(fig, f, indent=1, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
