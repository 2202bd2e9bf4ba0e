#!/usr/bin/python3
"""Writes lm-evaluation-harness --log_samples files BY HAND (lm-eval cannot be installed here: no PyPI), in the
shape lm_eval/evaluator.py writes per sample (doc_id, doc, target, arguments, resps, filtered_resps, filter,
metrics, doc_hash, prompt_hash, target_hash, then each metric's value at top level) and
lm_eval/loggers/evaluation_tracker.py's file name samples_<task>_<date>.jsonl, checked against real files.
Task "arith_gen": 6 docs, metric exact_match, two filters ("strict-match", "flexible-extract") as gsm8k has, so
each doc has two lines. repeats: 1. Two runs. Outcomes from a fixed table; counts printed."""
import json, hashlib
def h(s): return hashlib.sha256(s.encode()).hexdigest()
def ok(run, doc, flt):
    # doc 0 right; 1 wrong; 2 flaky (wrong in run 1 strict); 3 right except run 2; 4, 5 right only when flexible
    if doc == 0: return 1
    if doc == 1: return 0
    if doc == 2: return 0 if (run, flt) == (1, 'strict-match') else 1
    if doc == 3: return 0 if run == 2 else 1
    return 1 if flt == 'flexible-extract' else 0
names = {1: 'samples_arith_gen_2026-12-01T10-00-00.000001.jsonl', 2: 'samples_arith_gen_2026-12-02T10-00-00.000001.jsonl'}
for run in (1, 2):
    lines = []
    for doc in range(6):
        q = f"Question: What is {doc} times 3?\nAnswer:"
        target = str(doc * 3)
        for flt in ('strict-match', 'flexible-extract'):
            v = ok(run, doc, flt)
            resp = f"The answer is {target}." if v else f"The answer is {doc * 3 + 1}."
            row = {"doc_id": doc, "doc": {"question": f"What is {doc} times 3?", "answer": f"#### {target}"},
                   "target": target,
                   "arguments": {"gen_args_0": {"arg_0": q, "arg_1": {"until": ["Question:", "\n\n"], "do_sample": False, "temperature": 0.0}}},
                   "resps": [[resp]], "filtered_resps": [target if v else str(doc * 3 + 1)],
                   "filter": flt, "metrics": ["exact_match"],
                   "doc_hash": h(q + str(doc)), "prompt_hash": h(q), "target_hash": h(target),
                   "exact_match": float(v)}
            lines.append(json.dumps(row, ensure_ascii=False))
    open(names[run], 'w').write('\n'.join(lines) + '\n')
    for flt in ('strict-match', 'flexible-extract'):
        print(f"{names[run]} filter {flt}: exact_match 1 for {sum(ok(run, d, flt) for d in range(6))} of 6 docs")
