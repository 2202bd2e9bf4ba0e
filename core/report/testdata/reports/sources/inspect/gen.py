#!/usr/bin/python3
"""Writes inspect_ai eval logs BY HAND (inspect_ai cannot be installed here: no PyPI), in the two formats
inspect_ai's log writer produces (src/inspect_ai/log/_recorders/json.py and eval.py): a .json EvalLog and a
.eval zip (header.json, samples/{id}_epoch_{n}.json, summaries.json, reductions.json, _journal/start.json,
_journal/summaries/1.json). Field layout copied from real logs written by inspect_ai 0.3.x (public fixtures).
Task "arith": 5 samples, epochs 2, scorers "match" (C/I) and "graded" (a number in [0,1]).
A deterministic table decides each (run, sample, epoch) outcome; expected counts are printed."""
import json, zipfile, sys

def outcome(run, sid, epoch):
    # sample 1 always right, 2 always wrong, 3 flaky (wrong in run 1 epoch 1), 4 right except run 2 epoch 2,
    # 5 errors in run 2 epoch 1 (no score)
    if sid == 1: return 'C'
    if sid == 2: return 'I'
    if sid == 3: return 'I' if (run, epoch) == (1, 1) else 'C'
    if sid == 4: return 'I' if (run, epoch) == (2, 2) else 'C'
    if sid == 5: return 'ERR' if (run, epoch) == (2, 1) else 'C'

def graded(run, sid, epoch):
    return {'C': 1.0, 'I': 0.25}.get(outcome(run, sid, epoch), None) if sid != 4 else 0.75

def sample(run, sid, epoch):
    o = outcome(run, sid, epoch)
    target = str(sid * 2)
    answer = target if o == 'C' else str(sid * 2 + 1)
    s = {
      "id": sid, "epoch": epoch, "input": f"What is {sid} + {sid}?", "target": target,
      "messages": [
        {"id": f"m{run}{sid}{epoch}a", "content": f"What is {sid} + {sid}?", "source": "input", "role": "user"},
        {"id": f"m{run}{sid}{epoch}b", "content": answer, "source": "generate", "role": "assistant", "model": "mockllm/model"}],
      "output": {"model": "mockllm/model", "choices": [{"message": {"id": f"m{run}{sid}{epoch}b", "content": answer, "source": "generate", "role": "assistant", "model": "mockllm/model"}, "stop_reason": "stop"}], "usage": {"input_tokens": 12, "output_tokens": 1, "total_tokens": 13}, "time": 0.01},
      "scores": {
        "match": {"value": o, "answer": answer, "explanation": answer},
        "graded": {"value": graded(run, sid, epoch), "explanation": "rubric"}},
      "metadata": {}, "store": {}, "events": [], "model_usage": {"mockllm/model": {"input_tokens": 12, "output_tokens": 1, "total_tokens": 13}},
      "uuid": f"r{run}s{sid}e{epoch}", "attachments": {}}
    if o == 'ERR':
        s["scores"] = None
        s["output"]["choices"] = []
        s["error"] = {"message": "RuntimeError('model timed out')", "traceback": "Traceback (most recent call last): ...", "traceback_ansi": ""}
    return s

def header(run, status='success'):
    return {
      "version": 2, "status": status,
      "eval": {"eval_id": f"ev{run}", "run_id": f"run{run}", "created": f"2026-12-0{run}T10:00:00+00:00", "task": "arith", "task_id": "T1",
               "task_version": 0, "task_file": "arith.py", "task_attribs": {}, "task_args": {},
               "dataset": {"name": "arith", "location": "arith.jsonl", "samples": 5, "sample_ids": [1, 2, 3, 4, 5], "shuffled": False},
               "model": "mockllm/model", "model_args": {}, "config": {"epochs": 2, "epochs_reducer": ["mean"], "fail_on_error": False},
               "packages": {"inspect_ai": "0.3.170"}},
      "plan": {"name": "plan", "steps": [{"solver": "generate", "params": {}}], "config": {}},
      "results": {"total_samples": 10, "completed_samples": 10 if run == 1 else 9,
                  "scores": [{"name": "match", "scorer": "match", "reducer": "mean", "params": {}, "metrics": {"accuracy": {"name": "accuracy", "value": 0.0, "params": {}}}},
                             {"name": "graded", "scorer": "graded", "reducer": "mean", "params": {}, "metrics": {"mean": {"name": "mean", "value": 0.0, "params": {}}}}]},
      "stats": {"started_at": f"2026-12-0{run}T10:00:00+00:00", "completed_at": f"2026-12-0{run}T10:00:05+00:00", "model_usage": {}}}

def reductions(run):
    red = []
    for scorer in ("match", "graded"):
        ss = []
        for sid in range(1, 6):
            vals = []
            for e in (1, 2):
                o = outcome(run, sid, e)
                if o == 'ERR': continue
                vals.append((1.0 if o == 'C' else 0.0) if scorer == 'match' else graded(run, sid, e))
            ss.append({"value": sum(vals) / len(vals), "sample_id": sid})
        red.append({"scorer": scorer, "reducer": "mean", "samples": ss})
    return red

counts = {}
for run in (1, 2):
    samples = [sample(run, sid, e) for sid in range(1, 6) for e in (1, 2)]
    log = header(run); log["samples"] = samples; log["reductions"] = reductions(run)
    with open(f"arith-run{run}.json", "w") as f:
        json.dump(log, f, indent=2)
    with zipfile.ZipFile(f"arith-run{run}.eval", "w", zipfile.ZIP_DEFLATED) as z:
        start = {k: log[k] for k in ("version", "eval", "plan")}
        z.writestr("_journal/start.json", json.dumps(start))
        summaries = [{"id": s["id"], "epoch": s["epoch"], "input": s["input"], "target": s["target"],
                      "scores": s["scores"], "error": (s.get("error") or {}).get("message"),
                      "model_usage": s["model_usage"], "uuid": s["uuid"], "completed": True} for s in samples]
        for s in samples:
            z.writestr(f"samples/{s['id']}_epoch_{s['epoch']}.json", json.dumps(s))
        z.writestr("_journal/summaries/1.json", json.dumps(summaries))
        z.writestr("summaries.json", json.dumps(summaries))
        z.writestr("reductions.json", json.dumps(log["reductions"]))
        z.writestr("header.json", json.dumps(header(run)))
    p = sum(1 for s in samples if s["scores"] and s["scores"]["match"]["value"] == "C")
    t = sum(1 for s in samples if s["scores"])
    g = sum(1 for s in samples if s["scores"] and s["scores"]["graded"]["value"] >= 0.5)
    counts[run] = (p, t, g)
    print(f"run{run}: match C {p} of {t} scored samples ({len(samples)} incl. errors); graded >= 0.5: {g}; graded >= 1: {sum(1 for s in samples if s['scores'] and s['scores']['graded']['value'] >= 1)}")
