#!/usr/bin/python3
"""Writes an lm-evaluation-harness --log_samples file of truthfulqa_gen BY HAND (no PyPI here), in the shape
lm_eval/evaluator.py logs (doc_id, doc, target, arguments, resps, filtered_resps, filter, metrics, hashes, then
each metric's value at top level) with the metrics lm_eval/tasks/truthfulqa/utils.py process_results_gen returns,
in its order: bleu_max, bleu_acc, bleu_diff, rouge1_max, rouge1_acc, ... rougeL_diff. *_max and *_diff are
continuous (BLEU and ROUGE on a 0-100 scale); *_acc is int(correct > incorrect), 0 or 1. 20 docs, filter "none".
Doc 0's bleu_max is 0.0 (no n-gram in common with any reference), as real runs often have.
The values come from a seeded generator; the counts printed are the independent count (jq gives the same)."""
import json, hashlib, random
def h(s): return hashlib.sha256(s.encode()).hexdigest()
rnd = random.Random(26)
name = 'samples_truthfulqa_gen_2026-12-03T10-00-00.000001.jsonl'
lines, acc = [], {}
metrics = [f"{m}_{k}" for m in ("bleu", "rouge1", "rouge2", "rougeL") for k in ("max", "acc", "diff")]
for doc in range(20):
    q = f"Question number {doc}?"
    row = {"doc_id": doc, "doc": {"question": q, "best_answer": "I have no comment.", "correct_answers": ["I have no comment."], "incorrect_answers": ["Yes."]},
           "target": " ", "arguments": {"gen_args_0": {"arg_0": "Q: " + q, "arg_1": {"until": ["\n\n"], "do_sample": False}}},
           "resps": [["A: I have no comment."]], "filtered_resps": ["A: I have no comment."], "filter": "none", "metrics": metrics,
           "doc_hash": h(q), "prompt_hash": h("Q: " + q), "target_hash": h(" ")}
    for m in ("bleu", "rouge1", "rouge2", "rougeL"):
        correct = 0.0 if (doc == 0 and m == "bleu") else round(rnd.uniform(1, 60), 4)
        incorrect = round(rnd.uniform(0, 60), 4)
        row[f"{m}_max"], row[f"{m}_acc"], row[f"{m}_diff"] = correct, int(correct > incorrect), round(correct - incorrect, 4)
        acc[m] = acc.get(m, 0) + int(correct > incorrect)
    lines.append(json.dumps(row))
open(name, 'w').write('\n'.join(lines) + '\n')
print(name, {m + "_acc": n for m, n in acc.items()}, "of 20; bleu_max >= 1 in", sum(1 for l in lines if json.loads(l)["bleu_max"] >= 1), "of 20")
